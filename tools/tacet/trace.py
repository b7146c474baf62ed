# SPDX-License-Identifier: MIT
"""``tacet trace DUMP``: decode a kernel trace dump, summarise it, export it.

Without options it prints a summary (the dump, what was lost, the threads, the inversions).
``--stats`` prints the statistics as text, ``--stats --json`` as JSON; ``--perfetto OUT.json``
writes Trace Event Format JSON for ui.perfetto.dev; ``--html OUT.html`` writes the
self-contained report (tacet.trace_report). The format is docs/trace.md.
"""

import argparse
import importlib
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from tacet.errors import TacetError
from tacet.trace_analysis import analyze
from tacet.trace_perfetto import perfetto
from tacet.tracefmt import Trace, decode


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "trace",
        help="decode a kernel trace dump: summary, statistics, Perfetto JSON, HTML report",
        description="Decode DUMP (written by `tacet run --trace` or a target's semihosting "
        "dump) and print a summary; export it for ui.perfetto.dev or as an HTML report.",
    )
    parser.add_argument("dump", metavar="DUMP", type=Path, help="the trace dump (.tctrace)")
    parser.add_argument(
        "--stats", action="store_true", help="print the statistics (per thread, inversions)"
    )
    parser.add_argument("--json", action="store_true", help="with --stats: print them as JSON")
    parser.add_argument(
        "--perfetto",
        type=Path,
        metavar="OUT.json",
        help="write Chrome Trace Event Format JSON (open it in ui.perfetto.dev)",
    )
    parser.add_argument(
        "--html", type=Path, metavar="OUT.html", help="write the self-contained HTML report"
    )
    parser.set_defaults(handler=handle, parser=parser)


def load(path: Path) -> Trace:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise TacetError(f"cannot read the trace dump {path}: {error.strerror or error}") from None
    return decode(data, str(path))


def _write(path: Path, text: str, what: str) -> None:
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


def print_summary(console: Console, trace: Trace, analysis: dict[str, Any]) -> None:
    h = trace.header
    src = analysis["source"]
    ev = analysis["events"]
    s = analysis["summary"]
    mode = "stop" if h.stop_mode else "wrap"
    console.print(
        f"{src['file']}: port {src['port']}, cpu {src['cpu']}, {h.ptr_size * 8}-bit "
        f"{h.endian}-endian, clock {src['clock_hz']} Hz ({src['clock_note']}), tick "
        f"{src['tick_hz']} Hz",
        highlight=False,
    )
    console.print(
        f"events: {ev['kept']} kept of {ev['recorded']} recorded, {ev['lost']} lost "
        f"({mode} mode, {h.events} slots); {len(trace.objects)} objects named",
        highlight=False,
    )
    for note in ev["notes"]:
        console.print(f"note: {note}", highlight=False)
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


def print_stats(analysis: dict[str, Any]) -> None:
    """The statistics as plain `key: value` text, one thread per block."""
    st = stats_dict(analysis)
    s = st["summary"]
    lines = [
        f"file: {st['source']['file']}",
        f"clock_hz: {st['source']['clock_hz']}",
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
    print("\n".join(lines))


def handle(args: argparse.Namespace) -> int:
    if args.json and not args.stats:
        args.parser.error("--json goes with --stats")
    trace = load(args.dump)
    analysis = analyze(trace, str(args.dump))
    console = Console(highlight=False)
    status = Console(stderr=True, highlight=False)
    if args.perfetto is not None:
        text = json.dumps(perfetto(trace, analysis), separators=(",", ":"))
        _write(args.perfetto, text, "Perfetto JSON")
    if args.html is not None:
        try:
            report = importlib.import_module("tacet.trace_report")
        except ImportError:
            raise TacetError("--html: not built yet (tacet.trace_report is missing)") from None
        report.write_html(analysis, args.html)
    if args.stats and args.json:
        print(json.dumps(stats_dict(analysis), indent=2))
    elif args.stats:
        print_stats(analysis)
    elif args.perfetto is None and args.html is None:
        print_summary(console, trace, analysis)
    if args.perfetto is not None:
        status.print(f"wrote {args.perfetto} (open it in https://ui.perfetto.dev)")
    if args.html is not None:
        status.print(f"wrote {args.html}")
    return 0
