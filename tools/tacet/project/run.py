# SPDX-License-Identifier: MIT
"""``tacet run``: build an application and run it on its target, streaming its output.

The exit status is the program's: on the sim port the process's, under QEMU the
semihosting exit code (QEMU passes it on as its own exit status).
"""

import argparse
import dataclasses
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from tacet.core.errors import TacetError
from tacet.core.targets import BOARDS
from tacet.project.setup import Setup
from tacet.trace.format import dump_count

TIMEOUT_STATUS = 124  # as timeout(1)
CMDLINE_SIZE = 256  # the Cortex-M port's semihosting command line buffer, NUL included


_SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def trace_size(text: str) -> int:
    """``--trace-size``: bytes, with an optional K, M or G (binary multiples, KiB ... too)."""
    body = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = body[-1:] if body[-1:] in _SIZE_UNITS else ""
    number = body[: len(body) - len(unit)]
    if not number.isdigit() or int(number) == 0:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a number of bytes, e.g. 4M or 65536")
    return int(number) * _SIZE_UNITS[unit]


def run_program(
    command: Sequence[str], timeout: float | None, env: Mapping[str, str] | None = None
) -> int:
    """Run ``command`` with our stdin/stdout/stderr and return its exit status.

    Raises subprocess.TimeoutExpired (after killing it) when it outlives ``timeout``.
    """
    return subprocess.run(command, timeout=timeout, check=False, env=env).returncode


def traced_setup(setup: Setup, explicit_build_dir: bool) -> Setup:
    """The setup of a traced build: the kernel with TC_TRACE=1, in a build directory of its
    own (the untraced one stays as it is)."""
    target = dataclasses.replace(
        setup.target,
        extra_definitions=(*setup.target.extra_definitions, ("TACET_DEFINITIONS", "TC_TRACE=1")),
    )
    build_dir = (
        setup.build_dir
        if explicit_build_dir
        else setup.build_dir.with_name(f"{setup.build_dir.name}-trace")
    )
    return dataclasses.replace(setup, target=target, build_dir=build_dir)


def semihosting_words(what: str, text: str) -> str:
    """`text` as a word of the semihosting command line (QEMU's `arg=`), which the Cortex-M
    port splits at spaces and tabs and QEMU's option syntax at commas."""
    if not text or any(c in text for c in " \t,"):
        raise TacetError(
            f"{what} {text!r}: under QEMU it may not be empty or hold spaces or commas "
            "(it travels on the semihosting command line)"
        )
    return text


def emulated_command(
    command: list[str],
    program: Path,
    program_args: Sequence[str],
    trace: Path | None,
    trace_options: Sequence[str] = (),
) -> list[str]:
    """QEMU's command line with the program's arguments, and the trace's file and options when
    there is one, on the program's command line (semihosting): argv[0] is the program's name,
    and the port takes `--tacet-trace=FILE` (and `--tacet-trace-size=`, `--tacet-trace-mode=`)
    out before main() sees the rest."""
    words = [program.name]
    words += [semihosting_words("program argument", a) for a in program_args]
    if trace is not None:
        words.append("--tacet-trace=" + semihosting_words("--trace", str(trace)))
        words += trace_options
    line = " ".join(words)
    if len(line) >= CMDLINE_SIZE:
        raise TacetError(
            f"the program's command line under QEMU is {len(line)} bytes ({line[:40]}...); the "
            f"Cortex-M port takes at most {CMDLINE_SIZE - 1} (TC_CM_CMDLINE_SIZE)"
        )
    if len(words) > 1:
        i = command.index("-semihosting-config") + 1
        command[i] += "".join(f",arg={w}" for w in words)
    return command


def report_trace(trace: Path, program: str, target: str, returncode: int) -> None:
    if not trace.is_file():
        raise TacetError(
            f"{program} on {target} wrote no trace to {trace} (its kernel run did not end: a "
            "trace is written when tc_kernel_start() returns)",
            status=returncode or 1,
        )
    runs = dump_count(trace.read_bytes())
    what = "one kernel run" if runs == 1 else f"{runs} kernel runs, a dump each"
    print(
        f"tacet: trace of {program} in {trace} ({trace.stat().st_size} bytes, {what}; "
        "tacet trace reads it)",
        file=sys.stderr,
    )


def launch(
    args: argparse.Namespace, setup: Setup, program: Path, trace: Path | None
) -> tuple[list[str], dict[str, str] | None]:
    """The command that runs ``program`` and its environment (None: ours): the program's
    arguments and, when traced, the trace's file, size and mode, as its port takes them (the
    sim port from the environment, the Cortex-M port from its command line)."""
    target = setup.target
    command = target.run_command(program)
    if target.emulated:
        options = [f"--tacet-trace-size={args.trace_size}"] if args.trace_size else []
        options += [f"--tacet-trace-mode={args.trace_mode}"] if args.trace_mode else []
        return emulated_command(command, program, args.program_args, trace, options), None
    command += args.program_args
    if trace is None:
        return command, None
    env = dict(os.environ, TACET_TRACE=str(trace))
    if args.trace_size:
        env["TACET_TRACE_SIZE"] = str(args.trace_size)
    if args.trace_mode:
        env["TACET_TRACE_MODE"] = args.trace_mode
    return command, env


def check_runnable(setup: Setup) -> None:
    """Refuse, before building, a board whose programs nothing here can run."""
    if setup.board is not None and not BOARDS[setup.board].emulated:
        raise TacetError(
            f"board {setup.board}: QEMU has no model of it, so its programs cannot run here; "
            f"`tacet build --target {setup.target.name} --board {setup.board}` builds the "
            "program, to flash to the board (docs/porting.md)"
        )
