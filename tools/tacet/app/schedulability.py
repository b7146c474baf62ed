# SPDX-License-Identifier: MIT
"""The schedulability of a system description as ``tacet analyze`` shows it: the analysis's
result beside the description's threads, as a table or as JSON (docs/analysis.md)."""

from dataclasses import replace
from typing import Any, NamedTuple

from rich.console import Console
from rich.table import Table

from tacet.analysis import rta as analysis
from tacet.app.description import App
from tacet.core.errors import TacetError


class View(NamedTuple):
    """A result with what the table and the JSON show beside it."""

    app: App
    result: analysis.Result
    tasks: dict[str, analysis.Task]  # by name, as analysed
    auto_priority: set[str]  # threads whose priority the analysis chose
    auto_threshold: set[str]
    others: list[str]  # threads without a period: not analysed


def overheads(
    app: App,
    target: str | None = None,
    *,
    none: bool = False,
    switch: int | None = None,
    release: int | None = None,
    simulation: bool = False,
) -> analysis.Overheads:
    """The kernel overheads charged, as ``tacet analyze`` and ``tacet simulate`` take them: none
    (``none``, --no-overheads); else those of ``target`` (default: the description's first),
    with the switch and the release cost replaced by ``switch`` / ``release`` (--switch-cost,
    --release-cost) or, for the simulator (``simulation``), by the description's
    simulation.switch_cost / release_cost. The source says where each figure came from."""
    if none:
        given = [
            o for o, v in (("--switch-cost", switch), ("--release-cost", release)) if v is not None
        ]
        if given:
            raise TacetError(f"--no-overheads charges nothing: give it or {given[0]}, not both")
        return analysis.Overheads(0, 0, "none (--no-overheads)")
    base = replace(app, targets=(target,)).overheads() if target else app.overheads()
    costs = {"switch": base.switch, "release": base.release}
    said = []
    for what, option in (("switch", switch), ("release", release)):
        described = getattr(app.simulation, f"{what}_cost") if simulation else None
        value = option if option is not None else described
        if value is None:
            continue
        if value < 0:
            raise TacetError(f"--{what}-cost {value}: must be 0 or more cycles")
        where = "the command line" if option is not None else f"simulation.{what}_cost"
        said.append(f"{what} {value} from {where}")
        costs[what] = value
    source = base.source if not said else "; ".join(said) + f"; otherwise {base.source}"
    return analysis.Overheads(costs["switch"], costs["release"], source)


def microseconds(cycles: int | None, clock_hz: int) -> float | None:
    return None if cycles is None else cycles * 1_000_000 / clock_hz


def time_text(cycles: int | None, clock_hz: int) -> str:
    """A time in the unit that suits it, with three decimals at most (--json has cycles)."""
    us = microseconds(cycles, clock_hz)
    if us is None:
        return "-"
    for unit, scale in (("s", 1_000_000), ("ms", 1000), ("us", 1)):
        if abs(us) >= scale or unit == "us":
            return f"{us / scale:.3f}".rstrip("0").rstrip(".") + f" {unit}"
    raise AssertionError  # unreachable: "us" always matches


def to_json(view: View) -> dict[str, Any]:
    app, result, tasks, auto_priority, auto_threshold, others = view
    clock = app.board.clock_hz
    threads = []
    for r in result.tasks:
        t = tasks[r.name]
        threads.append(
            {
                "name": r.name,
                "priority": r.priority,
                "priority_auto": r.name in auto_priority,
                "threshold": r.threshold,
                "threshold_auto": r.name in auto_threshold,
                "period_cycles": t.period,
                "deadline_cycles": r.deadline,
                "wcet_cycles": t.wcet,
                "jitter_cycles": t.jitter,
                "blocking_cycles": r.blocking,
                "response_cycles": r.response,
                "response_us": microseconds(r.response, clock),
                "deadline_us": microseconds(r.deadline, clock),
                "schedulable": r.schedulable,
                "reason": r.reason,
                "jobs_checked": r.jobs_checked,
                "preemptions_per_job": r.preemptions,
                "switches_per_hyperperiod": r.switches_per_hyperperiod,
                "stack": t.stack,
            }
        )
    return {
        "description": app.display,
        "sha256": app.sha256,
        "clock_hz": clock,
        "policy": app.policy,
        "schedulable": result.schedulable,
        "utilisation": app.utilisation(),
        "hyperperiod_cycles": result.hyperperiod,
        "hyperperiod_capped": result.hyperperiod_capped,
        "overheads": {
            "switch_cycles": result.overheads.switch,
            "release_cycles": result.overheads.release,
            "source": result.overheads.source,
        },
        "threads": threads,
        "not_analysed": others,
        "groups": result.groups,
        "stack_shared": result.stack_shared,
        "stack_separate": result.stack_separate,
    }


def print_view(view: View) -> None:
    app, result, tasks, auto_priority, auto_threshold, others = view
    console = Console(highlight=False, width=max(Console().width, 120))
    clock = app.board.clock_hz
    console.print(
        f"{app.display}: {len(result.tasks)} periodic threads, utilisation "
        f"{app.utilisation():.3f}, {clock:,} Hz, policy {app.policy}"
    )
    table = Table(box=None, header_style="bold", pad_edge=False)
    for title, justify in (
        ("thread", "left"), ("prio", "right"), ("thr", "right"), ("period", "right"),
        ("deadline", "right"), ("wcet", "right"), ("blocking", "right"),
        ("response", "right"), ("slack", "right"), ("preempt", "right"),
        ("switches", "right"), ("", "left"),
    ):  # fmt: skip
        table.add_column(title, justify=justify)  # type: ignore[arg-type]
    for r in result.tasks:
        t = tasks[r.name]
        slack = None if r.response is None else r.deadline - r.response
        table.add_row(
            r.name,
            f"{r.priority}{'*' if r.name in auto_priority else ''}",
            f"{r.threshold}{'*' if r.name in auto_threshold else ''}",
            time_text(t.period, clock),
            time_text(r.deadline, clock),
            time_text(t.wcet, clock),
            time_text(r.blocking, clock),
            time_text(r.response, clock),
            "-" if slack is None else ("-" if slack < 0 else "") + time_text(abs(slack), clock),
            str(r.preemptions),
            str(r.switches_per_hyperperiod),
            "ok" if r.schedulable else "MISSES",
        )
    console.print(table)
    if auto_priority or auto_threshold:
        console.print("* chosen by the analysis (`auto`)")
    if others:
        console.print(f"not analysed (no period): {', '.join(others)}")
    capped = " (capped: the lcm of the periods is larger)" if result.hyperperiod_capped else ""
    over = time_text(result.hyperperiod, clock)
    console.print(
        f"switches: per thread, an upper bound over {over}{capped}; "
        "preempt: times one job can be preempted"
    )
    groups = "; ".join("{" + ", ".join(g) + "}" for g in result.groups)
    console.print(f"non-preemptive groups ({len(result.groups)}): {groups}")
    saved = result.stack_separate - result.stack_shared
    share = 100 * saved / result.stack_separate if result.stack_separate else 0.0
    console.print(
        f"stack: {result.stack_shared:,} B with one stack per group, against "
        f"{result.stack_separate:,} B with one per thread ({saved:,} B, {share:.0f} % less)"
    )
    console.print(
        f"overheads: {result.overheads.switch} cycles per switch, {result.overheads.release} "
        f"per release ({result.overheads.source})"
    )
    console.print("schedulable" if result.schedulable else "NOT schedulable")
