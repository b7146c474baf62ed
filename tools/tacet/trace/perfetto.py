# SPDX-License-Identifier: MIT
"""A decoded trace as Chrome Trace Event Format JSON, the form ui.perfetto.dev opens.

One process per run of the file (the target, named after the run and the trace's name), one
track per context (thread, HISR, idle) named after it, an ISR track for interrupt handlers.
On a context's track: complete ("X") slices for each state it was in (running, ready,
preempted, held by the running thread's threshold or scheduler lock, blocked on an object,
sleeping, suspended), coloured by state; service calls and user events as instant ("i")
events with their arguments spelled out (object names, status names); wake-ups as flow arrows
("s" -> "f") from the event that made a thread ready to its next switch-in; counters ("C")
for cumulative context switches, CPU load, the ready-queue length and, with energy accounting
(TC_POWER), the operating point's frequency. Timestamps are microseconds of the target clock;
``otherData`` says which clock that is (on QEMU, instructions at the icount rate).
"""

import bisect
from typing import Any

from tacet import __version__
from tacet.trace.analysis import POLICIES, ctx_id
from tacet.trace.format import EV, SERVICES, Trace, status_name

PID = 1
# Colours Chrome's trace viewer reserves (Perfetto colours JSON slices by name regardless).
STATE_COLOURS = {
    "running": "thread_state_running",
    "ready": "thread_state_runnable",
    "preempted": "thread_state_runnable",
    "blocked": "thread_state_iowait",
    "sleeping": "thread_state_sleeping",
    "suspended": "thread_state_unknown",
    "held": "thread_state_uninterruptible",
    "deferred": "bad",
}


ADDRESS_ARGS = ("block", "memory", "message")  # service arguments that are addresses


def process_name(source: dict[str, Any]) -> str:
    """The process's name: the target ("Tacet sim (host)"), which run of the file it is when
    there are several, and the trace's name (tc_trace_label)."""
    name = f"Tacet {source['port']} ({source['cpu']})"
    runs = source.get("runs", 1)
    if runs > 1:
        name += f", run {source['run']} of {runs}"
    if source.get("label"):
        name += f": {source['label']}"
    return name


def _metadata(
    analysis: dict[str, Any], tids: dict[str, int], isr_tid: int, pid: int
) -> list[dict[str, Any]]:
    source = analysis["source"]
    contexts = analysis["contexts"]
    out: list[dict[str, Any]] = [
        {
            "ph": "M",
            "name": "process_name",
            "pid": pid,
            "args": {"name": process_name(source)},
        },
        {
            "ph": "M",
            "name": "process_labels",
            "pid": pid,
            "args": {"labels": source["clock_note"]},
        },
        {"ph": "M", "name": "process_sort_index", "pid": pid, "args": {"sort_index": pid}},
    ]
    for n, c in enumerate(contexts):
        label = c["name"]
        if c["kind"] == "thread" and c["priority"] is not None:
            label += f" (priority {c['priority']})"
        elif c["kind"] == "hisr":
            label += " (HISR)"
        out.append(
            {
                "ph": "M",
                "name": "thread_name",
                "pid": pid,
                "tid": tids[c["id"]],
                "args": {"name": label},
            }
        )
        out.append(
            {"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": tids[c["id"]],
             "args": {"sort_index": n + 1}}
        )  # fmt: skip
    out.append(
        {"ph": "M", "name": "thread_name", "pid": pid, "tid": isr_tid,
         "args": {"name": "ISR (interrupt handlers)"}}
    )  # fmt: skip
    out.append(
        {"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": isr_tid,
         "args": {"sort_index": 0}}
    )  # fmt: skip
    return out


def slice_name(s: dict[str, Any], names: dict[str, str]) -> str:
    """A slice's name: its state, with the object and its kind or the thread holding it off
    ("blocked on queue A", "held by threshold of D")."""
    state, obj = s["state"], s.get("object")
    if state in ("held", "deferred") and s.get("held_by"):
        why = "threshold" if state == "held" else "scheduler lock"
        return f"held by {why} of {names.get(s['held_by'], s['held_by'])}"
    if not obj:
        return state
    kind = s.get("object_kind")
    return f"{state} on {kind} {obj}" if kind else f"{state} on {obj}"


def _slices(
    analysis: dict[str, Any], tids: dict[str, int], isr_tid: int, pid: int
) -> list[dict[str, Any]]:
    out = []
    names = {c["id"]: c["name"] for c in analysis["contexts"]}
    for s in analysis["slices"]:
        name = slice_name(s, names)
        args = {"priority": s["priority"], "threshold": s["threshold"]}
        if s["object"]:
            args["object"] = s["object"]
            if s.get("object_kind"):
                args["object kind"] = s["object_kind"]
        if s.get("held_by"):
            args["held by"] = names.get(s["held_by"], s["held_by"])
        out.append(
            {
                "ph": "X",
                "name": name,
                "cat": "state",
                "pid": pid,
                "tid": tids[s["ctx"]],
                "ts": s["start_us"],
                "dur": round(s["end_us"] - s["start_us"], 6),
                "cname": STATE_COLOURS[s["state"]],
                "args": args,
            }
        )
    for i in analysis["isr_slices"]:
        out.append(
            {
                "ph": "X",
                "name": f"IRQ {i['irq']}",
                "cat": "isr",
                "pid": pid,
                "tid": isr_tid,
                "ts": i["start_us"],
                "dur": round(i["end_us"] - i["start_us"], 6),
                "args": {"irq": i["irq"]},
            }
        )
    return out


def _instants(trace: Trace, tids: dict[str, int], isr_tid: int, pid: int) -> list[dict[str, Any]]:
    out = []

    def us(t: int) -> float:
        return round(trace.clock_time(t) * 1e6 / trace.header.clock_hz, 6)

    def track(ctx: int, irq: int) -> int:
        return isr_tid if irq else tids.get(ctx_id(ctx), isr_tid)

    for e in trace.events:
        args: dict[str, Any]
        if e.is_service:
            service = SERVICES[e.id]
            args = {"object": trace.name_of(e.args[0], e.seq) if e.args[0] else None}
            for label, value in ((service.a1, e.args[1]), (service.a2, e.args[2])):
                if label is not None:
                    args[label] = f"0x{value:x}" if label in ADDRESS_ARGS else value
            args["status"] = status_name(e.args[3])
            name = "tc_" + service.name.lower()
        elif e.is_user:
            name, args = f"user {e.id}", {"a": e.args[0], "b": e.args[1]}
        elif e.id == EV["READY"]:
            name = f"ready: {trace.name_of(e.args[0], e.seq)}"
            args = {"status": status_name(e.args[2])}
            if e.args[1]:
                args["object"] = trace.name_of(e.args[1], e.seq)
        elif e.id == EV["TIMER_EXPIRE"]:
            name, args = f"timer {trace.name_of(e.args[0], e.seq)}", {"period": e.args[1]}
        elif e.id == EV["POLICY"]:
            policy = POLICIES[e.args[0]] if e.args[0] < len(POLICIES) else f"policy {e.args[0]}"
            name, args = f"power policy: {policy}", {"point": e.args[1]}
        else:
            continue
        if e.irq:
            args["irq"] = e.irq
        out.append(
            {
                "ph": "i",
                "s": "t",
                "name": name,
                "cat": "service" if e.is_service else "event",
                "pid": pid,
                "tid": track(e.ctx, e.irq),
                "ts": us(e.time),
                "args": args,
            }
        )
    return out


class _Enclosure:
    """Which slices each track holds, to start and end flows only where a slice binds them."""

    def __init__(self, slices: list[dict[str, Any]]) -> None:
        self.tracks: dict[int, list[tuple[float, float]]] = {}
        for e in slices:
            self.tracks.setdefault(e["tid"], []).append((e["ts"], e["ts"] + e["dur"]))
        self.ends = {}
        for tid, spans in self.tracks.items():
            spans.sort()
            self.ends[tid] = [end for _, end in spans]

    def holds(self, tid: int, t: float) -> bool:
        spans = self.tracks.get(tid, [])
        at = bisect.bisect_left(self.ends.get(tid, []), t)
        return at < len(spans) and spans[at][0] <= t


def _flows(
    analysis: dict[str, Any], tids: dict[str, int], isr_tid: int, slices: _Enclosure, pid: int
) -> tuple[list[dict[str, Any]], int]:
    """Flow arrows for the wake-ups, and how many could not be bound to slices."""
    out: list[dict[str, Any]] = []
    unbound = 0
    for k in analysis["wakeups"]:
        # From the ISR track when an interrupt handler's slice holds it, else from the
        # context's own (a ring may have lost the ISR_ENTER around it).
        tracks = ([isr_tid] if k["irq"] else []) + [tids.get(k["from"], isr_tid)]
        giver = next((t for t in tracks if slices.holds(t, k["t_us"])), None)
        woken = tids[k["to"]]
        if giver is None or not slices.holds(woken, k["run_us"]):
            unbound += 1
            continue
        common = {"name": "wakes", "cat": "wakeup", "id": len(out) // 2 + 1, "pid": pid}
        out.append({**common, "ph": "s", "tid": giver, "ts": k["t_us"]})
        out.append({**common, "ph": "f", "bp": "e", "tid": woken, "ts": k["run_us"]})
    return out, unbound


def _counters(analysis: dict[str, Any], pid: int) -> list[dict[str, Any]]:
    out = []
    counters = analysis["counters"]
    energy = analysis.get("energy") or {}
    # The operating point's frequency, from each POWER event (or the snapshot's point).
    points = [[t, hz / 1e6] for t, _, hz, _ in energy.get("point_series", [])]
    for name, key, series, scale in (
        ("context switches", "total", counters["switches"], 1),
        ("CPU load", "%", counters["cpu_load"], 100),
        ("ready queue", "length", counters["ready_queue"], 1),
        ("operating point", "MHz", points, 1),
    ):
        for t, value in series:
            out.append(
                {"ph": "C", "name": name, "pid": pid, "ts": t,
                 "args": {key: round(value * scale, 4)}}
            )  # fmt: skip
    return out


def perfetto(trace: Trace, analysis: dict[str, Any], pid: int = PID) -> dict[str, Any]:
    """The Trace Event Format object (``{"traceEvents": [...], ...}``) for `trace`, as
    process ``pid``."""
    source = analysis["source"]
    # Tracks are threads of one process; no track uses the process's own id (Perfetto would
    # take it for the process's main thread), nor another run's.
    first = pid * 1000 + 1
    tids = {c["id"]: first + n for n, c in enumerate(analysis["contexts"])}
    isr_tid = first + len(tids)
    slices = _slices(analysis, tids, isr_tid, pid)
    flows, unbound = _flows(analysis, tids, isr_tid, _Enclosure(slices), pid)
    events = (
        _metadata(analysis, tids, isr_tid, pid) + slices + _instants(trace, tids, isr_tid, pid)
        + flows + _counters(analysis, pid)
    )  # fmt: skip
    return {
        "traceEvents": events,
        "displayTimeUnit": "ns",
        "otherData": {
            "generator": f"tacet {__version__} (tacet trace --perfetto)",
            "source": source["file"],
            "run": f"{source.get('run', 1)} of {source.get('runs', 1)}",
            "label": source.get("label"),
            "port": source["port"],
            "cpu": source["cpu"],
            "clock_hz": source["clock_hz"],
            "clock": source["clock_note"],
            "time_unit": "microseconds of the target clock (timestamp units / clock_hz)",
            "events_kept": analysis["events"]["kept"],
            "events_lost": analysis["events"]["lost"],
            "notes": analysis["events"]["notes"],
            "wakeups_without_arrow": unbound,  # no slice to bind an end to
        },
    }


def perfetto_runs(runs: list[tuple[Trace, dict[str, Any]]]) -> dict[str, Any]:
    """One document for every run of a file (the ports write a dump per kernel run): a
    process each, in order, named after its run and its trace's name; flows numbered apart.
    One run gives what ``perfetto`` gives."""
    if len(runs) == 1:
        return perfetto(*runs[0])
    events: list[dict[str, Any]] = []
    other: list[dict[str, Any]] = []
    flows = 0
    for n, (trace, analysis) in enumerate(runs):
        doc = perfetto(trace, analysis, pid=n + 1)
        ids = 0
        for e in doc["traceEvents"]:
            if e.get("cat") == "wakeup":
                ids = max(ids, e["id"])
                e["id"] += flows
            events.append(e)
        flows += ids
        other.append(doc["otherData"])
    return {
        "traceEvents": events,
        "displayTimeUnit": "ns",
        "otherData": {"generator": other[0]["generator"], "runs": other},
    }
