# SPDX-License-Identifier: MIT
"""The human side of ``tacet bench`` results: a Markdown report and matplotlib plots (PNG),
both made from the results document alone (bench_results), so a results.json from any run
can be drawn again."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tacet.bench.format import MECHANISMS, MESSAGE_SIZES
from tacet.bench.results import (
    CONFIGURATIONS,
    PARAMETER_ORDER,
    SWITCH_GOALS,
    configuration_values,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

LABELS = {
    "task_switch": "task switch",
    "preemption": "preemption",
    "interrupt_latency": "interrupt latency",
    "semaphore_shuffle": "semaphore shuffle",
    "deadlock_break": "deadlock break",
    "message": "message",
    "stamp": "time stamp",
}


def label(m: dict[str, Any]) -> str:
    """A measurement's row label, e.g. "interrupt latency to the thread", "message queue 16 B"."""
    text = LABELS.get(m["param"], m["param"])
    d = m["detail"]
    if "to" in d:
        text += f" to the {d['to']}"
    if "mechanism" in d:
        text += f" {d['mechanism']} {d['size']} B"
    return text


def _order(m: dict[str, Any]) -> tuple:
    d = m["detail"]
    param = (
        PARAMETER_ORDER.index(m["param"]) if m["param"] in PARAMETER_ORDER else len(PARAMETER_ORDER)
    )
    mech = MECHANISMS.index(d["mechanism"]) if "mechanism" in d else -1
    return (param, d.get("to", ""), mech, int(d.get("size", 0)))


def rhealstone_rows(
    doc: dict[str, Any], judged: bool = True
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(empty, workload) pairs of the Rhealstone measurements measured both ways, in the
    parameters' order; the judged unit (or host time with judged=False)."""
    ms = [m for m in doc["measurements"] if m["program"] == "rhealstone" and m["judged"] == judged]
    by_key = {(m["param"], tuple(sorted(m["detail"].items())), m["case"]): m for m in ms}
    rows = []
    for m in sorted((m for m in ms if m["case"] == "workload"), key=_order):
        empty = by_key.get((m["param"], tuple(sorted(m["detail"].items())), "empty"))
        if empty is not None:
            rows.append((empty, m))
    return rows


def _f(x: float | None, digits: int = 1) -> str:
    return "—" if x is None else f"{x:,.{digits}f}"


def _cells(s: dict[str, Any]) -> list[str]:
    return [_f(s["mean"]), _f(s["stdev"]), _f(s["min"]), _f(s["max"]), _f(s["p99"])]


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


def rhealstone_table(doc: dict[str, Any], judged: bool = True) -> list[str]:
    rows = rhealstone_rows(doc, judged)
    if not rows:
        return []
    unit = rows[0][0]["unit"]
    header = ["parameter", "empty: mean", "stdev", "min", "max", "p99",
              "workload: mean", "stdev", "min", "max", "p99"]  # fmt: skip
    body = [[label(e), *_cells(e["summary"]), *_cells(w["summary"])] for e, w in rows]
    return [f"In {unit}; K = {rows[0][0]['summary']['n']} samples between empty threads, "
            f"{rows[0][1]['summary']['n']} in the workloads.",
            "", *_table(header, body)]  # fmt: skip


def comparison_table(doc: dict[str, Any]) -> list[str]:
    rows = [c for c in doc["comparison"] if c["judged"]]
    rows.sort(key=lambda c: _order({"param": c["param"], "detail": c["detail"]}))
    body = [
        [
            label({"param": c["param"], "detail": c["detail"]}),
            _f(c["mean_change_pct"], 2) + " %" if c["mean_change_pct"] is not None else "—",
            _f(c["empty"]["stdev"], 2),
            _f(c["workload"]["stdev"], 2),
            _f(c["empty"]["max"] - c["empty"]["min"]),
            _f(c["workload"]["max"] - c["workload"]["min"]),
        ]
        for c in rows
    ]
    header = [
        "parameter",
        "mean, workload vs empty",
        "stdev empty",
        "stdev workload",
        "range empty",
        "range workload",
    ]
    return _table(header, body)


def message_table(doc: dict[str, Any]) -> list[str]:
    ms = {
        (m["detail"]["mechanism"], int(m["detail"]["size"])): m["value"]
        for m in doc["measurements"]
        if m["program"] == "rhealstone"
        and m["param"] == "message"
        and m["case"] == "empty"
        and m["judged"]
    }
    if not ms:
        return []
    body = [[mech, *(_f(ms.get((mech, size))) for size in MESSAGE_SIZES)] for mech in MECHANISMS]
    return _table(["mechanism", *(f"{s} B" for s in MESSAGE_SIZES)], body)


def scaling_curves(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The curves to show: the judged ones first, then host time (the sim port's)."""
    return sorted(doc["scaling"], key=lambda c: not c["judged"])


def scaling_table(doc: dict[str, Any]) -> list[str]:
    curves = scaling_curves(doc)
    if not curves:
        return []
    ready = curves[0]["ready"]
    body = [
        [f"{c['priorities']}", c["policy"].replace("_", " "), c["unit"],
         *(_f(v) for v in c["mean"]),
         _f(c["ratio"], 3) if c["ratio"] is not None else "—"]
        for c in curves
    ]  # fmt: skip
    header = ["priorities", "policy", "unit", *(str(n) for n in ready), f"{ready[-1]} / {ready[0]}"]
    return _table(header, body)


ANCHORS_NOTE = (
    "Tacet's figures only: ThreadX and FreeRTOS run the same programs beside them in "
    "`tacet bench anchors --target qemu-m3 --threadx DIR --freertos DIR` (docs/measurements.md)."
)
RISCV_ANCHORS_NOTE = (
    "Tacet's figures only: FreeRTOS runs the same programs beside them in "
    "`tacet bench anchors --target {target} --freertos DIR` (ThreadX has no RV32 port for GCC; "
    "docs/measurements.md)."
)


def thread_metric_table(doc: dict[str, Any]) -> list[str]:
    rows = doc["thread_metric"]
    if not rows:
        return []
    builds = list(dict.fromkeys(r["build"] for r in rows))
    by = {(r["build"], r["test"]): r for r in rows}
    tests = list(dict.fromkeys(r["test"] for r in rows))
    body = [[t, *(_f(by[(b, t)]["value"]) if (b, t) in by else "—" for b in builds)] for t in tests]
    target = doc["meta"]["target"]
    note = (
        RISCV_ANCHORS_NOTE.format(target=target) if target.startswith("qemu-rv32") else ANCHORS_NOTE
    )
    return [
        f"In {rows[0]['unit']}. {note}",
        "",
        *_table(["test", *(f"Tacet {b}" for b in builds)], body),
    ]


def configurations_table(doc: dict[str, Any]) -> list[str]:
    """The task switch and the preemption between empty threads in each kernel configuration
    measured, against the goals; nothing when only the default was."""
    values = {p: configuration_values(doc["measurements"], p) for p, _ in SWITCH_GOALS}
    builds = [b for b in ("default", *CONFIGURATIONS) if any(b in v for v in values.values())]
    if builds == ["default"] or not builds:
        return []
    what = dict(CONFIGURATIONS, default="checks, counters, painted stack guard, 256 priorities")
    header = ["build", "what", *(f"{p.replace('_', ' ')} (goal ≤ {g:g})" for p, g in SWITCH_GOALS)]
    rows = [
        [b, what[b], *(
            _f(values[p].get(b)) + (" ✓" if values[p].get(b, g + 1) <= g else "")
            for p, g in SWITCH_GOALS
        )]
        for b in builds
    ]  # fmt: skip
    return _table(header, rows)


def goals_table(doc: dict[str, Any]) -> list[str]:
    body = [
        [g["goal"], _f(g["measured"], 3 if g["measured"] is not None and g["measured"] < 2 else 1),
         "met" if g["met"] else "not met" if g["met"] is False else "not judged here", g["note"]]
        for g in doc["goals"]
    ]  # fmt: skip
    return _table(["goal (reported, not asserted)", "measured", "", "note"], body)


def markdown(doc: dict[str, Any], command: str) -> str:
    meta = doc["meta"]
    dirty = " (with uncommitted changes)" if meta["dirty"] else ""
    lines = [
        f"# tacet bench: {meta['target']}",
        "",
        f"`{command}` — commit {meta['commit'][:12]}{dirty}, {meta['date']}.",
        f"Compiler: {meta['compiler']}; flags `{meta['c_flags'].strip()}` {meta['bench_flags']}."
        + (f" {meta['qemu']}." if meta["qemu"] else ""),
        "",
    ]
    units = {m["unit"] for m in doc["measurements"] if m["judged"]}
    if "instructions" in units and meta["target"].startswith("qemu-rv32"):
        lines += [
            "Instructions counted by QEMU under `-icount shift=0` (the same on every run), read "
            "per sample from the hart's `mcycle` (one per instruction there: a sample is exact); "
            "one time stamp's cost is subtracted where a sample is the difference of two.",
            "",
        ]
    elif "instructions" in units:
        lines += [
            "Instructions counted by QEMU under `-icount shift=5` (the same on every run), read "
            "per "
            "sample from a 25 MHz timer (1.25 instructions per timer cycle: a sample is exact to "
            "that); one time stamp's cost is subtracted where a sample is the difference of two.",
            "",
        ]
    if "virtual cycles" in units:
        lines += [
            "Virtual cycles of the sim port: kernel code takes none, so a sample is the switch "
            "cost "
            "the benchmark charges per switch, plus in the workloads a modelled cache refill "
            "(docs/bench.md). Host time is reported, never compared.",
            "",
        ]
    sections = [
        (
            "Rhealstone parameters, between empty threads and inside the workloads",
            rhealstone_table(doc),
        ),
        ("What the workloads do to each distribution (Wang and Liu)", comparison_table(doc)),
        ("Message transfer by size, between empty threads (mean)", message_table(doc)),
        ("Preemption cost against the number of ready threads (mean)", scaling_table(doc)),
        ("Thread-Metric", thread_metric_table(doc)),
        ("Host time of the sim port (reported only)", rhealstone_table(doc, judged=False)),
        ("Goals", goals_table(doc)),
        (
            "The switch goals by kernel configuration (instructions, mean)",
            configurations_table(doc),
        ),
    ]
    for title, body in sections:
        if body:
            lines += [f"## {title}", "", *body, ""]
    return "\n".join(lines)


# ---- plots ---------------------------------------------------------------------------------


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure as MplFigure  # noqa: PLC0415  (slow to import)

    return MplFigure(figsize=(width, height), layout="constrained")


def _shown(m: dict[str, Any]) -> list[float]:
    return [v * m["factor"] - m["offset"] for s in m["series"] for v in s["samples"]]


def _grid(n: int, row_height: float) -> tuple[Figure, list[Axes]]:
    """A figure of ``n`` small plots, three a row; the cells left over are hidden."""
    cols = 3
    rows = (n + cols - 1) // cols
    fig = _figure(11, row_height * rows)
    axes = list(fig.subplots(rows, cols, squeeze=False).flat)
    for ax in axes[n:]:
        ax.set_visible(False)
    return fig, axes


def plot_boxes(doc: dict[str, Any], path: Path) -> bool:
    rows = rhealstone_rows(doc)
    if not rows:
        return False
    fig, axes = _grid(len(rows), 2.6)
    for ax, (e, w) in zip(axes, rows, strict=False):
        ax.boxplot([_shown(e), _shown(w)], tick_labels=["empty", "workloads"], widths=0.5)
        ax.set_title(label(e), fontsize=9)
        ax.set_ylabel(e["unit"], fontsize=8)
    fig.suptitle(f"Rhealstone parameters on {doc['meta']['target']}: empty threads vs workloads")
    fig.savefig(path, dpi=100)
    return True


def plot_histograms(doc: dict[str, Any], path: Path) -> bool:
    rows = rhealstone_rows(doc)
    if not rows:
        return False
    fig, axes = _grid(len(rows), 2.4)
    for ax, (e, w) in zip(axes, rows, strict=False):
        for m, name in ((e, "empty"), (w, "workloads")):
            h = m["histogram"]
            ax.stairs(h["counts"], h["edges"], label=name)
        ax.set_yscale("log")
        ax.set_title(label(e), fontsize=9)
        ax.set_xlabel(e["unit"], fontsize=8)
    axes[0].legend(fontsize=7)
    fig.suptitle(f"Histograms on {doc['meta']['target']} (samples per bin, log scale)")
    fig.savefig(path, dpi=100)
    return True


def _log2_axis(ax: Axes, ticks: Sequence[int], xlabel: str) -> None:
    ax.set_xscale("log", base=2)
    ax.set_xticks(list(ticks), [str(t) for t in ticks])
    ax.set_xlabel(xlabel)


def plot_messages(doc: dict[str, Any], path: Path) -> bool:
    ms = [m for m in doc["measurements"] if m["program"] == "rhealstone" and m["param"] == "message"
          and m["case"] == "empty" and m["judged"]]  # fmt: skip
    if not ms:
        return False
    fig = _figure(6, 4)
    ax = fig.subplots()
    for mech in MECHANISMS:
        points = sorted(
            (int(m["detail"]["size"]), m["value"]) for m in ms if m["detail"]["mechanism"] == mech
        )
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=mech)
    _log2_axis(ax, MESSAGE_SIZES, "message size (bytes)")
    ax.set_ylabel(ms[0]["unit"])
    ax.set_title(f"Message transfer latency on {doc['meta']['target']} (Ahn et al. fig. 15)")
    ax.legend()
    fig.savefig(path, dpi=100)
    return True


def plot_scaling(doc: dict[str, Any], path: Path) -> bool:
    curves = [c for c in doc["scaling"] if c["judged"]]
    if not curves:
        return False
    fig = _figure(7, 4.2)
    ax = fig.subplots()
    for c in curves:
        style = "-" if c["policy"] == "priority" else "--"
        ax.plot(c["ready"], c["mean"], style, marker="o", markersize=3,
                label=f"{c['priorities']} priorities, {c['policy'].replace('_', ' ')}")  # fmt: skip
    _log2_axis(ax, curves[0]["ready"], "ready threads")
    ax.set_ylabel(curves[0]["unit"])
    ax.set_ylim(bottom=0)
    ax.set_title(
        f"Preemption (ready + choose + switch) on {doc['meta']['target']} (Ahn et al. fig. 14)",
        fontsize=10,
    )
    ax.legend(fontsize=7)
    fig.savefig(path, dpi=100)
    return True


def plot_thread_metric(doc: dict[str, Any], path: Path) -> bool:
    rows = [r for r in doc["thread_metric"] if r["test"] != "basic"]
    if not rows:
        return False
    builds = list(dict.fromkeys(r["build"] for r in rows))
    tests = list(dict.fromkeys(r["test"] for r in rows))
    by = {(r["build"], r["test"]): r for r in rows}
    bars = [
        (f"Tacet {b}", [by[(b, t)]["value"] if (b, t) in by else 0 for t in tests]) for b in builds
    ]
    fig = _figure(9, 4)
    ax = fig.subplots()
    width = 0.8 / len(bars)
    for i, (name, values) in enumerate(bars):
        ax.bar([x + i * width for x in range(len(tests))], values, width, label=name)
    ax.set_xticks(
        [x + 0.4 - width / 2 for x in range(len(tests))],
        [t.replace("_", "\n") for t in tests],
        fontsize=8,
    )
    ax.set_ylabel(rows[0]["unit"])
    ax.set_title(f"Thread-Metric on {doc['meta']['target']} (Tacet; anchors: tacet bench anchors)")
    ax.legend(fontsize=8)
    fig.savefig(path, dpi=100)
    return True


PLOTS = (
    ("rhealstone.png", plot_boxes),
    ("histograms.png", plot_histograms),
    ("messages.png", plot_messages),
    ("scaling.png", plot_scaling),
    ("thread_metric.png", plot_thread_metric),
)


def plots(doc: dict[str, Any], out: Path) -> list[Path]:
    """Every plot the results have data for, as PNG files in ``out``."""
    return [out / name for name, draw in PLOTS if draw(doc, out / name)]
