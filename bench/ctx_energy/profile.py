#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What the difference of Pillai and Isha's experiment is made of, function by function.

Runs a ctx_energy ELF (bench/ctx_energy) with the argument `profile` under QEMU twice: once as
it is, for the cycles per transmission it measures, and once with an execution log (the
tracing of bench/cm_switch/profile.py: one instruction per translation block, without the
instructions QEMU logs but does not complete, at an I/O access or an interrupt). In the log each
run's measured part runs from the UART task's first ctx_uart_send() to its closing
tc_energy_report(). For each MAC size the script prints, per function, the instructions per
transmission that the preempted runs execute beyond the sequential one: the switch's own
path, function by function, and the MAC code's difference (none). The totals must equal the
differences the program measured with its clock (to the clock's 1.25-instruction grain over
the run); the exit status says whether they do.

    python3 bench/ctx_energy/profile.py build/qemu-m3/bench/ctx_energy [--m4]
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

HERE = Path(__file__).resolve().parent
WAYS = ("none", "give", "interrupt")
SIZES = (4, 16, 32)
MEASURED = re.compile(r"profile: MAC (\d+), preemption (\w+): ([\d.]+) cycles per transmission")


def cm_profile() -> ModuleType:
    """bench/cm_switch/profile.py, whose QEMU tracing this script reuses."""
    spec = importlib.util.spec_from_file_location(
        "cm_profile", HERE.parent / "cm_switch" / "profile.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def repeats() -> int:
    """CTX_REPEATS of ctx.h: the transmissions in each run."""
    found = re.search(r"#define\s+CTX_REPEATS\s+(\d+)u?", (HERE / "ctx.h").read_text())
    if found is None:
        raise SystemExit("profile: CTX_REPEATS not found in ctx.h")
    return int(found.group(1))


def measured(elf: Path, m4: bool) -> dict[tuple[int, str], float]:
    """The program's own figures: cycles per transmission for each (MAC size, way)."""
    machine, cpu = ("mps2-an386", "cortex-m4") if m4 else ("mps2-an385", "cortex-m3")
    out = subprocess.run(
        ["qemu-system-arm", "-M", machine, "-cpu", cpu, "-nographic", "-icount", "shift=5",
         "-semihosting-config", "enable=on,target=native", "-kernel", str(elf),
         "-append", "profile"],
        check=True, capture_output=True, text=True, timeout=120,
    ).stdout  # fmt: skip
    return {(int(m[1]), m[2]): float(m[3]) for m in MEASURED.finditer(out)}


def runs(funcs: list[str]) -> list[list[str]]:
    """The measured part of each run: from the first ctx_uart_send after a tc_energy_report to
    the next entry into tc_energy_report."""
    out: list[list[str]] = []
    i, n = 0, len(funcs)
    while i < n:
        if funcs[i] != "tc_energy_report":
            i += 1
            continue
        while i < n and funcs[i] != "ctx_uart_send":
            i += 1
        start = i
        while i < n and not (funcs[i] == "tc_energy_report" and funcs[i - 1] != "tc_energy_report"):
            i += 1
        if i >= n:
            break
        out.append(funcs[start:i])
        while i < n and funcs[i] == "tc_energy_report":
            i += 1
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("elf", type=Path)
    parser.add_argument("--m4", action="store_true", help="run on mps2-an386 (Cortex-M4F)")
    args = parser.parse_args(argv)
    if not args.elf.is_file():
        print(
            f"profile: {args.elf}: no such program (build the target ctx_energy)", file=sys.stderr
        )
        return 1
    n = repeats()
    figures = measured(args.elf, args.m4)
    log = cm_profile().executed(args.elf, args.m4, ("profile",), exact=True)
    found = runs([func for _, func in log])
    if len(found) != len(SIZES) * len(WAYS) or len(figures) != len(found):
        print(f"profile: expected {len(SIZES) * len(WAYS)} runs, found {len(found)} in the trace "
              f"and {len(figures)} in the output", file=sys.stderr)  # fmt: skip
        return 1
    counts = {(s, w): collections.Counter(found[i * len(WAYS) + j])
              for i, s in enumerate(SIZES) for j, w in enumerate(WAYS)}  # fmt: skip
    columns = [(s, w) for w in WAYS[1:] for s in SIZES]
    extra = {c: counts[c] - counts[c[0], "none"] for c in columns}
    fewer = {c: counts[c[0], "none"] - counts[c] for c in columns}
    names = sorted({f for c in columns for f in (*extra[c], *fewer[c])} | {"mac", "mac_job"},
                   key=lambda f: (-extra[columns[0]][f], f))  # fmt: skip
    print(
        f"Instructions per preemption (one transmission, two switches) beyond the sequential run,"
        f" by function; QEMU's executed instructions, {n} transmissions per run"
    )
    label = {"give": "give", "interrupt": "irq"}
    print(f"{'function':28s}" + "".join(f"{label[w]:>5s}{s:>3d}" for s, w in columns))

    def cell(c: tuple[int, str], f: str) -> str:
        # `mac` may be a clone (mac.constprop.0): count every function of that name.
        def get(counter: collections.Counter[str]) -> int:
            return sum(v for k, v in counter.items() if k == f or k.startswith(f + "."))

        return f"{(get(extra[c]) - get(fewer[c])) / n:8.1f}"

    for f in names:
        if f.startswith("mac."):
            continue
        print(f"{f:28s}" + "".join(cell(c, f) for c in columns))
    status = 0
    totals, program = [], []
    for c in columns:
        total = (sum(counts[c].values()) - sum(counts[c[0], "none"].values())) / n
        totals.append(f"{total:8.1f}")
        clock = figures[c] - figures[c[0], "none"]
        program.append(f"{clock:8.1f}")
        if abs(total - clock) > 2 * 1.25 / n + 1e-9:
            status = 1
    print(f"{'total (the difference)':28s}" + "".join(totals))
    print(f"{'measured by the program':28s}" + "".join(program))
    print(f"{'per switch':28s}" + "".join(f"{float(t) / 2:8.1f}" for t in totals))
    if status:
        print("profile: the trace and the program's clock disagree", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
