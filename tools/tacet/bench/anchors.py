# SPDX-License-Identifier: MIT
"""Thread-Metric like for like (``tacet bench anchors``): the same eight programs
(bench/thread_metric) on Tacet and on the anchor kernels ThreadX and FreeRTOS, built in one
tree from source trees the caller names, run on one target by one command, and one table of
instructions per operation with the ratios Tacet's goals are judged by.

    tacet bench anchors --target qemu-m3 --threadx DIR --freertos DIR [--seconds 30]
    tacet bench anchors --target qemu-rv32 --freertos DIR --seconds 1

On RISC-V (qemu-rv32, qemu-rv32f) the anchor is FreeRTOS's GCC/RISC-V port; ThreadX has no
RV32 port for GCC, so it has no column there, and the report says why (``RISCV_UNAVAILABLE``).

An anchor kernel whose tree is not given is left out, and the report says so; nothing is
quoted from elsewhere. A kernel that cannot restart (ThreadX, FreeRTOS) runs one test per
program run; Tacet's programs run all eight in one. FreeRTOS has no block pool: its memory
test is not run. A test whose own check fails on an anchor kernel (FreeRTOS's cooperative
threads drift apart when the tick rotates them) is shown with its figure and marked, and does
not count as the better anchor; a check that fails on Tacet is an error.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tacet.bench.format import THREAD_METRIC_TESTS, FormatError, parse_thread_metric
from tacet.core.errors import TacetError
from tacet.core.targets import Target
from tacet.project.run import emulated_command

DEFAULT_SECONDS = 30  # the suite's own reporting interval
RUN_TIMEOUT = 1800.0
GOAL = 0.85  # Tacet's goal: at most 0.85 x the anchor


@dataclass(frozen=True)
class Kernel:
    key: str  # "threadx"
    name: str  # "ThreadX"
    variable: str  # the CMake cache variable that names its tree
    option: str  # the command's option
    tests: tuple[str, ...]  # what it runs


KERNELS = (
    Kernel("threadx", "ThreadX", "THREADX_DIR", "--threadx", THREAD_METRIC_TESTS),
    Kernel(
        "freertos",
        "FreeRTOS",
        "FREERTOS_DIR",
        "--freertos",
        tuple(t for t in THREAD_METRIC_TESTS if t != "memory"),  # no block pool
    ),
)
KERNEL = {k.key: k for k in KERNELS}


@dataclass(frozen=True)
class Build:
    """A column of the table: one program, one kernel configuration."""

    key: str
    program: str  # CMake target in bench/
    kernel: str | None  # an anchor's key; None: Tacet
    label: str
    what: str

    @property
    def tests(self) -> tuple[str, ...]:
        return KERNEL[self.kernel].tests if self.kernel else THREAD_METRIC_TESTS


BUILDS = (
    Build("threadx_bare", "thread_metric_threadx_bare", "threadx", "ThreadX bare",
          "TX_DISABLE_ERROR_CHECKING"),
    Build("threadx_checks", "thread_metric_threadx_checks", "threadx", "ThreadX checks",
          "ThreadX's default: the _txe_ argument checks"),
    Build("threadx_counters", "thread_metric_threadx_counters", "threadx",
          "ThreadX checks + counters",
          "the checks + TX_*_ENABLE_PERFORMANCE_INFO for threads, semaphores, queues and block "
          "pools + the execution profile kit timed by the CMSDK timer: Tacet's default counters"),
    Build("freertos", "thread_metric_freertos", "freertos", "FreeRTOS", "its defaults"),
    Build("freertos_stats", "thread_metric_freertos_stats", "freertos", "FreeRTOS stats",
          "configGENERATE_RUN_TIME_STATS + configUSE_TRACE_FACILITY"),
    Build("tacet_default", "thread_metric", None, "Tacet default",
          "checks, counters, stack check, 256 priorities"),
    Build("tacet_lean", "thread_metric_lean", None, "Tacet lean",
          "TC_CHECKS=0 TC_STATS=0 TC_STACK_CHECK=0 TC_PRIORITIES=32"),
)  # fmt: skip
BUILD = {b.key: b for b in BUILDS}

# The anchors of each goal (docs/measurements.md).
BARE = ("threadx_bare", "freertos")
FEATURE_EQUAL = "threadx_counters"


@dataclass(frozen=True)
class Figure:
    value: float  # instructions per operation
    operations: int
    check_failed: bool = False


@dataclass
class Column:
    """What one build printed: its figures by test and the header's facts."""

    build: Build
    port: str = ""
    config: dict[str, str] = field(default_factory=dict)
    figures: dict[str, Figure] = field(default_factory=dict)

    @property
    def version(self) -> str:
        return self.config.get("version", "")


def plan(given: Sequence[str]) -> list[Build]:
    """The builds of a run: Tacet's two and those of every anchor kernel in ``given``."""
    return [b for b in BUILDS if b.kernel is None or b.kernel in given]


def program_args(build: Build, seconds: int) -> list[tuple[str, ...]]:
    """The program's arguments, one tuple per run: all tests at once on Tacet, one test per
    run on a kernel that cannot restart."""
    if build.kernel is None:
        return [(str(seconds),)]
    return [(str(seconds), test) for test in build.tests]


def read(build: Build, outputs: Sequence[tuple[str, tuple[str, ...]]], source: str) -> Column:
    """A column from its runs' outputs: (stdout, the tests that run printed)."""
    column = Column(build)
    for text, tests in outputs:
        report = parse_thread_metric(text, source, tests)
        column.port, column.config = report.port, report.config
        for row in report.rows:
            if row.unit != "instructions per op":
                raise FormatError(f"{source}: {row.unit}: the anchors are compared under QEMU only")
            column.figures[row.test] = Figure(row.value, row.operations, row.check_failed)
    return column


# ---- RISC-V ---------------------------------------------------------------------------------

RISCV_PORT = "riscv"
# Anchor kernels that have no port for a target's architecture, and why: the report says so
# where their columns would be (never a port of our own under their name).
RISCV_UNAVAILABLE = {
    "threadx": "not available on RV32: ThreadX has no RV32 port for GCC (its tree has "
    "ports/risc-v32/iar, for IAR's tools, and ports/risc-v64/gnu, which reads the saved mepc at "
    "a 64-bit offset and keeps the interrupt posture in 64 bits: it does not run as RV32 "
    "unmodified)",
}
# What a tree must hold for the RISC-V programs (bench/thread_metric/anchors_riscv.cmake).
RISCV_TREE_FILES = {
    "freertos": (
        "include/FreeRTOS.h",
        "portable/GCC/RISC-V/portASM.S",
        "portable/GCC/RISC-V/chip_specific_extensions/RISCV_MTIME_CLINT_no_extensions",
    ),
}


def unavailable(port: str) -> dict[str, str]:
    """The anchor kernels a port has no column for, and why."""
    return dict(RISCV_UNAVAILABLE) if port == RISCV_PORT else {}


def riscv_tree_error(kernel: Kernel, tree: Path) -> str | None:
    """Why ``tree`` cannot give ``kernel``'s RISC-V programs, or None when it can."""
    if kernel.key in RISCV_UNAVAILABLE:
        return f"{kernel.option} {tree}: {kernel.name} is {RISCV_UNAVAILABLE[kernel.key]}"
    missing = [f for f in RISCV_TREE_FILES.get(kernel.key, ()) if not (tree / f).exists()]
    if missing:
        what = f"not a {kernel.name} tree with a RISC-V port"
        return f"{kernel.option} {tree}: {what} (no {missing[0]})"
    return None


# ---- running --------------------------------------------------------------------------------


def run_build(
    target: Target,
    program: Path,
    build: Build,
    seconds: int,
    *,
    runner: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run,
) -> Column:
    """Run one build's program (once, or once per test) and read what it printed. A program
    whose own check failed exits with status 1 and still prints its line: that is a figure,
    marked; any other failure is an error."""
    outputs = []
    for args in program_args(build, seconds):
        command = target.run_command(program)
        command = (
            emulated_command(command, program, args, None) if target.emulated else [*command, *args]
        )
        source = f"{build.program} {' '.join(args)} on {target.name}"
        try:
            done = runner(
                command, capture_output=True, text=True, errors="replace", timeout=RUN_TIMEOUT,
                check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            raise TacetError(f"{source} was still running after {RUN_TIMEOUT:g} s") from None
        except OSError as error:
            raise TacetError(f"cannot run {command[0]}: {error.strerror}") from None
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-8:])
        if done.returncode not in (0, 1):
            raise TacetError(f"{source} failed (exit status {done.returncode}):\n{tail}")
        tests = build.tests if len(args) == 1 else (args[1],)
        try:
            outputs.append((done.stdout, tests))
            column = read(build, outputs[-1:], source)
        except FormatError as error:
            raise TacetError(f"{error.message}\n{tail}") from None
        if done.returncode == 1 and not any(f.check_failed for f in column.figures.values()):
            raise TacetError(f"{source} failed (exit status 1) with no check marked:\n{tail}")
    return read(build, outputs, build.program)


def run_all(
    target: Target,
    executables: dict[str, Path],
    builds: Sequence[Build],
    seconds: int,
    *,
    jobs: int = 1,
    runner: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run,
    progress: Callable[[Build], None] | None = None,
) -> list[Column]:
    """Every build's column, in the table's order."""

    def one(build: Build) -> Column:
        if build.program not in executables:
            raise TacetError(f"no program {build.program} after the build")
        column = run_build(target, executables[build.program], build, seconds, runner=runner)
        if progress is not None:
            progress(build)
        return column

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        columns = list(pool.map(one, builds))
    failed = [
        f"{c.build.label}: {t}"
        for c in columns
        if c.build.kernel is None
        for t, f in c.figures.items()
        if f.check_failed
    ]
    if failed:
        raise TacetError("a Thread-Metric check failed on Tacet (" + "; ".join(failed) + ")")
    return columns


# ---- the comparison --------------------------------------------------------------------------


def _value(columns: dict[str, Column], key: str, test: str, counted: bool = False) -> float | None:
    """A figure, or None; with counted=True also None when its own check failed."""
    column = columns.get(key)
    figure = column.figures.get(test) if column else None
    if figure is None or (counted and figure.check_failed):
        return None
    return figure.value


def better_bare(columns: dict[str, Column], test: str) -> tuple[str, float] | None:
    """The better (lower) bare anchor of a test whose check passed: its key and figure."""
    found = [(v, k) for k in BARE if (v := _value(columns, k, test, counted=True)) is not None]
    return (min(found)[1], min(found)[0]) if found else None


@dataclass(frozen=True)
class Goal:
    name: str
    build: str  # the Tacet build judged
    anchor: str  # what it is judged against (a label)
    limit: float  # the ratio it may reach
    results: tuple[tuple[str, float | None], ...]  # per test: the ratio (None: no anchor)

    @property
    def met(self) -> list[str]:
        return [t for t, r in self.results if r is not None and r <= self.limit + 1e-9]

    @property
    def missed(self) -> list[str]:
        return [t for t, r in self.results if r is not None and r > self.limit + 1e-9]


def goal_line(g: Goal, anchor: str = "") -> str:
    """A goal's verdict as a list item: how many tests met it and the ratios of those missed."""
    met, missed = g.met, g.missed
    line = f"- **{g.name}**{anchor}: met on {len(met)} of {len(met) + len(missed)} tests"
    if missed:
        line += "; missed on " + ", ".join(f"{t} ({dict(g.results)[t]:.2f})" for t in missed)
    return line


def goals(columns: Sequence[Column]) -> list[Goal]:
    """Tacet's goals, each judged on every test but basic that has its anchor here."""
    by = {c.build.key: c for c in columns}
    tests = [t for t in THREAD_METRIC_TESTS if t != "basic"]

    def ratio(key: str, test: str, anchor: float | None) -> float | None:
        value = _value(by, key, test)
        return None if value is None or not anchor else value / anchor

    out = []
    if any(k in by for k in BARE):
        out.append(
            Goal(
                "lean <= 0.85 x the better bare anchor", "tacet_lean",
                "the better of ThreadX bare and FreeRTOS (checks passed)", GOAL,
                tuple((t, ratio("tacet_lean", t, (better_bare(by, t) or ("", None))[1]))
                      for t in tests),
            )
        )  # fmt: skip
    if FEATURE_EQUAL in by:
        out.append(
            Goal(
                "default <= 0.85 x feature-equal ThreadX", "tacet_default",
                BUILD[FEATURE_EQUAL].label, GOAL,
                tuple((t, ratio("tacet_default", t, _value(by, FEATURE_EQUAL, t))) for t in tests),
            )
        )  # fmt: skip
    if "threadx_bare" in by:
        out.append(
            Goal(
                "moonshot: default <= bare ThreadX", "tacet_default", "ThreadX bare", 1.0,
                tuple((t, ratio("tacet_default", t, _value(by, "threadx_bare", t))) for t in tests),
            )
        )  # fmt: skip
    return out


# ---- the report --------------------------------------------------------------------------------


def _cell(figure: Figure | None) -> str:
    if figure is None:
        return "—"
    return f"{figure.value:,.1f}" + (" ✗" if figure.check_failed else "")


def _ratio(r: float | None, limit: float) -> str:
    if r is None:
        return "—"
    return f"{r:.2f}" + (" ✓" if r <= limit + 1e-9 else "")


def table(columns: Sequence[Column]) -> list[str]:
    """The figures of every build, and the ratios of the goals, as a Markdown table."""
    judged = goals(columns)
    ratios = [f"{g.build.replace('tacet_', '')} / {_short(g)}" for g in judged]
    return figures_table(columns, judged, ratios)


def figures_table(
    shown: Sequence[Column], judged: Sequence[Goal], ratios: Sequence[str]
) -> list[str]:
    """A Markdown table: a row per test, the figures of the columns `shown`, then the ratio of
    each goal `judged` (headed `ratios`; none for basic)."""
    header = ["test", *(c.build.label for c in shown), *ratios]
    lines = ["| " + " | ".join(header) + " |", "|---" + "|---:" * (len(header) - 1) + "|"]
    for test in THREAD_METRIC_TESTS:
        cells = [test, *(_cell(c.figures.get(test)) for c in shown)]
        for g in judged:
            r = dict(g.results).get(test)
            cells.append(_ratio(r, g.limit) if test != "basic" else "")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _short(goal: Goal) -> str:
    return {"tacet_lean": "better bare"}.get(goal.build, "") or (
        "ThreadX counters" if goal.limit < 1 else "ThreadX bare"
    )


def markdown(columns: Sequence[Column], meta: dict[str, Any], command: str) -> str:
    """The whole report: what ran, the table, the goals, what was not given."""
    given = {c.build.kernel for c in columns if c.build.kernel}
    lines = [
        f"# Thread-Metric like for like: {meta['target']}",
        "",
        f"`{command}` — Tacet {meta['commit'][:12]}"
        + (" (with uncommitted changes)" if meta.get("dirty") else "")
        + f", {meta['date']}. {meta['compiler']}, `-O2`; {meta['qemu']} "
        f"(`{meta['machine']}`, `-icount shift={meta.get('icount_shift', 5)}`); "
        f"{meta['seconds']} s a test, every kernel "
        "ticking at 1000 Hz.",
        "",
    ]
    missing = meta.get("unavailable", {})
    for k in KERNELS:
        if k.key in missing:
            lines.append(f"- {k.name}: {missing[k.key]}; no column.")
        elif k.key in given:
            column = next(c for c in columns if c.build.kernel == k.key)
            lines.append(f"- {k.name}: commit {column.version or 'unknown'}, port {column.port}.")
        else:
            lines.append(
                f"- {k.name}: not given (`{k.option} DIR` names its source tree): its columns "
                "are absent, and no figure of it is quoted from elsewhere."
            )
    lines += [
        "",
        "Instructions per operation (fewer is better); ✗: the test's own check failed on that "
        "kernel (its figure does not count as an anchor); —: not run (FreeRTOS has no block "
        "pool). Ratios: Tacet's figure over the anchor's, ✓ where the goal is met.",
        "",
        *table(columns),
        "",
    ]
    for c in columns:
        lines.append(f"- **{c.build.label}**: {c.build.what}.")
    lines.append("")
    for g in goals(columns):
        worst = max((r for _, r in g.results if r is not None), default=None)
        line = goal_line(g, f" ({g.anchor})")
        if worst is not None:
            line += f"; the worst ratio {worst:.2f}"
        lines.append(line + ".")
    if FEATURE_EQUAL not in {c.build.key for c in columns} and "threadx" in missing:
        lines.append(
            "- **default <= 0.85 x feature-equal ThreadX**: not judged on this target (no "
            "ThreadX column)."
        )
    return "\n".join(lines) + "\n"


def document(columns: Sequence[Column], meta: dict[str, Any]) -> dict[str, Any]:
    """The run as JSON: what ran, every figure, every goal."""
    return {
        "format": "tacet-thread-metric-anchors",
        "version": 1,
        "meta": meta,
        "columns": [
            {
                "build": c.build.key,
                "label": c.build.label,
                "program": c.build.program,
                "kernel": KERNEL[c.build.kernel].name if c.build.kernel else "Tacet",
                "what": c.build.what,
                "port": c.port,
                "config": c.config,
                "figures": {
                    t: {
                        "value": f.value,
                        "operations": f.operations,
                        "check_failed": f.check_failed,
                    }
                    for t, f in c.figures.items()
                },
            }
            for c in columns
        ],
        "goals": [
            {
                "goal": g.name,
                "build": g.build,
                "anchor": g.anchor,
                "limit": g.limit,
                "ratios": dict(g.results),
                "met": g.met,
                "missed": g.missed,
            }
            for g in goals(columns)
        ],
    }


# ---- Thread-Metric through CMSIS-RTOS2 -----------------------------------------------------------
#
# The same programs through CMSIS-RTOS2 (bench/thread_metric/port_cmsis_os2.c, cmsis_os2.h
# alone) on Tacet's layer (tacet::cmsis_os2, on the default kernel and on a lean one) and, from
# the trees given, on Keil RTX5 and on FreeRTOS through ARM's CMSIS-FreeRTOS wrapper, in a table
# of their own beside Tacet's native figures, judged by the layer's goals: within 10 % of
# Tacet's own figures, and ahead of RTX5 and FreeRTOS through the wrapper on every test. A CMSIS
# kernel never stops: every CMSIS program runs one test per run.

OS2_NATIVE_GOAL = 1.10  # the layer's figure at most 1.10 x Tacet's own
OS2_AHEAD_GOAL = 1.0  # and at most the other CMSIS kernels'


@dataclass(frozen=True)
class Tree:
    """A source tree the CMSIS builds take: its option, its CMake variable and the file that
    tells it is such a tree."""

    key: str  # "rtx"
    name: str  # "CMSIS-RTX"
    variable: str  # "RTX_DIR"
    option: str  # "--rtx"
    marker: str  # a file every such tree has
    commit: bool = True  # the report names its commit (--rtx-commit)


CMSIS_TREES = (
    Tree("rtx", "CMSIS-RTX (RTX5)", "RTX_DIR", "--rtx", "Source/rtx_kernel.c"),
    Tree("cmsis_freertos", "CMSIS-FreeRTOS", "CMSIS_FREERTOS_DIR", "--cmsis-freertos",
         "CMSIS/RTOS2/FreeRTOS/Source/cmsis_os2.c"),
    Tree("cmsis6", "CMSIS_6", "CMSIS6_DIR", "--cmsis6", "CMSIS/RTOS2/Include/cmsis_os2.h",
         commit=False),
)  # fmt: skip
CMSIS_TREE = {t.key: t for t in CMSIS_TREES}

KERNEL.update(
    {
        "tacet_os2": Kernel("tacet_os2", "Tacet through CMSIS-RTOS2", "", "--cmsis",
                            THREAD_METRIC_TESTS),
        "rtx": Kernel("rtx", "RTX5", "RTX_DIR", "--rtx", THREAD_METRIC_TESTS),
        "cmsis_freertos": Kernel("cmsis_freertos", "FreeRTOS through CMSIS-FreeRTOS",
                                 "CMSIS_FREERTOS_DIR", "--cmsis-freertos", THREAD_METRIC_TESTS),
    }
)  # fmt: skip

CMSIS_BUILDS = (
    Build("os2_default", "thread_metric_cmsis_os2", "tacet_os2", "CMSIS on Tacet default",
          "Tacet's layer (tacet::cmsis_os2) on Tacet's default kernel"),
    Build("os2_lean", "thread_metric_cmsis_os2_lean", "tacet_os2", "CMSIS on Tacet lean",
          "Tacet's layer on TC_CHECKS=0 TC_STATS=0 TC_STACK_CHECK=0 TC_PRIORITIES=64 (Tacet lean "
          "with the 64 priorities the layer needs)"),
    Build("rtx", "thread_metric_rtx", "rtx", "RTX5",
          "RTX_Config.h's defaults (object checks, stack check), round robin off"),
    Build("cmsis_freertos", "thread_metric_cmsis_freertos", "cmsis_freertos",
          "FreeRTOS + CMSIS-FreeRTOS",
          "the wrapper's FreeRTOSConfig.h (configASSERT, stack overflow check 2, trace facility), "
          "time slicing off"),
)  # fmt: skip
CMSIS_BUILD = {b.key: b for b in CMSIS_BUILDS}
BUILD.update(CMSIS_BUILD)

# What the CMSIS kernels' trees need: RTX5 and the wrapper CMSIS_6, the wrapper a FreeRTOS kernel.
CMSIS_NEEDS = {"rtx": ("cmsis6",), "cmsis_freertos": ("cmsis6", "freertos")}


def cmsis_plan(given: Sequence[str]) -> list[Build]:
    """The CMSIS builds of a run: Tacet's two and those of every CMSIS kernel in ``given``."""
    return [b for b in CMSIS_BUILDS if b.kernel == "tacet_os2" or b.kernel in given]


def check_trees(trees: dict[str, Path], kernels: Sequence[str] = ()) -> None:
    """Refuse a CMSIS tree that is not what its option names, or one given without what it
    needs (``kernels``: the anchor kernels given): a clear error before anything is built."""
    for key, path in trees.items():
        tree = CMSIS_TREE[key]
        if not (path / tree.marker).is_file():
            raise TacetError(
                f"{tree.option} {path}: not a {tree.name} tree (no {tree.marker})", status=2
            )
    for key, needs in CMSIS_NEEDS.items():
        if key not in trees:
            continue
        for need in needs:
            if need == "freertos":
                if "freertos" not in kernels:
                    raise TacetError(
                        f"{CMSIS_TREE[key].option} needs --freertos DIR, the FreeRTOS-Kernel "
                        "tree the wrapper runs on",
                        status=2,
                    )
            elif need not in trees:
                raise TacetError(
                    f"{CMSIS_TREE[key].option} needs {CMSIS_TREE[need].option} DIR, a "
                    f"{CMSIS_TREE[need].name} tree",
                    status=2,
                )


def check_cmsis_failures(columns: Sequence[Column]) -> None:
    """A check that fails through CMSIS on Tacet is an error, as one on Tacet's own API."""
    failed = [
        f"{c.build.label}: {t}"
        for c in columns
        if c.build.kernel == "tacet_os2"
        for t, f in c.figures.items()
        if f.check_failed
    ]
    if failed:
        raise TacetError(
            "a Thread-Metric check failed through CMSIS-RTOS2 on Tacet (" + "; ".join(failed) + ")"
        )


def cmsis_goals(columns: Sequence[Column]) -> list[Goal]:
    """The CMSIS layer's goals, each judged on every test but basic that has its figures here."""
    by = {c.build.key: c for c in columns}
    tests = [t for t in THREAD_METRIC_TESTS if t != "basic"]

    def ratio(key: str, test: str, other: str) -> float | None:
        value, anchor = _value(by, key, test), _value(by, other, test, counted=True)
        return None if value is None or not anchor else value / anchor

    out = []
    for build, native in (("os2_default", "tacet_default"), ("os2_lean", "tacet_lean")):
        if build in by and native in by:
            out.append(
                Goal(
                    f"CMSIS on Tacet {build[4:]} <= 1.10 x Tacet {build[4:]}", build,
                    BUILD[native].label, OS2_NATIVE_GOAL,
                    tuple((t, ratio(build, t, native)) for t in tests),
                )
            )  # fmt: skip
    for other in ("rtx", "cmsis_freertos"):
        if "os2_default" in by and other in by:
            out.append(
                Goal(
                    f"CMSIS on Tacet default <= {BUILD[other].label}", "os2_default",
                    BUILD[other].label, OS2_AHEAD_GOAL,
                    tuple((t, ratio("os2_default", t, other)) for t in tests),
                )
            )  # fmt: skip
    return out


def _cmsis_short(goal: Goal) -> str:
    which = "lean" if goal.build == "os2_lean" else "default"
    if goal.limit > 1:
        return f"CMSIS {which} / Tacet {which}"
    return f"CMSIS default / {goal.anchor}"


def cmsis_table(columns: Sequence[Column]) -> list[str]:
    """Tacet's native figures, the CMSIS builds' and the ratios of the layer's goals."""
    shown = [c for c in columns if c.build.key in ("tacet_default", "tacet_lean")]
    shown += [c for c in columns if c.build.key in CMSIS_BUILD]
    judged = cmsis_goals(columns)
    return figures_table(shown, judged, [_cmsis_short(g) for g in judged])


def cmsis_markdown(columns: Sequence[Column], trees: dict[str, str]) -> str:
    """The CMSIS section of the report: what ran, the table, the goals."""
    cmsis = [c for c in columns if c.build.key in CMSIS_BUILD]
    if not cmsis:
        return ""
    lines = ["", "## Through CMSIS-RTOS2", ""]
    for key in ("rtx", "cmsis_freertos"):
        column = next((c for c in cmsis if c.build.key == key), None)
        tree = CMSIS_TREE[key]
        if column is None:
            lines.append(
                f"- {BUILD[key].label}: not given (`{tree.option} DIR` names the {tree.name} "
                "tree): its column is absent."
            )
        else:
            lines.append(f"- {BUILD[key].label}: {column.version or 'unknown'}, {trees[key]}.")
    lines += [
        "",
        "The same programs through `cmsis_os2.h` alone (`port_cmsis_os2.c`). Ratios: the CMSIS "
        "layer on Tacet over Tacet's own figure (goal <= 1.10) and over the other CMSIS "
        "kernels' (goal <= 1, ahead), ✓ where met.",
        "",
        *cmsis_table(columns),
        "",
    ]
    for c in cmsis:
        lines.append(f"- **{c.build.label}**: {c.build.what}.")
    lines.append("")
    lines += [goal_line(g) + "." for g in cmsis_goals(columns)]
    return "\n".join(lines) + "\n"


def cmsis_document(columns: Sequence[Column]) -> list[dict[str, Any]]:
    """The CMSIS goals as JSON (the columns are in document()'s)."""
    return [
        {
            "goal": g.name,
            "build": g.build,
            "anchor": g.anchor,
            "limit": g.limit,
            "ratios": dict(g.results),
            "met": g.met,
            "missed": g.missed,
        }
        for g in cmsis_goals(columns)
    ]
