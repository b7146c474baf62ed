# SPDX-License-Identifier: MIT
"""``tacet misra``: MISRA C:2012 findings on kernel/ held against the kernel's compliance record
(tacet.project.misra, tacet.project.misra_record)."""

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

from tacet.core.errors import TacetError
from tacet.core.repo import find_repo
from tacet.project.lint import Finding, cppcheck_version, find_cppcheck
from tacet.project.misra import (
    CONFIGURATION,
    COUNTED,
    SOURCES,
    checked_rules,
    misra_findings,
    rule_of,
    table,
)
from tacet.project.misra_names import RULE as NAMES_RULE
from tacet.project.misra_names import findings as name_findings
from tacet.project.misra_record import (
    HEADERS,
    RECORD,
    judge,
    load,
    summary,
    summary_counts,
    summary_table,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "misra",
        help="MISRA C:2012 findings on kernel/ against the compliance record",
        description="MISRA C:2012 findings on kernel/ from cppcheck's misra addon (rule numbers "
        f"only: the rule texts are not shipped), each held against the compliance record "
        f"({RECORD}): covered by a deviation permit, a checker's error, a disapplied "
        "guideline, or a violation. See docs/misra.md.",
        epilog="Exit status: 0 when every finding is covered and the record is complete; 1 "
        "when a finding is not covered, a permit covers nothing, a guideline has no "
        "enforcement or a Mandatory one is not compliant (each is listed); 2 on a wrong "
        "command line, a malformed record or a checker that cannot run.",
    )
    parser.add_argument("--repo", type=Path, default=None, help="the Tacet source tree")
    parser.add_argument("--cppcheck", default=None, help="the cppcheck program (default: PATH)")
    parser.add_argument(
        "--record", type=Path, default=None, help=f"the compliance record (default: {RECORD})"
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="N.M",
        help="also list where the rule's findings are and what covers each (repeatable)",
    )
    parser.add_argument(
        "--summary",
        action="store_true",
        help="also print the guideline compliance summary (every guideline, Markdown)",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    repo = find_repo(Path.cwd(), args.repo)
    for rule in args.rule:
        if not re.fullmatch(r"(?:Dir )?\d+\.\d+", rule):
            raise TacetError(f"--rule {rule}: expected a guideline such as 15.5 or 'Dir 4.5'")
    record_path = args.record if args.record is not None else repo / RECORD
    try:
        record = load(record_path, str(args.record) if args.record is not None else RECORD)
        cppcheck = find_cppcheck(args.cppcheck)
        own, from_cppcheck = checked_rules(cppcheck)
        findings = misra_findings(repo, CONFIGURATION, cppcheck)
    except TacetError as error:  # nothing was checked: not a verdict on the kernel
        raise TacetError(str(error), status=2) from None
    counted = [f for f in findings if f.file.startswith(COUNTED)]
    elsewhere = [f for f in findings if not f.file.startswith(COUNTED)]
    lines: dict[str, list[str]] = {}

    def source_line(finding: Finding) -> str:
        if finding.file not in lines:
            lines[finding.file] = (repo / finding.file).read_text(encoding="utf-8").splitlines()
        text = lines[finding.file]
        return text[finding.line - 1] if 0 < finding.line <= len(text) else ""

    # Dir 4.5 has no checker: tacet misra finds typographically ambiguous names itself.
    names = name_findings(repo, [SOURCES], HEADERS)
    judged = [(f, rule_of(f)) for f in counted] + [(f, NAMES_RULE) for f in names]
    verdict = judge(record, judged, source_line, repo)
    rows = summary(record, verdict, own, from_cppcheck)
    print(
        f"MISRA C:2012, {cppcheck_version(cppcheck)} misra addon, on {SOURCES} "
        f"({CONFIGURATION.name}: -D{' -D'.join(CONFIGURATION.defines)}; kernel options at "
        "their defaults). Counted: findings in kernel/ and include/."
    )
    print()
    print("\n".join(table(findings)))
    print()
    print(
        f"Not counted: {len(elsewhere)} in the port's headers "
        f"({', '.join(sorted({f.file for f in elsewhere})) or 'none'})."
    )
    covered = Counter(j.by for j in verdict.judged)
    shown = ", ".join(f"{by} {n}" for by, n in sorted(covered.items()) if by)
    print(f"Dir 4.5 (tacet misra): {len(names)} groups of typographically ambiguous names.")
    print(f"\nAgainst {RECORD}: {len(judged)} findings; covered: {shown or 'none'}.")
    print(summary_counts(rows) + ".")
    enforced = Counter(r.enforcement for r in rows)
    print("Enforcement: " + ", ".join(f"{n} {how}" for how, n in enforced.most_common()) + ".")
    for rule in args.rule:
        listed = verdict.by_rule(rule)
        print(f"\nRule {rule}: {len(listed)} finding{'s' * (len(listed) != 1)}")
        for j in listed:
            f = j.finding
            print(f"  {f.file}:{f.line}:{f.column}  {j.by or 'NOT COVERED'}")
    if args.summary:
        print()
        print("\n".join(summary_table(rows)))
    if verdict.failures:
        print(f"\n{len(verdict.failures)} problems:", file=sys.stderr)
        for failure in verdict.failures:
            print(f"  {failure}", file=sys.stderr)
    sys.stdout.flush()
    return 1 if verdict.failures else 0
