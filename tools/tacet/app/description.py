# SPDX-License-Identifier: MIT
"""The system description: ``app.yaml`` in, a checked model of the application out.

``load(path)`` reads a description (docs/config.md), checks it against the JSON Schema
shipped in the repository (schema/tacet-app.schema.json) and then against the rules the
schema cannot say (names unique, thresholds no weaker than priorities, stacks no smaller than
the ports' minimum, utilisation at most 1, every object used ...), and returns an ``App``.
``load(path, target=T)`` checks the description for a build for target T: its stacks against
T's minimum only (see ``_Builder.stack``).
Every error names the file, the line and the field, ``app.yaml:12: threads[2].threshold:
...``; all the errors of one phase are reported at once, sorted by line.

The YAML is read by tacet.core.yamldoc: each value keeps the line it came from, and a key given
twice in one mapping -- which a plain load silently resolves to the last one -- is an error.

Times: every time of the description becomes CPU cycles at ``board.clock_hz`` (the analysis
works in cycles). A WCET or a critical section given as time at an operating point
(``{us: N, at: NAME}``) becomes cycles at that point's frequency: the work is the same number of
cycles whatever the clock. Conversions round to the safe side for the analysis: work (WCET,
critical sections, jitter) up, periods and deadlines down.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from tacet.analysis import rta as analysis
from tacet.analysis.workload import Execution, analysis_task
from tacet.core import yamldoc
from tacet.core.errors import TacetError
from tacet.core.repo import HOME
from tacet.core.targets import TARGETS
from tacet.core.yamldoc import DescriptionError, Path_, raise_errors
from tacet.core.yamldoc import suggest as _suggest
from tacet.power import tables as power

REPO = HOME
SCHEMA_PATH = REPO / "schema" / "tacet-app.schema.json"

DEFAULT_PRIORITIES = 256
DEFAULT_TICK_HZ = 1000
DEFAULT_TARGETS = ("sim", "qemu-m3", "qemu-m4", "qemu-rv32", "qemu-rv32f")
U32_MAX = 0xFFFFFFFF

# The kinds of object a description declares, in the order the generated code creates them,
# each as (key in the description, word used in messages).
OBJECT_KINDS: tuple[tuple[str, str], ...] = (
    ("semaphores", "semaphore"),
    ("mutexes", "mutex"),
    ("event_groups", "event group"),
    ("queues", "queue"),
    ("message_ports", "message port"),
    ("block_pools", "block pool"),
    ("byte_pools", "byte pool"),
    ("hisrs", "HISR"),
    ("timers", "timer"),
    ("threads", "thread"),
)
# Objects that only exist to be used by code: one that no thread, timer or HISR names is
# reported. (Threads, timers and HISRs run code of their own.)
PASSIVE_KINDS = frozenset(
    (
        "semaphores",
        "mutexes",
        "event_groups",
        "queues",
        "message_ports",
        "block_pools",
        "byte_pools",
    )
)

# Names the generated C cannot define: C's keywords and what every C program already has.
# fmt: off
C_KEYWORDS = frozenset((
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while", "_Alignas", "_Alignof", "_Atomic", "_Bool",
    "_Complex", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local",
    "main", "NULL", "bool", "true", "false",
))
# fmt: on
RESERVED_PREFIXES = ("tc_", "tacet_", "tct_")


# ---- the model ----------------------------------------------------------------------------


@dataclass(frozen=True)
class OperatingPoint:
    name: str
    hz: int
    volts: float | None = None


@dataclass(frozen=True)
class Board:
    clock_hz: int
    operating_points: tuple[OperatingPoint, ...] = ()
    name: str | None = None
    power: power.Table | None = None  # board.power: the table the points come from


@dataclass(frozen=True)
class Lock:
    """A job of a thread holds ``mutex`` for at most ``cycles``; for the simulator, from
    ``offset`` cycles of its work (None: where the lock before it ends)."""

    mutex: str
    cycles: int
    offset: int | None = None
    line: int = field(default=0, compare=False)  # of the lock's entry, for messages


@dataclass(frozen=True)
class Thread:
    name: str
    entry: str
    stack: int
    priority: int | None  # None: auto
    threshold: int | None  # None: auto, or follows an auto priority (threshold_default)
    threshold_default: bool = False  # no threshold given: the same as the priority
    arg: int = 0
    time_slice: int = 0
    auto_start: bool = True
    # Periodic and sporadic threads (period is None for the others); cycles at board.clock_hz.
    period: int | None = None
    deadline: int | None = None
    wcet: int | None = None
    offset: int = 0
    jitter: int = 0
    sporadic: bool = False
    period_ticks: int | None = None  # the period in whole ticks, when it is one
    locks: tuple[Lock, ...] = ()
    execution: Execution = field(default_factory=Execution)  # for the simulator
    uses: tuple[str, ...] = ()
    line: int = 0

    @property
    def timed(self) -> bool:
        return self.period is not None


@dataclass(frozen=True)
class Semaphore:
    name: str
    initial: int = 0
    max: int = U32_MAX


@dataclass(frozen=True)
class Mutex:
    name: str
    inherit: bool = True


@dataclass(frozen=True)
class Queue:
    name: str
    message_words: int
    capacity: int


@dataclass(frozen=True)
class MessagePort:
    name: str
    capacity: int


@dataclass(frozen=True)
class EventGroup:
    name: str


@dataclass(frozen=True)
class Timer:
    name: str
    callback: str
    initial: int
    period: int = 0
    arg: int = 0
    auto_start: bool = True
    uses: tuple[str, ...] = ()


@dataclass(frozen=True)
class BlockPool:
    name: str
    block_size: int
    blocks: int


@dataclass(frozen=True)
class BytePool:
    name: str
    size: int


@dataclass(frozen=True)
class Hisr:
    name: str
    function: str
    priority: int
    stack: int
    uses: tuple[str, ...] = ()


@dataclass(frozen=True)
class Simulation:
    """The description's ``simulation`` section (None: not given): cycles, and the seed."""

    horizon: int | None = None
    seed: int | None = None
    switch_cost: int | None = None
    release_cost: int | None = None


@dataclass(frozen=True)
class App(yamldoc.Checked):
    """A checked description. Times are cycles at ``board.clock_hz``."""

    board: Board
    name: str | None = None
    priorities: int = DEFAULT_PRIORITIES
    tick_hz: int = DEFAULT_TICK_HZ
    tick_hz_given: bool = False
    targets: tuple[str, ...] = DEFAULT_TARGETS
    policy: str = "dm"
    threads: tuple[Thread, ...] = ()
    semaphores: tuple[Semaphore, ...] = ()
    mutexes: tuple[Mutex, ...] = ()
    queues: tuple[Queue, ...] = ()
    message_ports: tuple[MessagePort, ...] = ()
    event_groups: tuple[EventGroup, ...] = ()
    timers: tuple[Timer, ...] = ()
    block_pools: tuple[BlockPool, ...] = ()
    byte_pools: tuple[BytePool, ...] = ()
    hisrs: tuple[Hisr, ...] = ()
    simulation: Simulation = field(default_factory=Simulation)
    threads_line: int = 1
    # What holds for some targets of the description and not others (a stack big enough for
    # Cortex-M and too small for sim): ``FILE:LINE: FIELD: message``, in line order.
    warnings: tuple[str, ...] = ()

    @property
    def target(self) -> str:
        """The first target: the one the analysis takes its default overheads from."""
        return self.targets[0]

    @property
    def needs_analysis(self) -> bool:
        """Some priority or threshold is ``auto``."""
        return any(t.priority is None or t.threshold is None for t in self.threads)

    def utilisation(self) -> float:
        return sum(t.wcet / t.period for t in self.threads if t.timed)  # type: ignore[operator]

    def tasks(self) -> list[analysis.Task]:
        """The periodic and sporadic threads as the analysis sees them, in description order.

        ``priority`` / ``threshold`` are None where the description says ``auto``. A thread
        whose threshold is not given has the threshold of its priority; with an ``auto``
        priority that is not known yet, and its threshold is None too: ``resolve`` (not
        ``analysis.resolve``) keeps such a thread fully preemptive."""
        inherit = {m.name: m.inherit for m in self.mutexes}
        return [
            analysis_task(t, [(lock.mutex, lock.cycles) for lock in t.locks], inherit, t.stack)
            for t in self.threads
            if t.timed
        ]

    def overheads(self) -> analysis.Overheads:
        """The kernel's overheads on the first target, in cycles of the board's clock."""
        try:
            return analysis.default_overheads(self.target, self.board.clock_hz)
        except analysis.AnalysisError as error:
            raise DescriptionError([f"{self.display}:1: targets: {error.message}"]) from None

    def resolve(self, overheads: analysis.Overheads | None = None) -> list[analysis.Task]:
        """``tasks()`` with every priority and threshold filled in: the ``auto`` ones by the
        analysis (``assign_priorities`` with ``policy``, then ``assign_thresholds``), a
        threshold that was not given equal to its (possibly assigned) priority. ``overheads``
        defaults to ``analysis.default_overheads`` of the first target, so that the same
        description always gives the same result."""
        tasks = self.tasks()
        if not self.needs_analysis:
            return tasks
        if overheads is None:
            overheads = self.overheads()
        follows = {t.name for t in self.threads if t.timed and t.threshold_default}
        try:
            tasks = analysis.assign_priorities(tasks, self.policy, overheads, self.priorities)
            tasks = [replace(t, threshold=t.priority) if t.name in follows else t for t in tasks]
            tasks = analysis.assign_thresholds(tasks, overheads, self.priorities)
        except analysis.AnalysisError as error:
            raise DescriptionError(
                [f"{self.display}:{self.threads_line}: threads: {error.message}"]
            ) from None
        return tasks

    def resolved_threads(self, overheads: analysis.Overheads | None = None) -> list[Thread]:
        """Every thread with its priority and threshold as the generated code creates it."""
        if not self.needs_analysis:
            return list(self.threads)
        chosen = {t.name: t for t in self.resolve(overheads)}
        threads = []
        for thread in self.threads:
            task = chosen.get(thread.name)
            if task is None:
                threads.append(thread)
            else:
                threads.append(replace(thread, priority=task.priority, threshold=task.threshold))
        return threads

    def objects(self) -> Iterator[tuple[str, Any]]:
        """Every object as (kind key, object), in creation order."""
        for key, _ in OBJECT_KINDS:
            for obj in getattr(self, key):
                yield key, obj


# ---- the schema ----------------------------------------------------------------------------


@cache
def schema() -> dict[str, Any]:
    return yamldoc.load_schema(SCHEMA_PATH)


# ---- the rules beyond the schema -----------------------------------------------------------


@cache
def port_stack_minimum() -> dict[str, tuple[int, str]]:
    """TC_PORT_STACK_MIN of each target, read from its port's tacet_port.h: target ->
    (bytes, where it is defined). The Cortex-M and RISC-V ports define it twice, with the
    FPU's registers (__ARM_FP: the M4F; __riscv_flen: rv32imafc) first."""
    found: dict[str, tuple[int, str]] = {}
    for name, target in TARGETS.items():
        header = REPO / "ports" / target.port / "include" / "tacet_port.h"
        try:
            text = header.read_text(encoding="utf-8")
        except OSError:
            continue
        values = [int(v) for v in re.findall(r"#define\s+TC_PORT_STACK_MIN\s+(\d+)u?\b", text)]
        if not values:
            continue
        value = values[0] if target.fpu or len(values) == 1 else values[1]
        found[name] = (value, str(header.relative_to(REPO)))
    return found


class _Builder:
    """Turns schema-valid data into an App, recording every rule it breaks."""

    def __init__(self, source: yamldoc.Source, path: Path, target: str | None = None) -> None:
        self.s = source
        self.path = path
        self.build_target = target  # None: the description as a whole, for all its targets
        self.warnings: list[tuple[int, str]] = []
        self.data: dict[str, Any] = source.data
        board = self.data["board"]
        self.clock_hz: int = board["clock_hz"]
        kernel = self.data.get("kernel", {})
        self.priorities: int = kernel.get("priorities", DEFAULT_PRIORITIES)
        self.tick_hz: int = kernel.get("tick_hz", DEFAULT_TICK_HZ)
        self.points: dict[str, OperatingPoint] = {}
        self.targets: tuple[str, ...] = tuple(self.data.get("targets", DEFAULT_TARGETS))

    def error(self, path: Path_, message: str) -> None:
        self.s.error(path, message)

    # -- times

    def _cycles(self, amount: Fraction, hz: int, unit: Fraction, up: bool) -> int:
        exact = amount * hz / unit
        return math.ceil(exact) if up else math.floor(exact)

    def time(self, value: int | dict[str, Any], path: Path_, up: bool) -> int:
        """A time of the description in cycles at board.clock_hz."""
        if isinstance(value, int):
            return value
        ((unit, amount),) = value.items()
        amount = Fraction(str(amount))
        if unit == "cycles":
            return int(amount)
        if unit == "ticks":
            return self._cycles(amount, self.clock_hz, Fraction(self.tick_hz), up)
        return self._cycles(amount, self.clock_hz, Fraction(10**6 if unit == "us" else 10**3), up)

    def work(self, value: int | dict[str, Any], path: Path_) -> int:
        """An amount of work in cycles (rounded up)."""
        if isinstance(value, int):
            return value
        if "cycles" in value:
            return value["cycles"]
        hz = self.clock_hz
        if "at" in value:
            point = self.points.get(value["at"])
            if point is None:
                known = ", ".join(self.points) or "none: board.operating_points is empty"
                name = value["at"]
                self.error(
                    (*path, "at"),
                    f"unknown operating point {name!r}{_suggest(name, list(self.points))} "
                    f"(known: {known})",
                )
            else:
                hz = point.hz
        unit = "us" if "us" in value else "ms"
        scale = Fraction(10**6 if unit == "us" else 10**3)
        return self._cycles(Fraction(str(value[unit])), hz, scale, up=True)

    # -- the parts

    def board(self) -> Board:
        data = self.data["board"]
        table = self.power_table(data)
        if table is not None:
            given = [OperatingPoint(p.name, p.hz, p.volts) for p in table.points]
        else:
            given = []
            for i, p in enumerate(data.get("operating_points", [])):
                if any(p["name"] == other.name for other in given):
                    self.error(
                        ("board", "operating_points", i, "name"),
                        f"operating point {p['name']!r} given twice",
                    )
                given.append(OperatingPoint(p["name"], p["hz"], p.get("volts")))
        for point in given:
            self.points.setdefault(point.name, point)
        return Board(self.clock_hz, tuple(given), data.get("name"), table)

    def power_table(self, data: dict[str, Any]) -> power.Table | None:
        """The table board.power names (None without one, or when it cannot be used: each of
        its errors is one of the description's, at board.power)."""
        if "power" not in data:
            return None
        path: Path_ = ("board", "power")
        if "operating_points" in data:
            self.error(
                path,
                "give the operating points either inline (operating_points) or by a power "
                "table (power), not both",
            )
            return None
        try:
            found = power.locate(data["power"], self.path.parent)
            # Messages name a table of power/ from the repository, another one as the
            # description's own name would reach it.
            shown = power.display_name(found)
            if not found.resolve().is_relative_to(power.TABLES):
                shown = (Path(self.s.display).parent / data["power"]).as_posix()
            return power.load(found, shown)
        except yamldoc.DescriptionError as error:
            for message in error.errors:
                self.error(path, f"the table has an error: {message}")
        except TacetError as error:
            self.error(path, error.message)
        return None

    def stack(self, value: int, path: Path_, what: str) -> None:
        """A stack against TC_PORT_STACK_MIN of the targets it is for. The ports' minima differ
        by an order of magnitude (host C runs on the sim port's thread stacks, a Cortex-M frame
        is a few dozen words), so one description may hold a stack that fits one target and
        not another. For a build (``target`` given) only that target's minimum counts. For the
        description as a whole, a stack below the minimum of every one of its targets is an
        error; one below the minimum of some of them is a warning naming them (their builds
        will refuse it)."""
        minima = port_stack_minimum()
        if self.build_target is not None:
            if self.build_target in minima and value < minima[self.build_target][0]:
                least, where = minima[self.build_target]
                self.error(
                    path,
                    f"{what}: {value} bytes is below the minimum of target "
                    f"{self.build_target}: {least} (TC_PORT_STACK_MIN, {where}), the target "
                    "this build is for",
                )
            return
        listed = [t for t in self.targets if t in minima]
        below = [t for t in listed if value < minima[t][0]]
        if not below:
            return
        if below == listed and len(listed) == 1:
            least, where = minima[listed[0]]
            self.error(
                path,
                f"{what}: {value} bytes is below the minimum of target {listed[0]}: {least} "
                f"(TC_PORT_STACK_MIN, {where})",
            )
        elif below == listed:
            each = ", ".join(f"{t} {minima[t][0]}" for t in listed)
            self.error(
                path,
                f"{what}: {value} bytes is below the minimum of every target of the "
                f"description ({each}; TC_PORT_STACK_MIN, ports/*/include/tacet_port.h)",
            )
        else:
            for t in below:
                least, where = minima[t]
                line = self.s.line(path)
                self.warnings.append(
                    (
                        line,
                        f"{self.s.display}:{line}: {yamldoc.field_name(path)}: {what}: {value} "
                        f"bytes is below the minimum of target {t}: {least} (TC_PORT_STACK_MIN, "
                        f"{where}); a build for {t} refuses it",
                    )
                )

    def build_for(self) -> None:
        """A build for a target the description does not list is refused: ``targets`` says
        where the application runs, and the analysis' overheads come from them."""
        if self.build_target is None or self.build_target in self.targets:
            return
        self.error(
            ("targets",),
            f"this build is for target {self.build_target}, which the description does not "
            f"list ({', '.join(self.targets)}): add it to targets",
        )

    def priority(self, value: int | str, path: Path_, what: str) -> int | None:
        if value == "auto":
            return None
        if value >= self.priorities:
            self.error(
                path,
                f"{what} {value} is out of range: kernel.priorities is {self.priorities} "
                f"(0..{self.priorities - 1})",
            )
        return value

    def thread(self, i: int, d: dict[str, Any]) -> Thread:
        path: Path_ = ("threads", i)
        timed = "period" in d
        priority = self.priority(d["priority"], (*path, "priority"), "priority")
        threshold_default = "threshold" not in d
        threshold = priority if threshold_default else d["threshold"]
        if not threshold_default:
            threshold = self.priority(threshold, (*path, "threshold"), "threshold")
        if not timed:
            for key in ("priority", "threshold"):
                if d.get(key) == "auto":
                    self.error(
                        (*path, key),
                        "auto needs a periodic or sporadic thread (period and wcet): the "
                        "analysis assigns only those",
                    )
        if priority is not None and threshold is not None and threshold > priority:
            self.error(
                (*path, "threshold"),
                f"threshold {threshold} is weaker than the priority {priority}: a threshold is "
                "numerically at most the priority (0 is the most urgent)",
            )
        self.stack(d["stack"], (*path, "stack"), f"thread {d['name']!r}")
        thread = Thread(
            name=d["name"],
            entry=d["entry"],
            stack=d["stack"],
            priority=priority,
            threshold=threshold,
            threshold_default=threshold_default,
            arg=d.get("arg", 0),
            time_slice=d.get("time_slice", 0),
            auto_start=d.get("auto_start", True),
            uses=tuple(d.get("uses", [])),
            line=self.s.line(path),
        )
        if not timed:
            return thread
        period = self.time(d["period"], (*path, "period"), up=False)
        deadline = (
            period if "deadline" not in d else self.time(d["deadline"], (*path, "deadline"), False)
        )
        wcet = self.work(d["wcet"], (*path, "wcet"))
        for key, cycles in (("period", period), ("deadline", deadline), ("wcet", wcet)):
            if key in d and cycles < 1:
                self.error((*path, key), f"{key} is {cycles} cycles; it must be at least 1")
        if wcet > deadline >= 1:
            self.error(
                (*path, "wcet"),
                f"wcet {wcet} cycles exceeds the deadline, {deadline} cycles: no job can meet it",
            )
        locks = self.locks(d, path, wcet)
        ticks = Fraction(period * self.tick_hz, self.clock_hz)
        return replace(
            thread,
            period=period,
            deadline=deadline,
            wcet=wcet,
            offset=self.time(d["offset"], (*path, "offset"), up=False) if "offset" in d else 0,
            jitter=self.time(d["jitter"], (*path, "jitter"), up=True) if "jitter" in d else 0,
            sporadic=d.get("release", "periodic") == "sporadic",
            period_ticks=int(ticks) if ticks.denominator == 1 and ticks > 0 else None,
            locks=tuple(locks),
            execution=self.execution(d, path, wcet),
        )

    def locks(self, d: dict[str, Any], path: Path_, wcet: int) -> list[Lock]:
        """A thread's locks: each within the wcet, one mutex once, and (for the simulator)
        one after the other in the job's work."""
        locks = []
        end = 0  # where the lock before ends in the job's work (for the simulator)
        for j, lock in enumerate(d.get("locks", [])):
            cycles = self.work(lock["length"], (*path, "locks", j, "length"))
            if cycles > wcet:
                self.error(
                    (*path, "locks", j, "length"),
                    f"{cycles} cycles is longer than the wcet, {wcet} cycles",
                )
            if any(lock["mutex"] == other.mutex for other in locks):
                self.error((*path, "locks", j, "mutex"), f"mutex {lock['mutex']!r} listed twice")
            offset = None
            if "offset" in lock:
                offset = self.work(lock["offset"], (*path, "locks", j, "offset"))
                if offset < end:
                    self.error(
                        (*path, "locks", j, "offset"),
                        f"the lock starts at {offset} cycles of the job, before the lock before "
                        f"it ends ({end}): locks do not overlap (nested sections are not "
                        "modelled)",
                    )
                elif offset + cycles > wcet >= cycles:
                    self.error(
                        (*path, "locks", j, "offset"),
                        f"the lock ends at {offset + cycles} cycles of the job, after the wcet "
                        f"({wcet} cycles)",
                    )
            end = max(end, (end if offset is None else offset) + cycles)
            locks.append(Lock(lock["mutex"], cycles, offset, self.s.line((*path, "locks", j))))
        return locks

    def execution(self, d: dict[str, Any], path: Path_, wcet: int) -> Execution:
        """A thread's ``execution`` (for the simulator): each model's fields, each within
        the wcet."""
        if "execution" not in d:
            return Execution()
        data = d["execution"]
        where: Path_ = (*path, "execution")
        model = data["model"]
        needed = {
            "fixed": (),
            "uniform": ("bcet",),
            "normal": ("bcet", "mean", "stddev"),
            "trace": ("values",),
        }[model]
        for key in ("bcet", "mean", "stddev", "values"):
            if key in data and key not in needed:
                self.error((*where, key), f"model {model} does not use {key}")
        missing = [key for key in needed if key not in data]
        if missing:
            self.error(where, f"model {model} needs {' and '.join(missing)}")
            return Execution()
        work = {k: self.work(data[k], (*where, k)) for k in ("bcet", "mean", "stddev") if k in data}
        values = tuple(
            self.work(v, (*where, "values", i)) for i, v in enumerate(data.get("values", []))
        )
        bcet = work.get("bcet")
        if bcet is not None and bcet > wcet:
            self.error((*where, "bcet"), f"bcet {bcet} cycles is above the wcet, {wcet} cycles")
        if model == "normal" and bcet is not None and not bcet <= work["mean"] <= wcet:
            self.error(
                (*where, "mean"),
                f"the mean, {work['mean']} cycles, is outside [bcet, wcet] = [{bcet}, {wcet}]",
            )
        if model == "normal" and work["stddev"] < 1:
            self.error((*where, "stddev"), "the standard deviation must be at least a cycle")
        for i, v in enumerate(values):
            if v > wcet:
                self.error((*where, "values", i), f"{v} cycles is above the wcet, {wcet} cycles")
        return Execution(
            model,
            bcet,
            None if "mean" not in work else float(work["mean"]),
            None if "stddev" not in work else float(work["stddev"]),
            values,
        )

    def simulation(self) -> Simulation:
        data = self.data.get("simulation", {})
        where: Path_ = ("simulation",)
        horizon = None
        if "horizon" in data:
            horizon = self.time(data["horizon"], (*where, "horizon"), up=False)
            if horizon < 1:
                self.error((*where, "horizon"), "the horizon is 0 cycles; it must be at least 1")
        costs = {
            key: self.work(data[key], (*where, key))
            for key in ("switch_cost", "release_cost")
            if key in data
        }
        return Simulation(
            horizon, data.get("seed"), costs.get("switch_cost"), costs.get("release_cost")
        )

    def build(self, path: Path, sha256: str) -> App:
        self.build_for()
        board = self.board()
        threads = tuple(self.thread(i, d) for i, d in enumerate(self.data["threads"]))
        semaphores = []
        for i, d in enumerate(self.data.get("semaphores", [])):
            sem = Semaphore(d["name"], d.get("initial", 0), d.get("max", U32_MAX))
            if sem.initial > sem.max:
                self.error(
                    ("semaphores", i, "initial"),
                    f"initial count {sem.initial} is above max, {sem.max}",
                )
            semaphores.append(sem)
        timers = []
        for i, d in enumerate(self.data.get("timers", [])):
            period = d.get("period", 0)
            if "initial" not in d and period == 0:
                self.error(
                    ("timers", i),
                    "a one-shot timer (period 0, the default) needs initial: the ticks to "
                    "its expiry",
                )
            timers.append(
                Timer(
                    d["name"],
                    d["callback"],
                    d.get("initial", period) or 1,
                    period,
                    d.get("arg", 0),
                    d.get("auto_start", True),
                    tuple(d.get("uses", [])),
                )
            )
        hisrs = []
        for i, d in enumerate(self.data.get("hisrs", [])):
            self.stack(d["stack"], ("hisrs", i, "stack"), f"HISR {d['name']!r}")
            hisrs.append(
                Hisr(d["name"], d["function"], d["priority"], d["stack"], tuple(d.get("uses", [])))
            )
        app = App(
            path=path,
            display=self.s.display,
            sha256=sha256,
            board=board,
            name=self.data.get("name"),
            priorities=self.priorities,
            tick_hz=self.tick_hz,
            tick_hz_given="tick_hz" in self.data.get("kernel", {}),
            targets=self.targets,
            policy=self.data.get("policy", "dm"),
            threads=threads,
            semaphores=tuple(semaphores),
            mutexes=tuple(
                Mutex(d["name"], d.get("inherit", True)) for d in self.data.get("mutexes", [])
            ),
            queues=tuple(
                Queue(d["name"], d["message_words"], d["capacity"])
                for d in self.data.get("queues", [])
            ),
            message_ports=tuple(
                MessagePort(d["name"], d["capacity"]) for d in self.data.get("message_ports", [])
            ),
            event_groups=tuple(EventGroup(d["name"]) for d in self.data.get("event_groups", [])),
            timers=tuple(timers),
            block_pools=tuple(
                BlockPool(d["name"], d["block_size"], d["blocks"])
                for d in self.data.get("block_pools", [])
            ),
            byte_pools=tuple(
                BytePool(d["name"], d["size"]) for d in self.data.get("byte_pools", [])
            ),
            hisrs=tuple(hisrs),
            simulation=self.simulation(),
            threads_line=self.s.line(("threads",)),
            warnings=tuple(message for _, message in sorted(self.warnings)),
        )
        self.names(app)
        self.utilisation(app)
        return app

    def names(self, app: App) -> None:
        """Names are unique across every object and function; uses and locks name objects
        that exist; every passive object is used."""
        owner, duplicates = self.object_names()
        self.function_names(owner)
        used = self.uses(app, owner) | duplicates  # (a duplicate is reported once)
        kinds = dict(OBJECT_KINDS)
        for key in sorted(PASSIVE_KINDS, key=[k for k, _ in OBJECT_KINDS].index):
            for i, d in enumerate(self.data.get(key, [])):
                if d["name"] not in used:
                    self.error(
                        (key, i, "name"),
                        f"{kinds[key]} {d['name']!r} is used by no thread, timer or HISR (name "
                        "it in their uses, or a mutex in a thread's locks)",
                    )

    def object_names(self) -> tuple[dict[str, tuple[str, int]], set[str]]:
        """Every object's name -> (what it is, line), and the names given more than once:
        each one after the first in the file is reported."""
        kinds = dict(OBJECT_KINDS)
        named = sorted(
            (self.s.line((key, i, "name")), key, i, d["name"])
            for key, _ in OBJECT_KINDS
            for i, d in enumerate(self.data.get(key, []))
        )
        owner: dict[str, tuple[str, int]] = {}
        duplicates: set[str] = set()
        for line, key, i, name in named:
            path: Path_ = (key, i, "name")
            self.reserved(name, path)
            if name in owner:
                what, first = owner[name]
                self.error(path, f"duplicate name {name!r}: already the {what} at line {first}")
                duplicates.add(name)
            else:
                owner[name] = (f"{kinds[key]} {name!r}", line)
        return owner, duplicates

    def function_names(self, owner: dict[str, tuple[str, int]]) -> None:
        """A function may not have an object's name, nor two signatures: a thread entry and a
        timer callback are void f(void *), an HISR's function void f(void); the generated
        header declares each once."""
        kinds = dict(OBJECT_KINDS)
        functions: dict[str, tuple[str, str, int]] = {}  # name -> (signature, what, line)
        roles = (
            ("threads", "entry", "void (void *)"),
            ("timers", "callback", "void (void *)"),
            ("hisrs", "function", "void (void)"),
        )
        for key, attribute, signature in roles:
            for i, d in enumerate(self.data.get(key, [])):
                path: Path_ = (key, i, attribute)
                name, line = d[attribute], self.s.line(path)
                self.reserved(name, path)
                if name in owner:
                    self.error(
                        path,
                        f"function {name!r} has the name of the {owner[name][0]} "
                        f"(line {owner[name][1]}): the generated C cannot define both",
                    )
                elif name in functions and functions[name][0] != signature:
                    other = functions[name]
                    self.error(
                        path,
                        f"function {name!r} is {signature} here but {other[0]} as the "
                        f"{other[1]} at line {other[2]}",
                    )
                what = f"{kinds[key]} {d['name']!r}'s {attribute}"
                functions.setdefault(name, (signature, what, line))

    def uses(self, app: App, owner: dict[str, tuple[str, int]]) -> set[str]:
        """The names that threads, timers and HISRs use or lock (each checked to exist)."""
        used: set[str] = set()
        mutexes = [m.name for m in app.mutexes]
        for key in ("threads", "timers", "hisrs"):
            for i, d in enumerate(self.data.get(key, [])):
                for j, name in enumerate(d.get("uses", [])):
                    if name not in owner:
                        self.error(
                            (key, i, "uses", j),
                            f"unknown object {name!r}{_suggest(name, list(owner))}",
                        )
                    used.add(name)
                for j, lock in enumerate(d.get("locks", [])):
                    name = lock["mutex"]
                    if name not in mutexes:
                        self.error(
                            (key, i, "locks", j, "mutex"),
                            f"{name!r} is not a mutex of the description{_suggest(name, mutexes)}"
                            f" (mutexes: {', '.join(mutexes) or 'none'})",
                        )
                    used.add(name)
        return used

    def reserved(self, name: str, path: Path_) -> None:
        if name in C_KEYWORDS:
            self.error(path, f"{name!r} is a C keyword or a name C programs already use")
        elif name.lower().startswith(RESERVED_PREFIXES):
            self.error(path, f"{name!r}: names beginning with tc_, tct_ or tacet_ belong to Tacet")

    def utilisation(self, app: App) -> None:
        timed = [t for t in app.threads if t.timed and t.period and t.wcet is not None]
        total = sum(Fraction(t.wcet, t.period) for t in timed)  # type: ignore[arg-type]
        if total > 1:
            parts = ", ".join(f"{t.name} {float(Fraction(t.wcet, t.period)):.3f}" for t in timed)  # type: ignore[arg-type]
            self.error(
                ("threads",),
                f"total utilisation {float(total):.3f} is over 1 (wcet / period: {parts}): no "
                "schedule can keep up",
            )


def load(path: Path, display: str | None = None, target: str | None = None) -> App:
    """Read and check the description at ``path``. Raises DescriptionError naming every
    problem (file, line, field); ``display`` is the file's name in messages (default: the
    path as given). ``target``: check it for a build for that target (its stack minimum, and
    that the description lists it) rather than for all its targets."""
    shown = str(path) if display is None else display
    source, raw = yamldoc.read(
        path, shown, schema(), "a description", "a mapping with at least board and threads"
    )
    app = _Builder(source, Path(path), target).build(Path(path), hashlib.sha256(raw).hexdigest())
    raise_errors(source)
    return app
