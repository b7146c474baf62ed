# SPDX-License-Identifier: MIT
"""``tacet size``: the kernel's flash and RAM per module on Cortex-M
(tacet.project.footprint)."""

import argparse
from pathlib import Path

from tacet.project import footprint


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "size",
        help="kernel flash and RAM per module on Cortex-M (-Os, checks off)",
        description=footprint.__doc__.splitlines()[0]
        + " Builds a minimal and a full configuration and prints a table for each.",
    )
    parser.add_argument("--cpu", choices=("cortex-m3", "cortex-m4f"), default="cortex-m3")
    parser.add_argument(
        "--build-root", type=Path, default=None, help="where to build (default: <repo>/build)"
    )
    parser.add_argument("--repo", type=Path, default=None, help="the Tacet source tree")
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit with status 1 when a configuration misses its goal",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    argv = ["--cpu", args.cpu]
    if args.build_root is not None:
        argv += ["--build-root", str(args.build_root)]
    if args.repo is not None:
        argv += ["--repo", str(args.repo)]
    if args.check:
        argv.append("--check")
    return footprint.main(argv)
