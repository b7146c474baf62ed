# SPDX-License-Identifier: MIT
"""``tacet analyze APP.yaml``: schedulability of a system description.

Loads and checks the description (tacet.appdesc), fills the priorities and thresholds it
leaves to the analysis (``auto``: chosen as ``tacet config`` chooses them, with the overheads
of the description's first target, so the figures are those of the code it generates; the
overheads charged in the analysis are --target's), and prints per periodic thread its priority,
threshold, worst-case response time against its deadline, the blocking it can suffer, the
preemptions and context switches the thresholds allow, then the non-preemptive groups and the
stack they save. ``--json`` prints the same as JSON; ``--explain THREAD`` the busy-period
derivation of one thread. The equations are in docs/analysis.md.

Exit status: 0 when every periodic thread meets its deadline, 3 when one does not (the first
is named, with by how much), 1 for a description or an option in error.
"""

import argparse
import json
from dataclasses import replace
from typing import Any, NamedTuple

from rich.console import Console
from rich.table import Table

from tacet import analysis
from tacet.appdesc import App, load
from tacet.errors import TacetError

UNSCHEDULABLE = 3


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="response times, thresholds, switches and stack of a system description",
        description="Analyse the periodic threads of APP.yaml under fixed-priority "
        "preemption-threshold scheduling: priorities and thresholds (the `auto` ones chosen), "
        "worst-case response times against deadlines, predicted context switches, the "
        "non-preemptive groups and the stack they save. Exit status 3 when a deadline can "
        "be missed.",
    )
    parser.add_argument("description", metavar="APP.yaml", help="the system description")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--explain",
        metavar="THREAD",
        help="print the busy-period derivation of THREAD, step by step",
    )
    parser.add_argument(
        "--target",
        choices=("sim", "qemu-m3", "qemu-m4"),
        help="the target whose kernel overheads are charged (default: the description's first)",
    )
    parser.add_argument(
        "--policy",
        choices=analysis.POLICIES,
        help="how `auto` priorities are chosen (default: the description's `policy`)",
    )
    parser.add_argument(
        "--no-overheads",
        action="store_true",
        help="charge no kernel overheads (the task model alone)",
    )
    parser.set_defaults(handler=handle)


class _View(NamedTuple):
    """A result with what the table and the JSON show beside it."""

    app: App
    result: analysis.Result
    tasks: dict[str, analysis.Task]  # by name, as analysed
    auto_priority: set[str]  # threads whose priority the analysis chose
    auto_threshold: set[str]
    others: list[str]  # threads without a period: not analysed


def _overheads(app: App, args: argparse.Namespace) -> analysis.Overheads:
    if args.no_overheads:
        return analysis.Overheads(0, 0, "none (--no-overheads)")
    return replace(app, targets=(args.target,)).overheads() if args.target else app.overheads()


def _us(cycles: int | None, clock_hz: int) -> float | None:
    return None if cycles is None else cycles * 1_000_000 / clock_hz


def _time(cycles: int | None, clock_hz: int) -> str:
    """A time in the unit that suits it, with three decimals at most (--json has cycles)."""
    us = _us(cycles, clock_hz)
    if us is None:
        return "-"
    for unit, scale in (("s", 1_000_000), ("ms", 1000), ("us", 1)):
        if abs(us) >= scale or unit == "us":
            return f"{us / scale:.3f}".rstrip("0").rstrip(".") + f" {unit}"
    raise AssertionError  # unreachable: "us" always matches


def handle(args: argparse.Namespace) -> int:
    app = load(args.description)
    if args.policy:
        app = replace(app, policy=args.policy)
    overheads = _overheads(app, args)
    # The `auto` values as `tacet config` chooses them (the overheads of the description's
    # first target), whatever --target says: the code analysed is the code generated.
    tasks = app.resolve()
    if not tasks:
        raise TacetError(
            f"{app.display}: no periodic or sporadic thread to analyse (give a thread a period)"
        )
    auto_priority = {t.name for t in app.threads if t.priority is None}
    auto_threshold = {t.name for t in app.threads if t.threshold is None}
    others = [t.name for t in app.threads if not t.timed]
    if args.explain is not None:
        for line in analysis.explain(tasks, args.explain, overheads):
            print(line)
        return 0
    result = analysis.analyze(tasks, overheads, app.priorities)
    view = _View(app, result, {t.name: t for t in tasks}, auto_priority, auto_threshold, others)
    if args.json:
        print(json.dumps(_json(view), indent=2))
    else:
        _print(view)
    failed = next((r for r in result.tasks if not r.schedulable), None)
    if failed is not None:
        raise TacetError(
            f"{app.display}: not schedulable: {failed.name}: {failed.reason} "
            f"(cycles of the {app.board.clock_hz:,} Hz clock)",
            status=UNSCHEDULABLE,
        )
    return 0


def _json(view: "_View") -> dict[str, Any]:
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
                "response_us": _us(r.response, clock),
                "deadline_us": _us(r.deadline, clock),
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


def _print(view: "_View") -> None:
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
            _time(t.period, clock),
            _time(r.deadline, clock),
            _time(t.wcet, clock),
            _time(r.blocking, clock),
            _time(r.response, clock),
            "-" if slack is None else ("-" if slack < 0 else "") + _time(abs(slack), clock),
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
    console.print(
        f"switches: per thread, an upper bound over {_time(result.hyperperiod, clock)}{capped}; "
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
