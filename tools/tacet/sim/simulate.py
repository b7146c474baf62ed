# SPDX-License-Identifier: MIT
"""A described system run on the simulation engine beside its analysis (``tacet simulate
APP.yaml``).

Loads and checks the description (tacet.app.description), resolves the ``auto`` priorities and
thresholds as ``tacet config`` and ``tacet analyze`` do, runs its periodic and sporadic
threads on the real kernel in the engine (tacet.sim.engine, simulator/engine.h) and prints per
thread what the simulation measured beside what the analysis bounds: worst response against
the response-time bound, the most preemptions of one job against the predicted, the longest
blocking against B. ``--json`` prints the same in cycles. docs/simulator.md describes the
model.

Exit status: 0 when every job met its deadline and stayed within the analysis' bounds, 3 when
a job missed its deadline, 4 when the simulation exceeded a bound of the analysis (then the
analysis, the kernel or the engine is wrong: docs/simulator.md says how to find which), 1 for
a description or an option in error.
"""

from __future__ import annotations

import argparse
import math
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.table import Table

from tacet.analysis import rta as analysis
from tacet.app import schedulability
from tacet.app.description import App
from tacet.app.schedulability import time_text
from tacet.core.errors import TacetError
from tacet.core.yamldoc import DescriptionError
from tacet.sim import engine, switchcost
from tacet.sim.switchcost import DEFAULT_MEASUREMENT
from tacet.sim.taskset import MAX_SECTIONS, TaskSet, from_app, sections_of

MISSED = 3
EXCEEDED = 4
DEFAULT_JOBS = 10_000  # the default horizon simulates at least this many jobs
TARGETS = ("sim", "qemu-m3", "qemu-m4")


# ---- what is simulated -----------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """A description made ready to simulate: the task set, the costs, the horizon, the seed."""

    app: App
    taskset: TaskSet
    overheads: analysis.Overheads
    horizon: int
    seed: int
    not_simulated: tuple[str, ...]
    sliced: tuple[str, ...]  # simulated threads with a time slice, which is not simulated
    auto_priority: frozenset[str]
    auto_threshold: frozenset[str]
    measured: engine.MeasuredCost | None = None  # switches priced by measured samples


_UNITS = {"cycles": None, "us": 10**6, "ms": 10**3, "s": 1}


def parse_time(text: str, clock_hz: int, tick_hz: int) -> int:
    """``--horizon``: cycles, or a number with a unit (us, ms, s, ticks), in cycles at
    ``clock_hz`` (rounded down)."""
    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*([a-z]*)\s*", text)
    unit = match.group(2) if match else ""
    if match is None or (unit and unit not in _UNITS and unit != "ticks"):
        raise TacetError(
            f"--horizon {text!r}: expected cycles or a number with us, ms, s or ticks "
            "(e.g. 2s, 500ms)"
        )
    amount = Fraction(match.group(1))
    if unit in ("", "cycles"):
        if amount.denominator != 1:
            raise TacetError(f"--horizon {text!r}: cycles are whole")
        cycles = int(amount)
    elif unit == "ticks":
        cycles = math.floor(amount * clock_hz / tick_hz)
    else:
        cycles = math.floor(amount * clock_hz / _UNITS[unit])  # type: ignore[operator]
    if cycles < 1:
        raise TacetError(f"--horizon {text!r} is {cycles} cycles; it must be at least 1")
    return cycles


def _check_sections(app: App) -> None:
    """What the simulator needs of the locks beyond what every description keeps: at most
    MAX_SECTIONS per thread, and those without an offset fitting one after the other."""
    errors = []
    for i, thread in enumerate(app.threads):
        if not thread.timed or not thread.locks:
            continue
        assert thread.wcet is not None
        if len(thread.locks) > MAX_SECTIONS:
            errors.append(
                f"{app.display}:{thread.locks[MAX_SECTIONS].line}: threads[{i}].locks: the "
                f"simulator takes at most {MAX_SECTIONS} locks per thread"
            )
        for j, (lock, section) in enumerate(zip(thread.locks, sections_of(thread), strict=True)):
            end = section.offset + section.length
            if lock.offset is None and end > thread.wcet >= lock.cycles:
                errors.append(
                    f"{app.display}:{lock.line}: threads[{i}].locks[{j}]: after the locks "
                    f"before it this one would end at {end} cycles of the job, after the wcet "
                    f"({thread.wcet}): give the locks an offset (where in the job each begins)"
                )
    if errors:
        raise DescriptionError(errors)


def default_horizon(taskset: TaskSet, hyperperiod: int) -> int:
    """Whole hyperperiods (as the analysis counts them, capped) with at least DEFAULT_JOBS
    jobs, after the latest first release."""
    per_hyperperiod = sum(max(1, hyperperiod // t.period) for t in taskset.tasks)
    repeats = max(1, math.ceil(DEFAULT_JOBS / per_hyperperiod))
    start = max(t.offset + t.jitter for t in taskset.tasks)
    return start + repeats * hyperperiod


def _measured(app: App, args: argparse.Namespace) -> engine.MeasuredCost | None:
    """--switch-cost-from's model, in the description's clock; None without it."""
    source = getattr(args, "switch_cost_from", None)
    which = getattr(args, "switch_measurement", None)
    if source is None:
        if which is not None:
            raise TacetError("--switch-measurement goes with --switch-cost-from")
        return None
    if args.switch_cost is not None:
        raise TacetError("give --switch-cost or --switch-cost-from, not both")
    if getattr(args, "no_overheads", False):
        raise TacetError("--no-overheads charges nothing: give it or --switch-cost-from, not both")
    return switchcost.from_bench(source, which or DEFAULT_MEASUREMENT, app.board.clock_hz)


def plan(app: App, args: argparse.Namespace, hyperperiod: int | None = None) -> Plan:
    _check_sections(app)
    measured = _measured(app, args)
    overheads = schedulability.overheads(
        app,
        args.target,
        none=getattr(args, "no_overheads", False),
        switch=args.switch_cost,
        release=args.release_cost,
        simulation=True,
    )
    if measured is not None:
        overheads = replace(overheads, switch=measured.worst(), source=measured.source)
    threads = app.resolved_threads()
    taskset = from_app(app, threads)
    if not taskset.tasks:
        raise TacetError(
            f"{app.display}: no periodic or sporadic thread to simulate (give a thread a period)"
        )
    if args.horizon is not None:
        horizon = parse_time(args.horizon, app.board.clock_hz, app.tick_hz)
    elif app.simulation.horizon is not None:
        horizon = app.simulation.horizon
    else:
        if hyperperiod is None:
            hyperperiod = analysis.analyze(taskset.analysis_tasks(), overheads).hyperperiod
        horizon = default_horizon(taskset, hyperperiod)
    seed = args.seed if args.seed is not None else (app.simulation.seed or 0)
    if not 0 <= seed < 2**64:
        raise TacetError(f"--seed {seed}: must be 0 to 2^64 - 1")
    return Plan(
        app=app,
        taskset=taskset,
        overheads=overheads,
        horizon=horizon,
        seed=seed,
        not_simulated=tuple(t.name for t in app.threads if not t.timed),
        sliced=tuple(t.name for t in app.threads if t.timed and t.time_slice),
        auto_priority=frozenset(t.name for t in app.threads if t.priority is None),
        auto_threshold=frozenset(t.name for t in app.threads if t.threshold is None),
        measured=measured,
    )


# ---- comparing with the analysis ---------------------------------------------------------


@dataclass(frozen=True)
class Excess:
    """A measurement over a bound of the analysis."""

    thread: str
    what: str  # "response", "preemptions"
    measured: int
    bound: int

    def text(self) -> str:
        return f"{self.thread}: {self.what} {self.measured:,} > the analysis' {self.bound:,}"


def excesses(result: engine.Result, bounds: analysis.Result) -> list[Excess]:
    """Where the simulation went beyond the analysis: a job's response (or the wait of one
    unfinished at the end) over the response-time bound, a job's preemptions (the kernel's
    counter) over the predicted, a job's blocking over B (what lower threads may take of a
    busy period). Threads without a bound (diverging) are not compared."""
    found = []
    for sim, bound in zip(result.threads, bounds.tasks, strict=True):
        if bound.response is None:
            continue
        if sim.worst > bound.response:
            found.append(Excess(sim.name, "response", sim.worst, bound.response))
        if sim.preemptions_max > bound.preemptions:
            found.append(
                Excess(sim.name, "preemptions of one job", sim.preemptions_max, bound.preemptions)
            )
        if sim.blocking_max > bound.blocking:
            found.append(Excess(sim.name, "blocking of one job", sim.blocking_max, bound.blocking))
    return found


def simulate(p: Plan, eng: engine.Engine) -> tuple[engine.Result, analysis.Result]:
    bounds = analysis.analyze(p.taskset.analysis_tasks(), p.overheads, p.app.priorities)
    result = eng.run(
        p.taskset,
        horizon=p.horizon,
        seed=p.seed,
        switch_cost=p.overheads.switch,
        release_cost=p.overheads.release,
        measured=p.measured,
    )
    return result, bounds


# ---- output ------------------------------------------------------------------------------


def to_json(
    p: Plan, result: engine.Result, bounds: analysis.Result, over: list[Excess]
) -> dict[str, Any]:
    threads = []
    for task, sim, bound in zip(
        p.taskset.tasks, result.as_dict()["threads"], bounds.tasks, strict=True
    ):
        threads.append(
            {
                "name": task.name,
                "priority": task.priority,
                "priority_auto": task.name in p.auto_priority,
                "threshold": task.threshold,
                "threshold_auto": task.name in p.auto_threshold,
                "period_cycles": task.period,
                "deadline_cycles": task.deadline,
                "wcet_cycles": task.wcet,
                "execution": task.execution.model,
                "simulated": sim,
                "analysis": {
                    "response_cycles": bound.response,
                    "blocking_cycles": bound.blocking,
                    "preemptions_per_job": bound.preemptions,
                    "schedulable": bound.schedulable,
                },
            }
        )
    totals = result.as_dict()
    del totals["threads"]
    return {
        "description": p.app.display,
        "sha256": p.app.sha256,
        "clock_hz": p.app.board.clock_hz,
        "horizon_cycles": p.horizon,
        "seed": p.seed,
        "overheads": {
            "switch_cycles": p.overheads.switch,
            "release_cycles": p.overheads.release,
            "source": p.overheads.source,
        },
        "threads": threads,
        "totals": totals,
        "not_simulated": list(p.not_simulated),
        "time_slices_not_simulated": list(p.sliced),
        "exceeds_analysis": [e.__dict__ for e in over],
    }


def print_result(
    p: Plan, result: engine.Result, bounds: analysis.Result, over: list[Excess]
) -> None:
    console = Console(highlight=False, width=max(Console().width, 140))
    clock = p.app.board.clock_hz

    def t(cycles: float | None) -> str:
        return time_text(None if cycles is None else round(cycles), clock)

    console.print(
        f"{p.app.display}: {len(p.taskset.tasks)} periodic threads simulated for "
        f"{t(p.horizon)} ({p.horizon:,} cycles of {clock:,} Hz), seed {p.seed}"
    )
    table = Table(box=None, header_style="bold", pad_edge=False)
    for title in (
        "thread", "prio", "thr", "jobs", "missed", "min", "avg", "p99", "max",
        "bound", "preempt", "bound", "blocking", "B", "switches",
    ):  # fmt: skip
        table.add_column(title, justify="left" if title == "thread" else "right")
    for task, sim, bound in zip(p.taskset.tasks, result.threads, bounds.tasks, strict=True):
        worst = sim.worst
        table.add_row(
            task.name,
            f"{task.priority}{'*' if task.name in p.auto_priority else ''}",
            f"{task.threshold}{'*' if task.name in p.auto_threshold else ''}",
            f"{sim.completed:,}",
            f"{sim.missed:,}",
            t(sim.response_min) if sim.completed else "-",
            t(sim.response_avg),
            t(sim.response_p99) if sim.completed else "-",
            t(worst) + ("+" if sim.oldest_unfinished > sim.response_max else ""),
            t(bound.response),
            str(sim.preemptions_max),
            str(bound.preemptions) if bound.response is not None else "-",
            t(sim.blocking_max),
            t(bound.blocking),
            f"{sim.switches_in:,}",
        )
    console.print(table)
    if p.auto_priority or p.auto_threshold:
        console.print("* chosen by the analysis (`auto`)")
    if p.not_simulated:
        console.print(f"not simulated (no period): {', '.join(p.not_simulated)}")
    if p.sliced:
        console.print(
            f"time slices not simulated (threads of equal priority run in turn): "
            f"{', '.join(p.sliced)}"
        )
    busy = 1 - result.idle_cycles / result.end if result.end else 0.0
    share = result.switch_cycles / result.end if result.end else 0.0
    console.print(
        f"jobs {result.completed:,} of {result.released:,} released, missed {result.missed:,}; "
        f"context switches {result.context_switches:,}, preemptions {result.preemptions:,}; "
        f"CPU busy {100 * busy:.1f} %, switching {100 * share:.2f} %"
    )
    console.print(
        "response: from each job's nominal release (min, avg, p99 nearest rank, max; + an "
        "unfinished job's wait at the end), against the analysis' bound; preempt: the most "
        "preemptions of one job (the kernel's counter) against the analysis' bound per job; "
        "blocking: the longest time lower-priority threads ran while a job was pending, "
        "against B; switches: the kernel's switches in"
    )
    console.print(
        f"overheads: {p.overheads.switch} cycles per switch, {p.overheads.release} per "
        f"release ({p.overheads.source})"
    )
    if over:
        console.print("EXCEEDS THE ANALYSIS: " + "; ".join(e.text() for e in over))
    else:
        console.print("every job within the analysis' bounds")
