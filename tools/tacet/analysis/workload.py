# SPDX-License-Identifier: MIT
"""A thread's timing as the description, the simulator and the analysis all read it: how long
each job takes (``Execution``) and any timed thread as the analysis's ``Task``
(``analysis_task``). Here rather than with either user, so that the description
(tacet.app) and the simulator's task sets (tacet.sim) share it without importing each other.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from tacet.analysis import rta as analysis


@dataclass(frozen=True)
class Execution:
    """How long each job takes, in cycles: ``fixed`` (the WCET), ``uniform`` over
    [bcet, wcet], ``normal`` (mean, stddev) truncated to [bcet, wcet], or ``trace``: job k
    takes ``values[k % len(values)]``."""

    model: str = "fixed"
    bcet: int | None = None
    mean: float | None = None
    stddev: float | None = None
    values: tuple[int, ...] = ()


class _Timed(Protocol):
    name: str
    period: int | None
    wcet: int | None
    deadline: int | None
    priority: int | None
    threshold: int | None
    jitter: int
    offset: int


def analysis_task(
    t: _Timed,
    sections: Iterable[tuple[str, int]],
    inherit: dict[str, bool],
    stack: int = 0,
) -> analysis.Task:
    """A thread (of a task set or a description) as the analysis sees it: its timing, its
    levels and its critical sections as (mutex, cycles)."""
    return analysis.Task(
        name=t.name,
        period=t.period,  # type: ignore[arg-type]
        wcet=t.wcet,  # type: ignore[arg-type]
        deadline=t.deadline,  # type: ignore[arg-type]
        priority=t.priority,
        threshold=t.threshold,
        jitter=t.jitter,
        offset=t.offset,
        stack=stack,
        critical_sections=tuple(
            analysis.CriticalSection(mutex, cycles, inherit[mutex]) for mutex, cycles in sections
        ),
    )
