#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Thread-Metric on Tacet's API beside the same tests through CMSIS-RTOS2, on qemu-m3.

Builds bench/thread_metric (Tacet's porting layer, port_tacet.h) and thread_metric_cmsis_os2
(the CMSIS-RTOS2 one, port_cmsis_os2.h, on tacet::cmsis_os2) in a qemu-m3 build tree, runs
both on QEMU's mps2-an385 with -icount shift=5 (instructions are time: every run prints the
same figures) and prints instructions per operation side by side, with the ratio of each
CMSIS figure to Tacet's own.

Given the source trees of other kernels, the same CMSIS-RTOS2 program is built against them
too, and their columns follow (nothing of theirs is in this repository; the glue is
cmsis_kernels/, Tacet's):

  --rtx DIR              ARM-software/CMSIS-RTX (RTX5)
  --freertos DIR         FreeRTOS/FreeRTOS-Kernel, with --cmsis-freertos DIR:
                         ARM-software/CMSIS-FreeRTOS (ARM's CMSIS-RTOS2 wrapper)
  --cmsis6 DIR           ARM-software/CMSIS_6 (CMSIS-Core, cmsis_os2.h, os_tick): either needs it

    python3 bench/thread_metric/compare.py [--build build/qemu-m3] [--seconds 2]
        [--cmsis6 DIR [--rtx DIR] [--freertos DIR --cmsis-freertos DIR]]

Exit status 0 when every program ran and every test's own check passed.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
TESTS = ("basic", "cooperative", "preemptive", "interrupt", "interrupt_preemption", "message",
         "synchronization", "memory")  # fmt: skip
LINE = re.compile(
    r"^\s+(?P<test>\w+)\s+\d+ ops\s+(?P<value>[\d.]+) instructions per op\s+\([^)]*\)"
    r"(?P<failed>\s+CHECK FAILED)?$"
)
HEADER = re.compile(r"^Thread-Metric on (?P<kernel>.+?) \(")


def run_on_qemu(elf: Path, seconds: int) -> tuple[str, dict[str, float], bool]:
    """The kernel's name, each test's instructions per op, and whether all ran and passed."""
    done = subprocess.run(
        ["qemu-system-arm", "-M", "mps2-an385", "-cpu", "cortex-m3", "-nographic",
         "-icount", "shift=5", "-semihosting-config",
         f"enable=on,target=native,arg={elf.name},arg={seconds}", "-kernel", str(elf)],
        capture_output=True, text=True, timeout=1800, check=False,
    )  # fmt: skip
    kernel, values, ok = elf.name, {}, done.returncode == 0
    for line in done.stdout.splitlines():
        if m := HEADER.match(line):
            kernel = m["kernel"]
        elif m := LINE.match(line):
            values[m["test"]] = float(m["value"])
            ok = ok and not m["failed"]
    if list(values) != list(TESTS):
        print(f"compare: {elf}: not every test reported:\n{done.stdout}{done.stderr}",
              file=sys.stderr)  # fmt: skip
        ok = False
    return kernel, values, ok


def build_tacet(build: Path) -> list[Path]:
    if not (build / "CMakeCache.txt").is_file():
        subprocess.run(["cmake", "--preset", "qemu-m3", "-B", str(build)], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
    targets = ["thread_metric", "thread_metric_cmsis_os2"]
    subprocess.run(["cmake", "--build", str(build), "-j2", "--target", *targets], check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    return [build / "bench" / t for t in targets]


def build_other(kind: str, args: argparse.Namespace, out: Path) -> Path:
    """The CMSIS-RTOS2 program on another kernel: cmsis_kernels/build.sh with its trees."""
    trees = {"rtx": [args.rtx], "freertos": [args.freertos, args.cmsis_freertos]}[kind]
    subprocess.run(
        ["bash", str(HERE / "cmsis_kernels" / "build.sh"), kind, str(out), str(args.cmsis6),
         *map(str, trees)],
        check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    return out / "thread_metric_cmsis_os2"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", type=Path, default=ROOT / "build" / "qemu-m3",
                        help="the qemu-m3 build tree (default build/qemu-m3)")  # fmt: skip
    parser.add_argument("--seconds", type=int, default=2, help="interval per test (default 2)")
    parser.add_argument("--cmsis6", type=Path, help="a checkout of ARM-software/CMSIS_6")
    parser.add_argument("--rtx", type=Path, help="a checkout of ARM-software/CMSIS-RTX")
    parser.add_argument("--freertos", type=Path, help="a checkout of FreeRTOS/FreeRTOS-Kernel")
    parser.add_argument("--cmsis-freertos", type=Path,
                        help="a checkout of ARM-software/CMSIS-FreeRTOS")  # fmt: skip
    args = parser.parse_args(argv)
    if (args.rtx or args.freertos) and args.cmsis6 is None:
        parser.error("--rtx and --freertos need --cmsis6")
    if bool(args.freertos) != bool(args.cmsis_freertos):
        parser.error("--freertos and --cmsis-freertos go together")
    programs = build_tacet(args.build.resolve())
    for kind, given in (("rtx", args.rtx), ("freertos", args.freertos)):
        if given:
            programs.append(build_other(kind, args, args.build.resolve() / f"tm-{kind}"))
    columns = [run_on_qemu(p, args.seconds) for p in programs]
    names = ["Tacet", *(f"{k.split()[0]} via CMSIS" for k, _, _ in columns[1:])]
    print(f"Thread-Metric on qemu-m3 (mps2-an385, -icount shift=5), {args.seconds} s a test: "
          "instructions per operation; x: the figure / Tacet's own")  # fmt: skip
    for i, (kernel, _, _) in enumerate(columns):
        print(f"  {names[i]}: {kernel}, {programs[i]}")
    width = max(len(n) for n in names) + 4
    print(f"{'test':22}" + "".join(f"{n:>{width}}" for n in names))
    native = columns[0][1]
    for test in TESTS:
        cells = []
        for i, (_, values, _) in enumerate(columns):
            v = values.get(test)
            text = "-" if v is None else f"{v:.1f}"
            if i > 0 and v is not None and native.get(test):
                text += f" x{v / native[test]:.2f}"
            cells.append(f"{text:>{width}}")
        print(f"{test:22}" + "".join(cells))
    ok = all(c[2] for c in columns)
    if not ok:
        print("compare: a program failed or a test's check failed", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    os.environ.setdefault("TACET_PYTHON", sys.executable)
    sys.exit(main(sys.argv[1:]))
