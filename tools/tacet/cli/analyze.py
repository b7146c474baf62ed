# SPDX-License-Identifier: MIT
"""``tacet analyze APP.yaml``: schedulability of a system description.

Loads and checks the description (tacet.app.description), fills the priorities and thresholds it
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

from tacet.analysis import rta as analysis
from tacet.app import schedulability
from tacet.app.description import load
from tacet.cli.options import add_overhead_arguments
from tacet.core.errors import TacetError

UNSCHEDULABLE = 3


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="response times, thresholds, switches and stack of a system description",
        description="Analyse the periodic threads of APP.yaml under fixed-priority "
        "preemption-threshold scheduling: priorities and thresholds (the `auto` ones chosen), "
        "worst-case response times against deadlines, predicted context switches, the "
        "non-preemptive groups and the stack they save.",
        epilog="Exit status: 0 when every periodic thread meets its deadline, 3 when one can "
        "miss it, 1 for a description or an option in error, 2 for a command line argparse "
        "refused.",
    )
    parser.add_argument("description", metavar="APP.yaml", help="the system description")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--explain",
        metavar="THREAD",
        help="print the busy-period derivation of THREAD, step by step",
    )
    add_overhead_arguments(parser, simulation=False)
    parser.add_argument(
        "--policy",
        choices=analysis.POLICIES,
        help="how `auto` priorities are chosen (default: the description's `policy`)",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    app = load(args.description)
    if args.policy:
        app = replace(app, policy=args.policy)
    overheads = schedulability.overheads(
        app,
        args.target,
        none=args.no_overheads,
        switch=args.switch_cost,
        release=args.release_cost,
    )
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
    view = schedulability.View(
        app, result, {t.name: t for t in tasks}, auto_priority, auto_threshold, others
    )
    if args.json:
        print(json.dumps(schedulability.to_json(view), indent=2))
    else:
        schedulability.print_view(view)
    failed = next((r for r in result.tasks if not r.schedulable), None)
    if failed is not None:
        raise TacetError(
            f"{app.display}: not schedulable: {failed.name}: {failed.reason} "
            f"(cycles of the {app.board.clock_hz:,} Hz clock)",
            status=UNSCHEDULABLE,
        )
    return 0
