# SPDX-License-Identifier: MIT
"""A task set as the simulation engine runs it (docs/simulator.md): pure data, in cycles.

``TaskSet`` is what ``tacet.sim.engine`` hands to the C engine and what ``tacet simulate`` builds
from a system description (``from_app``); ``analysis_tasks`` gives the same threads to the
response-time analysis, and ``description`` writes the set back as a description that
``tacet simulate`` runs again to the same results (the cross-check writes a failing set so).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tacet.analysis import rta as analysis
from tacet.analysis.workload import Execution, analysis_task
from tacet.app.description import App, Thread

MODELS = ("fixed", "uniform", "normal", "trace")
# Critical sections per thread the engine takes (TSIM_MAX_SECTIONS in simulator/engine.h).
MAX_SECTIONS = 4


@dataclass(frozen=True)
class Section:
    """A job holds ``mutex`` from ``offset`` cycles of its work for ``length`` cycles."""

    mutex: str
    offset: int
    length: int


@dataclass(frozen=True)
class SimTask:
    name: str
    priority: int
    threshold: int
    period: int
    deadline: int
    wcet: int
    offset: int = 0
    jitter: int = 0
    execution: Execution = field(default_factory=Execution)
    sections: tuple[Section, ...] = ()


@dataclass(frozen=True)
class TaskSet:
    """Threads, and the mutexes their sections lock as (name, priority inheritance)."""

    tasks: tuple[SimTask, ...]
    mutexes: tuple[tuple[str, bool], ...] = ()

    def analysis_tasks(self) -> list[analysis.Task]:
        inherit = dict(self.mutexes)
        return [
            analysis_task(t, [(s.mutex, s.length) for s in t.sections], inherit) for t in self.tasks
        ]


def sections_of(thread: Thread) -> tuple[Section, ...]:
    """A described thread's locks as sections: each at its ``offset``, or where the one
    before it ends (the first at the job's start)."""
    sections = []
    end = 0
    for lock in thread.locks:
        start = end if lock.offset is None else lock.offset
        sections.append(Section(lock.mutex, start, lock.cycles))
        end = start + lock.cycles
    return tuple(sections)


def from_app(app: App, threads: Sequence[Thread]) -> TaskSet:
    """The periodic and sporadic threads of a description (``threads`` with their priorities
    and thresholds resolved) as a task set; a sporadic thread is released at its shortest
    interval. Mutexes that no simulated thread locks are left out."""
    tasks = []
    for t in threads:
        if not t.timed:
            continue
        assert t.period is not None and t.deadline is not None and t.wcet is not None
        assert t.priority is not None and t.threshold is not None
        tasks.append(
            SimTask(
                name=t.name,
                priority=t.priority,
                threshold=t.threshold,
                period=t.period,
                deadline=t.deadline,
                wcet=t.wcet,
                offset=t.offset,
                jitter=t.jitter,
                execution=t.execution,
                sections=sections_of(t),
            )
        )
    locked = {s.mutex for t in tasks for s in t.sections}
    mutexes = tuple((m.name, m.inherit) for m in app.mutexes if m.name in locked)
    return TaskSet(tuple(tasks), mutexes)


# ---- back to a description -----------------------------------------------------------------


def _execution_yaml(e: Execution) -> str:
    if e.model == "fixed":
        return ""
    parts = [f"model: {e.model}"]
    if e.bcet is not None:
        parts.append(f"bcet: {e.bcet}")
    if e.mean is not None:
        parts.append(f"mean: {_cycles(e.mean)}")
    if e.stddev is not None:
        parts.append(f"stddev: {_cycles(e.stddev)}")
    if e.values:
        parts.append("values: [" + ", ".join(str(v) for v in e.values) + "]")
    return "{" + ", ".join(parts) + "}"


def _cycles(value: float) -> int:
    if value != int(value):
        raise ValueError(f"{value} is not a whole number of cycles: a description cannot say it")
    return int(value)


def description(
    taskset: TaskSet,
    *,
    clock_hz: int,
    name: str = "taskset",
    comment: str = "",
    simulation: dict[str, int] | None = None,
    priorities: int = 1024,
) -> str:
    """The task set as a system description (docs/config.md), every time in cycles, every
    priority and threshold explicit, the mutexes declared; ``simulation`` becomes its
    ``simulation`` section (horizon, seed, switch_cost, release_cost). ``tacet simulate``
    reads it back to the same task set."""
    lines = [f"# {line}" if line else "#" for line in comment.splitlines()]
    lines += [
        f"name: {name}",
        f"board: {{clock_hz: {clock_hz}}}",
        f"kernel: {{priorities: {priorities}}}",
        "targets: [sim]",
    ]
    if simulation:
        lines.append("simulation: {" + ", ".join(f"{k}: {v}" for k, v in simulation.items()) + "}")
    lines.append("threads:")
    for t in taskset.tasks:
        lines += [
            f"  - name: {t.name}",
            f"    entry: {t.name}_main",
            "    stack: 16384",
            f"    priority: {t.priority}",
            f"    threshold: {t.threshold}",
            f"    period: {t.period}",
            f"    deadline: {t.deadline}",
            f"    wcet: {t.wcet}",
        ]
        if t.offset:
            lines.append(f"    offset: {t.offset}")
        if t.jitter:
            lines.append(f"    jitter: {t.jitter}")
        execution = _execution_yaml(t.execution)
        if execution:
            lines.append(f"    execution: {execution}")
        if t.sections:
            lines.append("    locks:")
            lines += [
                f"      - {{mutex: {s.mutex}, offset: {s.offset}, length: {s.length}}}"
                for s in t.sections
            ]
    if taskset.mutexes:
        lines.append("mutexes:")
        lines += [
            f"  - {{name: {m}, inherit: {'true' if inherit else 'false'}}}"
            for m, inherit in taskset.mutexes
        ]
    return "\n".join(lines) + "\n"
