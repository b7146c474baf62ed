# SPDX-License-Identifier: MIT
"""The kernel's MISRA C:2012 compliance record (kernel/misra-record.yaml) held against the
checker's findings, in the terms of MISRA Compliance:2020.

The record is written by hand: the guideline re-categorization plan, how each guideline no
tool checks is assured, the deviation permits and the findings that are the checker's errors.
This module reads it (schema/tacet-misra.schema.json, then the rules a schema cannot state),
decides for every finding what covers it, and derives the guideline compliance summary: for
each of the 175 guidelines its category, how it is enforced and whether Tacet complies, has
deviations, or disapplies it. ``Verdict.failures`` is what makes ``tacet misra`` fail: a
finding nothing covers, a permit or not-violation entry that covers nothing, a guideline with
no enforcement, a header without its include guard.
"""

from __future__ import annotations

import fnmatch
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from tacet.core import yamldoc
from tacet.core.repo import HOME
from tacet.project.lint import Finding

RECORD = "kernel/misra-record.yaml"
SCHEMA_PATH = HOME / "schema" / "tacet-misra.schema.json"
HEADERS = ("kernel/*.h", "include/tacet/*.h")

# MISRA C:2012 with Amendments 1 and 2: every guideline and its category as the standard
# assigns it (M mandatory, R required, A advisory). Numbers and categories only: the texts are
# MISRA's.
_CATALOGUE = """
Dir 1.1 R; Dir 2.1 R; Dir 3.1 R; Dir 4.1 R; Dir 4.2 A; Dir 4.3 R; Dir 4.4 A; Dir 4.5 A;
Dir 4.6 A; Dir 4.7 R; Dir 4.8 A; Dir 4.9 A; Dir 4.10 R; Dir 4.11 R; Dir 4.12 R; Dir 4.13 A;
Dir 4.14 R;
1.1 R; 1.2 A; 1.3 R; 1.4 R; 2.1 R; 2.2 R; 2.3 A; 2.4 A; 2.5 A; 2.6 A; 2.7 A; 3.1 R; 3.2 R;
4.1 R; 4.2 A; 5.1 R; 5.2 R; 5.3 R; 5.4 R; 5.5 R; 5.6 R; 5.7 R; 5.8 R; 5.9 A; 6.1 R; 6.2 R;
7.1 R; 7.2 R; 7.3 R; 7.4 R; 8.1 R; 8.2 R; 8.3 R; 8.4 R; 8.5 R; 8.6 R; 8.7 A; 8.8 R; 8.9 A;
8.10 R; 8.11 A; 8.12 R; 8.13 A; 8.14 R; 9.1 M; 9.2 R; 9.3 R; 9.4 R; 9.5 R; 10.1 R; 10.2 R;
10.3 R; 10.4 R; 10.5 A; 10.6 R; 10.7 R; 10.8 R; 11.1 R; 11.2 R; 11.3 R; 11.4 A; 11.5 A;
11.6 R; 11.7 R; 11.8 R; 11.9 R; 12.1 A; 12.2 R; 12.3 A; 12.4 A; 12.5 M; 13.1 R; 13.2 R;
13.3 A; 13.4 A; 13.5 R; 13.6 M; 14.1 R; 14.2 R; 14.3 R; 14.4 R; 15.1 A; 15.2 R; 15.3 R;
15.4 A; 15.5 A; 15.6 R; 15.7 R; 16.1 R; 16.2 R; 16.3 R; 16.4 R; 16.5 R; 16.6 R; 16.7 R;
17.1 R; 17.2 R; 17.3 M; 17.4 M; 17.5 A; 17.6 M; 17.7 R; 17.8 A; 18.1 R; 18.2 R; 18.3 R;
18.4 A; 18.5 A; 18.6 R; 18.7 R; 18.8 R; 19.1 M; 19.2 A; 20.1 A; 20.2 R; 20.3 R; 20.4 R;
20.5 A; 20.6 R; 20.7 R; 20.8 R; 20.9 R; 20.10 A; 20.11 R; 20.12 R; 20.13 R; 20.14 R; 21.1 R;
21.2 R; 21.3 R; 21.4 R; 21.5 R; 21.6 R; 21.7 R; 21.8 R; 21.9 R; 21.10 R; 21.11 R; 21.12 A;
21.13 M; 21.14 R; 21.15 R; 21.16 R; 21.17 M; 21.18 M; 21.19 M; 21.20 M; 21.21 R; 22.1 R;
22.2 M; 22.3 R; 22.4 M; 22.5 M; 22.6 M; 22.7 R; 22.8 R; 22.9 R; 22.10 R
"""
_CATEGORY = {"M": "mandatory", "R": "required", "A": "advisory"}
GUIDELINES: dict[str, str] = {
    entry.rsplit(" ", 1)[0]: _CATEGORY[entry.rsplit(" ", 1)[1]]
    for entry in (e.strip() for e in _CATALOGUE.split(";"))
    if entry
}
# What MISRA Compliance:2020 lets a re-categorization do: raise a guideline's category, or
# disapply an Advisory one; a Mandatory guideline stays Mandatory.
_ALLOWED = {
    "mandatory": {"mandatory"},
    "required": {"mandatory", "required"},
    "advisory": {"mandatory", "required", "advisory", "disapplied"},
}


def guideline_key(name: str) -> tuple[int, int, int]:
    """Directives first, then rules, each by number."""
    directive = name.startswith("Dir ")
    major, minor = name.removeprefix("Dir ").split(".")
    return (0 if directive else 1, int(major), int(minor))


@dataclass(frozen=True)
class Scope:
    files: tuple[str, ...]
    lines: re.Pattern[str] | None

    def covers(self, finding: Finding, source_line: str) -> bool:
        if not any(fnmatch.fnmatchcase(finding.file, glob) for glob in self.files):
            return False
        return self.lines is None or self.lines.search(source_line) is not None


@dataclass(frozen=True)
class Entry:
    """A deviation permit (TC-Pnn) or an entry of findings that are no violation (TC-Fnn)."""

    id: str
    rules: tuple[str, ...]
    title: str
    scope: Scope


@dataclass(frozen=True)
class Review:
    guidelines: tuple[str, ...]
    by: str
    how: str
    status: str


@dataclass
class Record:
    display: str  # the file as messages name it
    standard: str = ""
    scope: str = ""
    category: dict[str, str] = field(default_factory=dict)  # after re-categorization
    reasons: dict[str, str] = field(default_factory=dict)  # why a guideline was re-categorized
    reviews: list[Review] = field(default_factory=list)
    permits: list[Entry] = field(default_factory=list)
    not_violations: list[Entry] = field(default_factory=list)

    def review_of(self, guideline: str) -> Review | None:
        return next((r for r in self.reviews if guideline in r.guidelines), None)


@cache
def schema() -> dict[str, Any]:
    return yamldoc.load_schema(SCHEMA_PATH)


def load(path: Path, display: str) -> Record:
    """Read and check the record. Raises DescriptionError naming every problem (file, line,
    field)."""
    source, _ = yamldoc.read(
        path,
        display,
        schema(),
        "a MISRA compliance record",
        "a mapping with standard, scope, recategorization, reviewed, permits and not_violations",
    )
    data = source.data
    record = Record(display)
    record.standard, record.scope = data["standard"], data["scope"]
    record.category = dict(GUIDELINES)

    def known(where: tuple[str | int, ...], names: Sequence[str]) -> tuple[str, ...]:
        for i, name in enumerate(names):
            if name not in GUIDELINES:
                source.error((*where, i), f"{name} is not a MISRA C:2012 guideline")
        return tuple(n for n in names if n in GUIDELINES)

    for i, plan in enumerate(data["recategorization"]):
        for name in known(("recategorization", i, "guidelines"), plan["guidelines"]):
            if name in record.reasons:
                source.error(("recategorization", i), f"{name} is re-categorized twice")
            elif plan["category"] not in _ALLOWED[GUIDELINES[name]]:
                source.error(
                    ("recategorization", i, "category"),
                    f"{name} is {GUIDELINES[name]}: it cannot become {plan['category']}",
                )
            record.category[name] = plan["category"]
            record.reasons[name] = plan["reason"]
    for i, review in enumerate(data["reviewed"]):
        names = known(("reviewed", i, "guidelines"), review["guidelines"])
        record.reviews.append(Review(names, review["by"], review["how"], review["status"]))
    ids: set[str] = set()
    for key in ("permits", "not_violations"):
        out = record.permits if key == "permits" else record.not_violations
        for i, item in enumerate(data[key]):
            if item["id"] in ids:
                source.error((key, i, "id"), f"{item['id']} is used twice")
            ids.add(item["id"])
            out.append(_entry(source, (key, i), item, known((key, i, "rules"), item["rules"])))
    yamldoc.raise_errors(source)
    return record


def _entry(
    source: yamldoc.Source, where: tuple[str, int], item: dict[str, Any], rules: tuple[str, ...]
) -> Entry:
    if where[0] == "permits":
        for name in rules:
            if GUIDELINES[name] == "mandatory":
                source.error((*where, "rules"), f"{name} is Mandatory: no permit may cover it")
    lines = None
    if "lines" in item["scope"]:
        try:
            lines = re.compile(item["scope"]["lines"])
        except re.error as error:
            source.error((*where, "scope", "lines"), f"not a regular expression: {error}")
    scope = Scope(tuple(item["scope"]["files"]), lines)
    return Entry(item["id"], rules, item.get("title", item.get("reason", "")), scope)


# ---- what covers each finding ---------------------------------------------------------------


@dataclass(frozen=True)
class Judged:
    finding: Finding
    rule: str
    by: str  # a permit's or a not-violation's id, "disapplied", or "" for a violation


@dataclass
class Verdict:
    judged: list[Judged]
    failures: list[str]

    def by_rule(self, rule: str) -> list[Judged]:
        return [j for j in self.judged if j.rule == rule]


def judge(
    record: Record,
    findings: Sequence[tuple[Finding, str]],
    source_line: Callable[[Finding], str],
    repo: Path,
) -> Verdict:
    """``findings``: (finding, rule number) pairs; ``source_line(finding)`` the text of its
    line. Every finding is given what covers it; the failures say what the record misses."""
    judged: list[Judged] = []
    failures: list[str] = []
    used: Counter[str] = Counter()
    for finding, rule in findings:
        line = source_line(finding)
        by = ""
        for entry in (*record.not_violations, *record.permits):
            if rule in entry.rules and entry.scope.covers(finding, line):
                by = entry.id
                break
        if not by and record.category.get(rule) == "disapplied":
            by = "disapplied"
        used[by] += 1
        judged.append(Judged(finding, rule, by))
        if not by:
            category = record.category.get(rule, "unknown")
            failures.append(
                f"{finding.file}:{finding.line}: rule {rule} ({category}): no permit covers it"
            )
    for entry in (*record.permits, *record.not_violations):
        if used[entry.id] == 0:
            failures.append(f"{record.display}: {entry.id} ({entry.title}) covers no finding")
    for rule in sorted({j.rule for j in judged if j.rule not in GUIDELINES}, key=guideline_key):
        failures.append(f"rule {rule}: reported by the checker but not a MISRA C:2012 guideline")
    failures += header_guard_failures(repo)
    return Verdict(judged, failures)


GUARD = re.compile(r"#\s*ifndef\s+(\w+)\s*\n\s*#\s*define\s+(\w+)")
DIRECTIVE = re.compile(r"^[ \t]*#", re.MULTILINE)
COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)


def header_guard_failures(repo: Path) -> list[str]:
    """Dir 4.10: a header's first directives are `#ifndef NAME` and `#define NAME`."""
    failures = []
    for pattern in HEADERS:
        for header in sorted(repo.glob(pattern)):
            text = COMMENTS.sub("", header.read_text(encoding="utf-8"))
            first = DIRECTIVE.search(text)
            guard = GUARD.match(text, first.start()) if first else None
            if guard is None or guard.group(1) != guard.group(2):
                name = header.relative_to(repo)
                failures.append(f"{name}: no include guard (#ifndef NAME, #define NAME) first")
    return failures


# ---- the guideline compliance summary -------------------------------------------------------


@dataclass(frozen=True)
class Row:
    guideline: str
    category: str  # as MISRA C:2012 assigns it
    applied: str  # after re-categorization
    enforcement: str
    compliance: str


def summary(
    record: Record, verdict: Verdict, addon_rules: set[str], cppcheck_rules: set[str]
) -> list[Row]:
    """One row per guideline. A guideline with no enforcement is a failure (added to
    ``verdict.failures``)."""
    rows = []
    for name in sorted(GUIDELINES, key=guideline_key):
        review = record.review_of(name)
        if name in addon_rules:
            enforcement = "cppcheck misra addon"
        elif name in cppcheck_rules:
            enforcement = "cppcheck (tacet lint)"
        elif review is not None:
            enforcement = review.by
        elif record.category[name] == "disapplied":
            enforcement = "none (disapplied)"
        else:
            enforcement = ""
            verdict.failures.append(f"{name}: neither checked by a tool nor in `reviewed`")
        judged = verdict.by_rule(name)
        applied = record.category[name]
        permits = sorted({j.by for j in judged if j.by.startswith("TC-P")})
        if applied == "disapplied":
            compliance = "disapplied"
        elif any(not j.by for j in judged):
            compliance = "violations"
        elif permits:
            compliance = "deviations (" + ", ".join(permits) + ")"
        elif review is not None and name not in addon_rules | cppcheck_rules:
            compliance = "deviations (by review)" if review.status == "deviation" else review.status
        else:
            compliance = "compliant"
        if applied == "mandatory" and compliance != "compliant":
            verdict.failures.append(f"{name} is Mandatory and {compliance}")
        rows.append(Row(name, GUIDELINES[name], applied, enforcement, compliance))
    return rows


def summary_table(rows: Sequence[Row]) -> list[str]:
    lines = [
        "| Guideline | Category | Applied as | Enforcement | Compliance |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {r.guideline} | {r.category} | {r.applied} | {r.enforcement} | {r.compliance} |"
        for r in rows
    ]
    return lines


def summary_counts(rows: Sequence[Row]) -> str:
    counts = Counter(r.compliance.split(" (")[0] for r in rows)
    order = ("compliant", "deviations", "disapplied", "violations")
    parts = [f"{counts[c]} {c}" for c in order if counts[c]]
    return f"{len(rows)} guidelines: " + ", ".join(parts)
