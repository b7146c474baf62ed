# SPDX-License-Identifier: MIT
"""Kim et al.'s experiment on the engine: ``tacet simulate --regfiles`` (or ``python -m
tacet.sim.regfiles`` with its options).

Kim, Kwon, Han & Cho ran uC/OS-II on an ATmega103 with 1 to 6 register files, five periodic
tasks (their table 1: periods 1, 3, 5, 14 and 57 ticks of 10 ms, busy loops of 7,000 to 21,650
iterations, rate-monotonic priorities) for 4,000 ticks, and report the idle task's time against
the number of files (about 23 % more with the files), then the same with T4's loop at 19,100
iterations, which starves the tasks on one file and not on several. Here the same task set runs
on the real kernel, fully preemptive, with the paper's mapping and switch cost (eqs. 1-4, in C:
simulator/regfiles.c) on an AVR's figures. The paper gives neither the clock nor the cost of
one loop iteration: the defaults are the ATmega103's highest clock, 6 MHz, and 4 cycles (SBIW
and BRNE, a 16-bit countdown). The starvation case needs a load within the switching overhead
of 1; ``window`` finds the loop costs for which T4 = 19,100 misses deadlines on one file and
not on six, and the table is printed again inside it. docs/simulator.md shows the output.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

from tacet.app.description import REPO
from tacet.sim import engine
from tacet.sim.taskset import SimTask, TaskSet

PERIODS = (1, 3, 5, 14, 57)  # ticks (table 1)
LOOPS = (7_000, 7_800, 15_000, 18_900, 21_650)  # iterations per job (table 1)
STARVING_T4 = 19_100  # section 4.3
TICK_S = Fraction(1, 100)  # 10 ms
TICKS = 4_000  # "We run this application for 4000 tick."
FILES = range(1, 7)
CLOCK_HZ = 6_000_000
LOOP_CYCLES = Fraction(4)


def table1(clock_hz: int, loop_cycles: Fraction, t4: int = LOOPS[3]) -> TaskSet:
    """Table 1 in cycles: rate-monotonic priorities 0..4, fully preemptive."""
    tick = int(clock_hz * TICK_S)
    loops = (*LOOPS[:3], t4, LOOPS[4])
    return TaskSet(
        tuple(
            SimTask(f"T{i + 1}", i, i, p * tick, p * tick, round(n * loop_cycles))
            for i, (p, n) in enumerate(zip(PERIODS, loops, strict=True))
        )
    )


@dataclass(frozen=True)
class Row:
    files: int
    own: int  # tasks alone on a file
    result: engine.Result

    @property
    def idle(self) -> float:
        return self.result.idle_cycles / self.result.end

    @property
    def switching(self) -> float:
        return self.result.switch_cycles / self.result.end


def experiment(eng: engine.Engine, ts: TaskSet, clock_hz: int, model: engine.RegFiles) -> list[Row]:
    horizon = int(TICKS * clock_hz * TICK_S)
    rows = []
    for files in FILES:
        mapped, shared = eng.regfile_map([t.period for t in ts.tasks], files)
        own = 0 if files == 1 else len(mapped) - shared
        result = eng.run(ts, horizon=horizon, regfiles=replace(model, files=files))
        rows.append(Row(files, own, result))
    return rows


def table(rows: list[Row]) -> list[str]:
    first = rows[0]
    lines = [
        f"{'files':>5} {'own':>3} {'switches':>9} {'switch cycles':>13} {'switching':>9} "
        f"{'idle':>8} {'idle vs 1 file':>14} {'missed':>6}"
    ]
    for r in rows:
        more = (r.idle / first.idle - 1) * 100 if first.idle else float("nan")
        lines.append(
            f"{r.files:>5} {r.own:>3} {r.result.context_switches:>9,} "
            f"{r.result.switch_cycles:>13,} {100 * r.switching:>8.3f}% {100 * r.idle:>7.3f}% "
            f"{more:>+13.1f}% {r.result.missed:>6}"
        )
    return lines


def _missed(
    eng: engine.Engine, clock_hz: int, loop: Fraction, files: int, model: engine.RegFiles
) -> bool:
    ts = table1(clock_hz, loop, STARVING_T4)
    horizon = int(TICKS * clock_hz * TICK_S)
    return eng.run(ts, horizon=horizon, regfiles=replace(model, files=files)).missed > 0


def _threshold(eng: engine.Engine, clock_hz: int, files: int, model: engine.RegFiles) -> Fraction:
    """The least loop cost (to 1/1000 cycle) at which T4 = 19,100 misses a deadline."""
    low, high = Fraction(1), Fraction(8)  # no miss at 1 cycle a loop, misses at 8
    while high - low > Fraction(1, 1000):
        mid = (low + high) / 2
        if _missed(eng, clock_hz, mid, files, model):
            high = mid
        else:
            low = mid
    return high


def window(eng: engine.Engine, clock_hz: int, model: engine.RegFiles) -> tuple[Fraction, Fraction]:
    """The loop costs [a, b) for which the starvation case misses on one file, not on six."""
    return _threshold(eng, clock_hz, 1, model), _threshold(eng, clock_hz, 6, model)


def report(eng: engine.Engine, clock_hz: int, loop: Fraction, model: engine.RegFiles) -> list[str]:
    one, own, shared = model.costs()
    lines = [
        'Kim et al., "Improving the Performance of RTOS Using Multiple Register Files '
        'Architecture",\n'
        f"table 1 on the kernel: 5 tasks, periods 1-57 ticks of 10 ms, {TICKS:,} ticks, "
        f"fully preemptive; {clock_hz / 1e6:g} MHz, {float(loop):g} cycles per loop iteration",
        f"switch cost (cycles): eq. 1 (one file) {one}, eq. 3 (own file) {own}, eq. 4 (shared) "
        f"{shared}",
    ]
    for t4, what in ((LOOPS[3], "without starvation"), (STARVING_T4, "T4 = 19,100")):
        ts = table1(clock_hz, loop, t4)
        u = sum(t.wcet / t.period for t in ts.tasks)
        lines += [
            "",
            f"{what} (utilisation {u:.4f}):",
            *table(experiment(eng, ts, clock_hz, model)),
        ]
    a, b = window(eng, clock_hz, model)
    lines += [
        "",
        f"T4 = 19,100 misses deadlines on 1 file from {float(a):.3f} cycles per loop iteration, "
        f"on 6 files from {float(b):.3f}: the paper's starvation case is the window between.",
    ]
    if a < b:
        mid = (a + b) / 2
        ts = table1(clock_hz, mid, STARVING_T4)
        u = sum(t.wcet / t.period for t in ts.tasks)
        lines += [
            f"T4 = 19,100 at {float(mid):.4f} cycles per iteration (utilisation {u:.4f}):",
            *table(experiment(eng, ts, clock_hz, model)),
        ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tacet.sim.regfiles", description=__doc__)
    parser.add_argument("--clock-hz", type=int, default=CLOCK_HZ)
    parser.add_argument("--loop-cycles", type=Fraction, default=LOOP_CYCLES)
    parser.add_argument("--base", type=int, default=0, help="switch cycles besides registers")
    parser.add_argument("--library", type=Path, help="the engine library (default: build it)")
    args = parser.parse_args(argv)
    eng = engine.Engine(args.library) if args.library else engine.load(REPO)
    for line in report(eng, args.clock_hz, args.loop_cycles, engine.RegFiles(1, base=args.base)):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
