#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where the instructions of one context switch go, function by function.

Runs a cm_switch ELF under QEMU with one instruction per translation block and an execution
log (-singlestep -d exec,nochain), cuts the log at each entry into PendSV_Handler and prints,
for a switch in the middle of each measurement, the instructions executed per function from
one PendSV entry to the next: (a) a yield ping-pong switch, (b) a preemption round (a
semaphore give to the higher-priority thread and its take: two switches), (c) a preemption
round by resume (resume of the higher-priority thread and its self-suspension). With --riscv,
an rv_switch ELF (the RISC-V port) on QEMU's virt, cut at each entry into the switch routine,
tc__rv_switch.

    python3 bench/cm_switch/profile.py build/qemu-m3/bench/cm_switch_lean [--m4]
    python3 bench/cm_switch/profile.py build/qemu-rv32/bench/rv_switch_lean --riscv
"""

from __future__ import annotations

import argparse
import bisect
import collections
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

# The function is empty where QEMU knows no symbol of a size around the address (assembly
# without .size, as some kernels' ports are written): executed() names it from the ELF file.
TRACE = re.compile(r"Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/[0-9a-f]+/[0-9a-f]+\] ?(\S*)")


# QEMU's notes that the block it just logged did not run to its end: an I/O access in the
# middle of a block under -icount ("rewound execution of TB to <pc>"), or an interrupt taken
# before it ("Stopped execution of TB chain before <host address> [<pc>]").
NOT_RUN = re.compile(r"cpu_io_recompile: rewound execution of TB to ([0-9a-f]+)"
                     r"|Stopped execution of TB chain before \S+ \[([0-9a-f]+)\]")  # fmt: skip


def executed(
    elf: Path,
    m4: bool,
    program_args: tuple[str, ...] = (),
    exact: bool = False,
    riscv: bool = False,
) -> list[tuple[int, str]]:
    """(address, function) of every instruction the program executes, in order, as QEMU logs
    them (`program_args`: its command line, through QEMU's -append). With `exact`, an
    instruction QEMU logged but did not complete (see NOT_RUN) is left out: it is logged again
    when it runs. With `riscv`, on the RISC-V port's board (RV32IMAC on virt)."""
    if riscv:
        qemu = ["qemu-system-riscv32", "-M", "virt", "-cpu", "rv32,f=off,d=off", "-bios", "none",
                "-rtc", "clock=vm", "-icount", "shift=0"]  # fmt: skip
    else:
        machine, cpu = ("mps2-an386", "cortex-m4") if m4 else ("mps2-an385", "cortex-m3")
        qemu = ["qemu-system-arm", "-M", machine, "-cpu", cpu, "-icount", "shift=5"]
    append = ["-append", " ".join(program_args)] if program_args else []
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "exec.log"
        subprocess.run(
            [*qemu, "-nographic", "-semihosting-config", "enable=on,target=native", "-singlestep",
             "-d", "exec,nochain", "-D", str(log), "-kernel", str(elf), *append],
            check=True, stdout=subprocess.DEVNULL, timeout=120,
        )  # fmt: skip
        out: list[tuple[int, str]] = []
        nearest = symbols(elf, riscv)
        for line in log.read_text().splitlines():
            if m := TRACE.match(line):
                address = int(m.group(1), 16)
                out.append((address, m.group(2) or nearest(address)))
            elif exact and (n := NOT_RUN.match(line)) and out:
                not_run = int(n[1] or n[2], 16)
                if out[-1][0] == not_run:
                    out.pop()
        return out


def symbols(elf: Path, riscv: bool = False) -> Callable[[int], str]:
    """address -> the name of the nearest code symbol at or below it (nm)."""
    nm = "riscv64-unknown-elf-nm" if riscv else "arm-none-eabi-nm"
    listed = subprocess.run([nm, "-n", str(elf)], check=True, capture_output=True, text=True).stdout
    table = []
    for line in listed.splitlines():
        words = line.split()
        if len(words) == 3 and words[1] in "tTwW" and not words[2].startswith("$"):
            table.append((int(words[0], 16) & ~1, words[2]))
    starts = [a for a, _ in table]

    def name(address: int) -> str:
        i = bisect.bisect_right(starts, address) - 1
        return table[i][1] if i >= 0 else f"0x{address:x}"

    return name


def symbol_address(elf: Path, name: str) -> int:
    """Where the function `name` starts (its first instruction, without the Thumb bit)."""
    listed = subprocess.run(
        ["arm-none-eabi-nm", str(elf)], check=True, capture_output=True, text=True
    ).stdout
    for line in listed.splitlines():
        words = line.split()
        if len(words) == 3 and words[2] == name:
            return int(words[0], 16) & ~1
    raise KeyError(name)


def trace(elf: Path, m4: bool, riscv: bool = False) -> list[str]:
    return [func for _, func in executed(elf, m4, exact=True, riscv=riscv)]


def windows(funcs: list[str], switch: str = "PendSV_Handler") -> list[list[str]]:
    """The instruction stream cut at each entry into the switch code, `switch`."""
    cuts = [i for i, f in enumerate(funcs) if f == switch and funcs[i - 1] != switch]
    return [funcs[a:b] for a, b in zip(cuts, cuts[1:])]


def rounds(ws: list[list[str]], high: str, wake: str) -> list[list[str]]:
    """Pairs of windows: the higher-priority thread (entry function `high`) waits, then the
    lower one calls `wake`."""
    return [w + ws[i + 1] for i, w in enumerate(ws[:-1]) if high in w and wake in ws[i + 1]]


def show(title: str, instructions: list[str]) -> None:
    print(f"{title}: {len(instructions)} instructions")
    for func, n in collections.Counter(instructions).most_common():
        print(f"  {n:5d}  {func}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("elf", type=Path)
    parser.add_argument("--m4", action="store_true", help="run on mps2-an386 (Cortex-M4F)")
    parser.add_argument("--riscv", action="store_true", help="an rv_switch ELF, on QEMU's virt")
    args = parser.parse_args(argv)
    switch = "tc__rv_switch" if args.riscv else "PendSV_Handler"
    ws = windows(trace(args.elf, args.m4, args.riscv), switch)
    yields = [w for w in ws if "tc_thread_yield" in w]
    # A round: from `high`'s wait (its entry function's loop) to PendSV, then `low`'s wake-up
    # call to PendSV.
    gives = rounds(ws, "taker_entry", "tc_sem_give")
    resumes = rounds(ws, "suspender_entry", "tc_thread_resume")
    if not yields or not gives or not resumes:
        print("profile: measurement phases not found in the trace", file=sys.stderr)
        return 1
    show(f"(a) one yield switch, {switch} entry to {switch} entry", yields[len(yields) // 2])
    show("(b) one preemption round by semaphore give (two switches)", gives[len(gives) // 2])
    show("(c) one preemption round by resume (two switches)", resumes[len(resumes) // 2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
