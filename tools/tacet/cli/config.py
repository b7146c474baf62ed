# SPDX-License-Identifier: MIT
"""``tacet config``: check a system description and generate its C start-up code.

``tacet config app.yaml`` checks the description (tacet.app.description), prints a short summary and
writes ``tacet_app.c`` and ``tacet_app.h`` (tacet.app.generate) into the output directory. The CMake
function ``tacet_add_app`` (cmake/TacetApp.cmake) runs it at build time, with ``--depfile`` so
that the build also follows the board.power table the description names.
"""

import argparse
import sys
from pathlib import Path

from rich.console import Console

from tacet.app import generate as appgen
from tacet.app.description import load
from tacet.app.summary import print_description
from tacet.core.repo import find_repo_of
from tacet.core.targets import TARGETS


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "config",
        help="check a system description (app.yaml) and generate tacet_app.c / tacet_app.h",
        description="Check the system description APP.yaml against the schema "
        "(schema/tacet-app.schema.json) and the rules beyond it, print a summary and write "
        "tacet_app.c and tacet_app.h into DIR. Priorities and thresholds given as `auto` are "
        "chosen by the analysis. Errors name the file, the line and the field.",
    )
    parser.add_argument("description", type=Path, metavar="APP.yaml", help="the description")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path(),
        metavar="DIR",
        help="where to write tacet_app.c and tacet_app.h (default: the current directory)",
    )
    parser.add_argument(
        "--check", action="store_true", help="check the description only; write nothing"
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="print nothing but errors (for build systems)"
    )
    parser.add_argument(
        "--target",
        choices=list(TARGETS),
        help="check the description for a build for this target: its stacks against this "
        "target's minimum only (TC_PORT_STACK_MIN), and the target among the description's "
        "targets. Without it a stack too small for some of the targets is a warning, and one "
        "too small for all of them an error. tacet_add_app passes the build's target",
    )
    parser.add_argument(
        "--depfile",
        type=Path,
        metavar="FILE",
        help="also write a Makefile-style list of the files the output depends on besides the "
        "description (its board.power table), for build systems",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    app = load(args.description, target=args.target)
    for warning in app.warnings:
        print(f"tacet: warning: {warning}", file=sys.stderr)
    threads = app.resolved_threads()
    console = Console(highlight=False)
    if not console.is_terminal:  # a log or a pipe: no need to squeeze into 80 columns
        console = Console(highlight=False, width=120)
    if not args.quiet:
        print_description(console, app, threads)
    if args.check:
        return 0
    name = appgen.input_name(args.description, find_repo_of(args.description))
    header, source = appgen.write(appgen.generate(app, name, threads), args.output)
    if args.depfile is not None:
        appgen.write_depfile(args.depfile, source, app)
    if not args.quiet:
        console.print(f"wrote {source} and {header}", soft_wrap=True)
    return 0
