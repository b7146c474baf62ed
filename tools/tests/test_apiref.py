# SPDX-License-Identifier: MIT
"""The API reference's reader (tacet.apiref) on small headers and on include/tacet/*.h."""

import re
from pathlib import Path

import pytest
from conftest import REPO

from tacet.apiref import pages, parse_header, read_headers, render_doc, undocumented
from tacet.errors import TacetError

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
