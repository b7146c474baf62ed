# SPDX-License-Identifier: MIT
"""How long the analysis takes on a large set: `python -m tacet.analysis.bench`.

A benchmark, not a test: it builds a seeded random set of threads (UUniFast utilisations,
Bini & Buttazzo, RTS 2005; periods log-uniform between 1 ms and 1 s of a 100 MHz clock;
deadlines between half the period and the period; automatic priorities and thresholds),
then times resolve() (priorities, then maximal thresholds) and analyze() with the host's
monotonic clock and prints the figures. The goal: under a second for 50 threads.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence
from pathlib import Path

from tacet.analysis.rta import POLICIES, Task, analyze, default_overheads, resolve
from tacet.analysis.taskgen import uunifast_discard

CLOCK_HZ = 100_000_000


def task_set(seed: int, threads: int, utilisation: float) -> list[Task]:
    rng = random.Random(seed)
    tasks = []
    for k, u in enumerate(uunifast_discard(rng, threads, utilisation)):
        period = round(CLOCK_HZ * 10 ** rng.uniform(-3, 0))  # 1 ms .. 1 s
        wcet = max(1, round(u * period))
        deadline = rng.randint(max(wcet, period // 2), period)
        stack = rng.choice((512, 768, 1024, 2048))
        tasks.append(Task(f"t{k:02d}", period, wcet, deadline, stack=stack))
    return tasks


def description(tasks: list[Task], policy: str, target: str) -> str:
    """The set as a system description (docs/config.md): cycles of CLOCK_HZ."""
    lines = [
        f"board: {{clock_hz: {CLOCK_HZ}}}",
        f"targets: [{target}]",
        f"policy: {policy}",
        "threads:",
    ]
    for t in tasks:
        lines.append(
            f"  - {{name: {t.name}, entry: {t.name}_main, priority: auto, threshold: auto, "
            f"stack: {t.stack}, period: {t.period}, deadline: {t.deadline}, wcet: {t.wcet}}}"
        )
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tacet.analysis.bench", description=__doc__)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--threads", type=int, default=50)
    parser.add_argument("--utilisation", type=float, default=0.8)
    parser.add_argument("--policy", choices=POLICIES, default="dm")
    parser.add_argument("--target", default="sim", help="default overheads of this target")
    parser.add_argument("--repeat", type=int, default=5, help="runs; the best is reported")
    parser.add_argument(
        "--description",
        type=Path,
        metavar="APP.yaml",
        help="also write the set as a system description (priorities and thresholds auto), "
        "for timing the whole command: `time tacet analyze APP.yaml`",
    )
    args = parser.parse_args(argv)
    if args.threads < 1 or args.repeat < 1 or not 0 < args.utilisation < 1:
        parser.error("--threads and --repeat must be >= 1, --utilisation in (0, 1)")

    tasks = task_set(args.seed, args.threads, args.utilisation)
    if args.description is not None:
        args.description.write_text(description(tasks, args.policy, args.target))
    overheads = default_overheads(args.target, CLOCK_HZ)
    best_resolve = best_analyze = math.inf
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        resolved = resolve(tasks, args.policy, overheads)
        t1 = time.perf_counter()
        result = analyze(resolved, overheads)
        t2 = time.perf_counter()
        best_resolve = min(best_resolve, t1 - t0)
        best_analyze = min(best_analyze, t2 - t1)

    preemptive = sum(t.threshold == t.priority for t in resolved)
    print(
        f"{args.threads} threads, seed {args.seed}, utilisation {args.utilisation:.2f}, "
        f"policy {args.policy}, overheads of {args.target} "
        f"(switch {overheads.switch}, release {overheads.release} cycles)"
    )
    print(
        f"schedulable: {result.schedulable}; fully preemptive threads: {preemptive}; "
        f"non-preemptive groups: {len(result.groups)}; stack {result.stack_shared} B shared "
        f"against {result.stack_separate} B separate"
    )
    print(
        f"wall time (best of {args.repeat}): resolve {best_resolve:.3f} s, analyze "
        f"{best_analyze:.3f} s, total {best_resolve + best_analyze:.3f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
