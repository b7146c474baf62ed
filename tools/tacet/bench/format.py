# SPDX-License-Identifier: MIT
"""What the benchmark programs print, read and checked: the sample format of bench/rhealstone
(bench/rhealstone/measure.h says it line by line) and Thread-Metric's report lines.

A program's output is either read whole or refused with a :class:`FormatError` that names the
program and the line: a truncated run (no ``end`` line), a series whose count or sum does not
match its samples, a record nobody knows. ``complete`` then checks that every series the
program is meant to print is there, once.

Also a ctest check: ``python -m tacet.bench.format [--emulator=CMD|ARG...] [--thread-metric]
PROGRAM ARG...`` runs the program, reads its output and fails (exit status 1, the reason on
stderr) unless it is well-formed and complete (for Thread-Metric: all eight tests reported,
each test's own check passed); no figure is judged.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from tacet.core.errors import TacetError

FORMAT_VERSION = "1"
SAMPLES_PER_LINE = 16

# The workloads of bench/workloads and the points each calls, in the programs' order.
WORKLOADS = ("sha256", "crc32", "bitcount", "fft", "qsort", "dijkstra", "strsearch")
POINTS = ("start", "middle", "end")
MECHANISMS = ("queue", "port", "taskport")
MESSAGE_SIZES = (4, 16, 64, 256, 1024)
WORKLOAD_MESSAGE_SIZE = 16
READY_COUNTS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
POLICIES = ("priority", "round_robin")
# The parameters of bench/rhealstone, in the order the reports show them.
PARAMETERS = (
    "task_switch",
    "preemption",
    "interrupt_latency",
    "semaphore_shuffle",
    "deadlock_break",
    "message",
)
# Tags a series may carry, and the ones it must.
KNOWN_TAGS = frozenset(
    {"param", "case", "workload", "point", "to", "mechanism", "size", "policy", "ready", "unit"}
)
UNITS = frozenset({"cycles", "host_ns"})


class FormatError(TacetError):
    """A benchmark program's output that is not what the format says."""


@dataclass(frozen=True)
class Series:
    """One series of samples: its tags (param, case ...), unit and raw values."""

    tags: tuple[tuple[str, str], ...]
    unit: str
    values: tuple[int, ...]

    def tag(self, name: str, default: str = "") -> str:
        return dict(self.tags).get(name, default)

    @property
    def key(self) -> tuple[tuple[str, str], ...]:
        """The tags and the unit: what tells the series apart."""
        return (*self.tags, ("unit", self.unit))


@dataclass(frozen=True)
class Output:
    """A benchmark program's whole output, checked."""

    program: str
    config: dict[str, str]
    series: tuple[Series, ...]
    ok: bool  # the program's own checks (the end line's status)
    notes: tuple[str, ...] = field(default=())  # lines of its own it printed (a failed check)


def _words_to_tags(words: Sequence[str], where: str) -> dict[str, str]:
    tags: dict[str, str] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key or not value:
            raise FormatError(f"{where}: expected KEY=VALUE, found {word!r}")
        if key in tags:
            raise FormatError(f"{where}: {key} given twice")
        tags[key] = value
    return tags


def _count(text: str, what: str, where: str) -> int:
    if not text.isdigit() or len(text) > 10:
        raise FormatError(f"{where}: {what} {text!r} is not an unsigned integer")
    return int(text)


class _Reader:
    """The records after the header, one line at a time (``parse``)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.config: dict[str, str] = {}
        self.series: list[Series] = []
        self.notes: list[str] = []
        # The open series: its tags, its announced count, its values, its S line.
        self.current: tuple[dict[str, str], int, list[int], int] | None = None
        self.status: str | None = None

    def line(self, number: int, line: str) -> None:
        where = f"{self.source} line {number}"
        words = line.split()
        if self.status is not None:
            if line.strip():
                raise FormatError(f"{where}: text after the end line: {line[:60]!r}")
            return
        record = words[0] if words else ""
        if self.current is not None and record not in ("V", "E"):
            raise FormatError(f"{where}: series of line {self.current[3]} ends without its E line")
        handler = {
            "config": self.config_line,
            "S": self.series_line,
            "V": self.values_line,
            "E": self.end_of_series,
            "end": self.end_line,
        }.get(record)
        if handler is not None:
            handler(words, where, number)
        elif record == "tacet-bench":
            raise FormatError(f"{where}: a second header")
        else:
            self.notes.append(line)

    def config_line(self, words: list[str], where: str, number: int) -> None:
        self.config.update(_words_to_tags(words[1:], where))

    def series_line(self, words: list[str], where: str, number: int) -> None:
        tags = _words_to_tags(words[1:], where)
        missing = [t for t in ("param", "case", "unit", "n") if t not in tags]
        if missing:
            raise FormatError(f"{where}: series without {', '.join(missing)}")
        unknown = sorted(set(tags) - KNOWN_TAGS - {"n"})
        if unknown:
            raise FormatError(f"{where}: unknown tag {unknown[0]!r}")
        if tags["unit"] not in UNITS:
            raise FormatError(f"{where}: unknown unit {tags['unit']!r}")
        self.current = (tags, _count(tags.pop("n"), "n", where), [], number)

    def values_line(self, words: list[str], where: str, number: int) -> None:
        if self.current is None:
            raise FormatError(f"{where}: samples outside a series")
        if not 2 <= len(words) <= SAMPLES_PER_LINE + 1:
            raise FormatError(f"{where}: 1 to {SAMPLES_PER_LINE} samples a line")
        self.current[2].extend(_count(w, "sample", where) for w in words[1:])

    def end_of_series(self, words: list[str], where: str, number: int) -> None:
        if self.current is None:
            raise FormatError(f"{where}: E line outside a series")
        tags, n, values, start = self.current
        if len(words) != 3:
            raise FormatError(f"{where}: expected 'E COUNT SUM'")
        count, total = _count(words[1], "count", where), _count(words[2], "sum", where)
        if count != n or len(values) != n:
            raise FormatError(
                f"{where}: the series of line {start} says {n} samples, its E line {count}, "
                f"and {len(values)} were printed"
            )
        if sum(values) % 2**32 != total:
            raise FormatError(
                f"{where}: the samples of the series of line {start} do not add up to its sum "
                f"{total}: garbled output"
            )
        unit = tags.pop("unit")
        self.series.append(Series(tuple(tags.items()), unit, tuple(values)))
        self.current = None

    def end_line(self, words: list[str], where: str, number: int) -> None:
        if len(words) != 3 or words[2] not in ("ok", "FAILED"):
            raise FormatError(f"{where}: expected 'end SERIES ok|FAILED'")
        if _count(words[1], "series count", where) != len(self.series):
            raise FormatError(
                f"{where}: the end line counts {words[1]} series, {len(self.series)} were printed"
            )
        self.status = words[2]


def parse(text: str, source: str) -> Output:
    """Read a benchmark program's output (measure.h's format). ``source`` names it in errors
    (e.g. "rhealstone on qemu-m3"). Lines of the program's own (a failed self-check) outside
    a series are kept as notes."""
    lines = text.splitlines()
    header = next((i for i, line in enumerate(lines) if line.startswith("tacet-bench ")), None)
    if header is None:
        raise FormatError(f"{source}: no 'tacet-bench' header line: not a benchmark's output")
    words = lines[header].split()
    if len(words) != 3 or words[1] != FORMAT_VERSION:
        raise FormatError(
            f"{source} line {header + 1}: expected 'tacet-bench {FORMAT_VERSION} PROGRAM', "
            f"found {lines[header]!r}"
        )
    reader = _Reader(source)
    for number, line in enumerate(lines[header + 1 :], header + 2):
        reader.line(number, line)
    if reader.current is not None:
        raise FormatError(
            f"{source}: the output ends inside the series of line {reader.current[3]}"
        )
    if reader.status is None:
        raise FormatError(f"{source}: the output ends without its 'end' line (cut short?)")
    keys = [s.key for s in reader.series]
    if len(set(keys)) != len(keys):
        dup = next(k for k in keys if keys.count(k) > 1)
        raise FormatError(f"{source}: the series {_show(dup)} appears twice")
    return Output(
        words[2], reader.config, tuple(reader.series), reader.status == "ok", tuple(reader.notes)
    )


def _show(key: tuple[tuple[str, str], ...]) -> str:
    return " ".join(f"{k}={v}" for k, v in key)


def expected_keys(program: str, units: Sequence[str]) -> set[tuple[tuple[str, str], ...]]:
    """The series (tags and unit) a program prints, in each of ``units``; an empty set for a
    program this module does not know."""
    tag_sets: list[tuple[tuple[str, str], ...]] = []
    if program == "rhealstone":
        tag_sets.append((("param", "stamp"), ("case", "empty")))
        for case in ("empty", "workload"):
            for param in PARAMETERS:
                details: list[tuple[tuple[str, str], ...]]
                if param == "interrupt_latency":
                    details = [(("to", "handler"),), (("to", "thread"),)]
                elif param == "message":
                    sizes = MESSAGE_SIZES if case == "empty" else (WORKLOAD_MESSAGE_SIZE,)
                    details = [
                        (("mechanism", m), ("size", str(s))) for m in MECHANISMS for s in sizes
                    ]
                else:
                    details = [()]
                where: list[tuple[tuple[str, str], ...]] = [()]
                if case == "workload":
                    where = [(("workload", w), ("point", p)) for w in WORKLOADS for p in POINTS]
                for detail in details:
                    for place in where:
                        tag_sets.append((("param", param), ("case", case), *place, *detail))
    elif program == "scaling":
        tag_sets.append((("param", "stamp"), ("case", "empty")))
        for policy in POLICIES:
            for ready in READY_COUNTS:
                tag_sets.append(
                    (
                        ("param", "scaling"),
                        ("case", "empty"),
                        ("policy", policy),
                        ("ready", str(ready)),
                    )
                )
    return {(*tags, ("unit", unit)) for tags in tag_sets for unit in units}


def complete(output: Output, source: str) -> None:
    """Fail unless every series the program is meant to print is there, with as many samples
    as the header's ``repeat`` asks (in the workload case, at least one per workload and
    point, as many together), and nothing else."""
    units = ["cycles", "host_ns"] if output.config.get("clock") == "virtual" else ["cycles"]
    expected = expected_keys(output.program, units)
    if not expected:
        raise FormatError(f"{source}: unknown benchmark program {output.program!r}")
    found = {s.key: s for s in output.series}
    missing = sorted(expected - set(found))
    if missing:
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        raise FormatError(f"{source}: no series {_show(missing[0])}{more}")
    extra = sorted(set(found) - expected)
    if extra:
        raise FormatError(f"{source}: unexpected series {_show(extra[0])}")
    repeat = _count(output.config.get("repeat", ""), "config repeat", source)
    each = -(-repeat // (len(WORKLOADS) * len(POINTS)))
    for s in output.series:
        want = each if s.tag("case") == "workload" else repeat
        if len(s.values) != want:
            raise FormatError(
                f"{source}: the series {_show(s.key)} has {len(s.values)} samples, not {want}"
            )


# ---- Thread-Metric ---------------------------------------------------------------------------

THREAD_METRIC_TESTS = (
    "basic",
    "cooperative",
    "preemptive",
    "interrupt",
    "interrupt_preemption",
    "message",
    "synchronization",
    "memory",
)
# bench/thread_metric prints a line per test: name, operations, the figure and its unit, then
# what one operation is; "CHECK FAILED" when the test's own check failed.
_TM_LINE = re.compile(
    r"^\s+(?P<test>\w+)\s+(?P<ops>\d+) ops\s+(?P<value>\d+(?:\.\d+)?) "
    r"(?P<unit>instructions per op|host ns per op)\s+\((?P<what>[^)]*)\)"
    r"(?P<failed>\s+CHECK FAILED)?$"
)
# The kernel: "Tacet" on its own API; through CMSIS-RTOS2, the name osKernelGetInfo gives.
_TM_HEADER = re.compile(
    r"^Thread-Metric on (?P<kernel>.+?) \((?P<port>[\w-]+)\), (?P<ms>\d+) ms per test; "
    r"(?P<config>.*)$"
)


@dataclass(frozen=True)
class ThreadMetricRow:
    test: str
    operations: int
    value: float
    unit: str  # "instructions per op" or "host ns per op"
    what: str
    check_failed: bool


@dataclass(frozen=True)
class ThreadMetric:
    port: str
    interval_ms: int
    config: dict[str, str]
    rows: tuple[ThreadMetricRow, ...]
    kernel: str = "Tacet"


def parse_thread_metric(
    text: str, source: str, tests: Sequence[str] = THREAD_METRIC_TESTS
) -> ThreadMetric:
    """Read bench/thread_metric's report: its header (the kernel, its port, the interval, the
    build's options) and one line for each of ``tests`` (by default all eight), each once, in
    the suite's order."""
    lines = text.splitlines()
    header = next((m for m in map(_TM_HEADER.match, lines) if m), None)
    if header is None:
        raise FormatError(f"{source}: no 'Thread-Metric on KERNEL' header: not its output")
    config = _words_to_tags(header["config"].removeprefix("kernel ").split(), source)
    rows = []
    for number, line in enumerate(lines, 1):
        if (m := _TM_LINE.match(line)) is None:
            continue
        if m["test"] not in THREAD_METRIC_TESTS:
            raise FormatError(f"{source} line {number}: unknown test {m['test']!r}")
        rows.append(
            ThreadMetricRow(
                m["test"], int(m["ops"]), float(m["value"]), m["unit"], m["what"], bool(m["failed"])
            )
        )
    names = [r.test for r in rows]
    if names != list(tests):
        missing = [t for t in tests if t not in names]
        what = f"no line for {missing[0]}" if missing else f"the tests in the order {names}"
        expected = "all eight tests" if len(tests) == 8 else ", ".join(tests)
        raise FormatError(f"{source}: {what} (expected {expected}, once each)")
    return ThreadMetric(
        header["port"], int(header["ms"]), config, tuple(rows), kernel=header["kernel"]
    )


# ---- the ctest check -------------------------------------------------------------------------


def emulated(emulator: str, program: str, args: Sequence[str]) -> list[str]:
    """The command that runs ``program`` with ``args``: directly, under a user-mode emulator
    (its words joined by |), or under qemu-system-arm, which passes them through -append."""
    words = [w for w in emulator.split("|") if w]
    if words and "qemu-system" in words[0]:
        return [*words, program, *(["-append", " ".join(args)] if args else [])]
    return [*words, program, *args]


def _check_thread_metric(
    done: subprocess.CompletedProcess[str], source: str, tests: Sequence[str] = THREAD_METRIC_TESTS
) -> int:
    """ctest's verdict on a Thread-Metric run: its report complete (the tests it was given, or
    all eight), every test's own check passed, exit status 0."""
    try:
        report = parse_thread_metric(done.stdout, source, tuple(tests))
    except FormatError as error:
        sys.stdout.write(done.stdout[-2000:])
        print(f"bench_format: {error.message}", file=sys.stderr)
        return 1
    failed = [r.test for r in report.rows if r.check_failed]
    sys.stdout.write(done.stdout)
    if failed or done.returncode != 0:
        what = f"the check of {', '.join(failed)} failed" if failed else "it failed"
        print(f"bench_format: {source}: {what} (exit status {done.returncode})", file=sys.stderr)
        return 1
    names = [r.test for r in report.rows]
    reported = "the eight tests" if len(names) == 8 else ", ".join(names)
    print(f"{source}: {reported} reported, every check passed")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tacet.bench.format",
        description="Run a benchmark program and check that its output is well-formed and "
        "complete (ctest); no figure is judged.",
    )
    parser.add_argument("--emulator", default="", help="the emulator's words, joined by |")
    parser.add_argument(
        "--thread-metric",
        action="store_true",
        help="the program is bench/thread_metric: its report of the eight tests",
    )
    parser.add_argument("program")
    parser.add_argument("args", nargs="*")
    args = parser.parse_args(argv)
    command = emulated(args.emulator, args.program, args.args)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        print(f"bench_format: cannot run {command[0]}: {error}", file=sys.stderr)
        return 1
    source = args.program.rsplit("/", 1)[-1]
    if args.thread_metric:
        named = args.args[1:]  # `PROGRAM SECONDS [TEST ...]`: the tests named, else all eight
        return _check_thread_metric(done, source, named or THREAD_METRIC_TESTS)
    try:
        output = parse(done.stdout, source)
        complete(output, source)
    except FormatError as error:
        sys.stdout.write(done.stdout[-2000:])
        print(f"bench_format: {error.message}", file=sys.stderr)
        return 1
    if done.returncode != 0 or not output.ok:
        sys.stdout.write("\n".join(output.notes) + "\n")
        print(f"bench_format: {source} failed (exit status {done.returncode})", file=sys.stderr)
        return 1
    samples = sum(len(s.values) for s in output.series)
    print(f"{source}: {len(output.series)} series, {samples} samples, well-formed and complete")
    return 0


if __name__ == "__main__":
    sys.exit(main())
