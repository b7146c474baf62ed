"""``tacet run``: build an application and run it on its target, streaming its output.

The exit status is the program's: on the sim port the process's, under QEMU the
semihosting exit code (QEMU passes it on as its own exit status).
"""

import argparse
import signal
import subprocess
import sys
from collections.abc import Sequence

from tacet.build import build_app
from tacet.common import add_target_arguments, resolve_setup
from tacet.errors import TacetError
from tacet.host import exit_status, require_tool
from tacet.targets import QEMU

TIMEOUT_STATUS = 124  # as timeout(1)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run",
        help="build an application and run it on a target",
        description="Build APP for the target, run it (directly for sim, under QEMU for the "
        "qemu-* targets) and exit with the program's exit status.",
    )
    add_target_arguments(parser)
    parser.add_argument("app", metavar="APP", help="application directory, e.g. examples/hello")
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="stop the program after this many seconds of wall-clock time, 0 for never "
        "(default: 120 under QEMU, never on sim)",
    )
    parser.set_defaults(handler=handle)


def run_program(command: Sequence[str], timeout: float | None) -> int:
    """Run ``command`` with our stdin/stdout/stderr and return its exit status.

    Raises subprocess.TimeoutExpired (after killing it) when it outlives ``timeout``.
    """
    return subprocess.run(command, timeout=timeout, check=False).returncode


def handle(args: argparse.Namespace) -> int:
    if args.timeout is not None and args.timeout < 0:
        raise TacetError(f"--timeout {args.timeout:g}: must be 0 (no limit) or more seconds")
    setup = resolve_setup(args)
    target = setup.target
    if target.emulated:
        require_tool(QEMU, f"target {target.name}")
    timeout = target.run_timeout if args.timeout is None else (args.timeout or None)
    program = build_app(setup, args.app, output="on-failure")
    command = target.run_command(program)
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        returncode = run_program(command, timeout)
    except subprocess.TimeoutExpired:
        raise TacetError(
            f"{program.name} on {target.name} was still running after {timeout:g} s and was "
            "stopped (--timeout changes the limit)",
            status=TIMEOUT_STATUS,
        ) from None
    except OSError as error:
        raise TacetError(f"cannot run {command[0]}: {error.strerror}") from None
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        raise TacetError(
            f"{program.name} on {target.name} was killed by {name}", status=exit_status(returncode)
        )
    return returncode
