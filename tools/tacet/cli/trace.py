# SPDX-License-Identifier: MIT
"""``tacet trace DUMP``: decode a kernel trace dump, summarise it, export it (tacet.trace)."""

import argparse
import json
from pathlib import Path

from rich.console import Console

from tacet.trace.analysis import analyze
from tacet.trace.perfetto import perfetto_runs
from tacet.trace.summary import (
    load_runs,
    print_summary,
    print_written,
    stats_dict,
    stats_text,
    write_reports,
    write_text,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "trace",
        help="decode a kernel trace dump: summary, statistics, Perfetto JSON, HTML report",
        description="Decode DUMP (written by `tacet run --trace` or a target's semihosting "
        "dump) and print a summary; export it for ui.perfetto.dev or as an HTML report.",
    )
    parser.add_argument("dump", metavar="DUMP", type=Path, help="the trace dump (.tctrace)")
    parser.add_argument(
        "--stats", action="store_true", help="print the statistics (per thread, inversions)"
    )
    parser.add_argument("--json", action="store_true", help="with --stats: print them as JSON")
    parser.add_argument(
        "--perfetto",
        type=Path,
        metavar="OUT.json",
        help="write Chrome Trace Event Format JSON (open it in ui.perfetto.dev)",
    )
    parser.add_argument(
        "--html",
        type=Path,
        metavar="OUT.html",
        help="write the self-contained HTML report (one per run when the file holds several: "
        "OUT-run1.html, OUT-run2.html ...)",
    )
    parser.add_argument(
        "--run",
        type=int,
        metavar="N",
        help="only the N-th trace of the file (1 = the first kernel run); default: every one",
    )
    parser.set_defaults(handler=handle, parser=parser)


def handle(args: argparse.Namespace) -> int:
    if args.json and not args.stats:
        args.parser.error("--json goes with --stats")
    traces = load_runs(args.dump, args.run)
    analyses = [analyze(trace, str(args.dump)) for trace in traces]
    console = Console(highlight=False)
    status = Console(stderr=True, highlight=False)
    if args.perfetto is not None:
        doc = perfetto_runs(list(zip(traces, analyses, strict=True)))
        write_text(args.perfetto, json.dumps(doc, separators=(",", ":")), "Perfetto JSON")
    reports = write_reports(traces, analyses, args.html) if args.html is not None else []
    if args.stats and args.json:
        stats = [stats_dict(a) for a in analyses]
        print(json.dumps(stats[0] if len(stats) == 1 else stats, indent=2))
    elif args.stats:
        for n, analysis in enumerate(analyses):
            print(("\n" if n else "") + stats_text(analysis))
    elif args.perfetto is None and args.html is None:
        for n, (trace, analysis) in enumerate(zip(traces, analyses, strict=True)):
            if n:
                console.print()
            print_summary(console, trace, analysis)
    if args.perfetto is not None:
        runs = "" if len(traces) == 1 else f"{len(traces)} runs, a process each; "
        status.print(
            f"wrote {args.perfetto} ({runs}open it in https://ui.perfetto.dev)", soft_wrap=True
        )
    if args.perfetto is not None or reports:
        print_written(status, traces, analyses, reports)
    return 0
