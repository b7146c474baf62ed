# SPDX-License-Identifier: MIT
"""``tacet bench``: the benchmark suite on a target, its results as JSON, Markdown and plots;
``tacet bench compare`` to judge a change against an earlier run (docs/bench.md).

    tacet bench --target qemu-m3|qemu-m4|sim --out results/ [--repeat K] [--quick]
    tacet bench compare A.json B.json [--threshold PCT]

The run builds the benchmark programs in the target's build tree (as `tacet build` does),
runs each -- bench/rhealstone (the six Rhealstone parameters, empty and in workloads),
bench/rhealstone/scaling.c per number of priorities, bench/thread_metric (default and, on
Cortex-M, lean) -- reads and checks its output (tacet.bench_format), and writes
results.json (checked against schema/tacet-bench.schema.json), results.md and PNG plots
into the output directory.

``compare`` matches the two files' measurements by id and prints B / A of each mean. Exit
status: 0 when no judged measurement rose by more than the threshold, 1 when one did (a
regression), 2 when a file is missing or is not results. Host time is shown, never judged.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from tacet import __version__, bench_format, bench_report, bench_results, cmake
from tacet.bench_results import Run
from tacet.common import Setup, add_target_arguments, resolve_setup
from tacet.errors import TacetError
from tacet.host import require_tool
from tacet.run import emulated_command
from tacet.targets import QEMU, Target

DEFAULT_REPEAT = 1000
QUICK_REPEAT = 21  # one sample per workload and point
MAX_REPEAT = 2000  # the programs' sample store (bench/rhealstone/measure.h)
DEFAULT_TM_SECONDS = 2
QUICK_TM_INTERVAL = "20ms"
SCALING_PRIORITIES = (32, 64, 256, 1024)
RUN_TIMEOUT = 1800.0  # seconds per program
DEFAULT_THRESHOLD = 5.0


@dataclass(frozen=True)
class Planned:
    name: str  # CMake target
    build: str
    args: tuple[str, ...]
    kind: str  # "samples" (measure.h format) or "thread_metric"


def plan(target: Target, repeat: int, tm_interval: str) -> list[Planned]:
    """The programs a run builds and runs on ``target``, in order."""
    k = str(repeat)
    programs = [Planned("rhealstone", "default", (k,), "samples")]
    if target.port == "cortex-m":
        # What each default option costs the parameters (the switch goals by configuration).
        programs += [
            Planned(f"rhealstone_{b}", b, (k,), "samples") for b in bench_results.CONFIGURATIONS
        ]
    programs += [Planned(f"scaling_p{p}", f"p{p}", (k,), "samples") for p in SCALING_PRIORITIES]
    programs.append(Planned("thread_metric", "default", (tm_interval,), "thread_metric"))
    if target.port == "cortex-m":
        programs.append(Planned("thread_metric_lean", "lean", (tm_interval,), "thread_metric"))
    return programs


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="run the benchmark suite and write results, or compare two results",
        usage="%(prog)s [--target T] [--out DIR] [--repeat K] [--quick]\n"
        "       %(prog)s compare A.json B.json [--threshold PCT]",
        description="Build and run the benchmark programs on a target (the Rhealstone "
        "parameters between empty threads and inside workloads, the preemption cost against "
        "the number of ready threads, Thread-Metric) and write results.json, results.md and "
        "plots into --out. `tacet bench compare` judges a run against an earlier one.",
    )
    add_target_arguments(parser)
    parser.add_argument(
        "--out", type=Path, default=Path("results"), help="output directory (default: results)"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=DEFAULT_REPEAT,
        metavar="K",
        help=f"samples per parameter and case, 1..{MAX_REPEAT} (default {DEFAULT_REPEAT})",
    )
    parser.add_argument(
        "--tm-seconds",
        type=int,
        default=DEFAULT_TM_SECONDS,
        metavar="S",
        help=f"Thread-Metric's interval per test, 1..3600 s (default {DEFAULT_TM_SECONDS}; "
        "the suite's own is 30)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"for tests: {QUICK_REPEAT} samples, Thread-Metric at {QUICK_TM_INTERVAL} a test",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    compare = actions.add_parser(
        "compare",
        prog="tacet bench compare",
        usage="%(prog)s A.json B.json [--threshold PCT]",
        help="compare two results files",
        description="Print B / A of every measurement's mean; exit 1 when a judged one rose "
        "by more than the threshold (a regression), 2 for a missing or malformed file.",
    )
    compare.add_argument("baseline", type=Path, metavar="A.json")
    compare.add_argument("candidate", type=Path, metavar="B.json")
    compare.add_argument(
        "--threshold",
        type=float,
        default=DEFAULT_THRESHOLD,
        metavar="PCT",
        help=f"percent a mean may rise before it is a regression (default {DEFAULT_THRESHOLD:g})",
    )
    compare.set_defaults(handler=handle_compare)
    parser.set_defaults(handler=handle)


# ---- running -------------------------------------------------------------------------------


def _first_line(command: Sequence[str]) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return (
        (done.stdout or done.stderr).strip().splitlines()[0]
        if (done.stdout or done.stderr).strip()
        else "unknown"
    )


def _cache(build_dir: Path) -> dict[str, str]:
    """The CMake cache's entries (NAME:TYPE=VALUE)."""
    entries = {}
    try:
        text = (build_dir / "CMakeCache.txt").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return entries
    for line in text.splitlines():
        if m := re.match(r"^([A-Za-z_][\w.-]*):\w+=(.*)$", line):
            entries[m[1]] = m[2]
    return entries


def _git(repo: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(repo), *args], capture_output=True, text=True, check=False, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def _compiler(build_dir: Path, cache: dict[str, str]) -> str:
    """The build tree's C compiler: the cache's, or the one CMake found (a toolchain file's
    compiler is not cached)."""
    if cache.get("CMAKE_C_COMPILER"):
        return cache["CMAKE_C_COMPILER"]
    for found in sorted((build_dir / "CMakeFiles").glob("*/CMakeCCompiler.cmake")):
        m = re.search(r'set\(CMAKE_C_COMPILER "([^"]+)"\)', found.read_text(errors="replace"))
        if m:
            return m[1]
    return ""


def metadata(setup: Setup, repeat: int, quick: bool, tm_interval: str) -> dict[str, Any]:
    cache = _cache(setup.build_dir)
    compiler = _compiler(setup.build_dir, cache)
    commit = _git(setup.repo, "rev-parse", "HEAD")
    status = _git(setup.repo, "status", "--porcelain", "--untracked-files=no")
    target = setup.target
    return {
        "target": target.name,
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "commit": commit.strip() if commit else "unknown",
        "dirty": bool(status.strip()) if status is not None else None,
        "compiler": _first_line([compiler, "--version"]) if compiler else "unknown",
        "c_flags": " ".join(
            filter(None, [cache.get("CMAKE_C_FLAGS", ""), cache.get("CMAKE_BUILD_TYPE", "")])
        ),
        "bench_flags": "-O2 (benchmark programs and their kernels)"
        if target.port == "cortex-m"
        else "(none added)",
        "qemu": _first_line([QEMU, "--version"]) if target.emulated else None,
        "run_command": target.run_command(Path("PROGRAM")),
        "host": f"{platform.system()} {platform.machine()} {platform.node()}",
        "python": platform.python_version(),
        "tacet": __version__,
        "repeat": repeat,
        "quick": quick,
        "thread_metric_interval": tm_interval,
    }


def run_program(setup: Setup, program: Path, planned: Planned) -> Run:
    """Run one benchmark program and read its output; a failure is a TacetError."""
    target = setup.target
    command = target.run_command(program)
    command = (
        emulated_command(command, program, planned.args, None)
        if target.emulated
        else [*command, *planned.args]
    )
    source = f"{planned.name} on {target.name}"
    started = time.monotonic()
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=RUN_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise TacetError(
            f"{source} was still running after {RUN_TIMEOUT:g} s and was stopped"
        ) from None
    except OSError as error:
        raise TacetError(f"cannot run {command[0]}: {error.strerror}") from None
    seconds = time.monotonic() - started
    tail = "\n".join(done.stdout.splitlines()[-8:] + done.stderr.splitlines()[-8:])
    if done.returncode != 0:
        raise TacetError(f"{source} failed (exit status {done.returncode}):\n{tail}")
    if planned.kind == "thread_metric":
        tm = bench_format.parse_thread_metric(done.stdout, source)
        failed = [r.test for r in tm.rows if r.check_failed]
        if failed:
            raise TacetError(f"{source}: the checks of {', '.join(failed)} failed")
        return Run(
            planned.name, planned.build, tuple(command), done.returncode, seconds, thread_metric=tm
        )
    output = bench_format.parse(done.stdout, source)
    bench_format.complete(output, source)
    if not output.ok:
        raise TacetError(f"{source}: a check of its own failed:\n" + "\n".join(output.notes[-8:]))
    return Run(planned.name, planned.build, tuple(command), done.returncode, seconds, output=output)


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=Console(stderr=True), transient=True,
    )  # fmt: skip


def check_arguments(args: argparse.Namespace) -> None:
    if not 1 <= args.repeat <= MAX_REPEAT:
        raise TacetError(f"--repeat {args.repeat}: must be 1 to {MAX_REPEAT}", status=2)
    if not 1 <= args.tm_seconds <= 3600:
        raise TacetError(f"--tm-seconds {args.tm_seconds}: must be 1 to 3600", status=2)


def handle(args: argparse.Namespace) -> int:
    check_arguments(args)
    setup = resolve_setup(args)
    target = setup.target
    if target.emulated:
        require_tool(QEMU, f"target {target.name}")
    repeat = QUICK_REPEAT if args.quick else args.repeat
    tm_interval = QUICK_TM_INTERVAL if args.quick else str(args.tm_seconds)
    out = (setup.cwd / args.out).resolve()
    if out.exists() and not out.is_dir():
        raise TacetError(f"--out {args.out}: {out} is not a directory", status=2)
    anchors = bench_results.load_anchors()
    programs = plan(target, repeat, tm_interval)
    runs: list[Run] = []
    with _progress() as progress:
        task = progress.add_task(f"{target.name}: configure", total=2 * len(programs) + 1)
        cmake.configure(target, setup.repo, setup.build_dir, output="on-failure")
        progress.advance(task)
        for p in programs:
            progress.update(task, description=f"{target.name}: build {p.name}")
            cmake.build(
                setup.build_dir, f"{p.name} for target {target.name}", p.name, output="on-failure"
            )
            progress.advance(task)
        executables = cmake.executables(setup.build_dir)
        for p in programs:
            if p.name not in executables:
                raise TacetError(f"no program {p.name} in {setup.build_dir} after its build")
            progress.update(task, description=f"{target.name}: run {p.name} {' '.join(p.args)}")
            runs.append(run_program(setup, executables[p.name], p))
            progress.advance(task)
    doc = bench_results.assemble(metadata(setup, repeat, args.quick, tm_interval), runs, anchors)
    bench_results.validate(doc, "the results of this run")
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    command = " ".join(
        [f"tacet bench --target {target.name} --out {args.out}"]
        + (["--quick"] if args.quick else [])
        + ([f"--repeat {args.repeat}"] if args.repeat != DEFAULT_REPEAT and not args.quick else [])
        + ([f"--tm-seconds {args.tm_seconds}"] if args.tm_seconds != DEFAULT_TM_SECONDS else [])
    )
    report = bench_report.markdown(doc, command)
    (out / "results.md").write_text(report + "\n", encoding="utf-8")
    written = [out / "results.json", out / "results.md", *bench_report.plots(doc, out)]
    print(report)
    print("\n".join(f"tacet: wrote {p}" for p in written), file=sys.stderr)
    return 0


# ---- compare -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    id: str
    unit: str
    before: float
    after: float
    judged: bool

    @property
    def ratio(self) -> float:
        if self.before == 0:
            return 1.0 if self.after == 0 else float("inf")
        return self.after / self.before


def values(doc: dict[str, Any]) -> dict[str, tuple[float, str, bool]]:
    """id -> (value, unit, judged) of every measurement and Thread-Metric figure."""
    out = {m["id"]: (float(m["value"]), m["unit"], bool(m["judged"])) for m in doc["measurements"]}
    out.update(
        {r["id"]: (float(r["value"]), r["unit"], bool(r["judged"])) for r in doc["thread_metric"]}
    )
    return out


def compare(a: dict[str, Any], b: dict[str, Any]) -> tuple[list[Change], list[str], list[str]]:
    """The changes from ``a`` to ``b`` (sorted by id), and the ids only one of them has."""
    va, vb = values(a), values(b)
    changes = [
        Change(k, va[k][1], va[k][0], vb[k][0], va[k][2] and vb[k][2] and va[k][1] == vb[k][1])
        for k in sorted(va.keys() & vb.keys())
    ]
    return changes, sorted(va.keys() - vb.keys()), sorted(vb.keys() - va.keys())


def handle_compare(args: argparse.Namespace) -> int:
    if not 0 <= args.threshold <= 1000 or args.threshold != args.threshold:
        raise TacetError(f"--threshold {args.threshold:g}: must be 0 to 1000 percent", status=2)
    a, b = bench_results.load(args.baseline), bench_results.load(args.candidate)
    changes, only_a, only_b = compare(a, b)
    limit = 1 + args.threshold / 100
    ta, tb = a["meta"]["target"], b["meta"]["target"]
    print(f"A: {args.baseline} ({ta}, commit {a['meta']['commit'][:12]}, {a['meta']['date']})")
    print(f"B: {args.candidate} ({tb}, commit {b['meta']['commit'][:12]}, {b['meta']['date']})")
    if ta != tb:
        print(f"note: the targets differ ({ta}, {tb}): the ratios compare two machines")
    width = max((len(c.id) for c in changes), default=10)
    print(f"{'measurement':<{width}}  {'A':>10}  {'B':>10}  {'B / A':>7}")
    regressions = []
    for c in changes:
        flag = ""
        if not c.judged:
            flag = "  (not judged)"
        elif c.ratio > limit:
            flag = "  REGRESSION"
            regressions.append(c)
        elif c.ratio < 1 / limit:
            flag = "  improved"
        ratio = "inf" if c.ratio == float("inf") else f"{c.ratio:.3f}"
        print(f"{c.id:<{width}}  {c.before:>10.2f}  {c.after:>10.2f}  {ratio:>7}{flag}")
    for ids, which in ((only_a, "A"), (only_b, "B")):
        if ids:
            print(
                f"only in {which} ({len(ids)}): {', '.join(ids[:5])}"
                + (" ..." if len(ids) > 5 else "")
            )
    judged = sum(c.judged for c in changes)
    if regressions:
        print(
            f"{len(regressions)} of {judged} judged measurements rose by more than "
            f"{args.threshold:g} % (exit status 1)"
        )
        return 1
    print(
        f"no regression: none of {judged} judged measurements rose by more than "
        f"{args.threshold:g} %"
    )
    return 0
