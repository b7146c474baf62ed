# SPDX-License-Identifier: MIT
"""A hand-made analysis dict (schema 1 of tacet.trace.analysis) for the report's tests.

A small periodic system, simulated in a few lines rather than decoded from a dump, so that the
report's tests do not depend on the kernel or the decoder: a timer HISR releases High, Medium
and Low each period; High sometimes preempts Low mid-period; in one period Low holds a mutex
High wants while Medium runs (an unbounded inversion), in another Low runs at High's inherited
priority (a bounded one). Idle runs the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PERIOD_US = 1000.0
HISR = "0x20000400"
HIGH = "0x20000100"
MEDIUM = "0x20000200"
LOW = "0x20000300"
IDLE = "0x0"
PRIORITY = {HISR: 0, HIGH: 2, MEDIUM: 5, LOW: 9, IDLE: None}
CONTEXTS = [
    {"id": HISR, "name": "tick_hisr", "kind": "hisr", "priority": 0, "threshold": None},
    {"id": HIGH, "name": "High", "kind": "thread", "priority": 2, "threshold": 2},
    {"id": MEDIUM, "name": "Medium", "kind": "thread", "priority": 5, "threshold": 5},
    {"id": LOW, "name": "Low", "kind": "thread", "priority": 9, "threshold": 9},
    {"id": IDLE, "name": "idle", "kind": "idle", "priority": None, "threshold": None},
]
THREADS = (HIGH, MEDIUM, LOW)


@dataclass
class _Sim:
    t: float = 0.0
    running: str = IDLE
    slices: list[dict] = field(default_factory=list)
    open: dict[str, tuple[str, float, str | None, int | None]] = field(default_factory=dict)
    switches: list[list[float]] = field(default_factory=list)
    ready_since: dict[str, float] = field(default_factory=dict)
    blocked_since: dict[str, float] = field(default_factory=dict)
    response: dict[str, list[float]] = field(default_factory=dict)
    blocking: dict[str, list[float]] = field(default_factory=dict)
    preempted_by: dict[tuple[str, str], int] = field(default_factory=dict)
    ready_queue: list[list[float]] = field(default_factory=list)

    def state(
        self, ctx: str, state: str | None, obj: str | None = None, prio: int | None = None
    ) -> None:
        """``ctx`` enters ``state`` now (None: no slice, as an HISR between runs)."""
        previous = self.open.pop(ctx, None)
        if previous is not None and previous[1] < self.t:
            p_state, start, p_obj, p_prio = previous
            self.slices.append(
                {
                    "ctx": ctx,
                    "start_us": round(start, 3),
                    "end_us": round(self.t, 3),
                    "state": p_state,
                    "object": p_obj,
                    "priority": p_prio,
                    "threshold": PRIORITY[ctx] if ctx in THREADS else None,
                }
            )
        if ctx in THREADS:
            was = previous[0] if previous else None
            if state in ("ready",) and was not in ("ready", "preempted", "running"):
                self.ready_since[ctx] = self.t
                if ctx in self.blocked_since:
                    self.blocking.setdefault(ctx, []).append(self.t - self.blocked_since.pop(ctx))
            if state in ("blocked", "sleeping") and ctx in self.ready_since:
                self.response.setdefault(ctx, []).append(self.t - self.ready_since.pop(ctx))
            if state == "blocked":
                self.blocked_since[ctx] = self.t
        if state is not None:
            base = PRIORITY[ctx]
            self.open[ctx] = (state, self.t, obj, base if prio is None else prio)
        ready = sum(
            1 for c, o in self.open.items() if c in THREADS and o[0] in ("ready", "preempted")
        )
        if not self.ready_queue or self.ready_queue[-1][1] != ready:
            self.ready_queue.append([round(self.t, 3), ready])

    def switch(
        self, to: str, why: str = "ready", obj: str | None = None, prio: int | None = None
    ) -> None:
        """The CPU goes from the running context to ``to``; the old one leaves as ``why``."""
        old = self.running
        if why == "preempted" and old in THREADS:
            self.preempted_by[(old, to)] = self.preempted_by.get((old, to), 0) + 1
        self.state(old, None if old == HISR else why, obj)
        self.state(to, "running", prio=prio)
        self.running = to
        self.switches.append([round(self.t, 3), len(self.switches) + 1])

    def run(self, us: float) -> None:
        self.t += us


def _preempt_by_high(sim: _Sim, k: int) -> None:
    """A second interrupt: its HISR readies High, which preempts the running thread and
    hands the CPU back to it when it blocks again."""
    victim = sim.running
    sim.switch(HISR, "preempted")
    sim.run(9 + k % 3)
    sim.state(HIGH, "ready")
    sim.switch(HIGH)
    sim.run(25)
    sim.switch(victim, "blocked", "sem_tick")


def _inverted(sim: _Sim, *, inherit: bool) -> dict:
    """Low holds the mutex High asks for: without inheritance Medium runs meanwhile
    (unbounded), with it Low runs at High's priority until it gives the mutex back."""
    sim.run(30)
    sim.switch(HISR, "preempted")
    sim.run(10)
    sim.state(HIGH, "ready")
    sim.state(MEDIUM, "ready")
    sim.switch(HIGH)
    sim.run(8)
    start = sim.t
    if inherit:
        sim.switch(LOW, "blocked", "shared_mutex", prio=PRIORITY[HIGH])
    else:
        sim.switch(MEDIUM, "blocked", "shared_mutex")
        sim.run(150)
        sim.switch(LOW, "sleeping")
    sim.run(35)
    inversion = _inversion(start, sim.t, "shared_mutex", bounded=inherit)
    sim.state(HIGH, "ready")
    sim.switch(HIGH, "preempted")
    sim.run(20)
    if inherit:
        sim.switch(MEDIUM, "blocked", "sem_tick")
        sim.run(70)
        sim.switch(LOW, "sleeping")
    else:
        sim.switch(LOW, "blocked", "sem_tick")
    return inversion


def _period(sim: _Sim, k: int) -> list[dict]:
    """One period of the system; returns the inversions it contains."""
    sim.t = k * PERIOD_US
    # The tick: its ISR readies the HISR, which readies the threads.
    sim.switch(HISR, "preempted" if sim.running != IDLE else "ready")
    sim.run(12 + k % 5)
    for ctx in THREADS if k % 2 == 0 else (HIGH, MEDIUM):
        sim.state(ctx, "ready")
    sim.switch(HIGH)
    sim.run(40 + (k * 7) % 25)
    sim.switch(MEDIUM, "blocked", "sem_tick")
    sim.run(60 + (k * 13) % 30)
    if k % 6 == 3:
        _preempt_by_high(sim, k)
    sim.run(60 + (k * 5) % 30)
    if k % 2 == 1:
        sim.switch(IDLE, "sleeping")
        return []
    sim.switch(LOW, "sleeping")
    inversions = []
    if k in (10, 24):
        inversions.append(_inverted(sim, inherit=k == 24))
    elif k % 4 == 2:
        sim.run(90)
        _preempt_by_high(sim, k)
    sim.run(110 + (k * 11) % 80)
    sim.switch(IDLE, "blocked", "queue_rx")
    return inversions


def _inversion(start: float, end: float, obj: str, *, bounded: bool) -> dict:
    return {
        "start_us": round(start, 3),
        "end_us": round(end, 3),
        "high": HIGH,
        "low": LOW,
        "medium": MEDIUM,
        "object": obj,
        "bounded": bounded,
    }


def _stats(values: list[float]) -> dict | None:
    if not values:
        return None
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {
        "count": len(values),
        "min": ordered[0],
        "avg": sum(values) / len(values),
        "max": ordered[-1],
        "p99": p99,
    }


def make_analysis(periods: int = 40) -> dict:
    """The analysis dict of ``periods`` periods of the system (40: about 400 slices)."""
    sim = _Sim()
    sim.open[IDLE] = ("running", 0.0, None, None)
    inversions: list[dict] = []
    for k in range(periods):
        inversions += _period(sim, k)
    sim.t = periods * PERIOD_US
    for ctx in list(sim.open):
        sim.state(ctx, None)
    slices = sorted(sim.slices, key=lambda s: (s["start_us"], s["ctx"]))
    duration = sim.t
    ids = [c["id"] for c in CONTEXTS]
    run_us = {c: 0.0 for c in ids}
    switches_in = {c: 0 for c in ids}
    for s in slices:
        if s["state"] == "running":
            run_us[s["ctx"]] += s["end_us"] - s["start_us"]
            switches_in[s["ctx"]] += 1
    windows = 100
    width = duration / windows
    load = []
    for w in range(windows):
        a, b = w * width, (w + 1) * width
        busy = sum(
            max(0.0, min(b, s["end_us"]) - max(a, s["start_us"]))
            for s in slices
            if s["state"] == "running" and s["ctx"] != IDLE
        )
        load.append([round(a, 3), round(busy / width, 4)])
    threads = [
        {
            "ctx": c["id"],
            "name": c["name"],
            "run_us": round(run_us[c["id"]], 3),
            "share": run_us[c["id"]] / duration,
            "switches_in": switches_in[c["id"]],
            "preempted": sum(n for (v, _), n in sim.preempted_by.items() if v == c["id"]),
            "response_us": _stats(sim.response.get(c["id"], [])),
            "blocking_us": _stats(sim.blocking.get(c["id"], [])),
        }
        for c in CONTEXTS
    ]
    return {
        "schema": 1,
        "source": {
            "file": "fixture.tctrace",
            "port": "sim",
            "cpu": "host",
            "clock_hz": 1_000_000,
            "tick_hz": 1000,
            "clock_note": "virtual cycles of the sim port",
        },
        "span": {"start_us": 0.0, "end_us": duration},
        "events": {
            "recorded": 6 * len(slices),
            "kept": 6 * len(slices),
            "lost": 0,
            "wrapped": False,
        },
        "contexts": CONTEXTS,
        "slices": slices,
        "counters": {"switches": sim.switches, "cpu_load": load, "ready_queue": sim.ready_queue},
        "summary": {
            "switches": len(sim.switches),
            "preemptions": sum(sim.preempted_by.values()),
            "interrupts": periods
            + sum(1 for k in range(periods) if k % 4 == 2 or k % 6 == 3 or k in (10, 24)),
            "duration_us": duration,
            "threads": threads,
        },
        "preemptions": {
            "ctx": ids,
            "counts": [[sim.preempted_by.get((v, by), 0) for by in ids] for v in ids],
        },
        "response_times": {c: sim.response.get(c, []) for c in THREADS},
        "blocking_times": {c: sim.blocking.get(c, []) for c in THREADS},
        "inversions": inversions,
        "user_events": [
            {"t_us": k * PERIOD_US + 5.0, "ctx": HIGH, "id": 4096, "a": k, "b": 0}
            for k in range(0, periods, 10)
        ],
    }
