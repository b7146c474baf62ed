# SPDX-License-Identifier: MIT
"""``tacet misra``: MISRA C:2012 findings on kernel/, counted by rule (tacet.project.misra)."""

import argparse
import re
import sys
from pathlib import Path

from tacet.core.errors import TacetError
from tacet.core.repo import find_repo
from tacet.project.lint import (
    cppcheck_version,
    find_cppcheck,
)
from tacet.project.misra import CONFIGURATION, COUNTED, SOURCES, misra_findings, rule_of, table


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "misra",
        help="MISRA C:2012 findings on kernel/ by rule (cppcheck's misra addon)",
        description="MISRA C:2012 findings on kernel/, counted by rule, from cppcheck's misra "
        "addon (rule numbers only: the rule texts are not shipped). See docs/misra.md.",
    )
    parser.add_argument("--repo", type=Path, default=None, help="the Tacet source tree")
    parser.add_argument("--cppcheck", default=None, help="the cppcheck program (default: PATH)")
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="N.M",
        help="also list where the rule's findings are (repeatable)",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    repo = find_repo(Path.cwd(), args.repo)
    for rule in args.rule:
        if not re.fullmatch(r"\d+\.\d+", rule):
            raise TacetError(f"--rule {rule}: expected a rule number such as 15.5")
    cppcheck = find_cppcheck(args.cppcheck)
    findings = misra_findings(repo, CONFIGURATION, cppcheck)
    elsewhere = [f for f in findings if not f.file.startswith(COUNTED)]
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
    for rule in args.rule:
        listed = [f for f in findings if rule_of(f) == rule]
        print(f"\nRule {rule}: {len(listed)} finding{'s' * (len(listed) != 1)}")
        for f in listed:
            print(f"  {f.file}:{f.line}:{f.column}")
    sys.stdout.flush()
    return 0
