# SPDX-License-Identifier: MIT
"""``tacet conformance``: random scenarios run on the kernel and on the reference model
(tacet.conformance)."""

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from tacet.cli.options import add_target_arguments
from tacet.conformance.check import (
    STATUS_NAMES,
    Job,
    Profile,
    Tally,
    command_of,
    interpreter_command,
    interpreter_program,
    run_batch,
    run_job,
    shrink,
    verdict,
)
from tacet.conformance.model import predict
from tacet.conformance.scenario import (
    Outcome,
    Scenario,
)
from tacet.core.errors import TacetError
from tacet.core.host import require_tool
from tacet.core.targets import Target
from tacet.project.setup import resolve_setup


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "conformance",
        help="run random scenarios on the kernel and the reference model and compare",
        description="Generate COUNT scenarios from SEED, run them on the target's scenario "
        "interpreter and on the reference model (tacet.conformance.model), and fail on the first "
        "divergence, printing a shrunk scenario that reproduces it.",
    )
    add_target_arguments(parser)
    parser.add_argument("--count", type=int, default=10000, help="scenarios to run (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the scenarios (default 1)")
    parser.add_argument("--first", type=int, default=0, help="number of the first scenario")
    parser.add_argument(
        "--batch",
        type=int,
        default=0,
        help="scenarios per interpreter run (default: 2000 on sim, 500 under QEMU)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="interpreter runs at once (default: one per CPU)",
    )
    parser.add_argument(
        "--no-interrupts", action="store_true", help="generate no interrupts or HISR activations"
    )
    parser.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="also write the diverging scenario (shrunk) to FILE",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    for name in ("count", "batch", "jobs"):
        if getattr(args, name) < (0 if name == "batch" else 1):
            raise TacetError(
                f"--{name} {getattr(args, name)}: must be at least {0 if name == 'batch' else 1}"
            )
    if args.first < 0:
        raise TacetError(f"--first {args.first}: must be 0 or more")
    setup = resolve_setup(args)
    target = setup.target
    if target.emulated:
        require_tool(target.qemu, f"target {target.name}")
    program = interpreter_program(target, setup.repo, setup.build_dir)
    placeholder = Path("{file}")
    command = interpreter_command(target, program, placeholder)
    batch = args.batch or (500 if target.emulated else 2000)
    timeout = 60.0 + batch * (0.1 if target.emulated else 0.01)
    profile = Profile(interrupts=not args.no_interrupts)
    jobs = [
        Job(
            command, args.seed, first, min(batch, args.first + args.count - first), profile, timeout
        )
        for first in range(args.first, args.first + args.count, batch)
    ]
    started = time.monotonic()
    total = Tally()
    failed: Scenario | None = None
    columns = (
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with (
        Progress(*columns, transient=True) as progress,
        ProcessPoolExecutor(max_workers=args.jobs) as pool,
    ):
        task = progress.add_task(f"{target.name}: scenarios", total=args.count)
        for tally, bad in pool.map(run_job, jobs):
            total.merge(tally)
            progress.update(task, advance=tally.scenarios)
            if bad is not None:
                failed = bad
                break
    elapsed = time.monotonic() - started
    if failed is not None:
        return report_divergence(failed, target, program, args)
    print_summary(total, target, args, elapsed)
    return 0


def print_summary(total: Tally, target: Target, args: argparse.Namespace, elapsed: float) -> None:
    console = Console()
    # One line, never wrapped: scripts and tests look for it.
    console.print(
        f"tacet conformance: {total.scenarios} scenarios (seed {args.seed}, from "
        f"{args.first}) on {target.name} agree with the model ({elapsed:.1f} s)",
        soft_wrap=True,
    )
    table = Table("what the scenarios exercised", "count")
    for status, n in sorted(total.statuses.items(), key=lambda x: int(x[0])):
        name = STATUS_NAMES[int(status)] if int(status) < len(STATUS_NAMES) else status
        table.add_row(f"calls returning TC_{name}", str(n))
    table.add_row("context switches", str(total.switches))
    table.add_row("preemptions", str(total.preemptions))
    for rule, n in sorted(total.rules.items()):
        table.add_row(rule, str(n))
    console.print(table)


def report_divergence(sc: Scenario, target: Target, program: Path, args: argparse.Namespace) -> int:
    command = command_of(interpreter_command(target, program, Path("{file}")))

    def outcome(s: Scenario) -> Outcome:
        return run_batch(command, [s], 120.0)[0]

    def fails(s: Scenario) -> bool:
        return verdict(s, outcome(s)) is not None

    small = shrink(sc, fails)
    got = outcome(small)
    print(
        f"tacet conformance: scenario {sc.ident} of seed {args.seed} diverges on {target.name}; "
        "shrunk to:\n"
    )
    print(small.text())
    try:
        print("model:\n" + predict(small).text())
    except Exception:
        print("model: failed")
    print(f"kernel ({target.name}):\n" + got.text())
    print("difference: " + (verdict(small, got) or "none after shrinking"))
    if args.save is not None:
        args.save.write_text(small.text(), encoding="utf-8")
    return 1
