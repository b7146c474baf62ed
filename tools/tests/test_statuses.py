# SPDX-License-Identifier: MIT
"""Every status a public header documents for a service is provoked and checked by a kernel
test. The list comes from the headers (the "Returns ..." part of the comment before each
declaration), so a new service or a newly documented status without a test fails here.

A test counts when it checks the status of a direct call -- `OK(tc_f(...))`,
`EXPECT(tc_f(...), TC_S)`, `EXPECT_ARG(...)`, `CHECK_EQ(tc_f(...), TC_S)` -- or lists it in
the tables of tests/test_misuse.c (every error, state unchanged; every way a wait ends) and
tests/test_context.c
(every service from every context)."""

import re
from pathlib import Path

from conftest import REPO

TESTS = REPO / "tests"


def statuses() -> list[str]:
    text = (REPO / "include" / "tacet" / "types.h").read_text()
    body = text.split("typedef enum {", 1)[1].split("} tc_status;", 1)[0]
    return re.findall(r"^\s*(TC_[A-Z_]+)", body, re.MULTILINE)


def documented() -> dict[str, list[str]]:
    known = set(statuses())
    found: dict[str, list[str]] = {}
    refs: dict[str, str] = {}
    for header in sorted((REPO / "include" / "tacet").glob("*.h")):
        text = header.read_text()
        pattern = r"(/\*(?:(?!\*/).)*\*/)\s*\ntc_status (tc_\w+)\("
        for doc, name in re.findall(pattern, text, re.DOTALL):
            returns = doc[doc.find("Returns") :] if "Returns" in doc else ""
            assert returns, f"{header.name}: {name} documents no status ('Returns ...')"
            ref = re.match(r"Returns as (tc_\w+)\(\)", returns)
            if ref:
                refs[name] = ref.group(1)
                continue
            listed = [s for s in re.findall(r"\bTC_[A-Z_]+\b", returns) if s in known]
            found[name] = list(dict.fromkeys(listed))
    for name, ref in refs.items():
        found[name] = found[ref]
    return found


def call_args(text: str, start: int) -> str:
    """The text between the parenthesis at `start` and its match."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1 : i]
    raise AssertionError("unbalanced parentheses")


def top_level_split(args: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for c in args:
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(c, 0)
        if c == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += c
    return [*parts, current.strip()]


def checked() -> set[tuple[str, str]]:
    seen: set[tuple[str, str]] = set()
    for source in TESTS.glob("*.c"):
        text = source.read_text()
        for m in re.finditer(r"\b(EXPECT_ARG|EXPECT|CHECK_EQ|OK)\(", text):
            args = top_level_split(call_args(text, m.end() - 1))
            call = re.match(r"(tc_\w+)\(", args[0])
            if call is None:
                continue
            want = "TC_OK" if m.group(1) == "OK" else args[1] if len(args) > 1 else ""
            seen.add((call.group(1), want))
    misuse = (TESTS / "test_misuse.c").read_text()
    seen |= set(re.findall(r'X\(\w+, "(tc_\w+)", (TC_\w+),', misuse))
    waits = misuse.split("#define WAITS(W)", 1)[1].split("#define DEFINE_WAIT", 1)[0]
    for row in waits.split("W(w_")[1:]:
        name = re.match(r'\w+, "(tc_\w+)",', row).group(1)
        seen |= {(name, "TC_OK"), (name, "TC_TIMEOUT"), (name, "TC_WAIT_ABORTED")}
        if "NO_END" not in row:
            seen.add((name, "TC_DELETED"))
    context = (TESTS / "test_context.c").read_text()
    for name, cells, ok in re.findall(r'ROW\("(tc_\w+)[^"]*", \w+, "([y-]+)", (TC_\w+)\)', context):
        if "y" in cells:
            seen.add((name, ok))
        if "-" in cells:
            seen.add((name, "TC_CALLER_ERROR"))
    return seen


def test_the_headers_document_statuses() -> None:
    found = documented()
    assert len(found) >= 55, f"only {len(found)} services found in the headers"
    assert all(found.values()), [name for name, listed in found.items() if not listed]


def test_every_documented_status_is_provoked() -> None:
    seen = checked()
    missing = [
        f"{name}: {status}"
        for name, listed in documented().items()
        for status in ["TC_OK", *listed]
        if (name, status) not in seen
    ]
    assert missing == [], "documented statuses no test provokes:\n" + "\n".join(missing)


def test_no_test_expects_an_undocumented_status() -> None:
    found = documented()
    wrong = sorted(
        f"{name}: {status}"
        for name, status in checked()
        if name in found and status.startswith("TC_") and status not in ["TC_OK", *found[name]]
    )
    assert wrong == [], "tests expect statuses the headers do not document:\n" + "\n".join(wrong)


def test_the_scan_sees_a_missing_status(tmp_path: Path) -> None:
    """The scanner itself: a status no call checks is reported."""
    assert ("tc_sem_give", "TC_FULL") in checked()
    assert ("tc_sem_give", "TC_DELETED") not in checked()
