# SPDX-License-Identifier: MIT
"""``tacet lint``: cppcheck on kernel/, ports/ and compat/ in every kernel configuration the
builds use (tacet.project.lint)."""

import argparse
from pathlib import Path

from tacet.core.errors import TacetError
from tacet.core.repo import find_repo
from tacet.project.lint import CONFIGURATIONS, cppcheck_command, find_cppcheck, lint


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "lint",
        help="cppcheck on kernel/, ports/ and compat/ in every kernel configuration",
        description="cppcheck on kernel/, ports/ and compat/, in every kernel configuration the "
        "builds use; fails on a finding without a suppression (with its reason) next to it.",
    )
    parser.add_argument("--repo", type=Path, default=None, help="the Tacet source tree")
    parser.add_argument("--cppcheck", default=None, help="the cppcheck program (default: PATH)")
    parser.add_argument(
        "--jobs", "-j", type=int, default=2, help="configurations checked at once (default: 2)"
    )
    parser.add_argument(
        "--list", action="store_true", help="print each configuration's command and exit"
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    repo = find_repo(Path.cwd(), args.repo)
    if args.jobs < 1:
        raise TacetError(f"--jobs {args.jobs}: must be at least 1")
    if args.list:
        for config in CONFIGURATIONS:
            print(f"{config.name}: {' '.join(cppcheck_command(repo, config))}")
        return 0
    return lint(repo, find_cppcheck(args.cppcheck), CONFIGURATIONS, args.jobs)
