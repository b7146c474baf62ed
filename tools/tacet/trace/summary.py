# SPDX-License-Identifier: MIT
"""``tacet trace DUMP``: decode a kernel trace dump, summarise it, export it.

A file holds one dump per kernel run of the program (``tacet run --trace``); every command
covers each of them, or the one ``--run N`` names. Without options it prints a summary per
run (the dump, what was lost, the threads, the inversions). ``--stats`` prints the statistics
as text, ``--stats --json`` as JSON (an object, or a list of them for several runs);
``--perfetto OUT.json`` writes Trace Event Format JSON for ui.perfetto.dev (a process per
run); ``--html OUT.html`` writes the self-contained report (tacet.trace.report), one file per
run when there are several (OUT-run1.html ...). The format is docs/trace.md.
"""

import importlib
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from tacet.core.errors import TacetError
from tacet.trace.format import Trace, decode_runs


def load_runs(path: Path, run: int | None = None) -> list[Trace]:
    """The traces of the dump file ``path``: every run's, or the ``run``-th only."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise TacetError(f"cannot read the trace dump {path}: {error.strerror or error}") from None
    traces = decode_runs(data, str(path))
    if run is None:
        return traces
    if not 1 <= run <= len(traces):
        raise TacetError(
            f"--run {run}: {path} holds {len(traces)} "
            + ("trace (run 1)" if len(traces) == 1 else f"traces (runs 1 to {len(traces)})")
        )
    return [traces[run - 1]]


def lost_advice(analysis: dict[str, Any]) -> str | None:
    """What lost or cut events mean and what to do, or None when the trace is whole."""
    ev = analysis["events"]
    if not ev["lost"] and not ev.get("cut"):
        return None
    if ev.get("cut"):
        return (
            f"{ev['cut']:,} events are missing: the dump was cut short (a file copied or "
            "written only in part); the events it holds are shown"
        )
    how = (
        "the ring wrapped: the oldest were overwritten"
        if ev["wrapped"]
        else ("the buffer filled (stop mode): the last were dropped")
    )
    return (
        f"{ev['lost']:,} of {ev['recorded']:,} events lost ({how}); to keep the whole run, give "
        "a bigger buffer (tacet run --trace FILE --trace-size 8M, say) or keep the first events "
        "(--trace-mode stop)"
    )


def html_paths(out: Path, traces: list[Trace]) -> list[Path]:
    """Where each trace's report goes: OUT itself for one, OUT-run<N> for several."""
    if len(traces) == 1:
        return [out]
    return [out.with_name(f"{out.stem}-run{t.run}{out.suffix or '.html'}") for t in traces]


def write_text(path: Path, text: str, what: str) -> None:
    try:
        path.write_text(text)
    except OSError as error:
        raise TacetError(f"cannot write the {what} {path}: {error.strerror or error}") from None


def stats_dict(analysis: dict[str, Any]) -> dict[str, Any]:
    inversions = analysis["inversions"]
    stats = {
        "source": analysis["source"],
        "span": analysis["span"],
        "events": analysis["events"],
        "summary": analysis["summary"],
        "inversions": {
            "unbounded": sum(1 for i in inversions if not i["bounded"]),
            "bounded": sum(1 for i in inversions if i["bounded"]),
        },
    }
    if analysis.get("energy") is not None:
        stats["energy"] = analysis["energy"]
    return stats


def _mhz(hz: float) -> str:
    return f"{hz / 1e6:g} MHz"


def energy_lines(energy: dict[str, Any] | None) -> list[str]:
    """The energy of the trace's snapshot (analysis["energy"]) as text: the model, then a
    table of contexts, idle, the switch path and the total; nothing without a snapshot."""
    if energy is None:
        return []
    if energy.get("total") is None:
        return [f"energy: none ({energy['note']})"]
    points = ", ".join(f"{_mhz(p['hz'])} {p['millivolt'] / 1000:g} V" for p in energy["points"])
    used = ", ".join(_mhz(p["hz"]) for p in energy["points"] if p["cycles"])
    now = energy["points"][energy["point"]]
    lines = [
        f"energy: {energy['total']['joules'] * 1e6:.2f} uJ over {energy['total']['cycles']} "
        f"cycles (the kernel's books when tracing stopped; docs/energy.md's model)",
        f"energy_model: C_eff {energy['c_eff_farad']:.4g} F, P_static "
        f"{energy['p_static_watt']:.4g} W; points {points}"
        + (" (modelled: the port cannot change its clock)" if energy["modelled"] else ""),
        f"energy_points_used: {used or 'none'}; policy {energy['policy']}, at "
        f"{_mhz(now['hz'])} when the trace stopped, {energy['point_changes']} point changes",
        f"{'energy_table:':<22} {'kind':<9} {'cycles':>12} {'dynamic uJ':>12} "
        f"{'static uJ':>11} {'total uJ':>12} {'share':>7}",
    ]

    def row(name: str, kind: str, part: dict[str, Any]) -> str:
        return (
            f"  {name:<20} {kind:<9} {part['cycles']:>12} {part['dynamic_joules'] * 1e6:>12.2f} "
            f"{part['static_joules'] * 1e6:>11.2f} {part['joules'] * 1e6:>12.2f} "
            f"{part['share'] * 100:>6.1f}%"
        )

    for c in energy["contexts"]:
        lines.append(row(c["name"], c["kind"], c))
    for key, label in (("deleted_threads", "deleted threads"), ("deleted_hisrs", "deleted HISRs")):
        if energy[key]["cycles"]:
            lines.append(row(f"({label})", "", energy[key]))
    lines.append(row("idle", "idle", energy["idle"]))
    lines.append(row("switching", "switches", energy["switching"]))
    lines.append(row("total", "", energy["total"]))
    lines.append(
        f"energy_switching: {energy['context_switches']} context switches, "
        f"{energy['joules_per_switch'] * 1e6:.4f} uJ each, "
        f"{energy['switching']['share'] * 100:.1f}% of the energy"
    )
    return lines


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _times(times: dict[str, Any] | None) -> str:
    if times is None:
        return "-"
    return f"{times['avg']:.1f}/{times['max']:.1f}"


def run_title(trace: Trace) -> str:
    """Which run of the file ``trace`` is and its name ("run 1 of 2, case 1: threshold 4");
    "" for the only trace of a file, without a name."""
    if trace.runs == 1 and not trace.label:
        return ""
    return trace.title


def print_summary(console: Console, trace: Trace, analysis: dict[str, Any]) -> None:
    h = trace.header
    src = analysis["source"]
    ev = analysis["events"]
    s = analysis["summary"]
    mode = "stop" if h.stop_mode else "wrap"
    title = run_title(trace)
    console.print(
        f"{src['file']}{': ' + title if title else ''}: port {src['port']}, cpu {src['cpu']}, "
        f"{h.ptr_size * 8}-bit {h.endian}-endian, clock {src['clock_hz']} Hz "
        f"({src['clock_note']}), tick {src['tick_hz']} Hz",
        highlight=False,
        soft_wrap=True,
    )
    console.print(
        f"events: {ev['kept']} kept of {ev['recorded']} recorded, {ev['lost']} lost "
        f"({mode} mode, {h.events} slots); {len(trace.objects)} objects named",
        highlight=False,
    )
    for note in ev["notes"]:
        console.print(f"note: {note}", highlight=False, soft_wrap=True)
    advice = lost_advice(analysis)
    if advice:
        console.print(f"warning: {advice}", highlight=False, soft_wrap=True)
    console.print(
        f"span {s['duration_us']:.1f} us: {s['switches']} context switches, "
        f"{s['preemptions']} preemptions, {s['interrupts']} interrupts",
        highlight=False,
    )
    table = Table(title="threads (times in us; --stats for min and p99)")
    for column in ("thread", "run us", "share", "in", "preempted", "response avg/max",
                   "blocking avg/max"):  # fmt: skip
        table.add_column(column, justify="left" if column == "thread" else "right")
    for t in s["threads"]:
        table.add_row(
            t["name"],
            _ms(t["run_us"]),
            f"{t['share'] * 100:.1f}%",
            str(t["switches_in"]),
            str(t["preempted"]),
            _times(t["response_us"]),
            _times(t["blocking_us"]),
        )
    console.print(table)
    energy = analysis.get("energy")
    if energy is not None and energy.get("total") is not None:
        console.print(
            f"energy: {energy['total']['joules'] * 1e6:.2f} uJ: threads "
            f"{energy['threads']['share'] * 100:.1f}%, HISRs {energy['hisrs']['share'] * 100:.1f}%"
            f", idle {energy['idle']['share'] * 100:.1f}%, context switches "
            f"{energy['switching']['share'] * 100:.1f}% ({energy['joules_per_switch'] * 1e6:.4f} "
            "uJ each); --stats for the table",
            highlight=False,
        )
    elif energy is not None:
        console.print(f"energy: none ({energy['note']})", highlight=False)
    names = {c["id"]: c["name"] for c in analysis["contexts"]}
    inversions = analysis["inversions"]
    unbounded = sum(1 for i in inversions if not i["bounded"])
    console.print(
        f"priority inversions: {unbounded} unbounded, {len(inversions) - unbounded} bounded",
        highlight=False,
    )
    for i in inversions:
        console.print(
            f"  {'bounded  ' if i['bounded'] else 'UNBOUNDED'} {i['start_us']:.1f}.."
            f"{i['end_us']:.1f} us: {names[i['high']]} waits on {i['object']} held by "
            f"{names[i['low']]}; {names[i['medium']]} "
            + ("was held off" if i["bounded"] else f"ran {i['medium_run_us']:.1f} us"),
            highlight=False,
        )


def stats_text(analysis: dict[str, Any]) -> str:
    """The statistics as plain `key: value` text, one thread per block."""
    st = stats_dict(analysis)
    s = st["summary"]
    src = st["source"]
    lines = [
        f"file: {src['file']}",
        f"run: {src.get('run', 1)} of {src.get('runs', 1)}"
        + (f", {src['label']}" if src.get("label") else ""),
        f"clock_hz: {src['clock_hz']}",
        f"events: {st['events']['kept']} kept, {st['events']['recorded']} recorded, "
        f"{st['events']['lost']} lost" + (" (ring wrapped)" if st["events"]["wrapped"] else ""),
        f"duration_us: {s['duration_us']:.3f}",
        f"switches: {s['switches']}",
        f"preemptions: {s['preemptions']}",
        f"interrupts: {s['interrupts']}",
        f"inversions: {st['inversions']['unbounded']} unbounded, "
        f"{st['inversions']['bounded']} bounded",
    ]
    for note in st["events"]["notes"]:
        lines.append(f"note: {note}")
    for t in s["threads"]:
        lines.append(f"thread {t['name']} ({t['ctx']}):")
        lines.append(f"  run_us: {t['run_us']:.3f} ({t['share'] * 100:.1f}%)")
        lines.append(f"  switches_in: {t['switches_in']}, preempted: {t['preempted']}")
        if t.get("held") or t.get("deferred_us"):
            lines.append(
                f"  held_off: {t['held']} times by a threshold ({t['held_us']:.3f} us), "
                f"{t['deferred_us']:.3f} us by the scheduler lock"
            )
        for key in ("response_us", "blocking_us"):
            v = t[key]
            if v is None:
                lines.append(f"  {key}: none")
            else:
                lines.append(
                    f"  {key}: count {v['count']} min {v['min']:.3f} avg {v['avg']:.3f} "
                    f"max {v['max']:.3f} p99 {v['p99']:.3f}"
                )
    lines += energy_lines(analysis.get("energy"))
    return "\n".join(lines)


def write_reports(traces: list[Trace], analyses: list[dict[str, Any]], out: Path) -> list[Path]:
    """The HTML report of each trace (one file per run, linked to each other); their paths."""
    try:
        report = importlib.import_module("tacet.trace.report")
    except ImportError:
        raise TacetError("--html: not built yet (tacet.trace.report is missing)") from None
    paths = html_paths(out, traces)
    siblings = [
        {"run": t.run, "label": t.label, "href": path.name}
        for t, path in zip(traces, paths, strict=True)
    ]
    for analysis, path in zip(analyses, paths, strict=True):
        report.write_html(analysis, path, siblings if len(paths) > 1 else None)
    return paths


def print_written(
    status: Console, traces: list[Trace], analyses: list[dict[str, Any]], reports: list[Path]
) -> None:
    """What was written, and each run's events: kept, recorded, lost, and what to do."""
    for trace, path in zip(traces, reports, strict=False):  # no reports: --perfetto alone
        title = run_title(trace)
        status.print(f"wrote {path}" + (f" ({title})" if title else ""), soft_wrap=True)
    for trace, analysis in zip(traces, analyses, strict=True):
        ev = analysis["events"]
        title = run_title(trace) or "the trace"
        status.print(
            f"{title}: {ev['kept']:,} events kept of {ev['recorded']:,} recorded, "
            f"{ev['lost']:,} lost" + (f", {ev['cut']:,} cut off" if ev.get("cut") else ""),
            soft_wrap=True,
        )
        advice = lost_advice(analysis)
        if advice:
            status.print(f"warning: {title}: {advice}", soft_wrap=True)
