#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where the instructions of a Thread-Metric operation go, function by function.

Runs one test of a thread_metric ELF under QEMU, once plainly for the program's own figure and
once with one instruction per translation block and an execution log (bench/cm_switch/profile.py,
which leaves out what QEMU logged but did not run), keeps the instructions executed inside
the measured interval (between the reporter's two tmk_ticks() calls), and prints per
function the instructions per operation, with the total the program itself printed.

    python3 bench/thread_metric/profile.py build/qemu-m3/bench/thread_metric_lean cooperative

For the basic test it also prints what the tick costs: every instruction of the interval
outside the test thread's loop is the tick's (its handler and what it runs, a switch to a
timer thread included), per SysTick interrupt taken. The same programs run on every kernel
(tacet bench anchors), so this compares their ticks:

    python3 bench/thread_metric/profile.py build/qemu-m3/bench/thread_metric_threadx_bare basic

With --riscv, a program of the RISC-V build on QEMU's virt (RV32IMAC, -icount shift=0: a
millisecond is 10^6 instructions, so a few are enough), without the tick's split:

    python3 bench/thread_metric/profile.py build/qemu-rv32/bench/thread_metric_lean message --riscv --ms 2
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

OPS = re.compile(r"^\s+(\S+)\s+(\d+) ops\s+([\d.]+) instructions per op")


def cm_profile() -> ModuleType:
    """bench/cm_switch/profile.py, whose QEMU tracing this script reuses."""
    spec = importlib.util.spec_from_file_location(
        "cm_profile", Path(__file__).resolve().parent.parent / "cm_switch" / "profile.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("elf", type=Path)
    parser.add_argument("test", help="the Thread-Metric test, e.g. cooperative")
    parser.add_argument("--ms", type=int, default=20, help="interval in ms (default 20)")
    parser.add_argument("--m4", action="store_true", help="run on mps2-an386 (Cortex-M4F)")
    parser.add_argument("--riscv", action="store_true", help="run on virt (RV32IMAC)")
    parser.add_argument("--top", type=int, default=25, help="functions to list")
    args = parser.parse_args(argv)
    machine, cpu = ("mps2-an386", "cortex-m4") if args.m4 else ("mps2-an385", "cortex-m3")
    program_args = (f"{args.ms}ms", args.test)
    # The program's own figure from a plain run; the same run logged (-icount: the same
    # instructions) gives the functions.
    if args.riscv:
        qemu = ["qemu-system-riscv32", "-M", "virt", "-cpu", "rv32,f=off,d=off", "-bios", "none",
                "-rtc", "clock=vm", "-icount", "shift=0"]  # fmt: skip
    else:
        qemu = ["qemu-system-arm", "-M", machine, "-cpu", cpu, "-icount", "shift=5"]
    done = subprocess.run(
        [*qemu, "-nographic", "-semihosting-config", "enable=on,target=native",
         "-kernel", str(args.elf), "-append", " ".join(program_args)],
        check=False, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    rows = [m for m in map(OPS.match, done.stdout.splitlines()) if m]
    if done.returncode != 0 or not rows:
        print(f"profile: the program failed:\n{done.stdout}{done.stderr}", file=sys.stderr)
        return 1
    trace = cm_profile().executed(
        args.elf, args.m4, program_args, exact=True, riscv=args.riscv
    )
    funcs = [f for _, f in trace]
    _, ops, per_op = rows[0].group(1), int(rows[0].group(2)), float(rows[0].group(3))
    marks = [i for i, f in enumerate(funcs) if f == "tmk_ticks" and funcs[i - 1] != "tmk_ticks"]
    if len(marks) < 2 or ops == 0:
        print("profile: the measured interval was not found in the trace", file=sys.stderr)
        return 1
    window = funcs[marks[0] : marks[-1]]
    print(
        f"{args.test}: {ops} operations, {per_op} instructions per op as the program measured "
        f"them; {len(window) / ops:.1f} per op in the trace"
    )
    for func, n in collections.Counter(window).most_common(args.top):
        print(f"  {n / ops:7.1f}  {func}")
    if args.test == "basic" and not args.riscv:
        # From the first tick of the interval to its last: the reporter's sleep and wake-up
        # at its ends are not the tick's.
        handler = cm_profile().symbol_address(args.elf, "SysTick_Handler")
        span = trace[marks[0] : marks[-1]]
        entries = [i for i, (address, _) in enumerate(span) if address == handler]
        if len(entries) >= 2:
            between = span[entries[0] : entries[-1]]
            outside = sum(1 for _, f in between if f != "basic_thread")
            print(
                f"the tick: {outside / (len(entries) - 1):.1f} instructions per tick "
                f"({len(entries) - 1} ticks)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
