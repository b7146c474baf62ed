# SPDX-License-Identifier: MIT
"""``tacet bench``: the benchmark suite on a target, its results as JSON, Markdown and plots;
``tacet bench compare`` to judge a change against an earlier run (tacet.bench, docs/bench.md)."""

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from tacet.bench import anchors as bench_anchors
from tacet.bench import report as bench_report
from tacet.bench import results as bench_results
from tacet.bench.results import Run
from tacet.bench.suite import (
    DEFAULT_REPEAT,
    DEFAULT_THRESHOLD,
    DEFAULT_TM_SECONDS,
    MAX_REPEAT,
    QUICK_REPEAT,
    QUICK_TM_INTERVAL,
    compare,
    metadata,
    plan,
    run_program,
)
from tacet.cli.options import add_target_arguments
from tacet.core.errors import TacetError
from tacet.core.host import require_tool
from tacet.core.targets import Target
from tacet.project import cmake
from tacet.project.setup import resolve_setup


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="run the benchmark suite and write results, or compare two results",
        usage="%(prog)s [--target T] [--out DIR] [--repeat K] [--quick]\n"
        "       %(prog)s compare A.json B.json [--threshold PCT]\n"
        "       %(prog)s anchors --target qemu-m3|qemu-m4 [--threadx DIR] [--freertos DIR] "
        "[--seconds S]",
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
    register_anchors(actions)
    parser.set_defaults(handler=handle)


def register_anchors(actions: argparse._SubParsersAction) -> None:
    anchors = actions.add_parser(
        "anchors",
        prog="tacet bench anchors",
        usage="%(prog)s --target qemu-m3|qemu-m4|qemu-rv32|qemu-rv32f [--threadx DIR] "
        "[--freertos DIR] [--seconds S] [--out DIR]\n       [--cmsis] [--rtx DIR] "
        "[--cmsis-freertos DIR] [--cmsis6 DIR]",
        help="Thread-Metric on Tacet, ThreadX and FreeRTOS, like for like",
        description="Build the Thread-Metric programs (bench/thread_metric) for Tacet's default "
        "and lean kernels and for ThreadX and FreeRTOS from the source trees given (each in the "
        "configurations docs/measurements.md lists), run them all on the target under QEMU, "
        "and print one table of instructions per operation with the ratios of the goals. A "
        "kernel whose tree is not given is left out, and the report says so.",
    )
    add_target_arguments(anchors)
    for action in anchors._actions:  # `tacet bench --target T anchors` keeps its T
        if action.dest in ("target", "repo", "build_dir"):
            action.default = argparse.SUPPRESS
    for kernel in bench_anchors.KERNELS:
        anchors.add_argument(
            kernel.option,
            type=Path,
            metavar="DIR",
            help=f"{kernel.name}'s source tree ({kernel.variable}); without it, no {kernel.name} "
            "columns",
        )
        anchors.add_argument(
            f"{kernel.option}-commit",
            default="",
            metavar="COMMIT",
            help=f"{kernel.name}'s commit, for the report (default: what git says of the tree)",
        )
    anchors.add_argument(
        "--seconds",
        type=int,
        default=bench_anchors.DEFAULT_SECONDS,
        metavar="S",
        help=f"reporting interval per test, 1..3600 (default {bench_anchors.DEFAULT_SECONDS}, "
        "the suite's)",
    )
    anchors.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="programs run at once (default 1)"
    )
    anchors.add_argument(
        "--out", type=Path, help="also write anchors.md and anchors.json into this directory"
    )
    register_cmsis_options(anchors)
    anchors.set_defaults(handler=handle_anchors)


def register_cmsis_options(anchors: argparse.ArgumentParser) -> None:
    """Thread-Metric through CMSIS-RTOS2: Tacet's layer, RTX5, FreeRTOS through the wrapper."""
    group = anchors.add_argument_group(
        "through CMSIS-RTOS2",
        "The same programs through cmsis_os2.h alone (bench/thread_metric/port_cmsis_os2.c) on "
        "Tacet's layer and on the CMSIS kernels whose trees are given, in a table of their own "
        "beside Tacet's native figures.",
    )
    group.add_argument(
        "--cmsis",
        action="store_true",
        help="the CMSIS table with Tacet's layer alone (implied by --rtx and --cmsis-freertos)",
    )
    for tree in bench_anchors.CMSIS_TREES:
        needs = {
            "rtx": "; needs --cmsis6",
            "cmsis_freertos": "; needs --cmsis6 and --freertos (the kernel it wraps)",
            "cmsis6": " (CMSIS-Core, cmsis_os2.h, os_systick.c), which --rtx and "
            "--cmsis-freertos need",
        }[tree.key]
        group.add_argument(
            tree.option,
            type=Path,
            metavar="DIR",
            help=f"a {tree.name} tree ({tree.variable}){needs}",
        )
        if tree.commit:
            group.add_argument(
                f"{tree.option}-commit",
                default="",
                metavar="COMMIT",
                help=f"{tree.name}'s commit, for the report (default: what git says of the tree)",
            )


def _cmsis_trees(
    args: argparse.Namespace, cwd: Path, given: dict[str, Path]
) -> tuple[dict[str, Path], list[tuple[str, str]]]:
    """The CMSIS trees given, checked, and their CMake definitions."""
    trees: dict[str, Path] = {}
    definitions = []
    for tree in bench_anchors.CMSIS_TREES:
        path = getattr(args, tree.key)
        if path is not None:
            path = (cwd / path).resolve()
            if not path.is_dir():
                raise TacetError(f"{tree.option} {path}: no such directory", status=2)
            trees[tree.key] = path
        definitions.append((tree.variable, str(path or "")))
        if tree.commit:
            definitions.append(
                (tree.variable.replace("_DIR", "_COMMIT"), getattr(args, f"{tree.key}_commit"))
            )
    bench_anchors.check_trees(trees, list(given))
    return trees, definitions


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
    if target.no_benchmarks is not None:
        raise TacetError(f"--target {target.name}: {target.no_benchmarks}", status=2)
    if target.emulated:
        require_tool(target.qemu, f"target {target.name}")
    repeat = QUICK_REPEAT if args.quick else args.repeat
    tm_interval = QUICK_TM_INTERVAL if args.quick else str(args.tm_seconds)
    out = (setup.cwd / args.out).resolve()
    if out.exists() and not out.is_dir():
        raise TacetError(f"--out {args.out}: {out} is not a directory", status=2)
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
    doc = bench_results.assemble(metadata(setup, repeat, args.quick, tm_interval), runs)
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


def _anchor_trees(
    args: argparse.Namespace, cwd: Path, target: Target
) -> tuple[dict[str, Path], list[tuple[str, str]]]:
    """The other kernels' trees given (checked for the target), and their CMake definitions."""
    given: dict[str, Path] = {}
    definitions = []
    for kernel in bench_anchors.KERNELS:
        tree = getattr(args, kernel.key)
        if tree is not None:
            tree = (cwd / tree).resolve()
            if not tree.is_dir():
                raise TacetError(f"{kernel.option} {tree}: no such directory", status=2)
            if target.port == bench_anchors.RISCV_PORT:
                error = bench_anchors.riscv_tree_error(kernel, tree)
                if error is not None:
                    raise TacetError(error, status=2)
            given[kernel.key] = tree
        commit = getattr(args, f"{kernel.key}_commit")
        definitions += [
            (kernel.variable, str(tree or "")),
            (kernel.variable.replace("_DIR", "_COMMIT"), commit),
        ]
    cmsis_trees = (getattr(args, t.key) for t in bench_anchors.CMSIS_TREES)
    if (args.cmsis or any(t is not None for t in cmsis_trees)) and target.port != "cortex-m":
        raise TacetError(
            f"--target {target.name}: Thread-Metric through CMSIS-RTOS2 (--cmsis, --rtx, "
            "--cmsis-freertos, --cmsis6) is compared on Cortex-M: qemu-m3 or qemu-m4",
            status=2,
        )
    return given, definitions


def handle_anchors(args: argparse.Namespace) -> int:
    if not 1 <= args.seconds <= 3600:
        raise TacetError(f"--seconds {args.seconds}: must be 1 to 3600", status=2)
    if not 1 <= args.jobs <= 64:
        raise TacetError(f"--jobs {args.jobs}: must be 1 to 64", status=2)
    for name in ("target", "repo", "build_dir"):
        if not hasattr(args, name):
            setattr(args, name, None)
    setup = resolve_setup(args)
    target = setup.target
    if target.port not in ("cortex-m", bench_anchors.RISCV_PORT) or not target.emulated:
        raise TacetError(
            f"--target {target.name}: the anchors are compared under QEMU: qemu-m3, qemu-m4, "
            "qemu-rv32 or qemu-rv32f",
            status=2,
        )
    if target.no_benchmarks is not None:
        raise TacetError(f"--target {target.name}: {target.no_benchmarks}", status=2)
    require_tool(target.qemu, f"target {target.name}")
    given, definitions = _anchor_trees(args, setup.cwd, target)
    cmsis_trees, cmsis_definitions = _cmsis_trees(args, setup.cwd, given)
    definitions += cmsis_definitions
    target = dataclasses.replace(
        target, extra_definitions=(*target.extra_definitions, *definitions)
    )
    builds = bench_anchors.plan(list(given)) + _cmsis_builds(args, cmsis_trees)
    with _progress() as progress:
        task = progress.add_task(f"{target.name}: configure", total=2 * len(builds) + 1)
        cmake.configure(target, setup.repo, setup.build_dir, output="on-failure")
        progress.advance(task)
        for b in builds:
            progress.update(task, description=f"{target.name}: build {b.program}")
            cmake.build(setup.build_dir, f"{b.program} for target {target.name}", b.program,
                        output="on-failure")  # fmt: skip
            progress.advance(task)
        progress.update(task, description=f"{target.name}: run the programs")
        columns = bench_anchors.run_all(
            target, cmake.executables(setup.build_dir), builds, args.seconds, jobs=args.jobs,
            progress=lambda _b: progress.advance(task),
        )  # fmt: skip
    native = _native_columns(columns)
    tools = metadata(setup, 0, False, str(args.seconds))
    meta = {
        "target": target.name,
        "machine": target.qemu_machine,
        "commit": tools["commit"],
        "dirty": tools["dirty"],
        "date": tools["date"],
        "compiler": tools["compiler"],
        "qemu": tools["qemu"],
        "seconds": args.seconds,
        "kernels": {k: str(v) for k, v in {**given, **cmsis_trees}.items()},
        "icount_shift": target.icount_shift,
        "unavailable": bench_anchors.unavailable(target.port),
    }
    command = " ".join(
        [f"tacet bench anchors --target {target.name}"]
        + [f"{k.option} {args.__dict__[k.key]}" for k in bench_anchors.KERNELS if k.key in given]
        + ([f"--seconds {args.seconds}"] if args.seconds != bench_anchors.DEFAULT_SECONDS else [])
        + _cmsis_command(args, cmsis_trees)
    )
    report = bench_anchors.markdown(native, meta, command)
    report += bench_anchors.cmsis_markdown(columns, meta["kernels"])
    print(report, end="")
    if args.out is not None:
        out = (setup.cwd / args.out).resolve()
        out.mkdir(parents=True, exist_ok=True)
        (out / "anchors.md").write_text(report, encoding="utf-8")
        doc = bench_anchors.document(columns, meta)
        doc["cmsis_goals"] = bench_anchors.cmsis_document(columns)
        (out / "anchors.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"tacet: wrote {out / 'anchors.md'}, {out / 'anchors.json'}", file=sys.stderr)
    return 0


def _cmsis_builds(args: argparse.Namespace, trees: dict[str, Path]) -> list[bench_anchors.Build]:
    """The CMSIS builds: asked for by --cmsis or by a CMSIS kernel's tree."""
    if args.cmsis or "rtx" in trees or "cmsis_freertos" in trees:
        return bench_anchors.cmsis_plan(list(trees))
    return []


def _native_columns(columns: list[bench_anchors.Column]) -> list[bench_anchors.Column]:
    """The columns of the native table, once the CMSIS ones on Tacet are known to have passed
    their checks."""
    bench_anchors.check_cmsis_failures(columns)
    return [c for c in columns if c.build.key not in bench_anchors.CMSIS_BUILD]


def _cmsis_command(args: argparse.Namespace, trees: dict[str, Path]) -> list[str]:
    """The CMSIS options of the command line the report shows."""
    words = [
        f"{t.option} {getattr(args, t.key)}" for t in bench_anchors.CMSIS_TREES if t.key in trees
    ]
    return ["--cmsis"] if args.cmsis and not words else words
