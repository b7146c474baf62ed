# SPDX-License-Identifier: MIT
"""The API reference of the documentation site, read from the comments of the public headers.

Each public header (include/tacet/*.h) becomes one Markdown page: the header's opening
comment, then every public function -- a ``tc_`` name declared or defined inline in the
header; ``tc__`` names are the kernel's and the ports' own -- with its declaration and the
comment written above it. Declarations that follow one another without a blank line share
the comment above the first (``tc_sched_lock`` / ``tc_sched_unlock``); a comment on the
declaration's own last line also counts.

A public function without a comment is an error that names it (``undocumented``): the
documentation build and the tests fail on it.

The reader is a small C scanner, not a compiler: it knows comments, preprocessor lines,
string literals and brace nesting, which is all the headers use. It is fast and needs
nothing installed (Doxygen would).
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from tacet.errors import TacetError

PUBLIC_NAME = re.compile(r"^tc_[a-z0-9]")
# The identifier right before the parameter list of a declaration.
CALLEE = re.compile(r"([A-Za-z_]\w*)\s*\($")


@dataclass(frozen=True)
class Function:
    name: str
    declaration: str  # one line, ends with ';'
    doc: str  # the comment's text, decoration removed; "" when there is none
    line: int


@dataclass(frozen=True)
class Header:
    name: str  # "sem.h"
    overview: str
    functions: tuple[Function, ...] = field(default=())
    port: str = ""  # a port's extras ("sim"): only in programs built for that port

    @property
    def stem(self) -> str:
        return self.name.removesuffix(".h")


@dataclass
class _Item:
    kind: str  # "comment", "statement", "preproc", "blank"
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


def _scan(text: str, where: str) -> list[_Item]:  # noqa: PLR0912, PLR0915 (one scanner loop)
    """Top-level items of a C header, in order."""
    items: list[_Item] = []
    i, n, line = 0, len(text), 1
    stmt: list[str] = []
    stmt_first = 0
    depth = 0
    at_line_start = True
    trailing: list[str] = []  # comments inside the statement being read

    def finish(last: int) -> None:
        nonlocal stmt, stmt_first, trailing
        body = "".join(stmt).strip()
        if body:
            items.append(_Item("statement", body, stmt_first, last))
            for comment in trailing:
                items.append(_Item("comment", comment, last, last))
        stmt, trailing = [], []

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
                trailing.append(raw)
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
                trailing.append(raw)
            else:
                items.append(_Item("comment", raw, line, line))
            i = end
            at_line_start = False
            continue
        if c == "#" and at_line_start and not stmt:
            first = line
            j = i
            while True:
                end = text.find("\n", j)
                end = n if end < 0 else end
                if text[j:end].rstrip().endswith("\\") and end < n:
                    line += 1
                    j = end + 1
                    continue
                break
            items.append(_Item("preproc", text[i:end], first, line))
            i = end
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


def _declaration(statement: str) -> str:
    """One line: a definition's signature, or the declaration, ending with ';'."""
    if "{" in statement and _is_function_body(statement):
        statement = statement[: statement.find("{")].rstrip() + ";"
    return re.sub(r"\s+", " ", statement).replace("( ", "(").replace(" )", ")")


def parse_header(text: str, name: str) -> Header:
    """The overview and the public functions of one header; `name` is used in messages."""
    items = _scan(text, name)
    overview = ""
    # The licence line every source file opens with is not the header's overview.
    firsts = [it for it in items if it.kind != "blank" and not _is_licence(it)]
    if firsts and firsts[0].kind == "comment":
        overview = _comment_text(firsts[0].text)
    functions: list[Function] = []
    for index, item in enumerate(items):
        if item.kind != "statement":
            continue
        fname = _function_name(item.text)
        if fname is None or not PUBLIC_NAME.match(fname):
            continue
        doc = _doc_for(items, index)
        functions.append(Function(fname, _declaration(item.text), doc, item.first))
    return Header(name, overview, tuple(functions))


def _is_licence(item: _Item) -> bool:
    """The SPDX-License-Identifier comment every source file opens with."""
    text = _comment_text(item.text) if item.kind == "comment" else ""
    return text.startswith("SPDX-License-Identifier")


def _doc_for(items: list[_Item], index: int) -> str:
    """The comment on the declaration's last line, else the one above it (or above the first
    of a run of declarations without blank lines between them)."""
    item = items[index]
    after = items[index + 1] if index + 1 < len(items) else None
    if after and after.kind == "comment" and after.first == item.last:
        return _comment_text(after.text)
    j = index - 1
    while j >= 0:
        above = items[j]
        if above.kind == "comment":
            return _comment_text(above.text)
        if above.kind == "preproc":
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


# ---- Markdown -------------------------------------------------------------------------------

_ESCAPE = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def _escape(text: str) -> str:
    """Prose outside backtick spans: nothing in it may turn into HTML, emphasis or a link."""
    parts = re.split(r"(`[^`\n]*`)", text)
    out = []
    for k, part in enumerate(parts):
        if k % 2:
            out.append(part)
            continue
        html_safe = "".join(_ESCAPE.get(ch, ch) for ch in part)
        out.append(re.sub(r"([\\*_\[\]#])", r"\\\1", html_safe))
    return "".join(out)


def _is_layout(paragraph: list[str]) -> bool:
    """Text set in columns or indented (tables, lists of macros): shown as it is written."""
    return any(line.startswith(" ") or "   " in line.strip() for line in paragraph)


def render_doc(text: str) -> str:
    """A comment as Markdown: paragraphs of prose, and preformatted blocks for the parts
    laid out in columns."""
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
            blocks.append("\n".join(_escape(line) for line in lines))
    return "\n\n".join(blocks)


def render_header(header: Header) -> str:
    out = [f"# {header.name}", "", f'`#include "tacet/{header.name}"`', ""]
    if header.port:
        out += [f"Port extras: only in programs built for the {header.port} port.", ""]
    if header.overview:
        out += [render_doc(header.overview), ""]
    if header.functions:
        out += ["## Functions", ""]
        for f in header.functions:
            out += [f"### {f.name}", "", "```c", f.declaration, "```", ""]
            out += [render_doc(f.doc) if f.doc else "*(not documented)*", ""]
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
        "`tools/tacet/apiref.py` when the site is built. An application includes",
        '`"tacet/tacet.h"`; the port contract, `tacet/port.h`, is for port writers',
        "([porting guide](../porting.md)).",
        "",
        "| header | what it declares |",
        "|---|---|",
    ]
    for h in headers:
        summary = _escape(first_sentence(h.overview)) if h.overview else ""
        where = f" ({h.port} port)" if h.port else ""
        out.append(f"| [{h.name}]({h.stem}.md){where} | {summary.replace('|', '&#124;')} |")
    out += ["", "## Functions", ""]
    entries = sorted((f.name, h) for h in headers for f in h.functions)
    for fname, h in entries:
        out.append(f"- [`{fname}`]({h.stem}.md#{fname}) ({h.name})")
    out.append("")
    return "\n".join(out)


def _shown(directory: Path) -> str:
    """ports/sim/include/tacet for a directory inside a Tacet tree, else the path as given."""
    parts = directory.parts
    return "/".join(parts[parts.index("ports") :]) if "ports" in parts else str(directory)


def pages(include_dir: Path, port_dirs: Iterable[Path] = ()) -> dict[str, str]:
    """The reference's pages, by path under the site ('api/index.md', 'api/sem.md' ...):
    the headers of `include_dir` (include/tacet), then those of each port's include/tacet
    (the port's extras, tacet/sim.h ...). Raises TacetError naming every undocumented public
    function."""
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
    result = {"api/index.md": render_index(headers)}
    for h in headers:
        result[f"api/{h.stem}.md"] = render_header(h)
    return result
