# SPDX-License-Identifier: MIT
"""Board power tables: ``power/NAME.yaml`` in, a checked table and a C header out.

A table (docs/energy.md, "Board tables") gives a board's operating points (frequency, voltage),
its effective switched capacitance C_eff and its static power -- what tc_power_init() takes
(include/tacet/power.h) -- and optionally Ahn et al.'s load-scaling rows (the point of each load
class, for tc_power_classes()) and other C_eff / static power pairs of the same board
(profiles). ``load`` reads one through tacet.core.yamldoc (errors ``FILE:LINE: FIELD: message``),
checks it against schema/tacet-power.schema.json and then against what the schema cannot say,
the same rules as tc_power_init: 1 .. TC_POWER_POINTS points, strictly increasing frequency,
non-decreasing voltage, finite C_eff and static power (the kernel also refuses a point slower
than its tick rate, which a board's table does not know); and every name a policy row gives is
a point, no name twice, no two C names alike.

``header`` is the C header of a table; ``tacet power NAME --header OUT.h`` writes it and the
CMake function ``tacet_power_table`` (cmake/TacetPower.cmake) runs that at build time.
``tacet power NAME`` prints the table with what each point costs. The energy model itself is
tacet.power.energy.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tacet.core import yamldoc
from tacet.core.errors import TacetError
from tacet.core.repo import HOME
from tacet.core.yamldoc import Path_, raise_errors, suggest

REPO = HOME
SCHEMA_PATH = REPO / "schema" / "tacet-power.schema.json"
TABLES = REPO / "power"
CONFIG_H = REPO / "include" / "tacet" / "config.h"
DEFAULT_MAX_POINTS = 8

# The columns of a policy row, in the order of tc_power_classes() (TC_LOAD_HIGH .. IDLE).
LOAD_CLASSES = ("high", "normal", "low", "idle")


@dataclass(frozen=True)
class Point:
    name: str
    hz: int
    millivolt: int

    @property
    def volts(self) -> float:
        return self.millivolt / 1000.0


@dataclass(frozen=True)
class Row:
    """A load-scaling row: the index of the point of each load class (LOAD_CLASSES order)."""

    name: str
    points: tuple[int, int, int, int]


@dataclass(frozen=True)
class Profile:
    name: str
    c_eff_farad: float
    p_static_watt: float
    notes: str


@dataclass(frozen=True)
class Table(yamldoc.Checked):
    name: str
    description: str
    source: str
    points: tuple[Point, ...]
    c_eff_farad: float
    p_static_watt: float
    notes: str
    placeholder: bool = False
    policies: tuple[Row, ...] = ()
    profiles: tuple[Profile, ...] = ()

    @property
    def c_name(self) -> str:
        """``MPS2_AN385`` for mps2-an385: what the C names of the table begin with, after
        TC_POWER_."""
        return self.name.upper().replace("-", "_")

    def index(self, name: str) -> int:
        return [p.name for p in self.points].index(name)

    def figures(self, profile: str | None = None) -> tuple[float, float]:
        """(C_eff, static power) of the table, or of one of its profiles. Raises TacetError
        for an unknown profile."""
        if profile is None:
            return self.c_eff_farad, self.p_static_watt
        for p in self.profiles:
            if p.name == profile:
                return p.c_eff_farad, p.p_static_watt
        known = ", ".join(p.name for p in self.profiles) or "none"
        raise TacetError(f"{self.display} has no profile {profile!r} (profiles: {known})")


@cache
def max_points() -> int:
    """TC_POWER_POINTS as include/tacet/config.h defines it by default."""
    try:
        text = CONFIG_H.read_text(encoding="utf-8")
    except OSError:
        return DEFAULT_MAX_POINTS
    found = re.search(r"#define\s+TC_POWER_POINTS\s+(\d+)u?\b", text)
    return int(found.group(1)) if found else DEFAULT_MAX_POINTS


@cache
def schema() -> dict[str, Any]:
    return yamldoc.load_schema(SCHEMA_PATH)


def available() -> list[str]:
    """The names of the tables in power/."""
    return sorted(p.stem for p in TABLES.glob("*.yaml"))


def locate(given: str, base: Path) -> Path:
    """The file a table reference names: a path (it has a / or ends in .yaml) relative to
    ``base``, else the name of a table in power/. Raises TacetError when there is none."""
    if "/" in given or given.endswith((".yaml", ".yml")):
        path = Path(given).expanduser()
        path = path if path.is_absolute() else base / path
        if not path.is_file():
            raise TacetError(f"no power table {given!r}: {path} is not a file")
        return path
    path = TABLES / f"{given}.yaml"
    if not path.is_file():
        known = available()
        raise TacetError(
            f"no power table {given!r}{suggest(given, known)}: tables in power/: "
            f"{', '.join(known) or 'none'} (or give a path to a .yaml file)"
        )
    return path


def display_name(path: Path) -> str:
    """How messages name a table: relative to the repository when it is inside it, else as
    given."""
    resolved = path.resolve()
    if resolved.is_relative_to(REPO):
        return resolved.relative_to(REPO).as_posix()
    return str(path)


def generated_name(table: Table) -> str:
    """How generated files name a table: relative to the repository when it is inside it,
    else its file name (never an absolute path, which would make the output depend on where
    the tree lies)."""
    resolved = table.path.resolve()
    if resolved.is_relative_to(REPO):
        return resolved.relative_to(REPO).as_posix()
    return resolved.name


# ---- the rules beyond the schema -----------------------------------------------------------


class _Checker:
    def __init__(self, source: yamldoc.Source) -> None:
        self.s = source
        self.data: dict[str, Any] = source.data

    def error(self, path: Path_, message: str) -> None:
        self.s.error(path, message)

    def points(self) -> tuple[Point, ...]:
        items = self.data["points"]
        most = max_points()
        if len(items) > most:
            self.error(
                ("points",),
                f"{len(items)} points: the kernel takes at most {most} (TC_POWER_POINTS, "
                "include/tacet/config.h)",
            )
        points: list[Point] = []
        for i, d in enumerate(items):
            point = Point(d["name"], d["hz"], d["millivolt"])
            if any(p.name == point.name for p in points):
                self.error(("points", i, "name"), f"point {point.name!r} given twice")
            if points and point.hz <= points[-1].hz:
                before = points[-1]
                self.error(
                    ("points", i, "hz"),
                    f"{point.hz} Hz is not above the previous point's ({before.name!r}, "
                    f"{before.hz} Hz): points go in strictly increasing frequency",
                )
            if points and point.millivolt < points[-1].millivolt:
                before = points[-1]
                self.error(
                    ("points", i, "millivolt"),
                    f"{point.millivolt} mV is below the previous point's ({before.name!r}, "
                    f"{before.millivolt} mV): a faster point needs at least the voltage of a "
                    "slower one",
                )
            points.append(point)
        return tuple(points)

    def finite(self, path: Path_, value: float) -> None:
        if not math.isfinite(value):
            self.error(path, f"{value} is not a finite number")

    def rows(self, points: tuple[Point, ...]) -> tuple[Row, ...]:
        names = [p.name for p in points]
        rows: list[Row] = []
        for i, d in enumerate(self.data.get("policies", [])):
            if any(r.name == d["name"] for r in rows):
                self.error(("policies", i, "name"), f"policy row {d['name']!r} given twice")
            indices = []
            for column in LOAD_CLASSES:
                name = d[column]
                if name in names:
                    indices.append(names.index(name))
                else:
                    self.error(
                        ("policies", i, column),
                        f"unknown point {name!r}{suggest(name, names)} (points: "
                        f"{', '.join(names)})",
                    )
                    indices.append(0)
            rows.append(Row(d["name"], tuple(indices)))  # type: ignore[arg-type]
        return tuple(rows)

    def profiles(self) -> tuple[Profile, ...]:
        profiles: list[Profile] = []
        for i, d in enumerate(self.data.get("profiles", [])):
            if any(p.name == d["name"] for p in profiles):
                self.error(("profiles", i, "name"), f"profile {d['name']!r} given twice")
            self.finite(("profiles", i, "c_eff_farad"), d["c_eff_farad"])
            self.finite(("profiles", i, "p_static_watt"), d["p_static_watt"])
            profiles.append(
                Profile(d["name"], float(d["c_eff_farad"]), float(d["p_static_watt"]), d["notes"])
            )
        return tuple(profiles)

    def c_names(self, table: Table) -> None:
        """Every name the header defines is defined once (a row named `points` would be
        TC_POWER_<BOARD>_POINTS, the table itself)."""
        owner: dict[str, Path_] = {}
        for identifier, path in _identifiers(table):
            if identifier in owner:
                other = owner[identifier]
                self.error(
                    path,
                    f"the C name {identifier} is also that of {yamldoc.field_name(other)} "
                    f"(line {self.s.line(other)}): rename one",
                )
            else:
                owner[identifier] = path

    def build(self, path: Path, sha256: str) -> Table:
        d = self.data
        if d["name"] != path.stem:
            self.error(
                ("name",),
                f"{d['name']!r} is not the file's name, {path.stem!r}: a table is named as its "
                "file (board.power and tacet_power_table name the file)",
            )
        points = self.points()
        self.finite(("c_eff_farad",), d["c_eff_farad"])
        self.finite(("p_static_watt",), d["p_static_watt"])
        table = Table(
            path=path,
            display=self.s.display,
            sha256=sha256,
            name=d["name"],
            description=d["description"],
            source=d["source"],
            points=points,
            c_eff_farad=float(d["c_eff_farad"]),
            p_static_watt=float(d["p_static_watt"]),
            notes=d["notes"],
            placeholder=d.get("placeholder", False),
            policies=self.rows(points),
            profiles=self.profiles(),
        )
        self.c_names(table)
        return table


def load(path: Path, display: str | None = None) -> Table:
    """Read and check the table at ``path``. Raises DescriptionError naming every problem
    (file, line, field); ``display`` is the file's name in messages (default: relative to the
    repository when inside it)."""
    shown = display_name(Path(path)) if display is None else display
    source, raw = yamldoc.read(
        path,
        shown,
        schema(),
        "a power table",
        "a mapping with name, description, source, points, c_eff_farad, p_static_watt and notes",
    )
    table = _Checker(source).build(Path(path), hashlib.sha256(raw).hexdigest())
    raise_errors(source)
    return table


# ---- C --------------------------------------------------------------------------------------


def _identifiers(table: Table) -> list[tuple[str, Path_]]:
    """Every name the header defines, with the field it comes from."""
    prefix = f"TC_POWER_{table.c_name}"
    names: list[tuple[str, Path_]] = [
        (f"{prefix}_{suffix}", ("name",))
        for suffix in ("H", "COUNT", "POINTS", "C_EFF", "P_STATIC")
    ]
    names += [
        (f"{prefix}_POINT_{p.name.upper()}", ("points", i, "name"))
        for i, p in enumerate(table.points)
    ]
    names += [
        (f"{prefix}_{r.name.upper()}", ("policies", i, "name"))
        for i, r in enumerate(table.policies)
    ]
    for i, p in enumerate(table.profiles):
        for suffix in ("C_EFF", "P_STATIC"):
            names.append((f"{prefix}_{p.name.upper()}_{suffix}", ("profiles", i, "name")))
    return names


def _comment(text: str) -> str:
    """``text`` safe inside a C comment or string (the file's own text goes into both)."""
    return text.replace("*/", "* /").replace("\\", "/").replace('"', "'")


def c_double(value: float) -> str:
    """A double as a C literal that reads back the same value."""
    text = repr(float(value))
    return text if any(c in text for c in ".e") else f"{text}.0"


def c_points(table: Table, indent: str = "  ") -> str:
    """The initialiser lines of a tc_opp array of the table's points."""
    return "".join(
        f"{indent}{{{p.hz}u, {p.millivolt}u}}, /* {p.name}: {p.hz / 1e6:g} MHz, {p.volts:g} V */\n"
        for p in table.points
    )


def header(table: Table, input_name: str) -> str:
    """The C header of ``table``: its points, C_eff and static power for tc_power_init(),
    the index of each point, the policy rows for tc_power_classes() and the profiles.
    ``input_name`` is how the first comment names the table file."""
    p = f"TC_POWER_{table.c_name}"
    guard = f"{p}_H"
    out = [
        f"/* Generated by `tacet power` from {input_name}\n"
        f" * (sha256 {table.sha256}).\n"
        " * Do not edit: change the table and generate again. */\n",
        f'#ifndef {guard}\n#define {guard}\n\n#include <stdint.h>\n\n#include "tacet/power.h"\n\n',
    ]
    kind = "a placeholder model (no measurement behind it)" if table.placeholder else "its model"
    out.append(
        f"/* {_comment(table.description)}: {kind}.\n"
        f" * tc_power_init({p}_POINTS, {p}_COUNT,\n"
        f" *               {p}_C_EFF, {p}_P_STATIC) installs it. */\n"
    )
    out.append(f"#define {p}_COUNT {len(table.points)}u\n")
    out.append(f"static const tc_opp {p}_POINTS[{p}_COUNT] = {{\n{c_points(table)}}};\n")
    out.append(f"#define {p}_C_EFF {c_double(table.c_eff_farad)} /* farads */\n")
    out.append(f"#define {p}_P_STATIC {c_double(table.p_static_watt)} /* watts */\n")
    n = len(table.points)
    message = f"{input_name}: {n} points need TC_POWER_POINTS >= {n}"
    out.append(f'_Static_assert({p}_COUNT <= TC_POWER_POINTS, "{_comment(message)}");\n')
    out.append("\n/* The index of each point (tc_power_set_point). */\n")
    for i, point in enumerate(table.points):
        out.append(f"#define {p}_POINT_{point.name.upper()} {i}u\n")
    if table.policies:
        out.append(
            "\n/* Load-scaling rows (Ahn et al., table 1): the point of Task+, Task, Task- and "
            "idle\n"
            " * (TC_LOAD_HIGH, TC_LOAD_NORMAL, TC_LOAD_LOW, TC_LOAD_IDLE), for "
            "tc_power_classes(). */\n"
        )
        for row in table.policies:
            cells = ", ".join(f"{i}u" for i in row.points)
            names = ", ".join(
                f"{label} {table.points[i].name}"
                for label, i in zip(("Task+", "Task", "Task-", "idle"), row.points, strict=True)
            )
            out.append(
                f"static const uint8_t {p}_{row.name.upper()}[TC_LOAD_CLASSES] = {{{cells}}};"
                f" /* {names} */\n"
            )
    if table.profiles:
        out.append("\n/* Profiles: the board's C_eff and static power under other conditions. */\n")
        for profile in table.profiles:
            q = f"{p}_{profile.name.upper()}"
            out.append(f"#define {q}_C_EFF {c_double(profile.c_eff_farad)} /* farads */\n")
            out.append(f"#define {q}_P_STATIC {c_double(profile.p_static_watt)} /* watts */\n")
    out.append(f"\n#endif /* {guard} */\n")
    return "".join(out)
