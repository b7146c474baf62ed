# SPDX-License-Identifier: MIT
"""``tacet bench``: the benchmark suite on a target, its results as JSON, Markdown and plots;
``tacet bench compare`` to judge a change against an earlier run (docs/bench.md).

    tacet bench --target qemu-m3|qemu-m4|sim --out results/ [--repeat K] [--quick]
    tacet bench compare A.json B.json [--threshold PCT]

The run builds the benchmark programs in the target's build tree (as `tacet build` does),
runs each -- bench/rhealstone (the six Rhealstone parameters, empty and in workloads),
bench/rhealstone/scaling.c per number of priorities, bench/thread_metric (default and, on
Cortex-M, lean) -- reads and checks its output (tacet.bench.format), and writes
results.json (checked against schema/tacet-bench.schema.json), results.md and PNG plots
into the output directory.

``compare`` matches the two files' measurements by id and prints B / A of each mean. Exit
status: 0 when no judged measurement rose by more than the threshold, 1 when one did (a
regression), 2 when a file is missing or is not results. Host time is shown, never judged.
"""

from __future__ import annotations

import datetime
import platform
import re
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tacet import __version__
from tacet.bench import format as bench_format
from tacet.bench import results as bench_results
from tacet.bench.results import Run
from tacet.core.errors import TacetError
from tacet.core.targets import Target
from tacet.project.run import emulated_command
from tacet.project.setup import Setup

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
    if target.port in ("cortex-m", "riscv"):
        programs.append(Planned("thread_metric_lean", "lean", (tm_interval,), "thread_metric"))
    return programs


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
        if target.port in ("cortex-m", "riscv")
        else "(none added)",
        "qemu": _first_line([target.qemu, "--version"]) if target.emulated else None,
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
