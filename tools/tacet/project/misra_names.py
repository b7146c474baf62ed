# SPDX-License-Identifier: MIT
"""MISRA C:2012 Dir 4.5, which no checker Tacet uses implements: identifiers in one name space
with overlapping visibility should be typographically unambiguous.

Two names are ambiguous when they differ only in case, in underscores, or in characters that
look alike (``I``, ``l`` and ``1``; ``O`` and ``0``; ``S`` and ``5``; ``Z`` and ``2``; ``B`` and
``8``; ``rn`` and ``m``). Visibility is taken from the text, without a C parser, and errs on
the side of seeing too much: a translation unit's file scope is every name declared outside a
function in the unit and in every header in scope (whatever the order of the includes), and a
function's scope adds its parameters and every name in its body. Left out, as C leaves them
out: structure members (a name space per structure), tags (a name space of their own), a
prototype's parameter names, and a macro's parameters outside that macro. Each ambiguous group
is one finding, at the first line where its odd name appears: the upper-case one (a macro or an
enumeration constant beside a function or a type) when there is one, else the longest; the
record's permits cover findings by that line.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from tacet.project.lint import Finding

RULE = "Dir 4.5"
_STRIP = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.DOTALL)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\([^)]*\))?((?:\\\n|[^\n])*)", re.MULTILINE)
_DIRECTIVE = re.compile(r"^[ \t]*#[^\n]*(?:\\\n[^\n]*)*", re.MULTILINE)
# Members (a name space per structure) and tags (a name space of their own).
_MEMBER = re.compile(r"(?:->|\.|\b(?:struct|union|enum)\b)\s*[A-Za-z_]\w*")
_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
_KEYWORDS = frozenset(
    (  # noqa: SIM905 (C's keywords read best as the text they are)
        "auto break case char const continue default do double else enum extern float for goto "
        "if inline int long register restrict return short signed sizeof static struct switch "
        "typedef union unsigned void volatile while _Bool _Static_assert _Alignof _Noreturn"
    ).split()
)
# Characters MISRA C:2012 (Dir 4.5) names as easily confused, each mapped to one of its group.
_ALIKE = {
    **dict.fromkeys("Il1", "1"),
    **dict.fromkeys("Oo0", "0"),
    **dict.fromkeys("Ss5", "5"),
    **dict.fromkeys("Zz2", "2"),
    **dict.fromkeys("Bb8", "8"),
}


def canonical(name: str) -> str:
    """The form two ambiguous names share: no underscores, rn as m, look-alikes merged, one case."""
    text = name.replace("_", "").replace("rn", "m")
    return "".join(_ALIKE.get(c, c.lower()) for c in text)


def _names(text: str) -> set[str]:
    return {n for n in _IDENT.findall(_MEMBER.sub(" ", text)) if n not in _KEYWORDS}


def _without_parentheses(text: str) -> str:
    out, depth = [], 0
    for c in text:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif depth == 0:
            out.append(c)
    return "".join(out)


def _last_parentheses(text: str) -> str:
    text = text.rstrip()
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            depth -= 1
            if depth == 0:
                return text[i:]
    return ""


def scopes(source: str) -> tuple[set[str], list[set[str]]]:
    """A file's file-scope names, and the names of each of its inner scopes (a function's
    parameters and body, a function-like macro's parameters and body)."""
    text = _STRIP.sub(" ", source)
    file_scope: set[str] = set()
    inner: list[set[str]] = []

    def define(match: re.Match[str]) -> str:
        file_scope.add(match.group(1))
        if match.group(2):
            inner.append(_names(match.group(2) + " " + match.group(3)))
        else:
            file_scope.update(_names(match.group(3)))
        return " "

    text = _DIRECTIVE.sub(" ", _DEFINE.sub(define, text))
    outside: list[str] = []
    depth, start, kind, params = 0, 0, "", ""
    for i, c in enumerate(text):
        if c == "{":
            if depth == 0:
                before = text[start:i]
                if before.rstrip().endswith(")"):
                    kind, params = "function", _last_parentheses(before)
                elif re.search(r"\b(?:struct|union)\b\s*\w*\s*$", before):
                    kind = "members"
                else:
                    kind = "other"  # an enumeration or an initializer: file scope
                outside.append(_without_parentheses(before))
                start = i + 1
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                if kind == "function":
                    inner.append(_names(params + " " + text[start:i]))
                elif kind == "other":
                    outside.append(text[start:i])
                start = i + 1
    outside.append(_without_parentheses(text[start:]))
    for part in outside:  # each on its own: `enum` before a brace names no tag
        file_scope |= _names(part)
    return file_scope, inner


def ambiguous(names: Iterable[str]) -> list[tuple[str, ...]]:
    groups: dict[str, set[str]] = defaultdict(set)
    for name in names:
        groups[canonical(name)].add(name)
    return [tuple(sorted(g)) for g in groups.values() if len(g) > 1]


def _odd_one(group: Sequence[str]) -> str:
    upper = [n for n in group if n.isupper()]
    return upper[0] if upper else max(group, key=lambda n: (len(n), n))


def findings(repo: Path, sources: Sequence[str], headers: Sequence[str]) -> list[Finding]:
    """Dir 4.5 findings on ``sources`` (globs of .c files) with the ``headers`` (globs) they
    may include, one per ambiguous group of names, in file order."""

    def files(patterns: Sequence[str]) -> list[Path]:
        return sorted({p for pattern in patterns for p in repo.glob(pattern)})

    header_files, source_files = files(headers), files(sources)
    texts = {p: p.read_text(encoding="utf-8") for p in (*header_files, *source_files)}
    parsed = {p: scopes(texts[p]) for p in texts}
    # Comments and strings blanked out, line breaks kept: where a name is used, once per file.
    blanked = {
        p: _STRIP.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), t) for p, t in texts.items()
    }
    shared = set().union(*(parsed[h][0] for h in header_files)) if header_files else set()
    groups: set[tuple[str, ...]] = set(ambiguous(shared))
    for header in header_files:
        for names in parsed[header][1]:
            groups.update(ambiguous(shared | names))
    for source in source_files:
        unit = shared | parsed[source][0]
        groups.update(ambiguous(unit))
        for names in parsed[source][1]:
            groups.update(ambiguous(unit | names))
    merged: dict[str, set[str]] = defaultdict(set)  # one finding per look-alike form
    for group in groups:
        merged[canonical(group[0])].update(group)
    result = []
    for group in (tuple(sorted(g)) for g in merged.values()):
        odd = _odd_one(group)
        where = _first_use(odd, (*header_files, *source_files), blanked)
        if where is None:  # only in a stripped part: not a name the code declares
            continue
        path, line, column = where
        others = ", ".join(n for n in group if n != odd)
        result.append(
            Finding(
                str(path.relative_to(repo)),
                line,
                column,
                "style",
                "misra-c2012-dir-4.5",
                f"{odd} is typographically ambiguous with {others}",
            )
        )
    return sorted(result, key=lambda f: (f.file, f.line, f.column, f.message))


def _first_use(
    name: str, order: Sequence[Path], blanked: dict[Path, str]
) -> tuple[Path, int, int] | None:
    """The first place ``name`` is used, in ``order``, in the files' text without comments."""
    pattern = re.compile(rf"\b{re.escape(name)}\b")
    for path in order:
        text = blanked[path]
        match = pattern.search(text)
        if match:
            line = text.count("\n", 0, match.start()) + 1
            column = match.start() - text.rfind("\n", 0, match.start())
            return path, line, column
    return None
