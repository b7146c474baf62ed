# SPDX-License-Identifier: MIT
"""The simulator against the analysis, over seeded random task sets: ``python -m
tacet.sim.crosscheck``.

For each set and each scheduling mode (fully preemptive, the thresholds the analysis
computes, non-preemptive), the set runs on the engine (the real kernel) and every thread's
worst response -- or the wait of a job still unfinished at the end -- must be at most the
analysis' response-time bound, the most preemptions the kernel counted for one job at most
the analysis' prediction, and the longest a job waited for lower-priority threads at most
the analysis' blocking B. Fully preemptive sets released together with fixed execution
times and no critical sections, jitter or overheads must moreover reach each bound exactly
(when the bound is within the period: the first job is then the worst). A set that breaks
either is written as a system description (``simulation:`` holding the horizon, seed and
costs) that ``tacet simulate FILE`` runs to the same result. tools/tests/test_crosscheck.py
runs it; docs/simulator.md describes the sets and the model's assumptions.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from tacet.analysis import rta as analysis
from tacet.analysis.taskgen import log_uniform_periods, uunifast_discard
from tacet.analysis.workload import Execution
from tacet.app.description import REPO
from tacet.sim import engine
from tacet.sim.simulate import excesses
from tacet.sim.taskset import Section, SimTask, TaskSet, description

MODES = ("preemptive", "thresholds", "non-preemptive")
CLOCK_HZ = 100_000_000  # what a cycle means in the descriptions written (the sim port's clock)
PERIODS = (1_000, 100_000)  # cycles
HORIZON_PERIODS = 20  # each set runs this many of its longest period (after its offsets)


@dataclass(frozen=True)
class Case:
    """One random set: the threads with deadline-monotonic priorities (thresholds equal to
    them), and the costs the engine charges and the analysis counts."""

    seed: int
    taskset: TaskSet
    switch_cost: int
    release_cost: int
    horizon: int

    @property
    def overheads(self) -> analysis.Overheads:
        return analysis.Overheads(self.switch_cost, self.release_cost, "the cross-check's")

    @property
    def plain(self) -> bool:
        """Released together, fixed execution times, no sections, jitter or overheads: the
        fully preemptive analysis is exact for such a set."""
        return (
            self.switch_cost == 0
            and self.release_cost == 0
            and all(
                t.offset == 0 and t.jitter == 0 and not t.sections and t.execution.model == "fixed"
                for t in self.taskset.tasks
            )
        )


def _execution(rng: random.Random, wcet: int) -> Execution:
    pick = rng.random()
    if pick < 0.5 or wcet < 4:
        return Execution()
    bcet = rng.randint(max(1, wcet * 3 // 10), wcet)
    if pick < 0.7:
        return Execution("uniform", bcet=bcet)
    if pick < 0.9:
        mean = rng.randint(bcet, wcet)
        return Execution(
            "normal", bcet=bcet, mean=float(mean), stddev=float(max(1, (wcet - bcet) // 3))
        )
    values = tuple(rng.randint(1, wcet) for _ in range(rng.randint(1, 5)))
    return Execution("trace", values=values)


def _sections(rng: random.Random, wcet: int, mutexes: list[str]) -> tuple[Section, ...]:
    chosen = [m for m in mutexes if rng.random() < 0.5]
    sections, start = [], 0
    for m in chosen:
        room = wcet - start
        if room < 2:
            break
        length = rng.randint(1, max(1, room // 2))
        offset = rng.randint(start, wcet - length)
        sections.append(Section(m, offset, length))
        start = offset + length
    return tuple(sections)


def random_case(seed: int) -> Case:
    """A seeded random set of 2 to 8 threads, one in four plain (released together, fixed
    execution times, no mutexes, jitter or costs: the fully preemptive bounds are exact
    there). Total utilisation 0.3 to 0.95 (UUniFast-Discard),
    periods log-uniform over 1,000 to 100,000 cycles, constrained or (one time in ten) longer
    deadlines, synchronous or random offsets, some jitter, every execution-time model, up to
    two mutexes with or without inheritance, and switch and release costs or none."""
    rng = random.Random(f"crosscheck:{seed}")
    plain = rng.random() < 0.25
    n = rng.randint(2, 8)
    utilisations = uunifast_discard(rng, n, rng.uniform(0.3, 0.95))
    periods = log_uniform_periods(rng, n, *PERIODS, granularity=10)
    synchronous = plain or rng.random() < 0.5
    jittery = not plain and rng.random() < 0.2
    mutexes = [] if plain else [f"m{k}" for k in range(rng.choice((0, 0, 1, 2)))]
    inherit = [rng.random() < 0.8 for _ in mutexes]
    tasks = []
    for k, (u, period) in enumerate(zip(utilisations, periods, strict=True)):
        wcet = max(1, round(u * period))
        if rng.random() < 0.1:
            deadline = rng.randint(period, 2 * period)
        else:
            deadline = rng.randint(max(wcet, period // 2), period)
        tasks.append(
            SimTask(
                name=f"t{k}",
                priority=0,
                threshold=0,
                period=period,
                deadline=deadline,
                wcet=wcet,
                offset=0 if synchronous else rng.randrange(period),
                jitter=rng.randrange(period // 10 + 1) if jittery and rng.random() < 0.5 else 0,
                execution=Execution() if plain else _execution(rng, wcet),
                sections=_sections(rng, wcet, mutexes),
            )
        )
    used = {s.mutex for t in tasks for s in t.sections}
    declared = tuple((m, i) for m, i in zip(mutexes, inherit, strict=True) if m in used)
    tasks = dm_priorities(tasks)
    switch = 0 if plain else rng.choice((0, 0, rng.randint(1, 200)))
    release = 0 if plain else rng.choice((0, 0, 0, rng.randint(1, 50)))
    horizon = HORIZON_PERIODS * max(periods) + max(t.offset + t.jitter for t in tasks)
    return Case(seed, TaskSet(tuple(tasks), declared), switch, release, horizon)


def dm_priorities(tasks: list[SimTask]) -> list[SimTask]:
    """The tasks with deadline-monotonic priorities (rate-monotonic for implicit deadlines),
    every threshold its priority: fully preemptive."""
    plain = [analysis.Task(t.name, t.period, t.wcet, t.deadline) for t in tasks]
    order = analysis.assign_priorities(plain, "dm")
    numbers = {t.name: t.priority for t in order}
    return [
        replace(t, priority=numbers[t.name], threshold=numbers[t.name])  # type: ignore[arg-type]
        for t in tasks
    ]


def in_mode(case: Case, mode: str) -> TaskSet:
    """The case's set with the thresholds of ``mode``: the priorities (fully preemptive),
    those the analysis computes (assign_thresholds, with the case's overheads), or 0."""
    tasks = case.taskset.tasks
    if mode == "preemptive":
        return case.taskset
    if mode == "non-preemptive":
        return replace(case.taskset, tasks=tuple(replace(t, threshold=0) for t in tasks))
    chosen = analysis.assign_thresholds(
        [replace(t, threshold=None) for t in case.taskset.analysis_tasks()], case.overheads
    )
    thresholds = {t.name: t.threshold for t in chosen}
    return replace(
        case.taskset,
        tasks=tuple(replace(t, threshold=thresholds[t.name]) for t in tasks),  # type: ignore[arg-type]
    )


# ---- checking -----------------------------------------------------------------------------


@dataclass
class Finding:
    """A set that broke the check, and the description written to reproduce it."""

    seed: int
    mode: str
    what: list[str]
    path: Path | None = None

    def text(self) -> str:
        where = f" (tacet simulate {self.path})" if self.path is not None else ""
        return f"set {self.seed} {self.mode}: {'; '.join(self.what)}{where}"


@dataclass
class Report:
    mode: str
    sets: int = 0
    threads: int = 0  # thread bounds compared (threads whose analysis gives a bound)
    unbounded: int = 0  # threads without a bound (diverging, unbounded inversion)
    at_bound: int = 0  # of the compared, those whose worst response equals the bound
    exact: int = 0  # plain fully preemptive threads checked to reach their bound exactly
    jobs: int = 0
    preemptions: int = 0
    switches: int = 0
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0


def check_set(
    eng: engine.Engine, case: Case, mode: str, report: Report, out_dir: Path | None
) -> None:
    taskset = in_mode(case, mode)
    bounds = analysis.analyze(taskset.analysis_tasks(), case.overheads, 1024)
    result = eng.run(
        taskset,
        horizon=case.horizon,
        seed=case.seed,
        switch_cost=case.switch_cost,
        release_cost=case.release_cost,
    )
    report.sets += 1
    report.jobs += result.completed
    report.preemptions += result.preemptions
    report.switches += result.context_switches
    what = [e.text() for e in excesses(result, bounds)]
    for task, sim, bound in zip(taskset.tasks, result.threads, bounds.tasks, strict=True):
        if bound.response is None:
            report.unbounded += 1
            continue
        report.threads += 1
        report.at_bound += sim.worst == bound.response
        if (
            mode == "preemptive"
            and case.plain
            and bound.response <= task.period
            and bound.response < case.horizon - task.offset
        ):
            report.exact += 1
            if sim.response_max != bound.response:
                what.append(
                    f"{task.name}: worst response {sim.response_max:,} but the analysis' "
                    f"bound {bound.response:,} is exact for this set"
                )
    if what:
        finding = Finding(case.seed, mode, what)
        if out_dir is not None:
            finding.path = write(case, taskset, mode, what, out_dir)
        report.findings.append(finding)


def write(case: Case, taskset: TaskSet, mode: str, what: list[str], out_dir: Path) -> Path:
    """The set as a description that ``tacet simulate`` runs to the same result."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"crosscheck-{case.seed}-{mode}.yaml"
    comment = (
        f"Cross-check set {case.seed}, {mode}: the simulation broke the analysis' bound.\n"
        + "\n".join(what)
        + f"\nRun it again: tacet simulate {path.name}"
    )
    path.write_text(
        description(
            taskset,
            clock_hz=CLOCK_HZ,
            name=f"crosscheck_{case.seed}_{mode.replace('-', '_')}",
            comment=comment,
            simulation={
                "horizon": case.horizon,
                "seed": case.seed,
                "switch_cost": case.switch_cost,
                "release_cost": case.release_cost,
            },
        ),
        encoding="utf-8",
    )
    return path


def run(
    eng: engine.Engine,
    mode: str,
    count: int,
    first: int = 0,
    out_dir: Path | None = None,
) -> Report:
    """Check ``count`` sets (seeds first .. first + count - 1) in ``mode``."""
    report = Report(mode)
    start = time.perf_counter()
    for seed in range(first, first + count):
        check_set(eng, random_case(seed), mode, report, out_dir)
    report.seconds = time.perf_counter() - start
    return report


def summary(r: Report) -> str:
    return (
        f"{r.mode}: {r.sets} sets, {r.jobs:,} jobs, {r.switches:,} switches, {r.preemptions:,} "
        f"preemptions; {r.threads} thread bounds compared ({r.at_bound} reached exactly, "
        f"{r.unbounded} threads without a bound), {r.exact} exact bounds checked; "
        f"{len(r.findings)} sets broke the check ({r.seconds:.1f} s)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tacet.sim.crosscheck", description=__doc__)
    parser.add_argument("--sets", type=int, default=1000, help="sets per mode (default 1000)")
    parser.add_argument("--first", type=int, default=0, help="the first set's seed")
    parser.add_argument("--mode", choices=MODES, action="append", help="default: all three")
    parser.add_argument(
        "--out", type=Path, default=REPO / "build" / "crosscheck", help="where failing sets go"
    )
    args = parser.parse_args(argv)
    eng = engine.load(REPO)
    status = 0
    for mode in args.mode or MODES:
        report = run(eng, mode, args.sets, args.first, args.out)
        print(summary(report))
        for finding in report.findings[:10]:
            print("  " + finding.text())
        status |= bool(report.findings)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
