# SPDX-License-Identifier: MIT
"""``tacet simulate --sweep SPEC.yaml``: random task sets over a grid, on every core or a cluster.

A sweep spec (schema/tacet-sweep.schema.json, docs/simulator.md) names task counts, total
utilisations, sets per point, a period range, a horizon, the scheduling modes and a switch cost
(a constant or Kim et al.'s register-file model). Each work item -- one task set, identified by
(task count, utilisation, set index) -- is drawn from its own random stream seeded by the spec's
seed and that identity, runs in every mode (and number of register files) on the engine and in
the analysis, and gives one CSV row per run. Items are independent and their rows are written
in item order, so the results file is the same bytes on one worker, on N, in a process pool or
on a Dask cluster (``--dask``). Then the plots: schedulable fraction (analysis and
simulation), preemptions per job and the switching share against total utilisation.
"""

from __future__ import annotations

import csv
import io
import math
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from tacet.analysis import rta as analysis
from tacet.analysis.taskgen import log_uniform_periods, uunifast_discard
from tacet.analysis.workload import Execution
from tacet.app.description import REPO
from tacet.core import yamldoc
from tacet.core.errors import TacetError
from tacet.sim import engine, switchcost
from tacet.sim.crosscheck import Case, dm_priorities, in_mode
from tacet.sim.taskset import SimTask, TaskSet

SCHEMA_PATH = REPO / "schema" / "tacet-sweep.schema.json"
MODES = ("preemptive", "thresholds", "non-preemptive")
DEFAULT_LONGEST_PERIODS = 10
MAX_RUNS = 10_000_000  # runs a spec may ask for (a typo of a few zeros should not start)
REGFILE_FIELDS = ("t_str", "n_str", "n_greg", "n_sreg", "n_ch", "t_chk", "base")

COLUMNS = (
    "tasks",
    "utilisation",
    "set",
    "files",
    "mode",
    "utilisation_drawn",
    "analysis_schedulable",
    "simulation_schedulable",
    "released",
    "jobs",
    "missed",
    "preemptions",
    "yields",
    "context_switches",
    "switch_cycles",
    "idle_cycles",
    "cycles",
)


@dataclass(frozen=True)
class Spec:
    """A checked sweep spec; ``files`` is (0,) for a constant switch cost."""

    display: str
    name: str
    seed: int
    tasks: tuple[int, ...]
    utilisations: tuple[float, ...]
    sets: int
    periods: tuple[int, int, int]  # min, max, granularity
    horizon: tuple[str, int]  # ("longest_periods" | "cycles", N)
    execution: tuple[str, float]  # model, bcet as a fraction of the WCET
    modes: tuple[str, ...]
    switch_cost: int
    files: tuple[int, ...]
    regfiles: tuple[tuple[str, int], ...] = ()  # the model's parameters but `files`
    release_cost: int = 0
    measured: tuple[int, ...] = ()  # switch costs drawn from tacet bench's samples (cycles)

    def items(self) -> list[tuple[int, float, int]]:
        return [(n, u, k) for n in self.tasks for u in self.utilisations for k in range(self.sets)]

    def regfile_model(self, files: int) -> engine.RegFiles:
        return engine.RegFiles(files, **dict(self.regfiles))


def _points(value: list[float] | dict[str, float]) -> list[float]:
    if isinstance(value, list):
        return [float(v) for v in value]
    start, stop, step = float(value["from"]), float(value["to"]), float(value["step"])
    count = math.floor((stop - start) / step + 1e-9) + 1
    return [round(start + k * step, 9) for k in range(max(0, count))]


def load_spec(path: Path, display: str | None = None) -> Spec:
    """Read and check a sweep spec; errors are ``FILE:LINE: FIELD: what is wrong``."""
    shown = display if display is not None else str(path)
    source, _ = yamldoc.read(
        path,
        shown,
        yamldoc.load_schema(SCHEMA_PATH),
        "a sweep spec",
        "a mapping with at least seed, tasks, utilisation, sets and periods",
    )
    d = source.data
    periods = d["periods"]
    if periods["min"] > periods["max"]:
        source.error(("periods", "max"), f"{periods['max']} is below min, {periods['min']}")
    raw_u = d["utilisation"]
    if isinstance(raw_u, dict) and raw_u["from"] > raw_u["to"]:
        source.error(("utilisation", "to"), f"{raw_u['to']} is below from, {raw_u['from']}")
    points = _points(raw_u)
    for u in points:
        fewest = min(d["tasks"])
        if u > fewest or (u == fewest > 1):
            source.error(
                ("utilisation",),
                f"{u:g} is too much for {fewest} tasks (UUniFast-Discard needs a total below the "
                "number of tasks, each task's share at most 1)",
            )
            break
    execution = d.get("execution", {"model": "fixed"})
    if "bcet" in execution and execution["model"] != "uniform":
        source.error(("execution", "bcet"), "only the uniform model takes bcet")
    cost = d.get("switch_cost", 0)
    regfiles = cost.get("regfiles") if isinstance(cost, dict) else None
    measured: tuple[int, ...] = ()
    if isinstance(cost, dict) and "bench" in cost:
        results = Path(path).parent / cost["bench"]
        try:
            measured = switchcost.from_bench(
                results,
                cost.get("measurement", switchcost.DEFAULT_MEASUREMENT),
                cost["clock_hz"],
            ).costs
        except TacetError as error:
            source.error(("switch_cost", "bench"), error.message)
    horizon = d.get("horizon", {"longest_periods": DEFAULT_LONGEST_PERIODS})
    modes = tuple(d.get("modes", MODES))
    files = tuple(regfiles["files"]) if regfiles else (0,)
    runs = len(d["tasks"]) * len(points) * d["sets"] * len(modes) * len(files)
    if runs > MAX_RUNS:
        source.error(("sets",), f"the sweep asks for {runs:,} runs; at most {MAX_RUNS:,}")
    yamldoc.raise_errors(source)
    return Spec(
        display=shown,
        name=d.get("name", Path(path).stem),
        seed=d["seed"],
        tasks=tuple(d["tasks"]),
        utilisations=tuple(points),
        sets=d["sets"],
        periods=(periods["min"], periods["max"], periods.get("granularity", 1)),
        horizon=next(iter(horizon.items())),
        execution=(execution["model"], float(execution.get("bcet", 1.0))),
        modes=modes,
        switch_cost=cost if isinstance(cost, int) else 0,
        measured=measured,
        files=files,
        regfiles=tuple((k, regfiles[k]) for k in REGFILE_FIELDS if k in regfiles)
        if regfiles
        else (),
        release_cost=d.get("release_cost", 0),
    )


# ---- one work item ------------------------------------------------------------------------


def taskset(spec: Spec, n: int, u: float, k: int) -> tuple[TaskSet, int, int]:
    """Item (n, u, k): its task set (rate-monotonic, fully preemptive), the engine's seed and
    the horizon. Drawn from a stream of its own: the same whichever worker draws it."""
    rng = random.Random(f"tacet-sweep:{spec.seed}:{n}:{u!r}:{k}")
    try:
        utilisations = uunifast_discard(rng, n, u)
    except ValueError as error:  # a total so close to n that no draw keeps every task <= 1
        raise TacetError(f"{spec.display}: {n} tasks at utilisation {u:g}: {error}") from None
    low, high, granularity = spec.periods
    periods = log_uniform_periods(rng, n, low, high, granularity)
    model, bcet = spec.execution
    tasks = []
    for i, (ui, period) in enumerate(zip(utilisations, periods, strict=True)):
        wcet = max(1, round(ui * period))
        execution = Execution()
        if model == "uniform":
            execution = Execution("uniform", bcet=math.floor(bcet * wcet))
        tasks.append(SimTask(f"t{i}", 0, 0, period, period, wcet, execution=execution))
    kind, amount = spec.horizon
    horizon = amount * max(periods) if kind == "longest_periods" else amount
    return TaskSet(tuple(dm_priorities(tasks))), rng.getrandbits(63), horizon


def run_item(eng: engine.Engine, spec: Spec, item: tuple[int, float, int]) -> list[list[str]]:
    """The CSV rows of one work item: one per number of register files and mode."""
    n, u, k = item
    base, seed, horizon = taskset(spec, n, u, k)
    drawn = sum(t.wcet / t.period for t in base.tasks)
    rows = []
    measured = engine.MeasuredCost(spec.measured) if spec.measured else None
    for files in spec.files:
        regfiles = spec.regfile_model(files) if files else None
        if regfiles:
            switch = regfiles.worst([t.period for t in base.tasks], eng)
        else:
            switch = measured.worst() if measured else spec.switch_cost
        case = Case(seed, base, switch, spec.release_cost, horizon)
        for mode in spec.modes:
            ts = in_mode(case, mode)
            bounds = analysis.analyze(ts.analysis_tasks(), case.overheads, eng.priorities)
            r = eng.run(
                ts,
                horizon=horizon,
                seed=seed,
                switch_cost=spec.switch_cost,
                release_cost=spec.release_cost,
                regfiles=regfiles,
                measured=measured,
            )
            values = (
                n,
                f"{u:g}",
                k,
                files or "",
                mode,
                f"{drawn:.6f}",
                int(bounds.schedulable),
                int(r.missed == 0),
                r.released,
                r.completed,
                r.missed,
                r.preemptions,
                sum(t.yields for t in r.threads),
                r.context_switches,
                r.switch_cycles,
                r.idle_cycles,
                r.end,
            )
            rows.append([str(v) for v in values])
    return rows


# One engine per worker process (the kernel inside is one per process), loaded at its first item.
_ENGINES: dict[str, engine.Engine] = {}


def run_chunk(
    spec: Spec, items: Sequence[tuple[int, float, int]], library: str
) -> tuple[list[list[str]], float]:
    """A chunk of items in a worker process (of the pool or of a Dask worker): its rows, and
    the CPU time the worker spent on them."""
    start = time.process_time()
    eng = _ENGINES.get(library)
    if eng is None:
        if not Path(library).is_file():
            raise TacetError(
                f"no simulation engine at {library} on {os.uname().nodename}: build the "
                "repository there at the same path (docs/simulator.md, 'On a Dask cluster')"
            )
        eng = _ENGINES[library] = engine.Engine(Path(library))
    rows = [row for item in items for row in run_item(eng, spec, item)]
    return rows, time.process_time() - start


# ---- running all of them ------------------------------------------------------------------


@dataclass
class Outcome:
    rows: list[list[str]] = field(default_factory=list)
    seconds: float = 0.0
    cpu: float = 0.0  # the workers' CPU time on the items
    workers: int = 0
    where: str = ""

    @property
    def jobs(self) -> int:
        return sum(int(r[COLUMNS.index("jobs")]) for r in self.rows)


def chunks(items: list[Any], workers: int) -> list[list[Any]]:
    """Items in chunks: a few per worker at a time (less overhead per item), enough chunks to
    keep every worker busy to the end."""
    size = max(1, min(16, len(items) // (workers * 8) or 1))
    return [items[i : i + size] for i in range(0, len(items), size)]


Progress = Callable[[int], None]
Done = tuple[list[list[str]], float]  # a chunk's rows and the CPU time they took


def _joined(results: Sequence[Done | None]) -> Done:
    """The chunks' rows in item order, and their CPU time."""
    done = [r for r in results if r is not None]
    return [row for rows, _ in done for row in rows], sum(cpu for _, cpu in done)


def run_pool(spec: Spec, library: Path, workers: int, advance: Progress) -> Done:
    parts = chunks(spec.items(), workers)
    results: list[Done | None] = [None] * len(parts)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {
            pool.submit(run_chunk, spec, part, str(library)): i for i, part in enumerate(parts)
        }
        for future in as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            advance(len(parts[i]))
    return _joined(results)


def run_dask(
    spec: Spec, library: Path, address: str, workers: int, advance: Progress
) -> tuple[Done, int]:
    try:
        from dask.distributed import Client, LocalCluster  # noqa: PLC0415
        from dask.distributed import as_completed as dask_completed  # noqa: PLC0415
    except ImportError:
        raise TacetError(
            "--dask needs the Python package distributed (make deps installs it: the "
            "'cluster' extra of tools/pyproject.toml)"
        ) from None
    cluster = None
    try:
        if address == "local":
            cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,  # one engine, one kernel per worker process
                processes=True,
                dashboard_address=None,
            )
            client = Client(cluster)
        else:
            client = Client(address, timeout=30)
    except (OSError, ValueError) as error:  # unreachable; not an address (ValueError)
        raise TacetError(
            f"--dask {address}: cannot reach the scheduler: {error} (expected 'local' or an "
            "address such as tcp://HOST:8786)"
        ) from None
    with client:
        count = len(client.scheduler_info().get("workers", {})) or workers
        parts = chunks(spec.items(), count)
        futures = [
            client.submit(run_chunk, spec, part, str(library), pure=False, key=f"tacet-sweep-{i}")
            for i, part in enumerate(parts)
        ]
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[Done | None] = [None] * len(parts)
        for future in dask_completed(futures):
            i = index[future.key]
            results[i] = future.result()
            advance(len(parts[i]))
    if cluster is not None:
        cluster.close()
    return _joined(results), count


def run(
    spec: Spec,
    library: Path,
    workers: int,
    dask: str | None = None,
    advance: Progress = lambda _n: None,
) -> Outcome:
    start = time.perf_counter()
    if dask is not None:
        (rows, cpu), count = run_dask(spec, library, dask, workers, advance)
        where = f"Dask {'LocalCluster' if dask == 'local' else dask}"
    elif workers == 1:  # in this process: no pool to start
        results = []
        for part in chunks(spec.items(), 1):
            results.append(run_chunk(spec, part, str(library)))
            advance(len(part))
        (rows, cpu), count, where = _joined(results), 1, "this process"
    else:
        (rows, cpu), count, where = (
            run_pool(spec, library, workers, advance),
            workers,
            "process pool",
        )
    return Outcome(rows, time.perf_counter() - start, cpu, count, where)


def csv_text(rows: list[list[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows)
    return out.getvalue()


# ---- what the rows say --------------------------------------------------------------------


def records(rows: list[list[str]]) -> Iterator[dict[str, Any]]:
    for row in rows:
        d: dict[str, Any] = dict(zip(COLUMNS, row, strict=True))
        for key in COLUMNS:
            if key not in ("mode", "utilisation", "utilisation_drawn", "files"):
                d[key] = int(d[key])
        d["utilisation"] = float(d["utilisation"])
        d["files"] = int(d["files"]) if d["files"] else 0
        yield d


@dataclass
class Point:
    """Runs of one series at one utilisation: sums for the plots and the summary."""

    runs: int = 0
    analysis: int = 0
    simulation: int = 0
    jobs: int = 0
    preemptions: int = 0  # the kernel's, less the yields at job boundaries
    switch_cycles: int = 0
    cycles: int = 0

    def add(self, d: dict[str, Any]) -> None:
        self.runs += 1
        self.analysis += d["analysis_schedulable"]
        self.simulation += d["simulation_schedulable"]
        self.jobs += d["jobs"]
        self.preemptions += d["preemptions"] - d["yields"]
        self.switch_cycles += d["switch_cycles"]
        self.cycles += d["cycles"]

    @property
    def per_job(self) -> float:
        return self.preemptions / self.jobs if self.jobs else 0.0

    @property
    def switching(self) -> float:
        return self.switch_cycles / self.cycles if self.cycles else 0.0


Series = tuple[int, str, int]  # tasks, mode, files


def aggregate(rows: list[list[str]]) -> dict[Series, dict[float, Point]]:
    out: dict[Series, dict[float, Point]] = {}
    for d in records(rows):
        key = (d["tasks"], d["mode"], d["files"])
        out.setdefault(key, {}).setdefault(d["utilisation"], Point()).add(d)
    return out


def summary(spec: Spec, rows: list[list[str]]) -> list[str]:
    """Per task count, mode and files over the whole sweep: schedulable fractions, preemptions
    per job, the switching share; and what the thresholds remove of fully preemptive's
    preemptions on the same sets."""
    table = aggregate(rows)
    lines = [
        f"{'tasks':>5} {'mode':<15} {'files':>5} {'sets':>6} {'sched (analysis)':>16} "
        f"{'sched (sim)':>11} {'preempt/job':>11} {'switching':>9}"
    ]
    totals: dict[Series, Point] = {}
    for key in sorted(table, key=lambda k: (k[0], k[2], spec.modes.index(k[1]))):
        total = Point()
        for p in table[key].values():
            for name in vars(total):
                setattr(total, name, getattr(total, name) + getattr(p, name))
        totals[key] = total
        n, mode, files = key
        lines.append(
            f"{n:>5} {mode:<15} {files or '-':>5} {total.runs:>6} "
            f"{total.analysis / total.runs:>16.3f} {total.simulation / total.runs:>11.3f} "
            f"{total.per_job:>11.4f} {100 * total.switching:>8.3f}%"
        )
    for (n, mode, files), total in totals.items():
        full = totals.get((n, "preemptive", files))
        if mode != "thresholds" or full is None or not full.preemptions:
            continue
        cut = 1 - total.preemptions / full.preemptions
        where = f", {files} files" if files else ""
        lines.append(
            f"{n} tasks{where}: the thresholds remove {100 * cut:.1f} % of fully preemptive's "
            f"preemptions ({full.preemptions:,} -> {total.preemptions:,}, yields at job "
            "boundaries excluded)"
        )
    return lines


def plot(spec: Spec, rows: list[list[str]], out_dir: Path) -> list[Path]:
    """schedulable.svg, preemptions.svg, switching.svg: a panel per task count, a line per mode
    (and number of register files), against total utilisation."""
    import matplotlib  # noqa: PLC0415

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    table = aggregate(rows)
    figures: dict[str, tuple[str, Callable[[Point], float]]] = {
        "schedulable": ("schedulable fraction", lambda p: p.simulation / p.runs),
        "preemptions": ("preemptions per job", lambda p: p.per_job),
        "switching": ("switching share of the CPU", lambda p: p.switching),
    }
    paths = []
    styles = {"preemptive": "o", "thresholds": "s", "non-preemptive": "^"}
    with plt.rc_context({"svg.hashsalt": "tacet", "font.size": 8, "svg.fonttype": "none"}):
        for stem, (label, value) in figures.items():
            fig, axes = plt.subplots(
                1, len(spec.tasks), figsize=(3.2 * len(spec.tasks) + 1, 3.0), squeeze=False
            )
            for ax, n in zip(axes[0], spec.tasks, strict=True):
                for files in spec.files:
                    for mode in spec.modes:
                        points = table.get((n, mode, files), {})
                        xs = sorted(points)
                        name = mode + (f", {files} RF" if files else "")
                        line = ax.plot(
                            xs,
                            [value(points[x]) for x in xs],
                            marker=styles[mode],
                            ms=3,
                            label=name,
                        )
                        if stem == "schedulable":
                            ax.plot(
                                xs,
                                [points[x].analysis / points[x].runs for x in xs],
                                linestyle="--",
                                color=line[0].get_color(),
                                linewidth=0.8,
                            )
                ax.set_title(f"{n} tasks")
                ax.set_xlabel("total utilisation")
                ax.grid(alpha=0.3)
            axes[0][0].set_ylabel(label + (" (-- analysis)" if stem == "schedulable" else ""))
            axes[0][-1].legend(fontsize=6)
            fig.suptitle(f"{spec.name}: {label}")
            fig.tight_layout()
            path = out_dir / f"{stem}.svg"
            fig.savefig(path, format="svg", metadata={"Date": None})
            plt.close(fig)
            paths.append(path)
        if len(spec.files) > 1:
            paths.append(_plot_files(spec, table, out_dir, plt))
    return paths


def _plot_files(
    spec: Spec, table: dict[Series, dict[float, Point]], out_dir: Path, plt: ModuleType
) -> Path:
    """files.svg: the schedulable fraction over the whole sweep against the number of register
    files, a line per task count and mode (-- the analysis)."""
    fig, ax = plt.subplots(figsize=(4.5, 3.0))
    for n in spec.tasks:
        for mode in spec.modes:
            totals = []
            for files in spec.files:
                points = table.get((n, mode, files), {}).values()
                runs = sum(p.runs for p in points) or 1
                totals.append(
                    (
                        sum(p.simulation for p in points) / runs,
                        sum(p.analysis for p in points) / runs,
                    )
                )
            line = ax.plot(
                spec.files, [t[0] for t in totals], marker="o", ms=3, label=f"{n} tasks, {mode}"
            )
            ax.plot(
                spec.files,
                [t[1] for t in totals],
                linestyle="--",
                linewidth=0.8,
                color=line[0].get_color(),
            )
    ax.set_xlabel("register files (the interrupts' included)")
    ax.set_ylabel("schedulable fraction (-- analysis)")
    ax.set_title(f"{spec.name}: over {spec.utilisations[0]:g}-{spec.utilisations[-1]:g}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6)
    fig.tight_layout()
    path = out_dir / "files.svg"
    fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)
    return path


# ---- the command --------------------------------------------------------------------------
