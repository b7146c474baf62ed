# SPDX-License-Identifier: MIT
"""``tacet simulate``: a system description on the simulation engine against its analysis
(tacet.sim.simulate, which states the exit statuses), a sweep over random task sets
(``--sweep``, tacet.sim.sweep), or Kim et al.'s register-file experiment (``--regfiles``,
tacet.sim.regfiles)."""

import argparse
import json
import os
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from tacet.app.description import REPO, load
from tacet.cli.options import add_overhead_arguments
from tacet.core.errors import TacetError
from tacet.core.repo import find_repo
from tacet.sim import engine, regfiles
from tacet.sim.simulate import (
    DEFAULT_JOBS,
    EXCEEDED,
    MISSED,
    excesses,
    plan,
    print_result,
    simulate,
    to_json,
)
from tacet.sim.sweep import csv_text, load_spec, plot, run, summary
from tacet.sim.switchcost import DEFAULT_MEASUREMENT


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="run a system description's periodic threads on the real kernel, simulated",
        description="Simulate the periodic and sporadic threads of APP.yaml on the kernel "
        "(sim port, virtual time) and print per thread the measured response times, "
        "preemptions and blocking beside the analysis' bounds.",
        epilog="Exit status: 0 when every job met its deadline within the analysis' bounds, 3 "
        "when a job missed its deadline, 4 when the simulation exceeded a bound of the "
        "analysis, 1 for a description or an option in error, 2 for a command line argparse "
        "refused.",
    )
    parser.add_argument("description", metavar="APP.yaml", nargs="?", help="the system description")
    parser.add_argument(
        "--horizon",
        metavar="TIME",
        help="how long to simulate: cycles, or a number with us, ms, s or ticks (default: the "
        "description's simulation.horizon, else whole hyperperiods with at least "
        f"{DEFAULT_JOBS:,} jobs)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="seed of the execution times and jitter drawn (default: simulation.seed, else 0)",
    )
    add_overhead_arguments(parser, simulation=True)
    parser.add_argument(
        "--switch-cost-from",
        metavar="RESULTS.json",
        type=Path,
        help="price each switch with a sample of a measurement of tacet bench's results file "
        "(a QEMU run), in the description's clock; the analysis charges the largest",
    )
    parser.add_argument(
        "--switch-measurement",
        metavar="ID",
        help=f"the measurement --switch-cost-from takes (default {DEFAULT_MEASUREMENT})",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--repo",
        type=Path,
        help="the Tacet source tree whose engine is built (default: the one tacet comes from)",
    )
    parser.add_argument(
        "--build-dir",
        type=Path,
        help="the sim build tree the engine is built in (default: <repo>/build/sim)",
    )
    sweep = parser.add_argument_group(
        "sweeps", "random task sets over a grid of task counts and utilisations (docs/simulator.md)"
    )
    sweep.add_argument(
        "--sweep", metavar="SPEC.yaml", help="run the sweep SPEC.yaml instead of a description"
    )
    sweep.add_argument(
        "--out",
        metavar="DIR",
        help="where the sweep's results.csv and plots go (default: build/sweep/NAME)",
    )
    sweep.add_argument(
        "--jobs", type=int, metavar="N", help="worker processes (default: the number of cores)"
    )
    sweep.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run the sweep on the Dask scheduler at ADDRESS (host:port), or 'local' for a "
        "LocalCluster of --jobs worker processes",
    )
    sweep.add_argument(
        "--plots", metavar="DIR", help="where the sweep's plots go (default: the --out directory)"
    )
    sweep.add_argument("--no-plots", action="store_true", help="write the CSV only")
    parser.add_argument(
        "--regfiles",
        action="store_true",
        help="run Kim et al.'s experiment (multiple register files, its table 1) and print "
        "idle time against the number of register files",
    )
    parser.set_defaults(handler=handle)


def _library(args: argparse.Namespace) -> Path:
    repo = find_repo(Path.cwd(), args.repo) if args.repo is not None else REPO
    build_dir = (Path.cwd() / args.build_dir).resolve() if args.build_dir is not None else None
    return engine.library(repo, build_dir)


def handle(args: argparse.Namespace) -> int:
    chosen = [x for x in (args.description, args.sweep, args.regfiles or None) if x is not None]
    if len(chosen) != 1:
        raise TacetError("tacet simulate: give one of APP.yaml, --sweep SPEC.yaml or --regfiles")
    if args.sweep is not None:
        return _sweep(args, _library(args))
    if args.regfiles:
        return _regfiles(args, engine.Engine(_library(args)))
    if any(x is not None for x in (args.dask, args.out, args.jobs, args.plots)):
        raise TacetError("tacet simulate: --out, --plots, --jobs and --dask go with --sweep")
    app = load(args.description)
    p = plan(app, args)
    result, bounds = simulate(p, engine.Engine(_library(args)))
    over = excesses(result, bounds)
    if args.json:
        print(json.dumps(to_json(p, result, bounds, over), indent=2))
    else:
        print_result(p, result, bounds, over)
    if over:
        raise TacetError(
            f"{app.display}: the simulation exceeds the analysis: {over[0].text()} (cycles; "
            "docs/simulator.md, 'When a bound is exceeded')",
            status=EXCEEDED,
        )
    late = next((t for t in result.threads if t.missed), None)
    if late is not None:
        raise TacetError(
            f"{app.display}: {late.name} missed {late.missed} of {late.released} deadlines",
            status=MISSED,
        )
    return 0


def _sweep(args: argparse.Namespace, library: Path) -> int:
    """``tacet simulate --sweep SPEC.yaml [--out DIR] [--jobs N] [--dask ADDRESS]``."""
    spec = load_spec(Path(args.sweep))
    workers = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    if workers < 1:
        raise TacetError(f"--jobs {workers}: at least 1")
    out_dir = Path(args.out) if args.out is not None else Path("build") / "sweep" / spec.name
    out_dir.mkdir(parents=True, exist_ok=True)
    items = len(spec.items())
    err = Console(stderr=True, highlight=False)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=not err.is_terminal,
    ) as progress:
        bar = progress.add_task(f"sweep {spec.name}", total=items)
        outcome = run(spec, library, workers, args.dask, lambda n: progress.advance(bar, n))
    results = out_dir / "results.csv"
    results.write_text(csv_text(outcome.rows), encoding="utf-8", newline="")
    plots_dir = Path(args.plots) if args.plots is not None else out_dir
    plots_dir.mkdir(parents=True, exist_ok=True)
    plots = plot(spec, outcome.rows, plots_dir) if not args.no_plots else []
    runs = len(outcome.rows)
    print(
        f"{spec.display}: {items:,} task sets, {runs:,} runs, {outcome.jobs:,} jobs in "
        f"{outcome.seconds:.2f} s on {outcome.workers} worker{'s' if outcome.workers != 1 else ''}"
        f" ({outcome.where}): {outcome.jobs / outcome.seconds:,.0f} jobs/s, "
        f"{runs / outcome.seconds:,.0f} runs/s (each run simulated and analysed)"
    )
    print(
        f"the workers' CPU time {outcome.cpu:.2f} s: {outcome.jobs / outcome.cpu:,.0f} jobs per "
        f"CPU second; {outcome.cpu / outcome.seconds:.2f} cores busy on average (the machine's "
        f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores)"
    )
    for line in summary(spec, outcome.rows):
        print(line)
    print(f"wrote {results}" + "".join(f", {p}" for p in plots))
    return 0


def _regfiles(_args: argparse.Namespace, eng: engine.Engine) -> int:
    for line in regfiles.report(eng, regfiles.CLOCK_HZ, regfiles.LOOP_CYCLES, engine.RegFiles(1)):
        print(line)
    return 0
