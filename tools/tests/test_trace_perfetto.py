# SPDX-License-Identifier: MIT
"""`tacet trace --perfetto` output checked against the Trace Event Format rules: slices (B/E
or X) nest per track, B/E timestamps are monotonic per track, every pid and tid is named,
flows have matching s/f ids and bind to slices; plus the tracks, instants, counters and
metadata Perfetto shows. The checker itself is tested on broken documents."""

import json
import random
from collections import defaultdict
from typing import Any

import pytest
from test_trace_analysis import story
from trace_synth import Scenario, Thread

from tacet.trace.analysis import analyze
from tacet.trace.format import decode
from tacet.trace.perfetto import perfetto

PHASES = {"X", "B", "E", "i", "I", "C", "M", "s", "t", "f"}
EPS = 1e-6


class Checker:
    """Collects every way a document breaks the Trace Event Format rules relied on here."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self.named_pids: set[int] = set()
        self.named_tids: set[tuple[int, Any]] = set()
        self.used_pids: set[int] = set()
        self.used_tids: set[tuple[int, Any]] = set()
        self.spans: dict[tuple[int, Any], list[tuple[float, float]]] = defaultdict(list)
        self.open_b: dict[tuple[int, Any], list[float]] = defaultdict(list)
        self.last_be: dict[tuple[int, Any], float] = {}
        self.flows: dict[Any, dict[str, list[dict[str, Any]]]] = defaultdict(
            lambda: {"s": [], "f": []}
        )

    def metadata(self, e: dict[str, Any]) -> None:
        if e.get("name") == "process_name":
            self.named_pids.add(e["pid"])
        elif e.get("name") == "thread_name":
            self.named_tids.add((e["pid"], e.get("tid")))

    def begin_end(self, n: int, e: dict[str, Any], track: tuple[int, Any]) -> None:
        ts = e["ts"]
        if ts + EPS < self.last_be.get(track, 0.0):
            self.found.append(f"event {n}: {e['ph']} at {ts} goes back in time on {track}")
        self.last_be[track] = ts
        if e["ph"] == "B":
            self.open_b[track].append(ts)
        elif not self.open_b[track]:
            self.found.append(f"event {n}: E without B on track {track}")
        else:
            self.spans[track].append((self.open_b[track].pop(), ts))

    def event(self, n: int, e: dict[str, Any]) -> None:
        ph = e.get("ph")
        if ph not in PHASES or not isinstance(e.get("pid"), int):
            self.found.append(f"event {n}: unknown phase {ph!r} or no integer pid")
            return
        if ph == "M":
            self.metadata(e)
            return
        ts = e.get("ts")
        if not isinstance(ts, int | float) or ts < 0:
            self.found.append(f"event {n}: bad ts {ts!r}")
            return
        self.used_pids.add(e["pid"])
        if ph == "C":
            return
        track = (e["pid"], e.get("tid"))
        self.used_tids.add(track)
        if ph == "X":
            dur = e.get("dur")
            if not isinstance(dur, int | float) or dur < 0:
                self.found.append(f"event {n}: X without a non-negative dur")
            else:
                self.spans[track].append((ts, ts + dur))
        elif ph in ("B", "E"):
            self.begin_end(n, e, track)
        elif ph in ("s", "f", "t") and "id" not in e:
            self.found.append(f"event {n}: flow without id")
        elif ph in ("s", "f"):
            self.flows[(e.get("cat"), e["id"])][ph].append(e)

    def nesting(self) -> None:
        for track, stack in self.open_b.items():
            if stack:
                self.found.append(f"track {track}: {len(stack)} B without E")
        for track, intervals in self.spans.items():
            stack = []
            for start, end in sorted(intervals, key=lambda s: (s[0], -s[1])):
                while stack and start >= stack[-1][1] - EPS:
                    stack.pop()
                if stack and end > stack[-1][1] + EPS:
                    self.found.append(
                        f"track {track}: [{start}, {end}] overlaps {stack[-1]} partially"
                    )
                stack.append((start, end))

    def names(self) -> None:
        for pid in self.used_pids - self.named_pids:
            self.found.append(f"pid {pid} has no process_name")
        for track in self.used_tids - self.named_tids:
            self.found.append(f"track {track} has no thread_name")

    def enclosed(self, e: dict[str, Any]) -> bool:
        intervals = self.spans.get((e["pid"], e.get("tid")), [])
        return any(a - EPS <= e["ts"] <= b + EPS for a, b in intervals)

    def flow_ends(self) -> None:
        for key, ends in self.flows.items():
            if len(ends["s"]) != 1 or len(ends["f"]) != 1:
                self.found.append(f"flow {key}: {len(ends['s'])} s and {len(ends['f'])} f")
                continue
            s, f = ends["s"][0], ends["f"][0]
            if f["ts"] + EPS < s["ts"]:
                self.found.append(f"flow {key}: f before s")
            if not self.enclosed(s) or not (f.get("bp") == "e" and self.enclosed(f)):
                self.found.append(f"flow {key}: an end binds to no slice")


def problems(doc: dict[str, Any]) -> list[str]:
    """Every way `doc` breaks the Trace Event Format rules this project relies on."""
    events = doc.get("traceEvents")
    if not isinstance(events, list):
        return ["no traceEvents list"]
    checker = Checker()
    for n, e in enumerate(events):
        checker.event(n, e)
    checker.nesting()
    checker.names()
    checker.flow_ends()
    return checker.found


def export(sc: Scenario, **options: object) -> dict[str, Any]:
    trace = decode(sc.encode(**options).data, "s.tctrace")
    doc = perfetto(trace, analyze(trace, "s.tctrace"))
    return json.loads(json.dumps(doc))


@pytest.mark.parametrize("variant", ["plain", "inherit", "threshold"])
@pytest.mark.parametrize("slots", [None, 12])
def test_story_export_follows_the_rules(variant: str, slots: int | None) -> None:
    doc = export(story(variant), slots=slots)
    assert problems(doc) == []


def test_tracks_slices_instants_counters_flows() -> None:
    doc = export(story("plain"), port="cortex-m", cpu="cortex-m3", clock_hz=31_250_000)
    events = doc["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    assert sorted(names.values()) == [
        "High (priority 1)", "ISR (interrupt handlers)", "Low (priority 10)",
        "Medium (priority 5)", "idle",
    ]  # fmt: skip
    tid = {v.split(" ")[0]: k for k, v in names.items()}
    high_running = [
        e for e in events if e["ph"] == "X" and e["tid"] == tid["High"] and e["name"] == "running"
    ]
    # 1000 clock units at 31.25 MHz: 32 µs
    assert [(e["ts"], e["dur"]) for e in high_running] == [(35.52, 2.88), (60.8, 3.2)]
    blocked = next(e for e in events if e["ph"] == "X" and e["name"].startswith("blocked"))
    assert blocked["name"] == "blocked on mutex mx" and blocked["cname"] == "thread_state_iowait"
    lock = next(e for e in events if e["ph"] == "i" and e["name"] == "tc_mutex_lock")
    assert lock["args"] == {"object": "mx", "timeout": 0xFFFFFFFF, "status": "TC_OK"}
    assert lock["tid"] == tid["Low"]
    isr_instant = next(e for e in events if e["ph"] == "i" and e["name"] == "tc_thread_resume")
    assert isr_instant["tid"] == tid["ISR"] and isr_instant["args"]["irq"] == 11
    counters = {e["name"] for e in events if e["ph"] == "C"}
    assert counters == {"context switches", "CPU load", "ready queue"}
    switches = [e["args"]["total"] for e in events if e["name"] == "context switches"]
    assert switches == list(range(1, 8))
    flows = [e for e in events if e["ph"] in "sf"]
    assert len(flows) == 6  # three wake-ups
    assert doc["otherData"]["wakeups_without_arrow"] == 0
    assert "icount" in doc["otherData"]["clock"]
    assert doc["otherData"]["clock_hz"] == 31_250_000


def test_idle_and_hisr_tracks() -> None:
    a, hisr = 0x100, 0x900
    sc = Scenario([Thread(a, "A", 4)])
    sc.add_object(hisr, "hisr", "rx")
    sc.prio[hisr] = (0, 0)
    sc.running = a
    sc.at(1005).switch(hisr)
    sc.at(1008).switch(0)
    sc.at(1010).isr(2)
    doc = export(sc)
    assert problems(doc) == []
    names = {e["args"]["name"] for e in doc["traceEvents"] if e.get("name") == "thread_name"}
    assert {"rx (HISR)", "idle", "A (priority 4)"} <= names


def named(*events: dict[str, Any]) -> dict[str, Any]:
    meta = [
        {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "p"}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "t"}},
    ]
    return {"traceEvents": meta + list(events)}


def x(ts: float, dur: float, tid: int = 1) -> dict[str, Any]:
    return {"ph": "X", "name": "x", "pid": 1, "tid": tid, "ts": ts, "dur": dur}


def test_checker_accepts_nesting_and_rejects_partial_overlap() -> None:
    assert problems(named(x(0, 10), x(2, 3), x(10, 5))) == []
    assert "partially" in problems(named(x(0, 10), x(5, 10)))[0]


def test_checker_rejects_unnamed_tracks_and_bad_b_e() -> None:
    assert "no thread_name" in problems(named(x(0, 1, tid=2)))[0]
    b = {"ph": "B", "name": "b", "pid": 1, "tid": 1}
    e = {"ph": "E", "pid": 1, "tid": 1}
    assert problems(named({**b, "ts": 1}, {**e, "ts": 2})) == []
    assert "back in time" in problems(named({**b, "ts": 5}, {**e, "ts": 2}))[0]
    assert "B without E" in problems(named({**b, "ts": 5}))[0]


def test_checker_rejects_unmatched_flows() -> None:
    s = {"ph": "s", "name": "w", "cat": "c", "id": 1, "pid": 1, "tid": 1, "ts": 1}
    f = {"ph": "f", "bp": "e", "name": "w", "cat": "c", "id": 1, "pid": 1, "tid": 1, "ts": 4}
    assert problems(named(x(0, 10), s, f)) == []
    assert "0 f" in problems(named(x(0, 10), s))[0]
    assert "binds to no slice" in problems(named(x(0, 2), s, f))[0]


def random_schedule(seed: int, steps: int = 1500) -> Scenario:
    """Threads made ready (from threads and interrupt handlers) and switched in at random."""
    rng = random.Random(seed)
    threads = [Thread(0x1000 * (i + 1), f"t{i}", i + 1) for i in range(6)]
    sc = Scenario(threads)
    sc.add_object(0x90000, "mutex", "mx")
    sc.add_object(0x91000, "semaphore", "sem")
    sc.running = threads[-1].address
    ready: set[int] = set()
    for _ in range(steps):
        sc.at(sc.now + rng.randrange(1, 50))
        r = rng.random()
        if r < 0.3:
            t = rng.choice(threads).address
            if t != sc.running:
                sc.ready(t, irq=11 if rng.random() < 0.5 else 0)
                ready.add(t)
        elif r < 0.6 and ready:
            state = rng.choice(["ready", "pending", "sleeping"])
            sc.switch(ready.pop(), state, 0x90000 if state == "pending" else 0)
        elif r < 0.8:
            sc.service("SEM_GIVE", 0x91000)
        else:
            sc.isr(3)
    return sc


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("slots", [None, 400])
def test_random_schedules(seed: int, slots: int | None) -> None:
    sc = random_schedule(seed)
    trace = decode(sc.encode(slots=slots, ptr_size=8).data, "r.tctrace")
    analysis = analyze(trace, "r.tctrace")
    doc = json.loads(json.dumps(perfetto(trace, analysis)))
    assert problems(doc) == []
    assert doc["otherData"]["wakeups_without_arrow"] == 0
    assert sum(e["ph"] == "s" for e in doc["traceEvents"]) == len(analysis["wakeups"]) > 20
    # One context runs at any time: running slices tile the span exactly.
    running = sum(
        s["end_us"] - s["start_us"] for s in analysis["slices"] if s["state"] == "running"
    )
    assert running == pytest.approx(analysis["summary"]["duration_us"])
    assert analysis["summary"]["switches"] == sum(t["switches_in"] for t in
                                                  analysis["summary"]["threads"]) + sum(
        1 for e in trace.events if e.name == "SWITCH" and e.ctx == 0
    )  # fmt: skip
