"""The ``tacet`` command line.

Subcommands live one per module. Each module listed in SUBCOMMANDS provides
``register(subparsers)``, which adds its parser and sets ``handler`` -- a function taking the
parsed arguments and returning the exit status. A new subcommand (config, analyze, simulate,
trace, bench, size ...) is a new module plus one entry here.

Handlers report bad input and failed steps by raising TacetError; ``main`` prints it as one
line, ``tacet: error: ...``, and exits non-zero.
"""

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType

from tacet import __version__, build, conformance, lint, misra, run, size, test, trace
from tacet.errors import TacetError

SUBCOMMANDS: tuple[ModuleType, ...] = (build, run, test, size, conformance, lint, misra, trace)


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


def main(argv: Sequence[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
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
