# SPDX-License-Identifier: MIT
"""The HTML trace report: one self-contained file from the analysis dict of a trace.

``write_html(analysis, path)`` takes the dict ``tacet.trace.analysis.analyze`` returns (see
docs/trace-report.md) and writes one HTML file that opens in any browser offline: its styles,
script, data and charts are inlined and it names no external URL. It opens on the threads'
CPU share over the whole trace and the switches (what a Tracealyzer or SystemView user looks
at first), then the per-context timeline with an interrupt lane and service-call marks, and
the event list; below, the statistics, inversions and charts. The interactive parts are a
small script (templates/trace_report/report.js) that draws from compact JSON only what is on
screen; the static charts are matplotlib figures rendered to inline SVG.

``python -m tacet.trace.report INPUT --html OUT.html --screenshot OUT.png`` writes the report
and a PNG of its first screen taken by headless chromium (the README's picture); INPUT is the
analysis dict as JSON, a trace dump, or a report already written (see docs/trace-report.md).
"""

from __future__ import annotations

import argparse
import html
import io
import json
import math
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from tacet.core.errors import TacetError

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from selenium.webdriver import Chrome

# The analysis dicts this report reads: schema 2 adds the states "held" and "deferred", the
# event list, the CPU share and switch rate per bin (schema 1 has none of them: shown empty).
SCHEMAS = (1, 2)

STATES = ("running", "ready", "preempted", "held", "deferred", "blocked", "sleeping", "suspended")
# Running stands out; the ways of waiting for the CPU are warm (held off by the running
# thread: raspberry for its threshold, brown for its scheduler lock), the ways of waiting for
# something else cool.
STATE_COLOURS = {
    "running": "#2e9d4a",
    "ready": "#f2c14e",
    "preempted": "#e8833a",
    "held": "#d6457f",
    "deferred": "#8c564b",
    "blocked": "#8e6cc4",
    "sleeping": "#8fb3d9",
    "suspended": "#a0a0a0",
    "idle": "#c5d6c8",
    "isr": "#30343a",
}
STATE_LABELS = {
    "held": "held off by a threshold",
    "deferred": "held off by the scheduler lock",
    "isr": "interrupt handler",
    "idle": "idle",
}
# The threads' own colours in the CPU share chart and on their lane's label (Tableau 10).
THREAD_COLOURS = (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
)  # fmt: skip
IDLE_COLOUR = "#e4e8eb"
ISR_COLOUR = "#30343a"
UNBOUNDED_COLOUR = "#d62728"
BOUNDED_COLOUR = "#ff9f1c"
HIST_BINS = 30
# Step series longer than this are drawn as a min/max envelope over this many bins.
MAX_SERIES_POINTS = 2000
# User events listed in the table (all are counted).
MAX_USER_EVENTS = 200
EVENT_KINDS = ("switch", "ready", "block", "service", "isr", "user", "kernel")


def write_html(analysis: dict, path: Path, runs: Sequence[dict] | None = None) -> None:
    """Write the report of ``analysis`` (the analysis dict) to ``path``; ``runs`` lists the
    reports of the other runs of the same file (``run``, ``label``, ``href``), linked from it."""
    text = render_html(analysis, runs)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise TacetError(f"{path}: cannot write the report: {error.strerror}") from None


def render_html(analysis: dict, runs: Sequence[dict] | None = None) -> str:
    """The report of ``analysis`` as one HTML document."""
    report = _Report(analysis, runs or ())
    return report.render()


# --- reading the analysis dict ---------------------------------------------------------------


def _fail(where: str, what: str) -> TacetError:
    return TacetError(f"analysis: {where}: {what}")


def _num(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _fail(where, f"expected a finite number, got {value!r}")
    return float(value)


def _opt_num(value: object, where: str) -> float | None:
    return None if value is None else _num(value, where)


def _list(value: object, where: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _fail(where, f"expected a list, got {type(value).__name__}")
    return value


def _dict(value: object, where: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _fail(where, f"expected an object, got {type(value).__name__}")
    return value


def _text(value: object) -> str:
    return "" if value is None else str(value)


class _Report:
    """The analysis dict checked and indexed for rendering."""

    def __init__(self, analysis: object, runs: Sequence[dict] = ()) -> None:
        if not isinstance(analysis, dict):
            raise TacetError(f"analysis: expected an object, got {type(analysis).__name__}")
        schema = analysis.get("schema")
        if schema not in SCHEMAS:
            raise _fail("schema", f"expected {' or '.join(map(str, SCHEMAS))}, got {schema!r}")
        self.a = analysis
        self.runs = list(runs)
        self.source = _dict(analysis.get("source"), "source")
        span = _dict(analysis.get("span"), "span")
        self.t0 = _num(span.get("start_us", 0.0), "span.start_us")
        self.t1 = _num(span.get("end_us", self.t0), "span.end_us")
        if self.t1 < self.t0:
            raise _fail("span", f"end_us {self.t1} is before start_us {self.t0}")
        self.duration = self.t1 - self.t0
        self.events = _dict(analysis.get("events"), "events")
        self.contexts: list[dict] = []
        self.index: dict[str, int] = {}
        for n, raw in enumerate(_list(analysis.get("contexts"), "contexts")):
            ctx = _dict(raw, f"contexts[{n}]")
            self._add_context(
                _text(ctx.get("id")),
                _text(ctx.get("name")) or _text(ctx.get("id")),
                _text(ctx.get("kind")) or "thread",
                ctx.get("priority"),
                ctx.get("threshold"),
            )
        self.slices = [
            self._slice(s, n) for n, s in enumerate(_list(analysis.get("slices"), "slices"))
        ]
        self.inversions = [
            self._inversion(v, n)
            for n, v in enumerate(_list(analysis.get("inversions"), "inversions"))
        ]
        self.summary = _dict(analysis.get("summary"), "summary")
        self.counters = _dict(analysis.get("counters"), "counters")
        self.isr = [self._isr(v, n) for n, v in enumerate(_list(analysis.get("isr_slices"), "isr"))]
        self.log = [
            self._logged(v, n) for n, v in enumerate(_list(analysis.get("event_log"), "event_log"))
        ]
        self.colours = self._colours()

    def _add_context(
        self, ident: str, name: str, kind: str, priority: object, threshold: object
    ) -> int:
        self.index[ident] = len(self.contexts)
        self.contexts.append(
            {
                "id": ident,
                "name": name,
                "kind": kind,
                "priority": priority if isinstance(priority, int) else None,
                "threshold": threshold if isinstance(threshold, int) else None,
            }
        )
        return self.index[ident]

    def lane(self, ident: object) -> int:
        """The lane of context ``ident``; one the contexts did not list gets a lane too."""
        key = _text(ident)
        if key not in self.index:
            self._add_context(key, key or "?", "unknown", None, None)
        return self.index[key]

    def name(self, ident: object) -> str:
        key = _text(ident)
        return self.contexts[self.index[key]]["name"] if key in self.index else key

    def _colours(self) -> list[str]:
        """Each context's own colour: threads and HISRs in turn from the palette, idle grey."""
        out, n = [], 0
        for c in self.contexts:
            if c["kind"] == "idle":
                out.append(IDLE_COLOUR)
            else:
                out.append(THREAD_COLOURS[n % len(THREAD_COLOURS)])
                n += 1
        return out

    def _slice(self, raw: object, n: int) -> tuple:
        where = f"slices[{n}]"
        s = _dict(raw, where)
        start = _num(s.get("start_us"), f"{where}.start_us")
        end = _num(s.get("end_us"), f"{where}.end_us")
        if end < start:
            raise _fail(where, f"end_us {end} is before start_us {start}")
        state = _text(s.get("state"))
        if state not in STATES:
            raise _fail(f"{where}.state", f"expected one of {', '.join(STATES)}, got {state!r}")
        obj = s.get("object")
        kind = s.get("object_kind")
        holder = s.get("held_by")
        return (
            self.lane(s.get("ctx")),
            start,
            end,
            state,
            None if obj is None else (f"{kind} {obj}" if kind else str(obj)),
            s.get("priority"),
            s.get("threshold"),
            -1 if holder is None else self.lane(holder),
        )

    def _inversion(self, raw: object, n: int) -> dict:
        where = f"inversions[{n}]"
        v = _dict(raw, where)
        start = _num(v.get("start_us"), f"{where}.start_us")
        end = _num(v.get("end_us"), f"{where}.end_us")
        if end < start:
            raise _fail(where, f"end_us {end} is before start_us {start}")
        return {
            "start": start,
            "end": end,
            "high": self.lane(v.get("high")),
            "medium": self.lane(v.get("medium")),
            "low": self.lane(v.get("low")),
            "object": _text(v.get("object")),
            "bounded": bool(v.get("bounded")),
        }

    def _isr(self, raw: object, n: int) -> tuple[float, float, int]:
        where = f"isr_slices[{n}]"
        v = _dict(raw, where)
        start = _num(v.get("start_us"), f"{where}.start_us")
        end = _num(v.get("end_us"), f"{where}.end_us")
        if end < start:
            raise _fail(where, f"end_us {end} is before start_us {start}")
        return start, end, int(_num(v.get("irq", 0), f"{where}.irq"))

    def _logged(self, raw: object, n: int) -> tuple[float, int, int, str, str, str]:
        where = f"event_log[{n}]"
        v = _dict(raw, where)
        kind = _text(v.get("kind"))
        if kind not in EVENT_KINDS:
            raise _fail(f"{where}.kind", f"expected one of {', '.join(EVENT_KINDS)}, got {kind!r}")
        return (
            _num(v.get("t_us"), f"{where}.t_us"),
            self.lane(v.get("ctx")),
            int(_num(v.get("irq", 0), f"{where}.irq")),
            kind,
            _text(v.get("event")),
            _text(v.get("text")),
        )

    # --- the document ------------------------------------------------------------------------

    def title(self) -> str:
        """The file, which run of it and the trace's name ("run.tctrace, run 2 of 2: case 2:
        threshold 1")."""
        src = self.source
        name = Path(_text(src.get("file")) or "trace").name
        runs = src.get("runs") or 1
        label = _text(src.get("label"))
        if isinstance(runs, int) and runs > 1:
            name += f", run {src.get('run')} of {runs}"
        return f"{name}: {label}" if label else name

    def render(self) -> str:
        data = self._data_json()
        with _svg_settings():
            sections = [
                self._overview_section(),
                self._timeline_section(data),
                self._event_section(),
                self._summary_section(),
                self._inversion_section(),
                self._load_section(),
                self._preemption_section(),
                self._histogram_section(),
                self._energy_section(),
                self._user_event_section(),
            ]
        title = f"Tacet trace: {self.title()}"
        state_css = "\n".join(
            f".s-{state}{{fill:{colour}}} .sw-{state}{{background:{colour}}}"
            for state, colour in STATE_COLOURS.items()
        )
        return (
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            # The page may load nothing: a slip that adds a URL fails in the browser.
            '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
            "script-src 'unsafe-inline'; style-src 'unsafe-inline'\">\n"
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{_e(title)}</title>\n<style>\n{_asset('report.css')}\n{state_css}\n"
            f".inv-u{{fill:{UNBOUNDED_COLOUR}}} .inv-b{{fill:{BOUNDED_COLOUR}}}\n</style>\n"
            "</head>\n<body>\n"
            f"<header><h1>{_e(title)}</h1>\n{self._source_line()}\n{self._nav()}</header>\n"
            "<main>\n" + "\n".join(sections) + "\n</main>\n"
            '<div id="tooltip" role="tooltip" hidden></div>\n'
            f"<script>\n{_asset('report.js')}\n</script>\n"
            "</body>\n</html>\n"
        )

    def _clock(self) -> str:
        """The clock the times count in: the rate over the span (the operating point's, when
        the port's clock follows it), the header's note in the tooltip."""
        src = self.source
        rates = [r for r in _list(src.get("clock_rates"), "source.clock_rates")]
        hz = sorted({_num(r[1], "source.clock_rates") for r in rates if isinstance(r, list)})
        if not hz:
            hz = [src.get("clock_hz")] if src.get("clock_hz") else []
        shown = " to ".join(_hz(h) for h in (hz[:1] + hz[-1:] if len(hz) > 1 else hz)) or "?"
        extra = ""
        if src.get("port") == "cortex-m":
            extra = " (QEMU -icount: a unit is one instruction)"
        elif len(hz) > 1:
            extra = " (follows the operating point)"
        elif src.get("clock_hz") and hz and hz[0] != src.get("clock_hz"):
            extra = " (the operating point's)"
        note = _text(src.get("clock_note"))
        return f'<span class="clock" title="{_e(note)}">clock {shown}{_e(extra)}</span>'

    def _source_line(self) -> str:
        src = self.source
        ev = self.events
        recorded, kept, lost = ev.get("recorded", 0), ev.get("kept", 0), ev.get("lost", 0)
        cut = ev.get("cut", 0) or 0
        parts = [
            f"port {_e(src.get('port') or '?')} ({_e(src.get('cpu') or '?')})",
            self._clock(),
            f"tick {_hz(src.get('tick_hz'))}",
            f"{_fmt_us(self.duration)}",
            f"{_int(kept)} events"
            + (", none lost" if not lost and not cut else f" kept of {_int(recorded)} recorded"),
        ]
        line = f'<p class="meta">{" · ".join(parts)}</p>'
        if self.runs:
            links = []
            for r in self.runs:
                label = f"run {_int(r.get('run'))}" + (f": {r['label']}" if r.get("label") else "")
                if r.get("run") == src.get("run"):
                    links.append(f'<b aria-current="page">{_e(label)}</b>')
                else:
                    links.append(f'<a href="{_e(r.get("href"))}">{_e(label)}</a>')
            line += (
                '<p class="runs">This file holds one trace per kernel run of the program: '
                + " · ".join(links)
                + "</p>"
            )
        warn = ""
        if lost:
            why = (
                "the ring wrapped: the oldest were overwritten, the report starts at the oldest "
                "event kept"
                if ev.get("wrapped")
                else "the buffer filled: the last were dropped, the report ends there"
            )
            warn += (
                f'<div class="warn" id="lost">{_int(lost)} of {_int(recorded)} events lost '
                f"({why}). To trace the whole run, give a bigger buffer (<code>tacet run "
                "--trace FILE --trace-size 8M</code>) or keep the first events "
                "(<code>--trace-mode stop</code>).</div>"
            )
        if cut:
            warn += (
                f'<div class="warn" id="cut">The dump is cut short: {_int(cut)} events are '
                "missing from its end; the events it holds are shown.</div>"
            )
        # What the decoder or the analysis had to say about this dump, word for word.
        notes = [_text(n) for n in _list(ev.get("notes"), "events.notes")]
        if notes:
            warn += '<ul class="notes">' + "".join(f"<li>{_e(n)}</li>" for n in notes)
            warn += "</ul>"
        return line + warn

    def _threads(self) -> list[dict]:
        return [
            _dict(t, f"summary.threads[{n}]")
            for n, t in enumerate(_list(self.summary.get("threads"), "summary.threads"))
        ]

    # --- the overview: CPU share per thread, switches --------------------------------------

    def _overview_section(self) -> str:
        """The CPU share per thread over the whole trace and the switches per bin (drawn by
        the script); its legend gives each one's share of the span as the chart draws it:
        the interrupt handlers apart from the contexts they interrupted."""
        shares = self._shares()
        keys = []
        for lane, share in shares:
            ctx = self.contexts[lane]
            kind = " (HISR)" if ctx["kind"] == "hisr" else ""
            colour = IDLE_COLOUR if ctx["kind"] == "idle" else self.colours[lane]
            keys.append(
                f'<span class="key" data-lane="{lane}"><span class="sw" style="background:'
                f'{colour}"></span>{_e(ctx["name"])}{kind} {100 * share:.1f} %</span>'
            )
        keys.append(
            f'<span class="key"><span class="sw" style="background:{ISR_COLOUR}"></span>'
            f"interrupts {100 * self._isr_share():.1f} %</span>"
        )
        s = self.summary
        switches, preemptions = _int(s.get("switches", 0)), _int(s.get("preemptions", 0))
        return (
            '<section id="overview"><h2>CPU share per thread over the whole trace</h2>\n'
            f'<div class="legend" id="ov-legend">{" ".join(keys)}</div>\n'
            '<div id="ov-box"><svg id="ov-svg" role="img" aria-label="CPU share per thread and '
            'context switches over time"></svg></div>\n'
            f'<p class="hint">{switches} context switches, {preemptions} preemptions · the '
            "interrupt handlers' time is counted apart from the threads they interrupted · "
            "drag across the chart to show that stretch in the timeline below, click to centre "
            "it there, double-click for the whole trace; the shaded box is the timeline's "
            "view.</p></section>"
        )

    def _shares(self) -> list[tuple[int, float]]:
        """Each context's share of the span as the CPU-share chart draws it (the mean of its
        bins), in the chart's order; the threads' summary shares when there is no chart."""
        share = _dict(self.counters.get("cpu_share"), "counters.cpu_share")
        rows = _list(share.get("share"), "counters.cpu_share.share")
        ctxs = _list(share.get("ctx"), "counters.cpu_share.ctx")
        if rows and len(rows) == len(ctxs):
            out = []
            for ctx, row in zip(ctxs, rows, strict=True):
                values = [_num(v, "counters.cpu_share.share") for v in _list(row, "share")]
                out.append((self.lane(ctx), sum(values) / len(values) if values else 0.0))
            return out
        return [
            (self.lane(t.get("ctx")), _num(t.get("share", 0.0), f"summary.threads[{n}].share"))
            for n, t in enumerate(self._threads())
        ]

    def _isr_share(self) -> float:
        """The interrupt handlers' share of the span (their time, nested ones once)."""
        share = _dict(self.counters.get("cpu_share"), "counters.cpu_share")
        values = [_num(v, "counters.cpu_share.isr") for v in _list(share.get("isr"), "isr")]
        if values:
            return sum(values) / len(values)
        if self.duration <= 0:
            return 0.0
        return min(1.0, sum(b - a for a, b, _ in self.isr) / self.duration)

    # --- the timeline ------------------------------------------------------------------------

    def _data_json(self) -> str:
        """The page's data: per lane a flat list of (start, length, state, object, priority,
        threshold, holder) from the trace's start, in µs rounded to the nanosecond; the
        interrupt handlers, the inversions, the CPU share and switch rate per bin, and the
        event list (its sentences in a table, each event an index into it)."""
        objects: dict[str, int] = {}
        state_index = {state: n for n, state in enumerate(STATES)}
        per_lane: list[list[tuple]] = [[] for _ in self.contexts]
        for sl in self.slices:
            per_lane[sl[0]].append(sl)
        lanes: list[list[float | int]] = [[] for _ in self.contexts]
        for lane, items in enumerate(per_lane):
            items.sort(key=lambda s: s[1])
            flat = lanes[lane]
            for _, start, end, state, obj, prio, thr, holder in items:
                o = -1 if obj is None else objects.setdefault(obj, len(objects))
                flat += [
                    _compact(start - self.t0),
                    _compact(end - start),
                    state_index[state],
                    o,
                    prio if isinstance(prio, int) else -1,
                    thr if isinstance(thr, int) else -1,
                    holder,
                ]
        isr: list[float | int] = []
        for a, b, irq in sorted(self.isr):
            isr += [_compact(a - self.t0), _compact(b - a), irq]
        inversions = [
            [
                _compact(v["start"] - self.t0),
                _compact(v["end"] - self.t0),
                v["high"],
                v["medium"],
                v["low"],
                1 if v["bounded"] else 0,
                v["object"],
            ]
            for v in self.inversions
        ]
        data = {
            "duration": _compact(self.duration),
            "states": list(STATES),
            "labels": STATE_LABELS,
            "objects": list(objects),
            "lanes": [
                {
                    "name": c["name"],
                    "id": c["id"],
                    "kind": c["kind"],
                    "prio": c["priority"],
                    "thr": c["threshold"],
                    "colour": self.colours[n],
                    "s": lanes[n],
                }
                for n, c in enumerate(self.contexts)
            ],
            "isr": isr,
            "inv": inversions,
            "share": self._share_data(),
            "events": self._event_data(),
        }
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        # Inside <script> no "</" may appear: escape what HTML would read.
        return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")

    def _share_data(self) -> dict | None:
        share = _dict(self.counters.get("cpu_share"), "counters.cpu_share")
        if not share:
            return None
        ctxs = _list(share.get("ctx"), "counters.cpu_share.ctx")
        rows = _list(share.get("share"), "counters.cpu_share.share")
        if len(rows) != len(ctxs):
            raise _fail("counters.cpu_share.share", f"expected {len(ctxs)} rows, got {len(rows)}")
        rate = _dict(self.counters.get("switch_rate"), "counters.switch_rate")
        start = _num(share.get("start_us"), "counters.cpu_share.start_us")
        return {
            "start": _compact(start - self.t0),
            "width": _num(share.get("width_us"), "counters.cpu_share.width_us"),
            "rows": [
                {
                    "lane": self.lane(ctx),
                    "v": [
                        round(_num(x, f"counters.cpu_share.share[{n}]"), 4)
                        for x in _list(row, "counters.cpu_share.share")
                    ],
                }
                for n, (ctx, row) in enumerate(zip(ctxs, rows, strict=True))
            ],
            "isr": [
                round(_num(x, "counters.cpu_share.isr"), 4) for x in _list(share.get("isr"), "isr")
            ],
            "switches": [int(_num(x, "switch_rate")) for x in _list(rate.get("switches"), "sw")],
            "preemptions": [
                int(_num(x, "switch_rate")) for x in _list(rate.get("preemptions"), "pre")
            ],
        }

    def _event_data(self) -> dict:
        """The event list, by column: times, lanes, interrupt numbers, kinds, names and
        sentences as indexes into tables of the distinct ones (most repeat)."""
        names: dict[str, int] = {}
        texts: dict[str, int] = {}
        columns: dict[str, list] = {"t": [], "lane": [], "irq": [], "kind": [], "name": [], "x": []}
        kinds = {k: n for n, k in enumerate(EVENT_KINDS)}
        for t, lane, irq, kind, name, text in sorted(self.log, key=lambda e: e[0]):
            columns["t"].append(_compact(t - self.t0))
            columns["lane"].append(lane)
            columns["irq"].append(irq)
            columns["kind"].append(kinds[kind])
            columns["name"].append(names.setdefault(name, len(names)))
            columns["x"].append(texts.setdefault(text, len(texts)))
        return {**columns, "kinds": list(EVENT_KINDS), "names": list(names), "texts": list(texts)}

    def _timeline_section(self, data: str) -> str:
        legend = "".join(
            f'<span class="key"><span class="sw sw-{state}"></span>'
            f"{_e(STATE_LABELS.get(state, state))}</span>"
            for state in (*STATES, "idle", "isr")
        )
        legend += (
            '<span class="key"><span class="sw sw-svc"></span>service call</span>'
            '<span class="key"><span class="sw sw-svc-err"></span>failed call</span>'
            '<span class="key"><span class="sw" style="background:'
            f'{UNBOUNDED_COLOUR}"></span>unbounded inversion</span>'
            '<span class="key"><span class="sw" style="background:'
            f'{BOUNDED_COLOUR}"></span>bounded inversion</span>'
        )
        return (
            '<section id="timeline"><h2>Timeline</h2>\n'
            '<div class="controls"><button type="button" id="tl-in">Zoom in</button>'
            '<button type="button" id="tl-out">Zoom out</button>'
            '<button type="button" id="tl-left">&larr;</button>'
            '<button type="button" id="tl-right">&rarr;</button>'
            '<button type="button" id="tl-reset">Whole trace</button>'
            '<span id="tl-range"></span></div>\n'
            '<div id="tl-box"><svg id="tl-svg" role="img" aria-label="per-thread timeline">'
            "</svg></div>\n"
            f'<div class="legend">{legend}</div>\n'
            '<p class="hint">Wheel: zoom at the pointer · drag: pan · hover for details. A '
            "lane's green height is the share of each pixel's time the context ran; the strip "
            "over it, how it waited. Ticks along a lane's top are its service calls.</p>\n"
            f'<script type="application/json" id="tl-data">{data}</script></section>'
        )

    def _event_section(self) -> str:
        options = "".join(
            f'<option value="{k}">{label}</option>'
            for k, label in (
                ("", "every kind"),
                ("switch", "switches"),
                ("ready", "made ready"),
                ("block", "waits"),
                ("service", "service calls"),
                ("isr", "interrupts"),
                ("user", "user events"),
                ("kernel", "other kernel events"),
            )
        )
        return (
            '<section id="events"><h2>Events</h2>\n'
            '<div class="controls ev-controls"><input type="search" id="ev-filter" '
            'placeholder="filter: a thread, an object, a service, a status ..." '
            'aria-label="filter the events"><select id="ev-kind" aria-label="kind of event">'
            f'{options}</select><label><input type="checkbox" id="ev-window" checked> only '
            'the timeline\'s view</label><span id="ev-count"></span></div>\n'
            '<div id="ev-head" class="ev-row ev-head"><span>Time</span><span>Context</span>'
            "<span>Event</span><span>What happened</span></div>\n"
            '<div id="ev-list" tabindex="0" role="list" aria-label="events"><div id="ev-space">'
            "</div></div>\n"
            '<p class="hint">Click an event to mark it in the timeline.</p></section>'
        )

    def _summary_section(self) -> str:
        s = self.summary
        totals = [
            ("Duration", _fmt_us(_num(s.get("duration_us", self.duration), "summary.duration_us"))),
            ("Context switches", _int(s.get("switches", 0))),
            ("Preemptions", _int(s.get("preemptions", 0))),
            ("Interrupts", _int(s.get("interrupts", 0))),
            ("Priority inversions", self._inversion_counts()),
        ]
        rows = []
        for n, t in enumerate(self._threads()):
            where = f"summary.threads[{n}]"
            lane = self.lane(t.get("ctx"))
            ctx = self.contexts[lane]
            share = 100 * _num(t.get("share", 0.0), where + ".share")
            kind = ' <span class="muted">HISR</span>' if ctx["kind"] == "hisr" else ""
            held = t.get("held")
            held_cell = "\u2013"
            if held or t.get("deferred_us"):
                held_cell = (
                    f"{_int(held or 0)} \u00d7, {_fmt_us(_num(t.get('held_us', 0.0), where))}"
                )
                if t.get("deferred_us"):
                    held_cell += f" + {_fmt_us(_num(t['deferred_us'], where))} lock"
            cells = [
                f'<th scope="row"><span class="sw" style="background:{self.colours[lane]}">'
                f"</span>{_e(t.get('name') or ctx['name'])}{kind}</th>",
                f"<td class=n>{_opt_int(ctx['priority'])} / {_opt_int(ctx['threshold'])}</td>",
                f"<td class=n>{_fmt_us(_num(t.get('run_us', 0.0), where + '.run_us'))}</td>",
                f'<td class="n share"><span class="bar" style="width:{min(share, 100):.1f}%">'
                f"</span>{share:.1f} %</td>",
                f"<td class=n>{_int(t.get('switches_in', 0))}</td>",
                f"<td class=n>{_int(t.get('preempted', 0))}</td>",
                f"<td class=n>{held_cell}</td>",
                *_stat_cells(t.get("response_us"), where + ".response_us"),
                *_stat_cells(t.get("blocking_us"), where + ".blocking_us"),
            ]
            rows.append("<tr>" + "".join(cells) + "</tr>")
        if not rows:
            rows.append('<tr><td colspan="15" class="none">No threads in this trace.</td></tr>')
        stat_heads = "".join(f"<th>{h}</th>" for h in ("n", "avg", "p99", "max"))
        return (
            '<section id="summary"><h2>Summary</h2>\n<table class="totals"><tbody>'
            + "".join(f"<tr><th scope=row>{k}</th><td>{v}</td></tr>" for k, v in totals)
            + "</tbody></table>\n"
            '<table id="summary-table" class="grid"><thead><tr>'
            "<th rowspan=2>Thread</th><th rowspan=2>Priority / threshold</th>"
            "<th rowspan=2>Run time</th><th rowspan=2>Share</th>"
            "<th rowspan=2>Switched in</th><th rowspan=2>Preempted</th>"
            "<th rowspan=2 title=\"times made ready and held off by the running thread's "
            'preemption threshold, and how long; and by its scheduler lock">Held off</th>'
            "<th colspan=4>Response time</th><th colspan=4>Blocking time</th></tr>"
            f"<tr>{stat_heads}{stat_heads}</tr></thead>\n<tbody>"
            + "\n".join(rows)
            + "</tbody></table></section>"
        )

    def _inversion_counts(self) -> str:
        unbounded = sum(1 for v in self.inversions if not v["bounded"])
        bounded = len(self.inversions) - unbounded
        return f"{len(self.inversions)} ({unbounded} unbounded, {bounded} bounded)"

    def _inversion_section(self) -> str:
        parts = ['<section id="inversions"><h2>Priority inversions</h2>']
        parts.append(
            "<p>A thread waits on a mutex or semaphore held by a lower-priority thread while a "
            "thread of intermediate priority runs. Bounded: the holder ran at an inherited "
            "priority throughout. Click a row to see it in the timeline.</p>"
        )
        if not self.inversions:
            parts.append('<p class="none" id="no-inversions">No priority inversions found.</p>')
        order = sorted(range(len(self.inversions)), key=lambda k: self.inversions[k]["start"])
        for bounded, label in ((False, "Unbounded"), (True, "Bounded")):
            keys = [k for k in order if self.inversions[k]["bounded"] == bounded]
            if not keys:
                continue
            kind = "bounded" if bounded else "unbounded"
            ctxs = self.contexts
            rows = []
            for k in keys:
                v = self.inversions[k]
                rows.append(
                    f'<tr class="inversion {kind}" data-k="{k}" tabindex="0">'
                    f'<td><a href="#timeline" data-k="{k}">{_fmt_us(v["start"] - self.t0)}</a>'
                    f"</td><td class=n>{_fmt_us(v['end'] - self.t0)}</td>"
                    f"<td class=n>{_fmt_us(v['end'] - v['start'])}</td>"
                    f"<td>{_e(ctxs[v['high']]['name'])}</td>"
                    f"<td>{_e(ctxs[v['medium']]['name'])}</td>"
                    f"<td>{_e(ctxs[v['low']]['name'])}</td>"
                    f"<td>{_e(v['object'])}</td></tr>"
                )
            parts.append(
                f'<h3>{label} ({len(keys)})</h3><table id="inversions-{kind}" '
                'class="grid inv-table"><thead><tr><th>Start</th><th>End</th><th>Length</th>'
                "<th>High (waits)</th><th>Medium (runs)</th><th>Low (holds)</th><th>Object</th>"
                "</tr></thead><tbody>" + "\n".join(rows) + "</tbody></table>"
            )
        parts.append("</section>")
        return "\n".join(parts)

    # --- the charts --------------------------------------------------------------------------

    def _unit(self) -> tuple[float, str]:
        """A time unit for the charts' axes that keeps their numbers short."""
        if self.duration >= 2e6:
            return 1e6, "s"
        if self.duration >= 2e3:
            return 1e3, "ms"
        return 1.0, "µs"

    def _series(self, name: str) -> list[tuple[float, float]]:
        points = []
        for n, p in enumerate(_list(self.counters.get(name), f"counters.{name}")):
            where = f"counters.{name}[{n}]"
            if not isinstance(p, list | tuple) or len(p) != 2:
                raise _fail(where, f"expected [t_us, value], got {p!r}")
            points.append((_num(p[0], where), _num(p[1], where)))
        return points

    def _load_section(self) -> str:
        load = self._series("cpu_load")
        ready = self._series("ready_queue")
        switches = self._series("switches")
        head = '<section id="cpu"><h2>Load and ready queue over time</h2>'
        if not (load or ready or switches):
            return head + '<p class="none">No counter samples in this trace.</p></section>'
        scale, unit = self._unit()
        fig = _figure(10, 5.4)
        axes = fig.subplots(3, 1, sharex=True)
        plots = (
            (axes[0], load, 100.0, "CPU load (%)", "#2e9d4a"),
            (axes[1], ready, 1.0, "ready threads", "#e8833a"),
            (axes[2], switches, 1.0, "context switches", "#3b6ea8"),
        )
        for ax, series, factor, label, colour in plots:
            _step(ax, series, t0=self.t0, scale=scale, factor=factor, colour=colour)
            ax.set_ylabel(label)
            ax.grid(alpha=0.3)
            ax.set_xlim(0, max(self.duration / scale, 1e-9))
        axes[0].set_ylim(0, 105)
        axes[1].set_ylim(bottom=0)
        axes[2].set_ylim(bottom=0)
        axes[2].set_xlabel(f"time since the trace's start ({unit})")
        fig.align_ylabels(axes)
        return head + f'<div class="chart" id="cpu-chart">{_svg(fig, "cpu")}</div></section>'

    def _preemption_section(self) -> str:
        head = '<section id="preemptions"><h2>Context switches and preemptions</h2>'
        threads = self._threads()
        parts = [head]
        if threads:
            names = [_text(t.get("name")) or self.name(t.get("ctx")) for t in threads]
            switched = [int(_num(t.get("switches_in", 0), "switches_in")) for t in threads]
            preempted = [int(_num(t.get("preempted", 0), "preempted")) for t in threads]
            fig = _figure(10, 0.9 + 0.45 * len(threads))
            ax = fig.subplots()
            ys = list(range(len(threads)))
            ax.barh([y - 0.2 for y in ys], switched, 0.4, label="switched in", color="#3b6ea8")
            ax.barh([y + 0.2 for y in ys], preempted, 0.4, label="preempted", color="#e8833a")
            ax.set_yticks(ys, names)
            ax.invert_yaxis()
            ax.set_xlabel("count")
            ax.legend(loc="lower right")
            ax.grid(axis="x", alpha=0.3)
            parts.append(f'<div class="chart" id="switch-chart">{_svg(fig, "sw")}</div>')
        else:
            parts.append('<p class="none">No threads in this trace.</p>')
        parts.append(self._matrix())
        parts.append("</section>")
        return "\n".join(parts)

    def _matrix(self) -> str:
        pre = _dict(self.a.get("preemptions"), "preemptions")
        ctxs = _list(pre.get("ctx"), "preemptions.ctx")
        counts = _list(pre.get("counts"), "preemptions.counts")
        if len(counts) != len(ctxs) or any(
            not isinstance(row, list) or len(row) != len(ctxs) for row in counts
        ):
            raise _fail("preemptions.counts", f"expected a {len(ctxs)} x {len(ctxs)} matrix")
        matrix = [
            [int(_num(c, f"preemptions.counts[{i}]")) for c in row] for i, row in enumerate(counts)
        ]
        head = "<h3>Who preempted whom</h3>"
        if not ctxs or not any(any(row) for row in matrix):
            return head + '<p class="none" id="no-preemptions">No preemptions in this trace.</p>'
        names = [self.name(c) for c in ctxs]
        n = len(names)
        size = min(2.2 + 0.55 * n, 14)
        fig = _figure(size + 1.5, size)
        ax = fig.subplots()
        peak = max(max(row) for row in matrix)
        mesh = ax.pcolormesh(matrix, cmap="Oranges", vmin=0, vmax=peak, edgecolors="#ffffff")
        ax.set_xticks([i + 0.5 for i in range(n)], names, rotation=40, ha="right")
        ax.set_yticks([i + 0.5 for i in range(n)], names)
        ax.invert_yaxis()
        ax.set_xlabel("preempted by (the thread that took the CPU)")
        ax.set_ylabel("preempted thread")
        ax.set_aspect("equal")
        if n <= 24:
            for i, row in enumerate(matrix):
                for j, count in enumerate(row):
                    if count:
                        dark = count > peak * 0.6
                        ax.text(
                            j + 0.5,
                            i + 0.5,
                            str(count),
                            ha="center",
                            va="center",
                            fontsize=9,
                            color="white" if dark else "black",
                        )
        bar = fig.colorbar(mesh, ax=ax, shrink=0.8, label="preemptions")
        # Vector like the rest: a raster would be a data: image, a request of its own.
        bar.solids.set_rasterized(False)
        return head + f'<div class="chart" id="matrix-chart">{_svg(fig, "mx")}</div>'

    def _histogram_section(self) -> str:
        head = '<section id="histograms"><h2>Response and blocking times</h2>'
        response = _dict(self.a.get("response_times"), "response_times")
        blocking = _dict(self.a.get("blocking_times"), "blocking_times")
        rows = []
        for ctx in self.contexts:
            r = [_num(x, "response_times") for x in _list(response.get(ctx["id"]), "times")]
            b = [_num(x, "blocking_times") for x in _list(blocking.get(ctx["id"]), "times")]
            if r or b:
                rows.append((ctx["name"], r, b))
        if not rows:
            return head + '<p class="none">No jobs or waits in this trace.</p></section>'
        fig = _figure(10, 0.6 + 2.0 * len(rows))
        axes = fig.subplots(len(rows), 2, squeeze=False)
        for (name, r, b), (ax_r, ax_b) in zip(rows, axes, strict=True):
            _histogram(ax_r, r, f"{name}: response time", "#3b6ea8")
            _histogram(ax_b, b, f"{name}: blocking time", "#8e6cc4")
        return (
            head + "<p>Response time: from the moment a job is made ready to the moment it stops "
            "running; blocking time: each wait on an object.</p>"
            + f'<div class="chart" id="hist-chart">{_svg(fig, "hist")}</div></section>'
        )

    def _nav(self) -> str:
        links = _NAV_LINKS + ((("energy", "Energy"),) if self.a.get("energy") else ())
        return "<nav>" + "".join(f'<a href="#{k}">{label}</a>' for k, label in links) + "</nav>"

    def _energy_section(self) -> str:
        """Energy per context, idle and the switch path from the trace's energy snapshot, the
        operating points and the point over time; nothing when the trace has no energy."""
        energy = _dict(self.a.get("energy"), "energy")
        if not energy:
            return ""
        parts = ['<section id="energy"><h2>Energy</h2>']
        note = _text(energy.get("note"))
        if energy.get("total") is None:
            parts.append(f'<p class="warn" id="energy-note">{_e(note or "no energy figures")}</p>')
        else:
            parts += [self._energy_totals(energy), self._energy_contexts(energy)]
            parts.append(self._energy_points(energy))
        parts.append(self._point_chart(energy))
        parts.append("</section>")
        return "\n".join(parts)

    def _energy_part(self, energy: dict, key: str) -> dict:
        return _energy_figures(energy.get(key), f"energy.{key}")

    def _energy_totals(self, energy: dict) -> str:
        total = self._energy_part(energy, "total")
        switching = self._energy_part(energy, "switching")
        per_switch = _num(energy.get("joules_per_switch"), "energy.joules_per_switch")
        rows = [("Energy", f"{_fmt_j(total['joules'])} over {_int(total['cycles'])} cycles")]
        for key, label in (("threads", "Threads"), ("hisrs", "HISRs"), ("idle", "Idle")):
            part = self._energy_part(energy, key)
            rows.append((label, f"{_fmt_j(part['joules'])} ({100 * part['share']:.1f} %)"))
        rows.append(
            (
                "Context switches",
                f'<span id="switching-share">{100 * switching["share"]:.1f} %</span> of the '
                f"energy: {_fmt_j(switching['joules'])} for {_int(energy.get('context_switches'))}"
                f" switches, {_fmt_j(per_switch)} each",
            )
        )
        points = _list(energy.get("points"), "energy.points")
        used = [_dict(pt, "energy.points[]") for pt in points]
        used_text = ", ".join(
            f"{_hz(pt.get('hz'))} ({100 * _num(pt.get('share'), 'energy.points[].share'):.1f} %)"
            for pt in used
            if pt.get("cycles")
        )
        rows.append(("Points used", _e(used_text or "none")))
        policy = f"{_e(energy.get('policy'))}, {_int(energy.get('point_changes'))} point changes"
        rows.append(("Policy", policy))
        model = (
            f"C<sub>eff</sub> {_num(energy.get('c_eff_farad'), 'energy.c_eff_farad'):.4g} F, "
            f"P<sub>static</sub> {_num(energy.get('p_static_watt'), 'energy.p_static_watt'):.4g} W"
            " (docs/energy.md: C<sub>eff</sub> V² N + P<sub>static</sub> N / f per point)"
        )
        if energy.get("modelled"):
            model += "; modelled: this port cannot change its clock"
        rows.append(("Model", model))
        return (
            "<p>From the kernel's energy books when tracing stopped (TC_POWER): cycles per "
            "operating point of every thread and HISR, idle, and the context-switch path (what "
            "elapsed less everything charged), turned into joules as tc_energy_report() does."
            '</p><table class="totals" id="energy-totals"><tbody>'
            + "".join(f"<tr><th scope=row>{k}</th><td>{v}</td></tr>" for k, v in rows)
            + "</tbody></table>"
        )

    def _energy_contexts(self, energy: dict) -> str:
        rows = []
        entries = []
        for n, raw in enumerate(_list(energy.get("contexts"), "energy.contexts")):
            c = _dict(raw, f"energy.contexts[{n}]")
            name = _text(c.get("name")) or _text(c.get("ctx"))
            entries.append(
                (name, _text(c.get("kind")), _energy_figures(c, f"energy.contexts[{n}]"))
            )
        for key, name in (
            ("deleted_threads", "deleted threads"),
            ("deleted_hisrs", "deleted HISRs"),
        ):
            part = self._energy_part(energy, key)
            if part["cycles"]:
                entries.append((f"({name})", "", part))
        entries.append(("idle", "idle", self._energy_part(energy, "idle")))
        entries.append(("context switches", "switch path", self._energy_part(energy, "switching")))
        total = self._energy_part(energy, "total")
        scale, unit = _table_unit(total["joules"])

        def cells(part: dict) -> str:
            return "".join(
                f"<td class=n>{part[key] / scale:,.2f}</td>"
                for key in ("dynamic_joules", "static_joules", "joules")
            )

        for name, kind, part in entries:
            share = 100 * part["share"]
            rows.append(
                f"<tr><th scope=row>{_e(name)}</th><td>{_e(kind)}</td>"
                f"<td class=n>{_int(part['cycles'])}</td>{cells(part)}"
                f'<td class="n share"><span class="bar" style="width:{min(share, 100):.1f}%">'
                f"</span>{share:.1f} %</td></tr>"
            )
        rows.append(
            f"<tr class=total><th scope=row>total</th><td></td><td class=n>"
            f"{_int(total['cycles'])}</td>{cells(total)}<td class=n>100.0 %</td></tr>"
        )
        chart = ""
        if entries:
            fig = _figure(10, 0.9 + 0.4 * len(entries))
            ax = fig.subplots()
            ys = list(range(len(entries)))
            bar_scale, bar_unit = _joule_unit(max(part["joules"] for _, _, part in entries))
            colours = [
                "#8fb3d9" if kind == "idle" else "#e8833a" if kind == "switch path" else "#2e9d4a"
                for _, kind, _ in entries
            ]
            ax.barh(ys, [part["joules"] / bar_scale for _, _, part in entries], 0.6, color=colours)
            ax.set_yticks(ys, [name for name, _, _ in entries])
            ax.invert_yaxis()
            ax.set_xlabel(f"energy ({bar_unit})")
            ax.grid(axis="x", alpha=0.3)
            chart = f'<div class="chart" id="energy-chart">{_svg(fig, "en")}</div>'
        return (
            '<h3>Per context</h3><table id="energy-table" class="grid"><thead><tr>'
            "<th>Context</th><th>Kind</th><th>Cycles</th>"
            f"<th>Dynamic ({unit})</th><th>Static ({unit})</th><th>Energy ({unit})</th>"
            "<th>Share</th></tr></thead><tbody>" + "\n".join(rows) + "</tbody></table>" + chart
        )

    def _energy_points(self, energy: dict) -> str:
        rows = []
        for n, raw in enumerate(_list(energy.get("points"), "energy.points")):
            pt = _dict(raw, f"energy.points[{n}]")
            where = f"energy.points[{n}]"
            current = " (at the end)" if pt.get("index") == energy.get("point") else ""
            rows.append(
                f"<tr><td class=n>{_int(pt.get('index'))}{current}</td>"
                f"<td class=n>{_hz(pt.get('hz'))}</td>"
                f"<td class=n>{_num(pt.get('millivolt'), where) / 1000:g} V</td>"
                f"<td class=n>{1000 * _num(pt.get('watts'), where):.4g} mW</td>"
                f"<td class=n>{_int(pt.get('cycles'))}</td>"
                f"<td class=n>{100 * _num(pt.get('share'), where):.1f} %</td></tr>"
            )
        return (
            '<h3>Operating points</h3><table id="energy-points" class="grid"><thead><tr>'
            "<th>Point</th><th>Frequency</th><th>Voltage</th><th>Power</th><th>Cycles</th>"
            "<th>Share of the cycles</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
        )

    def _point_chart(self, energy: dict) -> str:
        """The operating point over time, when the trace holds point changes."""
        if not energy.get("point_events"):
            return ""
        series = []
        for n, raw in enumerate(_list(energy.get("point_series"), "energy.point_series")):
            where = f"energy.point_series[{n}]"
            if not isinstance(raw, list) or len(raw) != 4:
                raise _fail(where, f"expected [t_us, point, hz, mv], got {raw!r}")
            series.append((_num(raw[0], where), _num(raw[2], where) / 1e6))
        scale, unit = self._unit()
        fig = _figure(10, 2.2)
        ax = fig.subplots()
        _step(ax, series, t0=self.t0, scale=scale, factor=1.0, colour="#3b6ea8")
        ax.set_ylabel("MHz")
        ax.set_ylim(bottom=0)
        ax.set_xlim(0, max(self.duration / scale, 1e-9))
        ax.set_xlabel(f"time since the trace's start ({unit})")
        ax.grid(alpha=0.3)
        n = _int(energy.get("point_events"))
        events = "POWER event" if n == "1" else "POWER events"  # a table's install, each change
        return (
            f"<h3>Operating point over time ({n} {events} in the trace)</h3>"
            f'<div class="chart" id="point-chart">{_svg(fig, "pt")}</div>'
        )

    def _user_event_section(self) -> str:
        events = _list(self.a.get("user_events"), "user_events")
        if not events:
            return ""
        rows = []
        for n, raw in enumerate(events[:MAX_USER_EVENTS]):
            ev = _dict(raw, f"user_events[{n}]")
            t = _num(ev.get("t_us"), f"user_events[{n}].t_us")
            rows.append(
                f"<tr><td class=n>{_fmt_us(t - self.t0)}</td><td>{_e(self.name(ev.get('ctx')))}"
                f"</td><td class=n>{_int(ev.get('id'))}</td><td class=n>{_int(ev.get('a'))}</td>"
                f"<td class=n>{_int(ev.get('b'))}</td></tr>"
            )
        more = (
            f"<p>The first {MAX_USER_EVENTS} of {len(events)} are listed.</p>"
            if len(events) > MAX_USER_EVENTS
            else ""
        )
        return (
            f'<section id="user-events"><h2>User events ({len(events)})</h2>{more}'
            '<table class="grid"><thead><tr><th>Time</th><th>Context</th><th>Id</th><th>a</th>'
            "<th>b</th></tr></thead><tbody>" + "\n".join(rows) + "</tbody></table></section>"
        )


# --- small helpers -----------------------------------------------------------------------------


def _e(value: object) -> str:
    return html.escape(_text(value), quote=True)


def _int(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return _e(value)
    return f"{int(value):,}"


def _opt_int(value: object) -> str:
    return "\u2013" if value is None else _int(value)


def _hz(value: object) -> str:
    if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
        return "?"
    for factor, unit in ((1e9, "GHz"), (1e6, "MHz"), (1e3, "kHz")):
        if value >= factor:
            return f"{value / factor:g} {unit}"
    return f"{value:g} Hz"


def _fmt_us(us: float) -> str:
    """A time in µs, printed in the unit that suits it."""
    size = abs(us)
    if size >= 1e6:
        return f"{us / 1e6:,.3f} s"
    if size >= 1e3:
        return f"{us / 1e3:,.3f} ms"
    return f"{us:,.2f} µs"


def _energy_figures(raw: object, where: str) -> dict:
    """A part of the run's energy (a context, idle, the switch path ...), its figures checked."""
    part = _dict(raw, where)
    for field in ("joules", "dynamic_joules", "static_joules", "share", "cycles"):
        _num(part.get(field), f"{where}.{field}")
    return part


def _joule_unit(largest: float) -> tuple[float, str]:
    for factor, unit in ((1.0, "J"), (1e-3, "mJ"), (1e-6, "µJ")):
        if largest >= factor:
            return factor, unit
    return 1e-9, "nJ"


def _fmt_j(joules: float) -> str:
    """An energy in the unit that suits it, four significant digits."""
    if joules == 0:
        return "0 J"
    scale, unit = _joule_unit(abs(joules))
    return f"{joules / scale:.4g} {unit}"


def _table_unit(total: float) -> tuple[float, str]:
    """A unit for a column of energies that add up to ``total``: one below the total's own,
    so that the parts read as whole numbers with two decimals."""
    scale, _ = _joule_unit(total)
    return {1.0: (1e-3, "mJ"), 1e-3: (1e-6, "µJ")}.get(scale, (1e-9, "nJ"))


def _stat_cells(stats: object, where: str) -> list[str]:
    """Count, average, p99 and maximum (the minimum in the average's tooltip)."""
    if stats is None:
        return ['<td class="n none">\u2013</td>'] * 4
    s = _dict(stats, where)
    low = _fmt_us(_num(s.get("min", 0.0), f"{where}.min"))
    cells = [f"<td class=n>{_int(s.get('count', 0))}</td>"]
    for key in ("avg", "p99", "max"):
        value = _fmt_us(_num(s.get(key, 0.0), f"{where}.{key}"))
        title = f' title="min {low}"' if key == "avg" else ""
        cells.append(f"<td class=n{title}>{value}</td>")
    return cells


def _compact(value: float) -> float | int:
    """``value`` rounded to 3 decimals, as an int when it is one (shorter JSON)."""
    r = round(value, 3)
    return int(r) if r.is_integer() else r


@contextmanager
def _svg_settings() -> Iterator[None]:
    import matplotlib as mpl  # noqa: PLC0415  (slow to import: only when a report is made)

    # Text stays text (the browser's sans-serif draws it): smaller than glyph outlines, and
    # a fixed salt makes the SVG the same on every run.
    with mpl.rc_context(
        {"svg.fonttype": "none", "svg.hashsalt": "tacet", "font.size": 9, "axes.titlesize": 10}
    ):
        yield


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure as MplFigure  # noqa: PLC0415

    return MplFigure(figsize=(width, height), layout="constrained")


_ID = re.compile(r'\bid="([^"]+)"')
_REF = re.compile(r"url\(#([^)]+)\)")
_HREF = re.compile(r'href="#([^"]+)"')


def _svg(fig: Figure, prefix: str) -> str:
    """``fig`` as an SVG element to inline in HTML: no XML prolog, no metadata and no
    namespace URLs (HTML's parser knows SVG), ids prefixed so that the charts' ids differ."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    text = text[text.index("<svg") :]
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.DOTALL)
    text = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", text)
    text = _ID.sub(lambda m: f'id="{prefix}-{m[1]}"', text)
    text = _REF.sub(lambda m: f"url(#{prefix}-{m[1]})", text)
    return _HREF.sub(lambda m: f'href="#{prefix}-{m[1]}"', text)


def _step(
    ax: Axes,
    series: Sequence[tuple[float, float]],
    *,
    t0: float,
    scale: float,
    factor: float,
    colour: str,
) -> None:
    if not series:
        ax.text(0.5, 0.5, "no samples", transform=ax.transAxes, ha="center", va="center")
        return
    xs = [(t - t0) / scale for t, _ in series]
    ys = [v * factor for _, v in series]
    if len(series) <= MAX_SERIES_POINTS:
        ax.step(xs, ys, where="post", color=colour, linewidth=1.2)
        ax.fill_between(xs, ys, step="post", color=colour, alpha=0.2, linewidth=0)
        return
    # A long series (one point per switch) is drawn as the min and max of each bin, so that
    # the SVG stays small and no peak disappears.
    bins = MAX_SERIES_POINTS // 2
    lo, hi = xs[0], xs[-1]
    width = (hi - lo) / bins or 1.0
    low = [math.inf] * bins
    high = [-math.inf] * bins
    for x, y in zip(xs, ys, strict=True):
        b = min(int((x - lo) / width), bins - 1)
        low[b] = min(low[b], y)
        high[b] = max(high[b], y)
    filled = [b for b in range(bins) if high[b] > -math.inf]
    centres = [lo + (b + 0.5) * width for b in filled]
    ax.fill_between(
        centres,
        [low[b] for b in filled],
        [high[b] for b in filled],
        color=colour,
        alpha=0.5,
        linewidth=0.6,
        step="mid",
    )


def _histogram(ax: Axes, values: list[float], title: str, colour: str) -> None:
    ax.set_title(title, loc="left")
    if not values:
        ax.text(0.5, 0.5, "none", transform=ax.transAxes, ha="center", va="center")
        ax.set_xticks([])
        ax.set_yticks([])
        return
    lo, hi = min(values), max(values)
    if hi - lo < 1e-9:
        lo, hi = lo - 0.5, hi + 0.5
    ax.hist(values, bins=HIST_BINS, range=(lo, hi), color=colour, edgecolor="white", linewidth=0.4)
    ax.set_xlabel("µs")
    ax.set_ylabel("count")
    ax.grid(axis="y", alpha=0.3)


# --- the browser -------------------------------------------------------------------------------


def find_chromium() -> tuple[str, str] | None:
    """Debian's chromium and chromedriver, or None when either is missing."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


def open_chromium(width: int = 1280, height: int = 900) -> Chrome:
    """A Selenium driver of headless chromium (the system's: nothing is downloaded), with
    the console and the performance (network) logs recorded."""
    found = find_chromium()
    if found is None:
        raise TacetError(
            "chromium and chromedriver are needed (Debian: make deps, or apt-get install "
            "chromium chromium-driver)"
        )
    try:
        from selenium import webdriver  # noqa: PLC0415
        from selenium.webdriver.chrome.service import Service  # noqa: PLC0415
    except ImportError:
        raise TacetError("selenium is not installed: run make deps") from None
    browser, driver = found
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for arg in (
        "--headless=new",
        "--no-sandbox",  # root in a container
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--window-size={width},{height}",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=driver), options=options)


def screenshot(
    html_path: Path,
    png_path: Path,
    width: int = 1280,
    inversion: int | None = None,
    *,
    height: int = 800,
    full: bool = False,
    view: tuple[float, float] | None = None,
    at: str | None = None,
) -> None:
    """A PNG of the report at ``html_path``: its first screen in a window ``width`` x
    ``height`` (what a reader sees on opening it), or with ``full`` the whole page; with
    ``inversion``, after clicking that row of the inversion tables (its interval zoomed and
    highlighted in the timeline); with ``view``, the timeline showing that stretch (µs from
    the trace's start); with ``at``, the window scrolled to the element of that id."""
    driver = open_chromium(width, height)
    try:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        driver.get(html_path.resolve().as_uri())
        if inversion is not None:
            rows = driver.find_elements("css selector", f'tr.inversion[data-k="{inversion}"]')
            if not rows:
                raise TacetError(f"--inversion {inversion}: the report has no such inversion")
            driver.execute_script("arguments[0].click()", rows[0])
        if view is not None:
            driver.execute_script("window.tacetReport.show(arguments[0], arguments[1])", *view)
        if full:
            page = driver.execute_script("return document.documentElement.scrollHeight")
            driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": width, "height": int(page), "deviceScaleFactor": 1, "mobile": False},
            )
        driver.execute_script("window.scrollTo(0, 0)")
        if at is not None:
            if not driver.find_elements("id", at):
                raise TacetError(f"--at {at}: the report has no element of that id")
            driver.execute_script(
                "window.scrollTo(0, document.getElementById(arguments[0]).offsetTop - 8)", at
            )
        if not driver.save_screenshot(str(png_path)):
            raise TacetError(f"{png_path}: chromium could not write the screenshot")
    finally:
        driver.quit()


def load_analysis(path: Path, run: int | None = None) -> dict:
    """The analysis dict in ``path``: its JSON, or the analysis of a trace dump (decoded by
    tacet.trace.format and analysed by tacet.trace.analysis; of a file of several runs, the
    ``run``-th, by default the last)."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise TacetError(f"{path}: cannot read: {error.strerror}") from None
    if data.lstrip()[:1] == b"{":
        try:
            return json.loads(data.decode("utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise TacetError(f"{path}: not JSON: {error}") from None
    try:
        from tacet.trace.analysis import analyze  # noqa: PLC0415
        from tacet.trace.format import decode_runs  # noqa: PLC0415
    except ImportError:
        raise TacetError(
            f"{path}: not JSON, and this tacet cannot decode trace dumps (tacet.trace.format)"
        ) from None
    traces = decode_runs(data, str(path))
    if run is not None and not 1 <= run <= len(traces):
        raise TacetError(f"--run {run}: {path} holds {len(traces)} traces")
    return analyze(traces[-1 if run is None else run - 1], str(path))


def _stretch(text: str) -> tuple[float, float]:
    """``--view START:END``: two times in µs, the first below the second."""
    try:
        start, end = (float(part) for part in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected START:END in µs") from None
    if not (math.isfinite(start) and math.isfinite(end) and 0 <= start < end):
        raise argparse.ArgumentTypeError(f"{text!r}: expected 0 <= START < END")
    return start, end


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tacet.trace.report",
        description="Write the HTML report of a trace and, optionally, a PNG screenshot of it "
        "taken by headless chromium (the system's chromium and chromedriver).",
    )
    parser.add_argument(
        "input",
        type=Path,
        help="the analysis dict as JSON (schema 1), a trace dump, or a report (.html) to "
        "take the screenshot of",
    )
    parser.add_argument("--html", type=Path, help="the report to write")
    parser.add_argument("--screenshot", type=Path, help="a PNG of the report to write")
    parser.add_argument("--width", type=int, default=1280, help="the window's width in pixels")
    parser.add_argument(
        "--height", type=int, default=800, help="the window's height in pixels (the first screen)"
    )
    parser.add_argument("--full", action="store_true", help="the whole page, not the first screen")
    parser.add_argument(
        "--view",
        type=_stretch,
        metavar="START:END",
        help="show this stretch in the timeline (µs from the trace's start) before the screenshot",
    )
    parser.add_argument(
        "--at", metavar="ID", help="scroll to the element of this id (timeline, events ...)"
    )
    parser.add_argument(
        "--run",
        type=int,
        metavar="N",
        help="a trace dump of several runs: the N-th (1 = the first; default: the last)",
    )
    parser.add_argument(
        "--inversion",
        type=int,
        metavar="K",
        help="click inversion K (0 = the first in the analysis) before the screenshot",
    )
    args = parser.parse_args(argv)
    given_html = args.input.suffix.lower() in (".html", ".htm")
    if given_html and (args.html is not None or args.screenshot is None):
        parser.error("a report as input: give --screenshot (and no --html)")
    if args.html is None and args.screenshot is None:
        parser.error("nothing to do: give --html, --screenshot or both")
    try:
        with tempfile.TemporaryDirectory() as scratch:
            if given_html:
                out = args.input
                if not out.is_file():
                    raise TacetError(f"{out}: no such report")
            else:
                out = args.html or Path(scratch) / "report.html"
                write_html(load_analysis(args.input, args.run), out)
                if args.html:
                    print(f"report: {args.html}")
            if args.screenshot:
                screenshot(
                    out,
                    args.screenshot,
                    args.width,
                    args.inversion,
                    height=args.height,
                    full=args.full,
                    view=args.view,
                    at=args.at,
                )
                print(f"screenshot: {args.screenshot}")
    except TacetError as error:
        print(f"trace_report: {error.message}", file=sys.stderr)
        return error.status
    return 0


_NAV_LINKS = (
    ("overview", "CPU share"),
    ("timeline", "Timeline"),
    ("events", "Events"),
    ("summary", "Summary"),
    ("inversions", "Inversions"),
    ("cpu", "Load and ready queue"),
    ("preemptions", "Preemptions"),
    ("histograms", "Histograms"),
)


def _asset(name: str) -> str:
    """A file of the report's page (its style sheet, its script), from the package."""
    return (resources.files("tacet.trace") / "templates" / "report" / name).read_text("utf-8")


if __name__ == "__main__":
    sys.exit(main())
