# SPDX-License-Identifier: MIT
"""What ``tacet config`` prints of a checked description: its threads as resolved, its objects,
utilisation, priorities and targets."""

from rich.console import Console
from rich.table import Table

from tacet.app.description import OBJECT_KINDS, App, Thread


def _time(cycles: int | None, clock_hz: int) -> str:
    if cycles is None:
        return "-"
    us = cycles * 1_000_000 / clock_hz
    return f"{us / 1000:g} ms" if us >= 1000 else f"{us:g} us"


def print_description(console: Console, app: App, threads: list[Thread]) -> None:
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
