# SPDX-License-Identifier: MIT
"""The ``tacet`` command line.

Subcommands live one per module of this package. Each module listed in SUBCOMMANDS provides
``register(subparsers)``, which adds its parser and sets ``handler`` -- a function taking the
parsed arguments and returning the exit status. A new subcommand (config, analyze, simulate,
trace, bench, size ...) is a new module plus one entry here.

Handlers report bad input and failed steps by raising TacetError; ``main`` prints it as one
line, ``tacet: error: ...``, and exits non-zero.

The top layer: a command module may import every package; nothing imports this package but
tacet.__main__. A handler stays thin -- it turns options into calls of the capability packages
and their results into output and an exit status.
"""

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType

from tacet import __version__
from tacet.cli import (
    analyze,
    bench,
    build,
    config,
    conformance,
    lint,
    misra,
    new,
    power,
    prove,
    run,
    simulate,
    size,
    test,
    trace,
)
from tacet.core.errors import TacetError

SUBCOMMANDS: tuple[ModuleType, ...] = (
    build,
    run,
    test,
    size,
    conformance,
    lint,
    misra,
    prove,
    trace,
    config,
    analyze,
    simulate,
    power,
    bench,
    new,
)


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tacet",
        description="Build, run and test Tacet kernel applications on the sim port and QEMU.",
    )
    parser.add_argument("--version", action="version", version=f"tacet {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in SUBCOMMANDS:
        module.register(subparsers)
    return parser


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse the command line. A subcommand that runs a program (its parser's defaults hold
    ``program_args``) takes everything after the first ``--`` as that program's arguments;
    for the others ``--`` keeps its usual meaning (the end of the options)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = make_parser()
    # The subcommand is the first word that is not an option (the top-level options take no
    # value).
    command = next((a for a in argv if not a.startswith("-")), None)
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub = subparsers.choices.get(command) if command is not None else None
    if sub is not None and sub.get_default("program_args") is not None and "--" in argv:
        i = argv.index("--")
        args = parser.parse_args(argv[:i])
        args.program_args = argv[i + 1 :]
        return args
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    try:
        return args.handler(args)
    except TacetError as error:
        print(f"tacet: error: {error.message}", file=sys.stderr)
        return error.status
    except OSError as error:
        where = f": {error.filename}" if error.filename else ""
        print(f"tacet: error: {error.strerror or error}{where}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("tacet: interrupted", file=sys.stderr)
        return 130
