# SPDX-License-Identifier: MIT
"""``tacet config``: check a system description and generate its C start-up code.

``tacet config app.yaml`` checks the description (tacet.appdesc), prints a short summary and
writes ``tacet_app.c`` and ``tacet_app.h`` (tacet.appgen) into the output directory. The CMake
function ``tacet_add_app`` (cmake/TacetApp.cmake) runs it at build time, with ``--depfile`` so
that the build also follows the board.power table the description names.
"""

import argparse
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from tacet import appgen
from tacet.appdesc import OBJECT_KINDS, App, Thread, load
from tacet.repo import is_repo_root
from tacet.targets import TARGETS


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "config",
        help="check a system description (app.yaml) and generate tacet_app.c / tacet_app.h",
        description="Check the system description APP.yaml against the schema "
        "(schema/tacet-app.schema.json) and the rules beyond it, print a summary and write "
        "tacet_app.c and tacet_app.h into DIR. Priorities and thresholds given as `auto` are "
        "chosen by the analysis. Errors name the file, the line and the field.",
    )
    parser.add_argument("description", type=Path, metavar="APP.yaml", help="the description")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path(),
        metavar="DIR",
        help="where to write tacet_app.c and tacet_app.h (default: the current directory)",
    )
    parser.add_argument(
        "--check", action="store_true", help="check the description only; write nothing"
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="print nothing but errors (for build systems)"
    )
    parser.add_argument(
        "--target",
        choices=list(TARGETS),
        help="check the description for a build for this target: its stacks against this "
        "target's minimum only (TC_PORT_STACK_MIN), and the target among the description's "
        "targets. Without it a stack too small for some of the targets is a warning, and one "
        "too small for all of them an error. tacet_add_app passes the build's target",
    )
    parser.add_argument(
        "--depfile",
        type=Path,
        metavar="FILE",
        help="also write a Makefile-style list of the files the output depends on besides the "
        "description (its board.power table), for build systems",
    )
    parser.set_defaults(handler=handle)


def find_repo_of(path: Path) -> Path | None:
    """The Tacet tree holding ``path``, if any."""
    for candidate in path.resolve().parents:
        if is_repo_root(candidate):
            return candidate
    return None


def _time(cycles: int | None, clock_hz: int) -> str:
    if cycles is None:
        return "-"
    us = cycles * 1_000_000 / clock_hz
    return f"{us / 1000:g} ms" if us >= 1000 else f"{us:g} us"


def summary(console: Console, app: App, threads: list[Thread]) -> None:
    counts = [(len(getattr(app, key)), word) for key, word in OBJECT_KINDS if key != "threads"]
    objects = ", ".join(
        f"{n} {word}{'es' if n != 1 and word.endswith('x') else 's' if n != 1 else ''}"
        for n, word in counts
        if n
    )
    title = f"{app.display}" + (f" ({app.name})" if app.name else "")
    console.print(
        f"[bold]{title}[/bold]: {len(threads)} threads" + (f", {objects}" if objects else ""),
        soft_wrap=True,
    )
    table = Table(show_edge=False, pad_edge=False)
    for column in ("thread", "entry", "prio", "thr", "period", "deadline", "wcet", "U", "stack"):
        table.add_column(column, justify="left" if column in ("thread", "entry") else "right")
    given = {t.name: t for t in app.threads}
    for t in threads:
        auto_p = " (auto)" if given[t.name].priority is None else ""
        auto_t = (
            " (auto)"
            if given[t.name].threshold is None and not given[t.name].threshold_default
            else ""
        )
        u = f"{t.wcet / t.period:.3f}" if t.timed else "-"  # type: ignore[operator]
        table.add_row(
            t.name,
            t.entry,
            f"{t.priority}{auto_p}",
            f"{t.threshold}{auto_t}",
            _time(t.period, app.board.clock_hz),
            _time(t.deadline, app.board.clock_hz),
            _time(t.wcet, app.board.clock_hz),
            u,
            str(t.stack),
        )
    console.print(table)
    table = app.board.power
    power = "" if table is None else f"; power table {table.display} ({len(table.points)} points)"
    console.print(
        f"utilisation {app.utilisation():.3f} at {app.board.clock_hz / 1e6:g} MHz; "
        f"priorities 0..{app.priorities - 1}; targets {', '.join(app.targets)}{power}",
        soft_wrap=True,
    )


def _make_path(path: Path) -> str:
    return str(path.resolve()).replace("\\", "/").replace(" ", "\\ ").replace("$", "$$")


def write_depfile(depfile: Path, output: Path, app: App) -> None:
    """``OUTPUT: FILES``: the generated source depends on the description (which the build
    already knows) and on the board.power table, which only the description names."""
    files = [app.path] + ([app.board.power.path] if app.board.power is not None else [])
    depfile.parent.mkdir(parents=True, exist_ok=True)
    text = f"{_make_path(output)}: {' '.join(_make_path(f) for f in files)}\n"
    depfile.write_text(text, encoding="utf-8", newline="\n")


def handle(args: argparse.Namespace) -> int:
    app = load(args.description, target=args.target)
    for warning in app.warnings:
        print(f"tacet: warning: {warning}", file=sys.stderr)
    threads = app.resolved_threads()
    console = Console(highlight=False)
    if not console.is_terminal:  # a log or a pipe: no need to squeeze into 80 columns
        console = Console(highlight=False, width=120)
    if not args.quiet:
        summary(console, app, threads)
    if args.check:
        return 0
    name = appgen.input_name(args.description, find_repo_of(args.description))
    header, source = appgen.write(appgen.generate(app, name, threads), args.output)
    if args.depfile is not None:
        write_depfile(args.depfile, source, app)
    if not args.quiet:
        console.print(f"wrote {source} and {header}", soft_wrap=True)
    return 0
