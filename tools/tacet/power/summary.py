# SPDX-License-Identifier: MIT
"""What ``tacet power TABLE`` prints: a board table's points with what each costs."""

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from tacet.power import energy
from tacet.power.tables import Table


def print_table(table: Table, profile: str | None) -> None:
    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=120)
    c_eff, p_static = table.figures(profile)
    which = f", profile {profile}" if profile else ""
    mark = " (placeholder)" if table.placeholder else ""
    console.print(
        f"[bold]{escape(table.display)}[/bold]{mark}: {escape(table.description)}", soft_wrap=True
    )
    console.print(
        f"C_eff {c_eff:.4g} F, static power {p_static * 1e3:.4g} mW{which}", soft_wrap=True
    )
    grid = RichTable(show_edge=False, pad_edge=False)
    for column in ("point", "MHz", "V", "dynamic mW", "total mW", "nJ/cycle", "us/1000 cycles"):
        grid.add_column(column, justify="left" if column == "point" else "right")
    for i, point in enumerate(table.points):
        total = energy.power_watts(table, i, profile)
        one = energy.energy(table, [0] * i + [1], profile)
        grid.add_row(
            point.name,
            f"{point.hz / 1e6:g}",
            f"{point.volts:g}",
            f"{(total - p_static) * 1e3:.4g}",
            f"{total * 1e3:.4g}",
            f"{one.joules * 1e9:.4g}",
            f"{1000 / point.hz * 1e6:.4g}",
        )
    console.print(grid)
    for row in table.policies:
        cells = ", ".join(
            f"{label} {table.points[i].name}"
            for label, i in zip(("Task+", "Task", "Task-", "idle"), row.points, strict=True)
        )
        console.print(f"policy {row.name}: {cells}", soft_wrap=True)
    for p in table.profiles:
        console.print(
            f"profile {p.name}: C_eff {p.c_eff_farad:.4g} F, static power "
            f"{p.p_static_watt * 1e3:.4g} mW",
            soft_wrap=True,
        )
