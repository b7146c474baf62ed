# SPDX-License-Identifier: MIT
"""The results of ``tacet bench``: from the programs' checked outputs (bench_format) to the
JSON document that schema/tacet-bench.schema.json describes, and back.

Units. The programs print raw samples: on Cortex-M timer cycles of tc_cycles() (25 MHz), on
the sim port virtual cycles, and host ns beside them. A measurement shows them as

- QEMU instructions: cycles * 10^9 / cycles_hz / 2^icount_shift (1.25 per timer cycle under
  -icount shift=5; exact to one timer cycle per sample), less what one time stamp adds (the
  mean of the program's `stamp` series, two stamps back to back) where a sample is the
  difference of two stamps: every parameter but the interrupt latency, whose samples are read
  off the interrupting timer itself;
- virtual cycles on the sim port (kernel code takes none: a sample is the switch cost the
  program charges), and host ns less a stamp, reported but never judged by ``compare``.

A measurement pools the series of one parameter, case and detail; in the workload case it
also keeps a summary per point (start, middle, end). Its ``value`` (the mean) is what
``tacet bench compare`` compares.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tacet.bench import stats as bench_stats
from tacet.bench.format import PARAMETERS, POINTS, Output, Series, ThreadMetric
from tacet.bench.stats import Scale
from tacet.core.errors import TacetError
from tacet.core.repo import HOME

REPO = HOME
SCHEMA_PATH = REPO / "schema" / "tacet-bench.schema.json"
FORMAT = "tacet-bench-results"
VERSION = 1

# Parameters whose samples are not the difference of two time stamps.
NO_STAMP = frozenset({"interrupt_latency", "stamp"})
# The goals (reported, never asserted): instructions between empty threads on
# qemu-m3's default build, and the scaling at 256 ready threads against 1.
# The kernel configurations bench/rhealstone is also built in on Cortex-M (bench/CMakeLists.txt:
# rhealstone_<name>), each the default with what it says left out or changed.
CONFIGURATIONS = {
    "nochecks": "without the argument and calling-context checks (TC_CHECKS=0)",
    "nostats": "without the counters (TC_STATS=0)",
    "guard": "the MPU stack guard instead of the painted one (TC_MPU_STACK_GUARD=1)",
    "lean": "no checks, counters or stack check; 32 priorities",
}
GOAL_TASK_SWITCH = 60.0
GOAL_PREEMPTION = 120.0
GOAL_SCALING = 1.05
# The longest interrupt-masked stretch across the test suite (docs/measurements.md, "Longest
# interrupt-masked stretch": TC_IRQ_OFF_MEASURE=1, ctest -R irqoff), in instructions.
MASKED_STRETCH = 563.0
PARAMETER_ORDER = PARAMETERS


@dataclass(frozen=True)
class Run:
    """One benchmark program's run: what it is, how it ran, what it printed."""

    name: str  # the program (CMake target), e.g. rhealstone, scaling_p32, thread_metric_lean
    build: str  # default, lean, p32 ...
    command: tuple[str, ...]
    exit_status: int
    host_seconds: float
    output: Output | None = None  # bench/rhealstone's format
    thread_metric: ThreadMetric | None = None


def display_unit(output: Output, unit: str) -> Scale:
    """The scale from ``unit`` (raw) to what the results show, without the stamp offset."""
    if unit == "host_ns":
        return Scale("host ns")
    if output.config.get("clock") == "qemu-icount":
        try:
            hz = int(output.config["cycles_hz"])
            shift = int(output.config["icount_shift"])
        except (KeyError, ValueError):
            raise TacetError(
                f"{output.program}: its config line lacks cycles_hz or icount_shift"
            ) from None
        return Scale("instructions", 1e9 / hz / 2**shift)
    return Scale("virtual cycles")


def _stamp_offsets(output: Output) -> dict[str, float]:
    """Per raw unit: what one time stamp adds, in display units (the stamp series' mean)."""
    offsets = {}
    for s in output.series:
        if s.tag("param") == "stamp" and s.values:
            scale = display_unit(output, s.unit)
            offsets[s.unit] = scale(sum(s.values) / len(s.values))
    return offsets


def _round(x: float) -> float:
    return round(x, 4)


def _summary(values: Sequence[float]) -> dict[str, float | int]:
    return {
        k: _round(v) if isinstance(v, float) else v
        for k, v in bench_stats.summarize(values).as_dict().items()
    }


def _detail(series: Series) -> dict[str, str]:
    return {k: v for k, v in series.tags if k not in ("param", "case", "workload", "point")}


def _measurement_id(
    program: str, build: str, param: str, case: str, *, detail: dict[str, str], unit: str
) -> str:
    """e.g. rhealstone/message/empty/mechanism=queue/size=16, scaling/p32/priority/ready=8;
    host time has the suffix [host_ns]."""
    if program == "scaling" and param == "stamp":
        parts = [program, build, "stamp"]
    elif program == "scaling":
        parts = [program, build, detail.get("policy", "?"), f"ready={detail.get('ready', '?')}"]
    else:
        parts = [program, param, case, *(f"{k}={v}" for k, v in detail.items())]
    return "/".join(parts) + ("[host_ns]" if unit == "host_ns" else "")


def measurements(run: Run) -> list[dict[str, Any]]:
    """The measurements of one run in bench/rhealstone's format: its series pooled per
    parameter, case and detail (and unit)."""
    assert run.output is not None
    output = run.output
    # bench/rhealstone in another kernel configuration: its own program name, so that the
    # tables and the comparison of the default build do not pool it.
    program = output.program
    if program == "rhealstone" and run.build != "default":
        program = f"{program}_{run.build}"
    offsets = _stamp_offsets(output)
    groups: dict[tuple, list[Series]] = defaultdict(list)
    for s in output.series:
        groups[(s.tag("param"), s.tag("case"), tuple(_detail(s).items()), s.unit)].append(s)
    out = []
    for (param, case, detail_items, unit), members in groups.items():
        detail = dict(detail_items)
        base = display_unit(output, unit)
        offset = 0.0 if param in NO_STAMP else offsets.get(unit, 0.0)
        scale = Scale(base.unit, base.factor, offset)
        raw = [v for s in members for v in s.values]
        shown = [scale(v) for v in raw]
        m: dict[str, Any] = {
            "id": _measurement_id(program, run.build, param, case, detail=detail, unit=unit),
            "program": program,
            "build": run.build,
            "param": param,
            "case": case,
            "detail": detail,
            "unit": scale.unit,
            "raw_unit": unit,
            "factor": scale.factor,
            "offset": _round(scale.offset),
            "judged": unit != "host_ns",
            "value": _round(sum(shown) / len(shown)),
            "summary": _summary(shown),
            "histogram": {
                k: [_round(x) for x in v] if k == "edges" else v
                for k, v in bench_stats.scaled_histogram(raw, scale).as_dict().items()
            },
            "series": [
                {
                    "workload": s.tag("workload") or None,
                    "point": s.tag("point") or None,
                    "samples": list(s.values),
                }
                for s in members
            ],
        }
        if case == "workload":
            m["by_point"] = {
                p: _summary([scale(v) for s in members if s.tag("point") == p for v in s.values])
                for p in POINTS
                if any(s.tag("point") == p and s.values for s in members)
            }
        out.append(m)
    return out


def thread_metric_rows(run: Run) -> list[dict[str, Any]]:
    assert run.thread_metric is not None
    tm = run.thread_metric
    rows = []
    for r in tm.rows:
        judged = r.unit == "instructions per op"
        rows.append(
            {
                "id": f"thread_metric/{run.build}/{r.test}" + ("" if judged else "[host_ns]"),
                "build": run.build,
                "test": r.test,
                "value": r.value,
                "unit": r.unit,
                "operations": r.operations,
                "what": r.what,
                "judged": judged,
            }
        )
    return rows


def scaling_curves(ms: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per build, policy and unit: the mean cost against the number of ready threads, and
    the cost with the most of them over the cost with one."""
    curves: dict[tuple[str, str, str], dict[int, float]] = defaultdict(dict)
    units: dict[tuple[str, str, str], tuple[str, bool]] = {}
    for m in ms:
        if m["program"] != "scaling" or m["param"] != "scaling":
            continue
        key = (m["build"], m["detail"]["policy"], m["raw_unit"])
        curves[key][int(m["detail"]["ready"])] = m["value"]
        units[key] = (m["unit"], m["judged"])
    out = []
    for (build, policy, _raw), points in sorted(
        curves.items(), key=lambda kv: (int(kv[0][0][1:]), kv[0][1], kv[0][2])
    ):
        ready = sorted(points)
        first, last = points[ready[0]], points[ready[-1]]
        unit, judged = units[(build, policy, _raw)]
        out.append(
            {
                "build": build,
                "priorities": int(build[1:]),
                "policy": policy,
                "unit": unit,
                "judged": judged,
                "ready": ready,
                "mean": [points[n] for n in ready],
                "ratio": _round(last / first) if first > 0 else None,
            }
        )
    return out


def seed003_comparison(ms: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each parameter measured both ways, how the workload case differs from the empty
    one: its mean (percent), its standard deviation and its range (max - min) against the
    empty case's."""
    by_key: dict[tuple, dict[str, dict[str, Any]]] = defaultdict(dict)
    for m in ms:
        if m["program"] == "rhealstone" and m["case"] in ("empty", "workload"):
            key = (m["param"], tuple(sorted(m["detail"].items())), m["raw_unit"])
            by_key[key][m["case"]] = m
    out = []
    for (param, detail, _raw), cases in by_key.items():
        if "empty" not in cases or "workload" not in cases:
            continue
        e, w = cases["empty"]["summary"], cases["workload"]["summary"]
        out.append(
            {
                "param": param,
                "detail": dict(detail),
                "unit": cases["empty"]["unit"],
                "judged": cases["empty"]["judged"],
                "empty": e,
                "workload": w,
                "mean_change_pct": _round((w["mean"] - e["mean"]) / e["mean"] * 100)
                if e["mean"]
                else None,
                "stdev_ratio": _round(w["stdev"] / e["stdev"]) if e["stdev"] else None,
                "range_ratio": _round((w["max"] - w["min"]) / (e["max"] - e["min"]))
                if e["max"] > e["min"]
                else None,
            }
        )
    return out


def _find(ms: Iterable[dict[str, Any]], id_: str) -> dict[str, Any] | None:
    return next((m for m in ms if m["id"] == id_), None)


SWITCH_GOALS = (("task_switch", GOAL_TASK_SWITCH), ("preemption", GOAL_PREEMPTION))


def configuration_values(ms: Iterable[dict[str, Any]], param: str) -> dict[str, float]:
    """``param``'s mean between empty threads, in instructions, per kernel configuration
    measured (the default first, then CONFIGURATIONS' order)."""
    out = {}
    for build in ("default", *CONFIGURATIONS):
        program = "rhealstone" if build == "default" else f"rhealstone_{build}"
        m = _find(ms, f"{program}/{param}/empty")
        if m is not None and m["unit"] == "instructions":
            out[build] = m["value"]
    return out


def goals(
    target: str, ms: Sequence[dict[str, Any]], curves: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The goals, each with what was measured: reported, never asserted."""
    out: list[dict[str, Any]] = []
    on_m3 = target == "qemu-m3"
    for param, limit in SWITCH_GOALS:
        m = _find(ms, f"rhealstone/{param}/empty")
        measured = m["value"] if m and m["unit"] == "instructions" else None
        met = [b for b, v in configuration_values(ms, param).items() if v <= limit]
        out.append(
            {
                "goal": f"{param} between empty threads <= {limit:g} instructions "
                "(qemu-m3, default build)",
                "measured": measured,
                "met": (measured <= limit) if (on_m3 and measured is not None) else None,
                "note": (
                    ("met by the " + ", ".join(met) + " build" + ("s" if len(met) > 1 else ""))
                    if met and measured is not None and measured > limit
                    else ""
                )
                if on_m3
                else f"judged on qemu-m3 only; this run is on {target}"
                + ("" if measured is not None else ", which counts no instructions"),
            }
        )
    handler = [
        m
        for m in ms
        if m["program"] == "rhealstone"
        and m["param"] == "interrupt_latency"
        and m["detail"].get("to") == "handler"
        and m["unit"] == "instructions"
    ]
    worst = max((m["summary"]["max"] for m in handler), default=None)
    out.append(
        {
            "goal": f"interrupt latency to the handler bounded by the longest masked stretch "
            f"({MASKED_STRETCH:g} instructions across the test suite, docs/measurements.md)",
            "measured": worst,
            "met": (worst <= MASKED_STRETCH) if worst is not None else None,
            "note": "the largest latency to the handler in either case"
            if worst is not None
            else "the sim port counts no instructions (kernel code takes no virtual time)",
        }
    )
    ratios = [c["ratio"] for c in curves if c["judged"] and c["ratio"] is not None]
    worst_ratio = max(ratios, default=None)
    out.append(
        {
            "goal": "preemption cost with 256 ready threads within "
            f"{(GOAL_SCALING - 1) * 100:g} % of the cost with 1",
            "measured": worst_ratio,
            "met": (worst_ratio <= GOAL_SCALING) if worst_ratio is not None else None,
            "note": "the largest ratio over every build and policy",
        }
    )
    return out


def assemble(meta: dict[str, Any], runs: Sequence[Run]) -> dict[str, Any]:
    """The results document. Thread-Metric's figures are Tacet's alone: other kernels are
    measured beside them by `tacet bench anchors` (tacet.bench.anchors), never quoted."""
    ms: list[dict[str, Any]] = []
    tm: list[dict[str, Any]] = []
    for run in runs:
        if run.output is not None:
            ms.extend(measurements(run))
        if run.thread_metric is not None:
            tm.extend(thread_metric_rows(run))
    curves = scaling_curves(ms)
    return {
        "format": FORMAT,
        "version": VERSION,
        "meta": meta,
        "programs": [
            {
                "name": r.name,
                "build": r.build,
                "command": list(r.command),
                "exit_status": r.exit_status,
                "host_seconds": _round(r.host_seconds),
                "config": dict(r.output.config)
                if r.output is not None
                else dict(r.thread_metric.config)
                if r.thread_metric is not None
                else {},
            }
            for r in runs
        ],
        "measurements": ms,
        "thread_metric": tm,
        "scaling": curves,
        "comparison": seed003_comparison(ms),
        "goals": goals(meta["target"], ms, curves),
    }


# ---- the schema --------------------------------------------------------------------------


def validate(doc: object, where: str) -> None:
    """Fail with the first few ways ``doc`` breaks schema/tacet-bench.schema.json."""
    import jsonschema  # noqa: PLC0415  (only when results are written or read)

    try:
        schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise TacetError(f"cannot read the schema {SCHEMA_PATH}: {error}") from None
    errors = sorted(
        jsonschema.Draft202012Validator(schema).iter_errors(doc),
        key=lambda e: list(e.absolute_path),
    )
    if errors:
        lines = [
            f"{'/'.join(str(p) for p in e.absolute_path) or '(top)'}: {e.message}"
            for e in errors[:3]
        ]
        more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
        raise TacetError(
            f"{where}: not tacet bench results ({SCHEMA_PATH.name}): " + "; ".join(lines) + more
        )


def load(path: Path) -> dict[str, Any]:
    """A results file, read and checked against the schema."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TacetError(f"{path}: no such file", status=2) from None
    except OSError as error:
        raise TacetError(f"{path}: {error.strerror}", status=2) from None
    except ValueError as error:
        raise TacetError(f"{path}: not JSON: {error}", status=2) from None
    try:
        validate(doc, str(path))
    except TacetError as error:
        raise TacetError(error.message, status=2) from None
    return doc
