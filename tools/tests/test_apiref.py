# SPDX-License-Identifier: MIT
"""The API reference's reader (tacet.docsite.apiref) on small headers and on include/tacet/*.h."""

import re
from pathlib import Path

import pytest
from conftest import REPO

from tacet.core.errors import TacetError
from tacet.docsite.apiref import (
    pages,
    parse_header,
    read_headers,
    render_doc,
    render_header,
    targets,
    undocumented,
)

HEADER = """\
/*
 * Widgets: the overview.
 *
 * More about them.
 */
#ifndef W_H
#define W_H

#include "tacet/types.h"

/* A control block. */
typedef struct tc_widget {
  int a; /* not a function */
  void (*fn)(void *arg);
} tc_widget;

typedef void (*tc_widget_fn)(tc_widget *w);

/* Create a widget.
 * Context: thread. */
tc_status tc_widget_create(tc_widget *w,
                           const char *name);

/* Lock and unlock, together. */
void tc_widget_lock(void);
void tc_widget_unlock(void);

#if TC_WIDGETS
/* Under a condition. */
__attribute__((noreturn)) void tc_widget_stop(int code);
#endif

uint32_t tc_widget_count(void); /* on its own line */

static inline int tc_widget_twice(int x) { return x * 2; }

void tc__widget_internal(void);

void tc_widget_forgotten(void);
#endif /* W_H */
"""


def test_the_licence_line_is_not_the_overview() -> None:
    h = parse_header("/* SPDX-License-Identifier: MIT */\n" + HEADER, "widget.h")
    assert h.overview == "Widgets: the overview.\n\nMore about them."


def test_the_real_headers_have_their_overviews() -> None:
    for h in read_headers(REPO / "include" / "tacet"):
        assert h.overview and "SPDX" not in h.overview, h.name
    kernel = next(h for h in read_headers(REPO / "include" / "tacet") if h.name == "kernel.h")
    assert "Interrupt handlers." in kernel.overview


def test_functions_their_declarations_and_their_comments() -> None:
    h = parse_header(HEADER, "widget.h")
    assert h.overview == "Widgets: the overview.\n\nMore about them."
    found = {f.name: f for f in h.functions}
    assert list(found) == [
        "tc_widget_create",
        "tc_widget_lock",
        "tc_widget_unlock",
        "tc_widget_stop",
        "tc_widget_count",
        "tc_widget_twice",
        "tc_widget_forgotten",
    ]
    create = found["tc_widget_create"]
    assert create.declaration == "tc_status tc_widget_create(tc_widget *w, const char *name);"
    assert create.doc == "Create a widget.\nContext: thread."
    assert create.line == 21
    # A run of declarations shares the comment above its first.
    assert found["tc_widget_unlock"].doc == "Lock and unlock, together."
    # Preprocessor lines between the comment and the declaration do not separate them.
    assert found["tc_widget_stop"].doc == "Under a condition."
    assert found["tc_widget_count"].doc == "on its own line"
    assert found["tc_widget_twice"].declaration == "static inline int tc_widget_twice(int x);"
    assert found["tc_widget_twice"].doc == ""


def test_an_undocumented_function_is_named_with_its_line(tmp_path: Path) -> None:
    h = parse_header(HEADER, "widget.h")
    assert undocumented([h]) == [
        "include/tacet/widget.h:35: tc_widget_twice",
        "include/tacet/widget.h:39: tc_widget_forgotten",
    ]
    (tmp_path / "widget.h").write_text(HEADER)
    with pytest.raises(TacetError, match=r"widget.h:39: tc_widget_forgotten"):
        pages(tmp_path)


def test_a_blank_line_ends_a_comment_s_reach() -> None:
    h = parse_header("/* Top. */\n\n/* About a. */\n\nvoid tc_a(void);\n", "a.h")
    assert h.functions[0].doc == ""


def test_bad_headers_are_errors_that_say_where() -> None:
    with pytest.raises(TacetError, match=r"b.h:2: unterminated comment"):
        parse_header("int x;\n/* never ends\n", "b.h")
    with pytest.raises(TacetError, match=r"c.h: unexpected end of file"):
        parse_header("void tc_c(void)\n", "c.h")


def test_prose_cannot_become_html_or_emphasis() -> None:
    text = "Reads `a_b*c` and a <b>tag</b>, *p and __x__ [not](a link)."
    out = render_doc(text)
    assert "`a_b*c`" in out
    assert "&lt;b&gt;" in out
    assert r"\*p" in out
    assert r"\_\_x\_\_" in out
    assert r"\[not\]" in out


def test_text_laid_out_in_columns_stays_as_written() -> None:
    out = render_doc("Macros:\n\n  A_MACRO     what it does\n  B           another")
    assert "```text\n  A_MACRO     what it does\n  B           another\n```" in out


def test_every_public_function_of_include_tacet_is_documented() -> None:
    headers = read_headers(REPO / "include" / "tacet")
    assert undocumented(headers) == []
    for port in sorted(REPO.glob("ports/*/include/tacet")):
        assert undocumented(read_headers(port), prefix=f"{port}/") == []
    names = {f.name for h in headers for f in h.functions}
    # Every tc_ function declared at the start of a line is one the reader found.
    declared = set()
    for path in (REPO / "include" / "tacet").glob("*.h"):
        declared |= set(re.findall(r"^[a-z][\w\s\*]*?\b(tc_[a-z0-9]\w*)\(", path.read_text(), re.M))
    assert declared <= names
    assert {"tc_sem_take", "tc_thread_create", "tc_kernel_start", "tc_sched_unlock"} <= names


def test_the_pages_of_the_site() -> None:
    result = pages(REPO / "include" / "tacet")
    assert "api/index.md" in result
    assert "api/sem.md" in result
    assert "### tc_sem_give" in result["api/sem.md"]
    assert "[`tc_sem_give`](sem.md#tc_sem_give)" in result["api/index.md"]


def test_context_and_returns_begin_paragraphs() -> None:
    out = render_doc("Give one unit.\nContext: any. Does not block.\nReturns TC_OK; TC_FULL.")
    assert out == "Give one unit.\n\nContext: any. Does not block.\n\nReturns TC\\_OK; TC\\_FULL."


def test_port_extras_are_pages_and_are_checked_too(tmp_path: Path) -> None:
    include = tmp_path / "include" / "tacet"
    port = tmp_path / "ports" / "toy" / "include" / "tacet"
    include.mkdir(parents=True)
    port.mkdir(parents=True)
    (include / "a.h").write_text("/* A. */\n\n/* Do a. */\nvoid tc_a(void);\n")
    (port / "toy.h").write_text("/* Toy port extras. */\n\n/* Do b. */\nvoid tc_toy_b(void);\n")
    result = pages(include, [port])
    assert "only in programs built for the toy port" in result["api/toy.md"]
    assert "[toy.h](toy.md) (toy port)" in result["api/index.md"]
    (port / "toy.h").write_text("/* Toy. */\n\nvoid tc_toy_c(void);\n")
    with pytest.raises(TacetError, match=r"ports/toy/include/tacet/toy.h:3: tc_toy_c"):
        pages(include, [port])
    (port / "toy.h").rename(port / "a.h")
    with pytest.raises(TacetError, match=r"two headers named a"):
        pages(include, [port])


GADGET = """\
/* SPDX-License-Identifier: MIT */
/*
 * Gadgets.
 */
#ifndef TACET_GADGET_H
#define TACET_GADGET_H

#include "tacet/types.h"

/* Gadget options (tc_gadget_make()). */
#define TC_GADGET_FAST 0x1u /* go fast */
#define TC_GADGET_SLOW 0x2u /* go slow,
                               across two lines */

/* The most a gadget holds. */
#ifndef TC_GADGET_MAX
#define TC_GADGET_MAX 16
#endif

#define TC_GADGET_MEM(n) ((n) * 8u | 1u)
#define TC__GADGET_OWN 1

/* Gadget states. */
typedef enum {
  TC_GADGET_IDLE = 0, /* doing nothing */
  TC_GADGET_BUSY,     /* in tc_gadget_make(), see
                         TC_GADGET_IDLE */
  TC_GADGET_GONE = 0x10,
  TC_GADGET_AFTER,
} tc_gadget_state;

/* Colours. */
enum {
  TC_RED = TC_GADGET_MAX,
  TC_GREEN,
};

/* A gadget: tc_gadget_make() makes one, of at most TC_GADGET_MAX; never tc_nothing. */
typedef struct tc_gadget {
  int size; /* not the type's comment */
} tc_gadget;

typedef void (*tc_gadget_fn)(tc_gadget *g);

/* Make a gadget of TC_GADGET_MAX at most, in `g` (tc_gadget_make() is this function).
 * Returns TC_OK; TC_INVALID (see `tc_gadget_state` and `tc_nothing`); not TC_NOTHING.
 *
 * Options:
 *   TC_GADGET_FAST   fast
 */
tc_status tc_gadget_make(tc_gadget *g, unsigned options);

#endif /* TACET_GADGET_H */
"""

TYPES = "/* Statuses. */\n\ntypedef enum { TC_OK = 0, TC_INVALID } tc_status;\n"


def test_types_macros_and_constants() -> None:
    h = parse_header(GADGET, "gadget.h")
    # The licence's line is not the overview.
    assert h.overview == "Gadgets."
    assert [t.name for t in h.types] == ["tc_gadget_state", "tc_gadget", "tc_gadget_fn"]
    state, gadget, fn = h.types
    assert gadget.doc.startswith("A gadget: ")  # the comment above, not a field's
    assert gadget.definition == (
        "typedef struct tc_gadget {\n  int size; /* not the type's comment */\n} tc_gadget;"
    )
    assert fn.definition == "typedef void (*tc_gadget_fn)(tc_gadget *g);"
    # An enumeration's constants: each value, as written or counted on from the one before.
    assert [(c.name, c.value, c.doc) for c in state.constants] == [
        ("TC_GADGET_IDLE", "0", "doing nothing"),
        ("TC_GADGET_BUSY", "1", "in tc_gadget_make(), see TC_GADGET_IDLE"),
        ("TC_GADGET_GONE", "0x10", ""),
        ("TC_GADGET_AFTER", "0x11", ""),
    ]
    groups = [(g.doc, [(c.name, c.value, c.doc) for c in g.constants]) for g in h.groups]
    assert groups == [
        ("Gadget options (tc_gadget_make()).", [
            ("TC_GADGET_FAST", "0x1u", "go fast"),
            ("TC_GADGET_SLOW", "0x2u", "go slow, across two lines"),
        ]),
        ("The most a gadget holds.", [("TC_GADGET_MAX", "16", "")]),
        ("", [("TC_GADGET_MEM", "((n) * 8u | 1u)", "")]),  # no comment right above it
        ("Colours.", [("TC_RED", "TC_GADGET_MAX", ""), ("TC_GREEN", "TC_RED + 1", "")]),
    ]  # fmt: skip
    # Only TC_GADGET_MAX is a default a build may set (#ifndef); include guards and TC__
    # names are not the API.
    assert [c.name for g in h.groups for c in g.constants if c.default] == ["TC_GADGET_MAX"]
    assert h.groups[2].constants[0].params == "(n)"
    # The multi-line comment of a #define did not swallow what follows it.
    assert [f.name for f in h.functions] == ["tc_gadget_make"]


def test_names_link_to_their_entries_on_every_page() -> None:
    gadget = parse_header(GADGET, "gadget.h")
    types = parse_header(TYPES, "types.h")
    known = targets([gadget, types])
    assert known["TC_OK"] == ("types", "TC_OK")
    assert known["TC_GADGET_BUSY"] == ("gadget", "TC_GADGET_BUSY")
    assert "TC__GADGET_OWN" not in known and "TACET_GADGET_H" not in known
    page = render_header(gadget, known)
    make = page[page.index("### tc_gadget_make") : page.index("## Types")]
    # A name that exists links: on the same page to its anchor, on another to that page's.
    assert "[`TC_GADGET_MAX`](#TC_GADGET_MAX)" in make
    assert "[`TC_OK`](types.md#TC_OK)" in make
    assert "[`TC_INVALID`](types.md#TC_INVALID)" in make
    # ... in backticks too.
    assert "[`tc_gadget_state`](#tc_gadget_state)" in make
    # A name that does not stays plain text, escaped as before.
    assert "`tc_nothing`" in make and "[`tc_nothing`]" not in make
    assert "not TC\\_NOTHING" in make
    # An entry does not link to itself.
    assert "(tc\\_gadget\\_make() is this function)" in make
    assert "#tc_gadget_make)" not in make
    # Code is left as written: the declaration, and text laid out in columns.
    assert "```c\ntc_status tc_gadget_make(tc_gadget *g, unsigned options);\n```" in make
    assert "```text\nOptions:\n  TC_GADGET_FAST   fast\n```" in make
    # Types, constants and macros are entries with anchors, and link the others.
    assert "### tc_gadget\n" in page
    assert "[`tc_gadget_make()`](#tc_gadget_make)" in page[page.index("### tc_gadget\n") :]
    busy = next(line for line in page.splitlines() if 'id="TC_GADGET_BUSY"' in line)
    assert "[`tc_gadget_make()`](#tc_gadget_make)" in busy
    assert "[`TC_GADGET_IDLE`](#TC_GADGET_IDLE)" in busy
    idle = next(line for line in page.splitlines() if 'id="TC_GADGET_IDLE"' in line)
    assert "](#TC_GADGET_IDLE)" not in idle
    # A '|' in a value or a comment does not split a table's row.
    mem = next(line for line in page.splitlines() if 'id="TC_GADGET_MEM"' in line)
    assert "<code>((n) * 8u &#124; 1u)</code>" in mem
    assert mem.count(" | ") == 1
    assert 'id="TC_GADGET_MAX">TC_GADGET_MAX</code> | <code>16</code> (default) |' in page


def test_the_real_reference_links_across_headers() -> None:
    result = pages(REPO / "include" / "tacet", sorted(REPO.glob("ports/*/include/tacet")))
    sem = result["api/sem.md"]
    assert "[`TC_CALLER_ERROR`](types.md#TC_CALLER_ERROR)" in sem
    assert "[`TC_WAIT_FOREVER`](types.md#TC_WAIT_FOREVER)" in sem
    assert "[`tc_sem_take()`](#tc_sem_take)" in sem  # the overview, on the same page
    assert "### tc_sem\n" in sem
    assert 'id="TC_CALLER_ERROR"' in result["api/types.md"]
    assert 'id="TC_PRIORITIES"' in result["api/config.md"]
    assert "SPDX" not in "".join(result.values())
