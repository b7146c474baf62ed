# SPDX-License-Identifier: MIT
"""``tacet run``: build an application and run it on its target, streaming its output."""

import argparse
import signal
import subprocess
import sys
from pathlib import Path

from tacet.cli.options import add_target_arguments
from tacet.core.errors import TacetError
from tacet.core.host import exit_status, require_tool
from tacet.project.build import build_app
from tacet.project.run import (
    TIMEOUT_STATUS,
    check_runnable,
    launch,
    report_trace,
    run_program,
    trace_size,
    traced_setup,
)
from tacet.project.setup import resolve_app_setup


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run",
        help="build an application and run it on a target",
        usage="%(prog)s [options] [APP] [-- ARG...]",
        description="Build APP for the target, run it (directly for sim, under QEMU for the "
        "qemu-* targets) and exit with the program's exit status. APP is an application of the "
        "Tacet tree (examples/hello) or a project of one's own such as tacet new writes; "
        "omitted, the project the current directory is in. The ARGs after `--` are the "
        "program's command line (argv[1..]); under QEMU they travel on the semihosting command "
        "line, so they may not hold spaces or commas.",
    )
    add_target_arguments(parser, boards=True)
    parser.add_argument(
        "app",
        metavar="APP",
        nargs="?",
        help="application directory, e.g. examples/hello, or a project's directory (default: "
        "the project the current directory is in)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="stop the program after this many seconds of wall-clock time, 0 for never "
        "(default: 120 under QEMU, never on sim)",
    )
    parser.add_argument(
        "--trace",
        type=Path,
        metavar="FILE",
        help="build with the event trace compiled in (TC_TRACE=1, in build/<target>-trace), "
        "record each kernel run and write its trace to FILE when it ends, one dump per run "
        "(tacet trace reads them; docs/trace.md)",
    )
    parser.add_argument(
        "--trace-size",
        type=trace_size,
        metavar="BYTES",
        help="with --trace: the trace buffer's size, e.g. 4M or 65536 (default: 16M on sim; "
        "the free heap less 64K under QEMU)",
    )
    parser.add_argument(
        "--trace-mode",
        choices=("wrap", "stop"),
        help="with --trace: when the buffer fills, keep the newest events (wrap, the default) "
        "or the first ones (stop)",
    )
    # Everything after the first `--` goes to the program (cli.parse splits it off: argparse
    # cannot tell a program's `--flag` from one of ours when options follow APP).
    parser.set_defaults(handler=handle, program_args=[])


def handle(args: argparse.Namespace) -> int:
    if args.timeout is not None and args.timeout < 0:
        raise TacetError(f"--timeout {args.timeout:g}: must be 0 (no limit) or more seconds")
    if args.trace is None and (args.trace_size is not None or args.trace_mode is not None):
        raise TacetError("--trace-size and --trace-mode go with --trace FILE")
    setup = resolve_app_setup(args, args.app)
    check_runnable(setup)
    target = setup.target
    if target.emulated:
        require_tool(target.qemu, f"target {target.name}")
    timeout = target.run_timeout if args.timeout is None else (args.timeout or None)
    trace: Path | None = None
    if args.trace is not None:
        trace = (setup.cwd / args.trace).resolve()
        if not trace.parent.is_dir():
            raise TacetError(f"--trace {args.trace}: no directory {trace.parent}")
        trace.unlink(missing_ok=True)  # a stale dump must not pass for this run's
        setup = traced_setup(setup, args.build_dir is not None)
    program = build_app(setup, args.app, output="on-failure")
    command, env = launch(args, setup, program, trace)
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        returncode = run_program(command, timeout, env)
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
    if trace is not None:
        report_trace(trace, program.name, target.name, returncode)
    return returncode
