# SPDX-License-Identifier: MIT
"""The API reference of the documentation site, read from the comments of the public headers.

Each public header (include/tacet/*.h) becomes one Markdown page: the header's opening
comment, then its entries, each with its declaration and the comment written above it:

- every public function -- a ``tc_`` name declared or defined inline in the header; ``tc__``
  names are the kernel's and the ports' own. Declarations that follow one another without a
  blank line share the comment above the first (``tc_sched_lock`` / ``tc_sched_unlock``); a
  comment on the declaration's own last line also counts;
- every public type, a ``typedef`` of a ``tc_`` name, shown as it is written (an enumeration
  as the table of its constants);
- every public macro (``#define TC_...``) and enumeration constant (``TC_...``), in tables of
  the runs they are written in, with the comment above the run and each one's own comment.

Every mention of another entry's name in the prose of an entry becomes a link to it, on its
page or another: ``tc_sem_take()``, ``tc_status``, ``TC_WAIT_FOREVER``. The site's build then
checks every one of those links (a broken anchor fails it).

A public function without a comment is an error that names it (``undocumented``): the
documentation build and the tests fail on it.

The reader is a small C scanner, not a compiler: it knows comments, preprocessor lines,
string literals and brace nesting, which is all the headers use. It is fast and needs
nothing installed (Doxygen would).
"""

import html
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from tacet.core.errors import TacetError

PUBLIC_NAME = re.compile(r"^tc_[a-z0-9]")
PUBLIC_MACRO = re.compile(r"^TC_[A-Z0-9]\w*$")
# The identifier right before the parameter list of a declaration.
CALLEE = re.compile(r"([A-Za-z_]\w*)\s*\($")
DEFINE = re.compile(r"#\s*define\s+([A-Za-z_]\w*)(\([^)]*\))?\s*(.*)", re.S)
IFNDEF = re.compile(r"#\s*ifndef\s+([A-Za-z_]\w*)\s*$")
# A name an entry may be known by, in prose: tc_sem_give, tc_sem_give(), TC_WAIT_FOREVER.
MENTION = re.compile(r"\b(tc_[a-z0-9]\w*|TC_[A-Z0-9]\w*)\b(\(\))?(?![\w*])")
LICENCE = re.compile(r"(/\*|//)\s*SPDX-License-Identifier:[^\n]*$")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


@dataclass(frozen=True)
class Function:
    name: str
    declaration: str  # one line, ends with ';'
    doc: str  # the comment's text, decoration removed; "" when there is none
    line: int


@dataclass(frozen=True)
class Constant:
    """A macro or an enumeration constant."""

    name: str  # "TC_WAIT_FOREVER"; a function-like macro's parameters are in `params`
    value: str  # as written, or for an enumeration constant without one, the value it has
    doc: str  # its own comment (on its line), flattened; "" when there is none
    line: int
    params: str = ""  # "(block_size, n)"
    default: bool = False  # defined only when not defined before (#ifndef): a build option


@dataclass(frozen=True)
class Group:
    """A run of macros, or an unnamed enumeration: what the comment above it is about."""

    doc: str
    constants: tuple[Constant, ...]
    line: int


@dataclass(frozen=True)
class Type:
    name: str
    definition: str  # as written in the header
    doc: str
    line: int
    constants: tuple[Constant, ...] = ()  # an enumeration's


@dataclass(frozen=True)
class Header:
    name: str  # "sem.h"
    overview: str
    functions: tuple[Function, ...] = field(default=())
    port: str = ""  # a port's extras ("sim"): only in programs built for that port
    types: tuple[Type, ...] = field(default=())
    groups: tuple[Group, ...] = field(default=())

    @property
    def stem(self) -> str:
        return self.name.removesuffix(".h")


@dataclass
class _Item:
    kind: str  # "comment", "inner" (a comment inside a statement), "statement", "preproc", "blank"
    text: str
    first: int  # first and last line, 1-based
    last: int


def _comment_text(raw: str) -> str:
    """A comment's text: the /* */ or // decoration and the leading ' * ' of lines removed,
    the common indentation removed, blank lines at both ends dropped."""
    if raw.startswith("//"):
        lines = [line.strip()[2:] for line in raw.splitlines()]
    else:
        lines = raw[2:-2].splitlines()
        lines = [re.sub(r"^\s*\*(?!/)", "", line) if i else line for i, line in enumerate(lines)]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    lines = [line.rstrip() for line in lines]
    indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return "\n".join(line[cut:] for line in lines)


def _flat(raw_comments: Iterable[str]) -> str:
    """Comments as one line of prose."""
    return " ".join(" ".join(_comment_text(c).split()) for c in raw_comments).strip()


def _preproc_end(text: str, i: int, line: int, where: str) -> tuple[int, int]:
    """Where the preprocessor line starting at `i` ends (at its newline), and the line number
    there: a backslash continues it, and so does a comment that spans lines."""
    n = len(text)
    while i < n and text[i] != "\n":
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise TacetError(f"{where}:{line}: unterminated comment")
            line += text.count("\n", i, end)
            i = end + 2
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text[i] == "\\" and text.startswith("\n", i + 1):
            line += 1
            i += 2
        elif text[i] in "\"'":
            j = i + 1
            while j < n and text[j] not in (text[i], "\n"):
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    return min(i, n), line


def _scan(text: str, where: str) -> list[_Item]:  # noqa: PLR0912, PLR0915 (one scanner loop)
    """Top-level items of a C header, in order."""
    items: list[_Item] = []
    i, n, line = 0, len(text), 1
    stmt: list[str] = []
    stmt_first = 0
    depth = 0
    at_line_start = True
    inner: list[_Item] = []  # comments inside the statement being read

    def finish(last: int) -> None:
        nonlocal stmt, inner
        body = "".join(stmt).strip()
        if body:
            items.append(_Item("statement", body, stmt_first, last))
            items.extend(inner)
        stmt, inner = [], []

    while i < n:
        c = text[i]
        if c == "\n":
            if at_line_start and not stmt and depth == 0:
                items.append(_Item("blank", "", line, line))
            line += 1
            at_line_start = True
            if stmt:
                stmt.append(" ")
            i += 1
            continue
        if c in " \t\r\f\v":
            if stmt:
                stmt.append(" ")
            i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise TacetError(f"{where}:{line}: unterminated comment")
            raw = text[i : end + 2]
            first = line
            line += raw.count("\n")
            if stmt:
                inner.append(_Item("inner", raw, first, line))
            else:
                items.append(_Item("comment", raw, first, line))
            i = end + 2
            at_line_start = False
            continue
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            raw = text[i:end]
            if stmt:
                inner.append(_Item("inner", raw, line, line))
            else:
                items.append(_Item("comment", raw, line, line))
            i = end
            at_line_start = False
            continue
        if c == "#" and at_line_start and not stmt:
            first = line
            end, line = _preproc_end(text, i, line, where)
            items.append(_Item("preproc", text[i:end], first, line))
            i = end
            at_line_start = False  # its newline ends it: not a blank line
            continue
        at_line_start = False
        if not stmt:
            stmt_first = line
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            stmt.append(text[i : j + 1])
            i = j + 1
            continue
        stmt.append(c)
        i += 1
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth < 0:
                raise TacetError(f"{where}:{line}: '}}' without '{{'")
            # A function body ends its statement; a struct's closing brace does not.
            if depth == 0 and _is_function_body("".join(stmt)):
                finish(line)
        elif c == ";" and depth == 0:
            finish(line)
    if depth or "".join(stmt).strip():
        raise TacetError(f"{where}: unexpected end of file inside a declaration")
    return items


def _is_function_body(stmt: str) -> bool:
    head = stmt[: stmt.find("{")].strip()
    return head.endswith(")") and not head.startswith(("typedef", "struct", "union", "enum"))


def _function_name(statement: str) -> str | None:
    """The name a statement declares or defines as a function, or None."""
    if statement.startswith(("typedef", "struct", "union", "enum")):
        return None
    head = statement.split("{", 1)[0]
    # The first '(' not inside an attribute: the parameter list follows the name.
    head = re.sub(r"__attribute__\s*\(\(.*?\)\)", "", head)
    paren = head.find("(")
    if paren < 0 or "=" in head[:paren]:
        return None
    match = CALLEE.search(head[: paren + 1])
    return match.group(1) if match else None


def _type_name(statement: str) -> str | None:
    """The name a typedef declares, or None for any other statement."""
    if not statement.startswith("typedef"):
        return None
    pointer = re.match(r"typedef[^{(]*\(\s*\*\s*([A-Za-z_]\w*)\s*\)", statement)
    if pointer:  # a function pointer type: typedef int (*name)(...);
        return pointer.group(1)
    tail = statement[statement.rfind("}") + 1 :] if "}" in statement else statement
    names = re.findall(r"[A-Za-z_]\w*", tail.split("[")[0])
    return names[-1] if names else None


def _declaration(statement: str) -> str:
    """One line: a definition's signature, or the declaration, ending with ';'."""
    if "{" in statement and _is_function_body(statement):
        statement = statement[: statement.find("{")].rstrip() + ";"
    return re.sub(r"\s+", " ", statement).replace("( ", "(").replace(" )", ")")


def _int_value(literal: str) -> int | None:
    try:
        return int(literal.rstrip("uUlL"), 0)
    except ValueError:
        return None


def _enum_constants(source: str, first_line: int) -> tuple[Constant, ...]:
    """The constants of the enumeration written in `source` (from its line `first_line`),
    each with the comments that follow it up to the next, and its value: as written, or one
    more than the one before when that one's is a number."""
    open_brace = source.find("{")
    body = source[open_brace + 1 : source.rfind("}")]
    body_line = first_line + source.count("\n", 0, open_brace + 1)
    comments = [(m.start(), m.group()) for m in COMMENT.finditer(body)]
    # The comments blanked out, every offset and line kept.
    code = COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), body)
    enumerators: list[tuple[int, str]] = []  # where each begins, its text
    depth, start = 0, 0
    for i, ch in enumerate(code + ","):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            piece = code[start:i]
            if piece.strip():
                enumerators.append((start + len(piece) - len(piece.lstrip()), piece.strip()))
            start = i + 1
    owned: list[list[str]] = [[] for _ in enumerators]
    for offset, raw in comments:
        before = [k for k, (begin, _) in enumerate(enumerators) if begin <= offset]
        if enumerators:
            owned[before[-1] if before else 0].append(raw)
    constants: list[Constant] = []
    previous: tuple[int, bool] | None = (-1, False)  # the value before; written in hex
    for (begin, text), raw_comments in zip(enumerators, owned, strict=True):
        name, _, expression = (part.strip() for part in text.partition("="))
        expression = " ".join(expression.split())
        if expression:
            number = _int_value(expression)
            hexa = expression.lower().startswith("0x")
            previous = (number, hexa) if number is not None else None
            value = expression
        elif previous is None:  # after a value that is not a plain number
            value = f"{constants[-1].name} + 1"
        else:
            previous = (previous[0] + 1, previous[1])
            value = f"0x{previous[0]:x}" if previous[1] else str(previous[0])
        line = body_line + body.count("\n", 0, begin)
        constants.append(Constant(name, value, _flat(raw_comments), line))
    return tuple(constants)


def _define(item: _Item) -> Constant | None:
    """The macro a preprocessor line defines, when it is a public one."""
    code = re.sub(r"\\\n", " ", item.text)
    comments = COMMENT.findall(code)
    code = COMMENT.sub(" ", code)
    match = DEFINE.match(code.strip())
    if not match or not PUBLIC_MACRO.match(match.group(1)):
        return None
    params = re.sub(r"\s+", " ", match.group(2) or "")
    value = " ".join(match.group(3).split())
    return Constant(match.group(1), value, _flat(comments), item.first, params)


def _is_trailing(items: list[_Item], index: int) -> bool:
    """The comment at `index` sits at the end of the statement before it, on its last line."""
    before = items[index - 1] if index else None
    return before is not None and before.kind == "statement" and before.last == items[index].first


def _groups(items: list[_Item]) -> list[Group]:
    """The public macros, in runs of preprocessor lines without a blank line or a comment
    between them, each run with the comment right above it."""
    groups: list[Group] = []
    doc, current = "", []
    previous = ""

    def close() -> None:
        nonlocal current
        if current:
            groups.append(Group(doc, tuple(current), current[0].line))
        current = []

    for index, item in enumerate(items):
        if item.kind == "preproc":
            constant = _define(item)
            if constant:
                guarded = IFNDEF.match(COMMENT.sub(" ", previous).strip())
                if guarded and guarded.group(1) == constant.name:
                    constant = replace(constant, default=True)
                current.append(constant)
            previous = item.text
            continue
        close()
        previous = ""
        if item.kind == "comment" and not _is_trailing(items, index):
            doc = _comment_text(item.text)
        elif item.kind != "inner":
            doc = ""
    close()
    return groups


def parse_header(text: str, name: str) -> Header:
    """The overview and the entries of one header; `name` is used in messages."""
    items = _scan(text, name)
    source = text.splitlines()
    overview = ""
    # The licence's line (SPDX-License-Identifier) comes first and is not the overview.
    firsts = [it for it in items if it.kind != "blank" and not LICENCE.match(it.text)]
    if firsts and firsts[0].kind == "comment":
        overview = _comment_text(firsts[0].text)
    functions: list[Function] = []
    types: list[Type] = []
    enums: list[Group] = []
    for index, item in enumerate(items):
        if item.kind != "statement":
            continue
        fname = _function_name(item.text)
        if fname is not None and PUBLIC_NAME.match(fname):
            doc = _doc_for(items, index)
            functions.append(Function(fname, _declaration(item.text), doc, item.first))
            continue
        written = "\n".join(source[item.first - 1 : item.last]).strip()
        is_enum = re.match(r"(typedef\s+)?enum\b[^{]*\{", item.text) is not None
        tname = _type_name(item.text)
        constants = _enum_constants(written, item.first) if is_enum else ()
        if tname is not None and PUBLIC_NAME.match(tname):
            types.append(Type(tname, written, _doc_for(items, index), item.first, constants))
        elif is_enum and constants:
            enums.append(Group(_doc_for(items, index), constants, item.first))
    groups = sorted([*_groups(items), *enums], key=lambda g: g.line)
    return Header(name, overview, tuple(functions), types=tuple(types), groups=tuple(groups))


def _doc_for(items: list[_Item], index: int) -> str:
    """The comment on the declaration's last line, else the one above it (or above the first
    of a run of declarations without blank lines between them)."""
    item = items[index]
    after = items[index + 1] if index + 1 < len(items) else None
    if after and after.kind in ("comment", "inner") and after.first == item.last:
        return _comment_text(after.text)
    j = index - 1
    while j >= 0:
        above = items[j]
        if above.kind == "comment" and not _is_trailing(items, j):
            return _comment_text(above.text)
        if above.kind in ("preproc", "inner"):
            j -= 1
            continue
        if above.kind == "statement" and _function_name(above.text):
            j -= 1
            continue
        return ""
    return ""


def read_headers(include_dir: Path) -> list[Header]:
    """Every header of `include_dir` (include/tacet), by name."""
    paths = sorted(include_dir.glob("*.h"))
    if not paths:
        raise TacetError(f"{include_dir}: no headers")
    return [parse_header(path.read_text(), path.name) for path in paths]


def undocumented(headers: Iterable[Header], prefix: str = "include/tacet/") -> list[str]:
    """'include/tacet/x.h:LINE: tc_name' for each public function without a comment."""
    return [
        f"{prefix}{h.name}:{f.line}: {f.name}" for h in headers for f in h.functions if not f.doc
    ]


def targets(headers: Iterable[Header]) -> dict[str, tuple[str, str]]:
    """Every entry's name, with the page (a header's stem) and the anchor that show it. A
    name that two headers define (each in its own #if branch, say) is the first one's."""
    found: dict[str, tuple[str, str]] = {}
    for h in headers:
        names = [f.name for f in h.functions] + [t.name for t in h.types]
        names += [c.name for t in h.types for c in t.constants]
        names += [c.name for g in h.groups for c in g.constants]
        for name in names:
            found.setdefault(name, (h.stem, name))
    return found


# ---- Markdown -------------------------------------------------------------------------------

_ESCAPE = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


@dataclass(frozen=True)
class Links:
    """How prose on one page links the names it mentions: to `known` entries (name -> page
    stem and anchor), except to those in `itself` (the entry the prose belongs to)."""

    known: Mapping[str, tuple[str, str]]
    page: str  # the stem of the page being written
    itself: frozenset[str] = frozenset()

    def href(self, name: str) -> str | None:
        found = self.known.get(name)
        if found is None or name in self.itself:
            return None
        stem, anchor = found
        return f"#{anchor}" if stem == self.page else f"{stem}.md#{anchor}"

    def without(self, *names: str) -> "Links":
        return replace(self, itself=frozenset(names))


NO_LINKS = Links({}, "")


def _plain(text: str, cell: bool) -> str:
    """Prose with nothing in it turned into HTML, emphasis or a link."""
    html_safe = "".join(_ESCAPE.get(ch, ch) for ch in text)
    return re.sub(r"([\\*_\[\]#|])" if cell else r"([\\*_\[\]#])", r"\\\1", html_safe)


def _escape(text: str, links: Links = NO_LINKS, cell: bool = False) -> str:
    """Prose outside backtick spans: nothing in it may turn into HTML, emphasis or a link,
    but the names of entries, in it or in backticks, become links to them. `cell`: for a
    table's cell, where a '|' would end it."""
    parts = re.split(r"(`[^`\n]*`)", text)
    out = []
    for k, part in enumerate(parts):
        if k % 2:
            href = links.href(part[1:-1].removesuffix("()"))
            out.append(f"[{part}]({href})" if href else part)
            continue
        pos = 0
        for match in MENTION.finditer(part):
            href = links.href(match.group(1))
            if href is None:
                continue
            out.append(_plain(part[pos : match.start()], cell))
            out.append(f"[`{match.group()}`]({href})")
            pos = match.end()
        out.append(_plain(part[pos:], cell))
    return "".join(out)


def _is_layout(paragraph: list[str]) -> bool:
    """Text set in columns or indented (tables, lists of macros): shown as it is written."""
    return any(line.startswith(" ") or "   " in line.strip() for line in paragraph)


def render_doc(text: str, links: Links = NO_LINKS) -> str:
    """A comment as Markdown: paragraphs of prose, and preformatted blocks for the parts
    laid out in columns. Names of other entries in the prose link to them (`links`); in the
    preformatted blocks nothing does."""
    blocks: list[str] = []
    # The contract's parts (style.md: context, blocking, statuses) each begin a paragraph.
    text = re.sub(r"\n(?=(Context|Returns)\b)", "\n\n", text)
    for chunk in re.split(r"\n\s*\n", text):
        lines = chunk.splitlines()
        if not lines:
            continue
        if _is_layout(lines[1:]) or (lines and lines[0].startswith(" ")):
            blocks.append("```text\n" + "\n".join(lines) + "\n```")
        else:
            blocks.append("\n".join(_escape(line, links) for line in lines))
    return "\n\n".join(blocks)


def _code(text: str) -> str:
    """Inline code as HTML, safe in a table's cell."""
    return "<code>" + html.escape(text, quote=False).replace("|", "&#124;") + "</code>"


def render_constants(constants: Iterable[Constant], links: Links) -> str:
    """A table of macros or constants, each row the target of links to its name."""
    constants = list(constants)
    meaning = any(c.doc for c in constants)
    out = ["| name | value |" + (" meaning |" if meaning else ""), "|---|---|" + ("---|" * meaning)]
    for c in constants:
        name = f'<code class="tc-name" id="{c.name}">{c.name}{html.escape(c.params)}</code>'
        value = _code(c.value) if c.value else ""
        if c.default:
            value += " (default)"
        row = f"| {name} | {value} |"
        if meaning:
            row += f" {_escape(c.doc, links.without(c.name), cell=True)} |"
        out.append(row)
    return "\n".join(out)


def render_header(header: Header, known: Mapping[str, tuple[str, str]] | None = None) -> str:
    """The page of one header; names of the `known` entries (targets()) in its prose link to
    them."""
    links = Links(known or {}, header.stem)
    out = [f"# {header.name}", "", f'`#include "tacet/{header.name}"`', ""]
    if header.port:
        out += [f"Port extras: only in programs built for the {header.port} port.", ""]
    if header.overview:
        out += [render_doc(header.overview, links), ""]
    if header.functions:
        out += ["## Functions", ""]
        for f in header.functions:
            out += [f"### {f.name}", "", "```c", f.declaration, "```", ""]
            doc = render_doc(f.doc, links.without(f.name)) if f.doc else "*(not documented)*"
            out += [doc, ""]
    if header.types:
        out += ["## Types", ""]
        for t in header.types:
            out += [f"### {t.name}", ""]
            itself = links.without(t.name, *(c.name for c in t.constants))
            if t.constants:
                doc = [render_doc(t.doc, itself), ""] if t.doc else []
                out += [*doc, render_constants(t.constants, links), ""]
            else:
                # The comment first: a control block's definition is long.
                out += [render_doc(t.doc, itself), ""] if t.doc else []
                out += ["```c", t.definition, "```", ""]
    if header.groups:
        out += ["## Macros and constants", ""]
        for g in header.groups:
            if g.doc:
                out += [render_doc(g.doc, links.without(*(c.name for c in g.constants))), ""]
            out += [render_constants(g.constants, links), ""]
    return "\n".join(out)


def first_sentence(text: str) -> str:
    flat = " ".join(text.split())
    match = re.match(r"(.+?\.)(\s|$)", flat)
    return match.group(1) if match else flat


def render_index(headers: Iterable[Header]) -> str:
    headers = list(headers)
    out = [
        "# API reference",
        "",
        "Generated from the comments of the public headers, `include/tacet/*.h`, by",
        "`tools/tacet/docsite/apiref.py` when the site is built. An application includes",
        '`"tacet/tacet.h"`; the port contract, `tacet/port.h`, is for port writers',
        "([porting guide](../porting.md)).",
        "",
        "| header | what it declares |",
        "|---|---|",
    ]
    for h in headers:
        summary = _escape(first_sentence(h.overview), cell=True) if h.overview else ""
        where = f" ({h.port} port)" if h.port else ""
        out.append(f"| [{h.name}]({h.stem}.md){where} | {summary} |")
    for title, entries in (
        ("Functions", sorted((f.name, h) for h in headers for f in h.functions)),
        ("Types", sorted((t.name, h) for h in headers for t in h.types)),
    ):
        out += ["", f"## {title}", ""]
        out += [f"- [`{name}`]({h.stem}.md#{name}) ({h.name})" for name, h in entries]
    out.append("")
    return "\n".join(out)


def _shown(directory: Path) -> str:
    """ports/sim/include/tacet for a directory inside a Tacet tree, else the path as given."""
    parts = directory.parts
    return "/".join(parts[parts.index("ports") :]) if "ports" in parts else str(directory)


def read_reference(include_dir: Path, port_dirs: Iterable[Path] = ()) -> list[Header]:
    """The headers of `include_dir` (include/tacet), then those of each port's include/tacet
    (the port's extras, tacet/sim.h ...). Raises TacetError naming every undocumented public
    function, and on two headers of the same name."""
    headers = read_headers(include_dir)
    missing = undocumented(headers)
    for port_dir in port_dirs:
        shown = _shown(port_dir)
        port = shown.split("/")[1] if shown.startswith("ports/") else shown
        port_headers = [replace(h, port=port) for h in read_headers(port_dir)]
        missing += undocumented(port_headers, prefix=f"{shown}/")
        headers += port_headers
    stems = [h.stem for h in headers]
    clash = sorted({s for s in stems if stems.count(s) > 1})
    if clash:
        raise TacetError(f"API reference: two headers named {', '.join(clash)}")
    if missing:
        raise TacetError(
            "public functions without a comment (write one above the declaration):\n  "
            + "\n  ".join(missing)
        )
    return headers


def pages(include_dir: Path, port_dirs: Iterable[Path] = ()) -> dict[str, str]:
    """The reference's pages, by path under the site ('api/index.md', 'api/sem.md' ...), of
    the headers read_reference() reads."""
    headers = read_reference(include_dir, port_dirs)
    known = targets(headers)
    result = {"api/index.md": render_index(headers)}
    for h in headers:
        result[f"api/{h.stem}.md"] = render_header(h, known)
    return result
