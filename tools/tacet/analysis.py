"""Schedulability analysis for fixed-priority preemption-threshold scheduling (issue 12).

This module is the contract between the system description (``tacet.appdesc``: YAML in,
tasks out) and the analysis (``tacet analyze``). Everything here is in integer CPU cycles.

Tacet's priorities: 0 is the most urgent. A thread of priority ``p`` and threshold ``t``
(``t <= p``; ``t == p`` is fully preemptive) may be preempted only by a thread whose priority is
numerically below ``t``.

The functions below are the API; their implementation lands with the analysis branch.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CriticalSection:
    """A task holds ``mutex`` for at most ``cycles`` per job (priority inheritance or not, as
    the mutex is created)."""

    mutex: str
    cycles: int
    inherit: bool = True


@dataclass(frozen=True)
class Task:
    """One periodic or sporadic thread, as the analysis sees it."""

    name: str
    period: int  # cycles; the minimum inter-arrival time of a sporadic thread
    wcet: int  # cycles, worst case per job
    deadline: int  # cycles after release; may be shorter or longer than the period
    priority: int | None = None  # None: assigned by the analysis ("auto")
    threshold: int | None = None  # None: assigned by the analysis ("auto")
    jitter: int = 0  # release jitter, cycles
    offset: int = 0  # first release (the analysis assumes the critical instant: offsets ignored)
    stack: int = 0  # bytes, for the stack-sharing figures
    critical_sections: tuple[CriticalSection, ...] = ()


@dataclass(frozen=True)
class Overheads:
    """The kernel's own costs, charged as explicit terms (cycles): ``switch`` per context
    switch, ``release`` per job release (the timer or interrupt that makes it ready and the
    scheduler's decision). ``source`` says where the figures come from."""

    switch: int = 0
    release: int = 0
    source: str = "none"


@dataclass
class TaskResult:
    name: str
    priority: int
    threshold: int
    response: int | None  # worst-case response time, cycles; None: diverges (unschedulable)
    deadline: int
    schedulable: bool
    blocking: int  # B_i, cycles
    jobs_checked: int  # jobs of the level-i busy period examined
    preemptions: int  # upper bound on the times one job is preempted
    switches_per_hyperperiod: int  # upper bound, this thread's switches in and out


@dataclass
class Result:
    tasks: list[TaskResult]
    schedulable: bool
    hyperperiod: int
    groups: list[list[str]] = field(default_factory=list)  # non-preemptive groups
    stack_shared: int = 0  # worst-case total stack, one stack per group
    stack_separate: int = 0  # every thread its own stack
    overheads: Overheads = field(default_factory=Overheads)
