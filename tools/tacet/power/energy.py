# SPDX-License-Identifier: MIT
"""The energy model of include/tacet/power.h, in Python: what tc_energy_report() computes
from the cycles the kernel counts, as a closed form the tests and experiments compare with.

N cycles at an operating point of frequency f and voltage V cost (Pillai and Isha, eqs. 2-5)

    E = C_eff * V^2 * N        dynamic
      + P_static * N / f       static: the time those cycles took

and a part of a run (a thread, the HISRs, idle, the context-switch path) that ran N_i cycles
at point i costs the sum over the points. ``energy`` is that sum for one part, ``report`` the
parts of a whole run as tc_energy_report_t holds them (the total is the sum of the four
parts' cycles). Doubles throughout, as the kernel computes them at report time: the kernel's
figures and these agree to rounding (compare with a relative tolerance, not ==).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tacet.power.tables import Table


@dataclass(frozen=True)
class Energy:
    """The energy of one part of a run (tc_energy_t)."""

    cycles: tuple[int, ...]  # per operating point, in the table's order
    total_cycles: int
    seconds: float  # sum of cycles / frequency
    dynamic_joules: float  # C_eff * V^2 * cycles
    static_joules: float  # P_static * seconds
    joules: float  # dynamic + static


@dataclass(frozen=True)
class Report:
    """A whole run (tc_energy_report_t without the run-time state: point, policy, changes)."""

    total: Energy
    threads: Energy
    hisrs: Energy
    idle: Energy
    switching: Energy
    context_switches: int
    joules_per_switch: float  # switching.joules / context_switches (0 with none)


def _cycles(table: Table, cycles: Sequence[int]) -> tuple[int, ...]:
    """``cycles`` as one count per point of the table. The kernel's arrays have
    TC_POWER_POINTS entries: the ones past the table's points must be zero."""
    n = len(table.points)
    if any(c < 0 for c in cycles) or any(c != 0 for c in cycles[n:]):
        raise ValueError(f"cycles {list(cycles)}: {table.name} has {n} points (counts >= 0)")
    return tuple(cycles[:n]) + (0,) * max(0, n - len(cycles))


def energy(table: Table, cycles: Sequence[int], profile: str | None = None) -> Energy:
    """The energy of ``cycles[i]`` cycles at each point i of ``table`` (its C_eff and static
    power, or those of ``profile``)."""
    c_eff, p_static = table.figures(profile)
    counts = _cycles(table, cycles)
    seconds = dynamic = 0.0
    for point, n in zip(table.points, counts, strict=True):
        volts = point.millivolt / 1000.0
        seconds += n / point.hz
        dynamic += c_eff * volts * volts * n
    static = p_static * seconds
    return Energy(counts, sum(counts), seconds, dynamic, static, dynamic + static)


def power_watts(table: Table, index: int, profile: str | None = None) -> float:
    """The power drawn while running at point ``index``: C_eff * V^2 * f + P_static."""
    c_eff, p_static = table.figures(profile)
    point = table.points[index]
    volts = point.millivolt / 1000.0
    return c_eff * volts * volts * point.hz + p_static


def report(
    table: Table,
    *,
    threads: Sequence[int] = (),
    hisrs: Sequence[int] = (),
    idle: Sequence[int] = (),
    switching: Sequence[int] = (),
    context_switches: int = 0,
    profile: str | None = None,
) -> Report:
    """A run's report from the cycles per point of its four parts."""
    parts = [_cycles(table, c) for c in (threads, hisrs, idle, switching)]
    total = tuple(sum(column) for column in zip(*parts, strict=True))
    t, h, i, s = (energy(table, c, profile) for c in parts)
    per_switch = s.joules / context_switches if context_switches else 0.0
    return Report(energy(table, total, profile), t, h, i, s, context_switches, per_switch)
