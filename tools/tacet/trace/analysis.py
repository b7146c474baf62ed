# SPDX-License-Identifier: MIT
"""What a decoded trace says about the schedule: the analysis dict (schema 2).

``analyze(trace, source)`` walks the events once and returns a JSON-serialisable dict: every
context's state over time as slices (running, ready, preempted, held off by the running
thread's threshold or scheduler lock, blocked, sleeping, suspended), counters (cumulative
switches, CPU load per window, ready-queue length, the CPU share per context and the switch
rate per bin), a per-thread summary (run time and share, switches in, preemptions, times held
off, response and blocking times), who preempted whom, priority inversions, the application's
user events and the event list (each event as a sentence). The definitions are in
docs/trace.md ("Analysis definitions"); times are microseconds of the target clock, whose
rates over the span ``source.clock_rates`` gives.

The dict also carries ``events.notes`` (what the decoder says is missing), ``isr_slices``
(interrupt handler intervals) and ``wakeups`` (each READY event and the switch-in it led to),
which ``tacet trace --perfetto`` draws, and ``energy`` (None without an energy snapshot or
POWER events): the energy per context, idle and the context-switch path computed from the
kernel's snapshot with the model of tacet.power.energy, as tc_energy_report() computes it, and the
operating point over time.
"""

import bisect
import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tacet.power import energy as model
from tacet.power.tables import Point, Table
from tacet.trace.format import (
    EV,
    OBJ,
    SERVICES,
    STATE,
    SVC,
    EnergySnapshot,
    Event,
    Trace,
    status_name,
)

SCHEMA = 2
LOAD_WINDOWS = 100
NO_PT = 0xFFFFFFFF
IDLE_ID = "0x0"

_WAIT_STATES = {
    STATE["suspended"]: "suspended",
    STATE["sleeping"]: "sleeping",
    STATE["pending"]: "blocked",
}
_GONE_STATES = {STATE["completed"], STATE["terminated"]}
# Waiting for the CPU: ready (made ready, or yielded), preempted, and held off by the running
# thread -- its preemption threshold ("held") or its scheduler lock ("deferred") -- though of
# a more urgent priority than it.
_WAITING = ("ready", "preempted", "held", "deferred")
SHARE_BINS = 200
# TC_POLICY_* (include/tacet/power.h), by value.
POLICIES = ("fixed", "idle scaling", "load scaling", "static", "RT-DVS")


def ctx_id(address: int) -> str:
    return f"0x{address:x}"


def clock_note(
    port: str, clock_hz: int, follows: bool = False, rates: Sequence[Sequence[float]] = ()
) -> str:
    if port == "cortex-m":
        return (
            f"tc_cycles() at {clock_hz} Hz; under QEMU (-icount shift=5) one unit is one "
            "instruction at the icount rate (2^5 ns of virtual time each), not a CPU cycle"
        )
    if follows:
        used = sorted({int(hz) for _, hz in rates})
        during = (
            f"{_mhz(used[0])} over the whole span"
            if len(used) == 1
            else "rates " + ", ".join(_mhz(hz) for hz in used) + " over the span"
        )
        return (
            f"tc_cycles() of the {port or 'target'} port's clock, which follows the operating "
            f"point: {during} (the header's {_mhz(clock_hz)} is the rate when tracing began; "
            "times are converted at each rate, from the POWER events)"
        )
    return f"tc_cycles() at {clock_hz} Hz of the {port or 'target'} port's clock"


def stats(values: list[float]) -> dict[str, Any] | None:
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(0.99 * len(ordered)))
    return {
        "count": len(ordered),
        "min": ordered[0],
        "avg": sum(ordered) / len(ordered),
        "max": ordered[-1],
        "p99": ordered[rank - 1],
    }


@dataclass
class _Open:
    state: str
    since: int
    obj: int = 0
    priority: int | None = None
    threshold: int | None = None
    seq: int | None = None  # of the event that began it: names `obj` as it was then
    holder: int = 0  # held, deferred: the running thread that holds it off


@dataclass
class _Wait:
    """A thread waiting on a mutex or semaphore held by a thread of lower base priority."""

    high: int
    low: int
    obj: int
    priority: int  # the waiter's effective priority
    low_base: int
    start: int
    end: int | None = None
    seq: int | None = None


@dataclass
class _Walk:
    trace: Trace
    start: int
    end: int
    events: list[Event]
    kinds: dict[int, str] = field(default_factory=dict)
    base: dict[int, int] = field(default_factory=dict)  # user priority of each thread
    effective: dict[int, tuple[int | None, int | None]] = field(default_factory=dict)
    open: dict[int, _Open] = field(default_factory=dict)
    seen: set[int] = field(default_factory=set)  # contexts whose state is known
    slices: list[tuple[int, int, int, _Open]] = field(default_factory=list)
    yielded: set[int] = field(default_factory=set)
    job_start: dict[int, int] = field(default_factory=dict)
    response: dict[int, list[int]] = field(default_factory=dict)
    block_start: dict[int, tuple[int, int]] = field(default_factory=dict)
    blocking: dict[int, list[int]] = field(default_factory=dict)
    switches_in: dict[int, int] = field(default_factory=dict)
    preempted: dict[int, int] = field(default_factory=dict)
    matrix: dict[tuple[int, int], int] = field(default_factory=dict)
    switch_times: list[int] = field(default_factory=list)
    preemptions: int = 0
    interrupts: int = 0
    isr_open: tuple[int, int] | None = None
    isrs: list[tuple[int, int, int]] = field(default_factory=list)
    ready_series: list[tuple[int, int]] = field(default_factory=list)
    woken: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    wakeups: list[dict[str, Any]] = field(default_factory=list)
    owner: dict[int, tuple[int, int, bool]] = field(default_factory=dict)  # mutex: owner, count
    taker: dict[int, int] = field(default_factory=dict)  # semaphore: last thread to take it
    waits: list[_Wait] = field(default_factory=list)
    open_waits: dict[int, _Wait] = field(default_factory=dict)
    user: list[dict[str, Any]] = field(default_factory=list)
    seq: int | None = None  # the event being walked
    current: int = 0  # the running context (0: idle); an interrupt handler runs on its time
    locked: dict[int, int] = field(default_factory=dict)  # scheduler lock nesting per thread
    wait_base: dict[int, str] = field(default_factory=dict)  # ready or preempted, held or not
    preempt_times: list[int] = field(default_factory=list)
    left_as: str | None = None  # the last SWITCH: the state the context switched out entered

    def kind(self, address: int) -> str:
        if address == 0:
            return "idle"
        return self.kinds.setdefault(address, "thread")

    def object_type(self, address: int, seq: int) -> str | None:
        obj = self.trace.object_at(address, seq)
        return obj.type_name if obj is not None else None

    def set_state(self, ctx: int, t: int, state: str | None, obj: int = 0, holder: int = 0) -> None:
        self.kind(ctx)
        self.seen.add(ctx)
        before = self.open.pop(ctx, None)
        if before is not None and t > before.since:
            self.slices.append((before.since, t, ctx, before))
        if state is not None:
            prio, thr = self.effective.get(ctx, (None, None))
            self.open[ctx] = _Open(state, t, obj, prio, thr, self.seq, holder)
        self.note_ready_queue(t)

    def waiting_state(self, ctx: int) -> tuple[str, int]:
        """Why thread ``ctx``, waiting for the CPU, does not have it: held off by the running
        thread's preemption threshold or scheduler lock when its priority is more urgent than
        that thread's (and the running thread as holder); else as it began to wait (ready or
        preempted: a context at least as urgent runs)."""
        base = self.wait_base.get(ctx, "ready")
        running = self.current
        if running in (0, ctx) or self.kind(running) != "thread" or self.kind(ctx) != "thread":
            return base, 0
        mine = self.effective.get(ctx, (None, None))[0]
        theirs, threshold = self.effective.get(running, (None, None))
        if mine is None or theirs is None or mine >= theirs:
            return base, 0
        if self.locked.get(running):
            return "deferred", running
        if threshold is not None and mine >= threshold:
            return "held", running
        return base, 0  # about to preempt (at the end of an interrupt handler, say)

    def reclassify(self, t: int) -> None:
        """After the running thread, its priority, threshold or lock changed, or a thread was
        made ready: each waiting thread's reason, a new slice where it changed."""
        for ctx, o in list(self.open.items()):
            if o.state not in _WAITING or ctx == self.current:
                continue
            state, holder = self.waiting_state(ctx)
            if state != o.state or holder != o.holder:
                self.set_state(ctx, t, state, holder=holder)

    def note_ready_queue(self, t: int) -> None:
        n = sum(1 for c, o in self.open.items() if c != 0 and o.state in _WAITING)
        series = self.ready_series
        if series and series[-1][0] == t:  # several changes at one time: keep the last
            series.pop()
        if not series or series[-1][1] != n:
            series.append((t, n))

    def set_effective(self, ctx: int, pt: int) -> None:
        if pt != NO_PT:
            self.effective[ctx] = (pt & 0xFFFF, pt >> 16)

    # --- events ----------------------------------------------------------------------

    def left_state(self, leaving: int, state: int, obj: int, to: int) -> str | None:
        """The state a context switched out enters (None: it has no slice any more)."""
        if state in _GONE_STATES:
            return None
        if self.kind(leaving) == "hisr" and self.kind(to) != "hisr":
            return None  # only an HISR preempts an HISR: this one is done
        if state in _WAIT_STATES:
            return _WAIT_STATES[state]
        if obj:
            return "blocked"
        return "ready" if leaving in self.yielded else "preempted"

    def switch_out(self, leaving: int, state: int, obj: int, to: int, t: int) -> None:
        new_state = self.left_state(leaving, state, obj, to)
        if new_state == "preempted":
            self.preemptions += 1
            self.preempt_times.append(t)
            self.preempted[leaving] = self.preempted.get(leaving, 0) + 1
            self.matrix[(leaving, to)] = self.matrix.get((leaving, to), 0) + 1
        if new_state not in _WAITING and leaving in self.job_start:
            began = self.job_start.pop(leaving)
            self.response.setdefault(leaving, []).append(t - began)
        if new_state in _WAITING:
            self.wait_base[leaving] = new_state
        if state in _GONE_STATES:
            self.locked.pop(leaving, None)  # a thread that ends holds the lock no more
        gone = {STATE["completed"]: "completed", STATE["terminated"]: "terminated"}
        self.left_as = new_state if new_state is not None else gone.get(state, "done")
        self.set_state(leaving, t, new_state, obj=obj)

    def on_switch(self, e: Event) -> None:
        # Recorded as an event of the context switched in (its priority and threshold are
        # the event's own); the arguments describe the one switched out.
        leaving, state, obj, _ = e.args
        to = e.ctx
        t = e.time
        self.switch_times.append(t)
        if leaving != 0:
            self.switch_out(leaving, state, obj, to, t)
        else:
            self.left_as = None
            self.set_state(0, t, None)
        self.yielded.discard(leaving)
        if e.priority is not None and e.threshold is not None:
            self.effective[to] = (e.priority, e.threshold)
        self.switches_in[to] = self.switches_in.get(to, 0) + 1
        if to != 0 and to not in self.seen:
            self.job_start[to] = t  # first seen at its switch-in: its job starts there
        self.current = to
        self.set_state(to, t, "running")
        self.reclassify(t)
        if to in self.woken:
            at, giver, irq = self.woken.pop(to)
            self.wakeups.append({"t_us": at, "from": giver, "irq": irq, "to": to, "run": t})

    def on_ready(self, e: Event) -> None:
        thread, obj, status, pt = e.args
        t = e.time
        self.set_effective(thread, pt)
        self.job_start.setdefault(thread, t)
        if thread in self.block_start:
            began, _ = self.block_start.pop(thread)
            self.blocking.setdefault(thread, []).append(t - began)
        wait = self.open_waits.pop(thread, None)
        if wait is not None and wait.low == 0 and e.irq == 0 and e.ctx not in (0, thread):
            wait.low = e.ctx
            self.inversion_candidate(wait)
            self.open_waits.pop(thread, None)
        if wait is not None:
            wait.end = t
        if obj and status == 0:
            kind = self.object_type(obj, e.seq)
            if kind == "mutex":
                self.owner[obj] = (thread, 0, True)
            elif kind == "semaphore":
                self.taker[obj] = thread
        self.woken[thread] = (t, e.ctx, e.irq)
        current = self.open.get(thread)
        if current is None or current.state != "running":
            self.wait_base[thread] = "ready"
            self.set_state(thread, t, "ready")
            self.reclassify(t)

    def on_block(self, e: Event) -> None:
        obj = e.args[0]
        if not obj or e.ctx == 0:
            return
        self.block_start[e.ctx] = (e.time, obj)
        kind = self.object_type(obj, e.seq)
        if e.priority is None or kind not in ("mutex", "semaphore"):
            return
        if kind == "mutex" and obj not in self.owner:
            # Locked before the trace's first kept event: the thread that hands it over
            # (the READY ending this wait is recorded in its context) is the owner.
            self.open_waits[e.ctx] = _Wait(e.ctx, 0, obj, e.priority, 0, e.time, seq=e.seq)
            return
        holder = self.owner[obj][0] if kind == "mutex" else self.taker.get(obj)
        if holder is not None and holder != e.ctx:
            self.inversion_candidate(_Wait(e.ctx, holder, obj, e.priority, 0, e.time, seq=e.seq))

    def inversion_candidate(self, wait: _Wait) -> None:
        """Keep `wait` when its holder's base priority is below the waiter's."""
        low_base = self.base.get(wait.low, self.effective.get(wait.low, (None, None))[0])
        if low_base is not None and low_base > wait.priority:
            wait.low_base = low_base
            self.waits.append(wait)
            self.open_waits[wait.high] = wait

    def on_isr(self, e: Event) -> None:
        depth = e.args[0]
        if e.id == EV["ISR_ENTER"]:
            self.interrupts += 1
            if self.isr_open is None:
                self.isr_open = (e.time, e.irq)
        elif depth == 0 and self.isr_open is not None:
            self.isrs.append((self.isr_open[0], e.time, self.isr_open[1]))
            self.isr_open = None

    def on_service(self, e: Event) -> None:
        obj, a1, _, status = e.args
        if status != 0:
            return
        if e.id in (SVC["THREAD_CREATE"], SVC["THREAD_PRIORITY_CHANGE"]):
            self.base[obj] = a1
            self.kinds.setdefault(obj, "thread")
        elif e.id == SVC["MUTEX_LOCK"] and e.irq == 0:
            owner, count, handed = self.owner.get(obj, (0, 0, False))
            if owner == e.ctx:
                self.owner[obj] = (owner, 1 if handed else count + 1, False)
            else:
                self.owner[obj] = (e.ctx, 1, False)
        elif e.id == SVC["MUTEX_UNLOCK"] and obj in self.owner:
            owner, count, handed = self.owner[obj]
            if owner == e.ctx and count > 1:
                self.owner[obj] = (owner, count - 1, handed)
            elif owner == e.ctx:
                del self.owner[obj]
        elif e.id in (SVC["MUTEX_DELETE"],):
            self.owner.pop(obj, None)
        elif e.id == SVC["SEM_TAKE"] and e.irq == 0 and e.ctx != 0:
            self.taker[obj] = e.ctx

    def on_lock(self, e: Event) -> None:
        if e.irq == 0 and e.ctx != 0:
            self.locked[e.ctx] = e.args[0]
            self.reclassify(e.time)

    def walk(self, log: Callable[[Event], None] | None = None) -> None:
        """Every event in order; ``log`` is called after each (the event list)."""
        events = self.events
        if events:
            first = events[0]
            self.set_effective(first.ctx, _pt(first))
            self.current = first.ctx
            self.set_state(first.ctx, self.start, "running")
        handlers = {
            EV["SWITCH"]: self.on_switch,
            EV["READY"]: self.on_ready,
            EV["BLOCK"]: self.on_block,
            EV["ISR_ENTER"]: self.on_isr,
            EV["ISR_EXIT"]: self.on_isr,
            EV["LOCK"]: self.on_lock,
        }
        for e in events:
            self.seq = e.seq
            if e.irq == 0 and e.ctx != 0 and e.priority is not None:
                before = self.effective.get(e.ctx)
                self.effective[e.ctx] = (e.priority, e.threshold)
                if e.ctx == self.current and before != self.effective[e.ctx]:
                    self.reclassify(e.time)  # its threshold or priority changed
            if e.ctx in self.yielded and e.irq == 0 and (e.is_service or e.is_user):
                # Its call returned without a switch (no other thread to yield to): the yield
                # is over, and a later switch out in the ready state is a preemption.
                self.yielded.discard(e.ctx)
            if e.id == EV["YIELD"]:
                self.yielded.add(e.ctx)
            elif e.id in handlers:
                handlers[e.id](e)
            elif e.is_service:
                self.on_service(e)
            elif e.is_user:
                self.user.append(
                    {"t": e.time, "ctx": e.ctx, "id": e.id, "a": e.args[0], "b": e.args[1]}
                )
            if log is not None:
                log(e)
        for ctx in list(self.open):
            self.set_state(ctx, self.end, None)
        if self.isr_open is not None:
            self.isrs.append((self.isr_open[0], self.end, self.isr_open[1]))
        self.slices.sort(key=lambda s: (s[0], s[2]))


FOREVER = 0xFFFFFFFF


def _timeout(ticks: int) -> str:
    if ticks == FOREVER:
        return "forever"
    return "no wait" if ticks == 0 else f"{ticks} ticks"


def _mhz(hz: float) -> str:
    return f"{hz / 1e6:g} MHz"


class _EventLog:
    """The event list: each kept event (but TIME and the energy snapshot's records) with its
    time, context and a sentence saying what happened, objects named with their kind."""

    def __init__(self, w: _Walk, us: Callable[[float], float]) -> None:
        self.w = w
        self.trace = w.trace
        self.us = us
        self.entries: list[dict[str, Any]] = []

    def name(self, address: int, seq: int) -> str:
        return self.trace.name_of(address, seq)

    def thing(self, address: int, seq: int) -> tuple[str, str | None]:
        """An object as "queue A", and its kind (None when the registry does not know it)."""
        obj = self.trace.object_at(address, seq)
        kind = obj.type_name if obj is not None else None
        if kind == "hisr":
            kind = "HISR"
        text = self.name(address, seq)
        return (f"{kind} {text}" if kind else text), kind

    def __call__(self, e: Event) -> None:
        if e.id in (EV["TIME"], EV["ENERGY"]):
            return
        obj: int = 0
        status: str | None = None
        if e.is_service:
            kind, text, obj, status = "service", *self.service(e)
        elif e.is_user:
            kind, text = "user", f"user event {e.id}: a={e.args[0]}, b={e.args[1]}"
        else:
            kind, text, obj = self.kernel(e)
        thing, object_kind = self.thing(obj, e.seq) if obj else (None, None)
        self.entries.append(
            {
                "t_us": self.us(e.time),
                "ctx": ctx_id(e.ctx),
                "irq": e.irq,
                "event": e.name if not e.is_service else "tc_" + e.name.lower(),
                "kind": kind,
                "text": text,
                "object": self.name(obj, e.seq) if obj else None,
                "object_kind": object_kind if thing else None,
                "status": status,
            }
        )

    def service(self, e: Event) -> tuple[str, int, str]:
        service = SERVICES[e.id]
        obj, a1, a2, status = e.args
        words = [self.thing(obj, e.seq)[0]] if obj else []
        for label, value in ((service.a1, a1), (service.a2, a2)):
            if label is None:
                continue
            if label == "timeout":
                words.append(f"timeout {_timeout(value)}")
            elif label in ("block", "memory", "message"):
                words.append(f"{label} 0x{value:x}")
            else:
                words.append(f"{label} {value}")
        name = status_name(status)
        return f"tc_{service.name.lower()}({', '.join(words)}) \u2192 {name}", obj, name

    def kernel(self, e: Event) -> tuple[str, str, int]:
        a0, a1, a2, a3 = e.args
        seq = e.seq
        me = self.name(e.ctx, seq)
        if e.id == EV["SWITCH"]:
            left = {
                "preempted": "preempted", "ready": "yielded", "blocked": f"waits on "
                f"{self.thing(a2, seq)[0]}", "sleeping": "sleeps", "suspended": "suspended",
                "completed": "completed", "terminated": "terminated", "done": "done",
                "held": "preempted", "deferred": "preempted",
            }  # fmt: skip
            why = left.get(self.w.left_as or "", "")
            gone = f" ({self.name(a0, seq)} {why})" if a0 and why else ""
            return "switch", f"switch: {self.name(a0, seq)} \u2192 {me}{gone}", a2
        if e.id == EV["READY"]:
            text = f"{self.name(a0, seq)} ready"
            if a1:
                text += f" (its wait on {self.thing(a1, seq)[0]} ended: {status_name(a2)})"
            o = self.w.open.get(a0)
            if o is not None and o.state in ("held", "deferred"):
                holder = self.name(o.holder, seq)
                thr = self.w.effective.get(o.holder, (None, None))[1]
                text += (
                    f"; held off by {holder}'s preemption threshold {thr}"
                    if o.state == "held"
                    else f"; held off by {holder}'s scheduler lock"
                )
            return "ready", text, a1
        if e.id == EV["BLOCK"]:
            if not a0:
                return "block", f"{me} sleeps {_timeout(a1)}", 0
            return "block", f"{me} waits on {self.thing(a0, seq)[0]} ({_timeout(a1)})", a0
        if e.id in (EV["ISR_ENTER"], EV["ISR_EXIT"]):
            verb = "enters" if e.id == EV["ISR_ENTER"] else "returns"
            return "isr", f"interrupt {e.irq} {verb} (nesting {a0})", 0
        texts = {
            EV["HISR_RUN"]: lambda: f"HISR {self.name(a0, seq)} runs",
            EV["TIMER_EXPIRE"]: lambda: f"timer {self.name(a0, seq)} expires"
            + (f" (period {a1} ticks)" if a1 else " (one-shot)"),
            EV["TICK"]: lambda: f"tick {a0}",
            EV["STACK"]: lambda: f"{self.name(a0, seq)}: stack high water {a1} of {a2} bytes",
            EV["YIELD"]: lambda: f"{me} yields" if a0 == 1 else f"{me}: its time slice ends",
            EV["ENABLE"]: lambda: "tracing starts ("
            + ("stop" if a0 & 1 else "wrap") + " mode)",
            EV["POWER"]: lambda: f"operating point {a0}: {_mhz(a1)}, {a2 / 1000:g} V",
            EV["POLICY"]: lambda: "power policy: "
            + (POLICIES[a0] if a0 < len(POLICIES) else f"policy {a0}") + f" (point {a1})",
            EV["LOCK"]: lambda: f"{me} takes the scheduler lock (nesting {a0})"
            if a0 else f"{me} releases the scheduler lock",
        }  # fmt: skip
        del a3
        return "kernel", texts[e.id]() if e.id in texts else e.name, 0


def _pt(e: Event) -> int:
    if e.priority is None:
        return NO_PT
    return e.priority | (e.threshold if e.threshold is not None else e.priority) << 16


def _overlap(a0: int, a1: int, b0: int, b1: int) -> int:
    return max(0, min(a1, b1) - max(a0, b0))


def _load(w: _Walk, us: Callable[[float], float], windows: int = LOAD_WINDOWS) -> list[list[float]]:
    span = w.end - w.start
    if span <= 0:
        return []
    width = span / windows
    idle = [0.0] * windows

    def spread(lo: int, hi: int, sign: float) -> None:
        first = min(windows - 1, int((lo - w.start) / width))
        for k in range(first, windows):
            w_lo = w.start + k * width
            if w_lo >= hi:
                break
            idle[k] += sign * max(0.0, min(hi, w_lo + width) - max(lo, w_lo))

    idle_slices = [(s0, s1) for s0, s1, c, o in w.slices if c == 0 and o.state == "running"]
    isr_ends = [i1 for _, i1, _ in w.isrs]  # in order, never overlapping
    for s0, s1 in idle_slices:
        spread(s0, s1, 1.0)
        for i0, i1, _ in w.isrs[bisect.bisect_right(isr_ends, s0) :]:
            if i0 >= s1:
                break
            spread(max(s0, i0), min(s1, i1), -1.0)  # an interrupt handler on idle's time
    return [
        [us(w.start + k * width), round(max(0.0, min(1.0, 1.0 - idle[k] / width)), 6)]
        for k in range(windows)
    ]


@dataclass(frozen=True)
class _Bins:
    """SHARE_BINS equal bins over the span, from ``start``, each ``width`` units."""

    start: int
    width: float

    def spread(self, values: list[float], lo: float, hi: float, sign: float = 1.0) -> None:
        """Add ``sign`` times the part of [lo, hi) that falls in each bin."""
        first = max(0, min(SHARE_BINS - 1, int((lo - self.start) / self.width)))
        for k in range(first, SHARE_BINS):
            b_lo = self.start + k * self.width
            if b_lo >= hi:
                break
            values[k] += sign * max(0.0, min(hi, b_lo + self.width) - max(lo, b_lo))


def _share(w: _Walk, ordered: list[int], us: Callable[[float], float]) -> dict[str, Any] | None:
    """The CPU's time per context over the span in SHARE_BINS bins, as fractions of a bin:
    each context's running time less the interrupt handlers that ran on it, and the interrupt
    handlers' ("isr"); with idle, they add up to 1 in every bin."""
    span = w.end - w.start
    if span <= 0:
        return None
    width = span / SHARE_BINS
    bins = _Bins(w.start, width)
    share = {c: [0.0] * SHARE_BINS for c in ordered}
    isr = [0.0] * SHARE_BINS
    running = sorted((s0, s1, c) for s0, s1, c, o in w.slices if o.state == "running")
    ends = [s1 for _, s1, _ in running]
    for s0, s1, c in running:
        bins.spread(share.setdefault(c, [0.0] * SHARE_BINS), s0, s1)
    for i0, i1, _ in w.isrs:
        bins.spread(isr, i0, i1)
        for s0, s1, c in running[bisect.bisect_right(ends, i0) :]:
            if s0 >= i1:
                break
            bins.spread(share[c], max(s0, i0), min(s1, i1), -1.0)
    return {
        "start_us": us(w.start),
        "width_us": us(w.start + width) - us(w.start),
        "ctx": [ctx_id(c) for c in ordered],
        "share": [[round(max(0.0, v / width), 4) for v in share[c]] for c in ordered],
        "isr": [round(v / width, 4) for v in isr],
    }


def _rate(w: _Walk, times: Sequence[int]) -> list[int]:
    """How many of ``times`` fall in each of the SHARE_BINS bins of the span."""
    span = w.end - w.start
    counts = [0] * SHARE_BINS
    if span <= 0:
        return counts
    for t in times:
        counts[max(0, min(SHARE_BINS - 1, int((t - w.start) * SHARE_BINS / span)))] += 1
    return counts


def _clock_rates(trace: Trace, start: int, us: Callable[[float], float]) -> list[list[float]]:
    """[start_us, Hz] of each rate the clock ran at over the span (one when it never changed)."""
    h = trace.header
    if not trace.clock:
        return [[us(start), h.clock_hz]]
    rates: list[list[float]] = []
    for _, units, hz in trace.clock:
        at = max(us(units), us(start))
        if rates and rates[-1][0] >= at:
            rates.pop()  # changed before the span began: the later rate holds from its start
        rates.append([at, hz])
    return rates


_Slices = dict[int, list[tuple[int, int, _Open]]]


def _involvement(
    w: _Walk, wait: _Wait, end: int, per_ctx: _Slices, ends: dict[int, list[int]]
) -> tuple[dict[int, int], dict[int, int], bool]:
    """How long each intermediate thread ran and waited ready during `wait`; whether the
    holder ran at an inherited priority (at least the waiter's) throughout."""
    ran: dict[int, int] = {}
    held_off: dict[int, int] = {}
    inherited = True
    for ctx, slices in per_ctx.items():
        if ctx == wait.high or w.kind(ctx) != "thread":
            continue
        # A context's slices never overlap: the first that ends after the wait's start and
        # those after it, up to the wait's end.
        for s0, s1, o in slices[bisect.bisect_right(ends[ctx], wait.start) :]:
            if s0 >= end:
                break
            overlap = _overlap(s0, s1, wait.start, end)
            if ctx == wait.low:
                if o.state == "running" and overlap:
                    inherited &= o.priority is not None and o.priority <= wait.priority
                continue
            if not overlap or o.priority is None:
                continue
            if not wait.priority < o.priority < wait.low_base:
                continue
            if o.state == "running":
                ran[ctx] = ran.get(ctx, 0) + overlap
            elif o.state in _WAITING:
                held_off[ctx] = held_off.get(ctx, 0) + overlap
    return ran, held_off, inherited


def _inversions(
    w: _Walk, name: Callable[[int, int | None], str], us: Callable[[float], float]
) -> list[dict[str, Any]]:
    per_ctx: _Slices = {}
    for s0, s1, ctx, o in w.slices:
        per_ctx.setdefault(ctx, []).append((s0, s1, o))
    ends = {ctx: [s1 for _, s1, _ in v] for ctx, v in per_ctx.items()}
    found = []
    for wait in w.waits:
        end = wait.end if wait.end is not None else w.end
        ran, held_off, inherited = _involvement(w, wait, end, per_ctx, ends)
        involved = ran or held_off
        if not involved:
            continue
        medium = max(involved, key=lambda c: involved[c])
        found.append(
            {
                "start_us": us(wait.start),
                "end_us": us(end),
                "high": ctx_id(wait.high),
                "low": ctx_id(wait.low),
                "medium": ctx_id(medium),
                "object": name(wait.obj, wait.seq),
                "bounded": not ran,
                "inherited": inherited,
                "medium_run_us": us(sum(ran.values())),
                "finished": wait.end is not None,
            }
        )
    return found


def _part(e: model.Energy, total: float) -> dict[str, Any]:
    return {
        "cycles": e.total_cycles,
        "cycles_per_point": list(e.cycles),
        "seconds": e.seconds,
        "dynamic_joules": e.dynamic_joules,
        "static_joules": e.static_joules,
        "joules": e.joules,
        "share": e.joules / total if total else 0.0,
    }


def snapshot_table(snapshot: EnergySnapshot, source: str) -> Table:
    """The board's table as the snapshot gives it, for tacet.power.energy's model."""
    points = tuple(Point(f"p{i}", hz, mv) for i, (hz, mv) in enumerate(snapshot.points))
    return Table(
        path=Path(source),
        display=source,
        sha256="",
        name="trace",
        description="the operating points of the trace's energy snapshot",
        source=source,
        points=points,
        c_eff_farad=snapshot.c_eff_farad,
        p_static_watt=snapshot.p_static_watt,
        notes="",
    )


def _sum(parts: Sequence[Sequence[int]], n: int) -> list[int]:
    return [sum(part[p] for part in parts) for p in range(n)]


def _energy_figures(trace: Trace, snapshot: EnergySnapshot, source: str) -> dict[str, Any]:
    """Energy per context, idle, the switch path and the whole run, as tc_energy_report()
    derives them: the switch path is what elapsed at each point less everything charged."""
    table = snapshot_table(snapshot, source)
    n = len(snapshot.points)
    threads = [c.cycles for c in snapshot.contexts if not c.hisr] + [snapshot.deleted_threads]
    hisrs = [c.cycles for c in snapshot.contexts if c.hisr] + [snapshot.deleted_hisrs]
    thread_cycles, hisr_cycles = _sum(threads, n), _sum(hisrs, n)
    switching = [
        snapshot.elapsed[p] - thread_cycles[p] - hisr_cycles[p] - snapshot.idle[p] for p in range(n)
    ]
    run = model.report(
        table,
        threads=thread_cycles,
        hisrs=hisr_cycles,
        idle=snapshot.idle,
        switching=switching,
        context_switches=snapshot.context_switches,
    )
    total = run.total.joules
    contexts = []
    for c in snapshot.contexts:
        part = _part(model.energy(table, c.cycles), total)
        contexts.append(
            {
                "ctx": ctx_id(c.address),
                "name": trace.name_of(c.address, snapshot.seq),
                "kind": "hisr" if c.hisr else "thread",
                **part,
            }
        )
    contexts.sort(key=lambda c: (-c["joules"], c["name"]))
    elapsed = sum(snapshot.elapsed)
    return {
        "points": [
            {
                "index": i,
                "hz": hz,
                "millivolt": mv,
                "watts": model.power_watts(table, i),
                "cycles": snapshot.elapsed[i],
                "share": snapshot.elapsed[i] / elapsed if elapsed else 0.0,
            }
            for i, (hz, mv) in enumerate(snapshot.points)
        ],
        "c_eff_farad": snapshot.c_eff_farad,
        "p_static_watt": snapshot.p_static_watt,
        "policy": POLICIES[snapshot.policy]
        if snapshot.policy < len(POLICIES)
        else f"policy {snapshot.policy}",
        "point": snapshot.point,
        "point_changes": snapshot.point_changes,
        "modelled": snapshot.modelled,
        "contexts": contexts,
        "threads": _part(run.threads, total),
        "hisrs": _part(run.hisrs, total),
        "deleted_threads": _part(model.energy(table, snapshot.deleted_threads), total),
        "deleted_hisrs": _part(model.energy(table, snapshot.deleted_hisrs), total),
        "idle": _part(run.idle, total),
        "switching": _part(run.switching, total),
        "total": _part(run.total, total),
        "context_switches": run.context_switches,
        "joules_per_switch": run.joules_per_switch,
    }


def _energy(
    trace: Trace, source: str, events: Sequence[Event], us: Callable[[float], float], end: int
) -> dict[str, Any] | None:
    """The analysis dict's ``energy`` (docs/trace.md, "Energy"), None when the dump has
    neither a snapshot nor a POWER event."""
    snapshot = trace.energy
    changes = [e for e in events if e.id == EV["POWER"]]
    if trace.energy_status == "none" and not changes:
        return None
    # The operating point over the span: each POWER event; with none kept, the point did not
    # change in the span (every change is recorded), so the snapshot's held throughout.
    series = [[us(e.time), e.args[0], e.args[1], e.args[2]] for e in changes]
    if not changes and snapshot is not None:
        hz, mv = snapshot.points[snapshot.point]
        start = events[0].time if events else trace.header.start
        series = [[us(start), snapshot.point, hz, mv]]
    if series:
        series.append([us(end), *series[-1][1:]])
    notes = {
        "none": "no energy snapshot in this trace (the kernel records it when tracing is "
        "disabled, with TC_POWER=1 and a table installed)",
        "missing": "the energy snapshot was recorded but lost (see the notes above)",
        "partial": "the energy snapshot is partial (see the notes above): no figures shown",
    }
    result: dict[str, Any] = {
        "status": trace.energy_status,
        "note": notes.get(trace.energy_status),
        "point_series": series,
        "point_events": len(changes),
    }
    if snapshot is not None:
        result.update(_energy_figures(trace, snapshot, source))
    return result


def analyze(trace: Trace, source: str) -> dict[str, Any]:
    """The analysis dict of schema 2 for `trace`, read from `source` (a file name)."""
    h = trace.header
    # The schedule ends where the energy snapshot begins (the kernel closed its books there);
    # the snapshot's records and the closing TIME event are not part of it.
    energy_at = next((i for i, e in enumerate(trace.events) if e.id == EV["ENERGY"]), None)
    events = trace.events if energy_at is None else trace.events[:energy_at]
    if trace.clock:  # the clock changed rate: times in units of the header's clock_hz
        events = [dataclasses.replace(e, time=trace.clock_time(e.time)) for e in events]
    start = events[0].time if events else h.start
    end = events[-1].time if events else h.start
    if energy_at is not None:
        end = trace.clock_time(trace.events[energy_at].time)
        start = start if events else end
    w = _Walk(trace, start, end, events)
    for obj in trace.objects:
        if obj.type in (OBJ["thread"], OBJ["hisr"]):
            w.kinds[obj.address] = obj.type_name
            if obj.type == OBJ["thread"]:
                w.base.setdefault(obj.address, obj.extra)

    def us(t: float) -> float:
        return round(t * 1e6 / h.clock_hz, 6)

    log = _EventLog(w, us)
    w.walk(log)

    last_seq = events[-1].seq if events else None

    def name(address: int, seq: int | None = last_seq) -> str:
        return trace.name_of(address, seq)

    def priority_key(address: int) -> tuple[int, int, int]:
        kind = w.kind(address)
        rank = {"hisr": 0, "thread": 1, "idle": 2}[kind]
        prio = w.base.get(address, w.effective.get(address, (None, None))[0])
        return (rank, prio if prio is not None else 1 << 20, address)

    addresses = set(w.kinds) | {c for _, _, c, _ in w.slices} | {0}
    addresses |= {e.ctx for e in events}
    ordered = sorted(addresses, key=priority_key)
    contexts = []
    for a in ordered:
        prio, thr = w.effective.get(a, (None, None))
        kind = w.kind(a)
        contexts.append(
            {
                "id": ctx_id(a),
                "name": "idle" if a == 0 else name(a),
                "kind": kind,
                "priority": w.base.get(a, prio) if kind == "thread" else prio,
                "threshold": thr,
            }
        )

    def object_kind(address: int, seq: int | None) -> str | None:
        obj = trace.object_at(address, seq)
        return obj.type_name if obj is not None else None

    slices = [
        {
            "ctx": ctx_id(c),
            "start_us": us(s0),
            "end_us": us(s1),
            "state": o.state,
            "object": name(o.obj, o.seq) if o.obj else None,
            "object_kind": object_kind(o.obj, o.seq) if o.obj else None,
            "held_by": ctx_id(o.holder) if o.holder else None,
            "priority": o.priority,
            "threshold": o.threshold,
        }
        for s0, s1, c, o in w.slices
    ]
    duration = end - start
    threads = []
    for a in ordered:
        if w.kind(a) == "idle":
            continue
        run = sum(s1 - s0 for s0, s1, c, o in w.slices if c == a and o.state == "running")
        held = [s1 - s0 for s0, s1, c, o in w.slices if c == a and o.state == "held"]
        deferred = sum(s1 - s0 for s0, s1, c, o in w.slices if c == a and o.state == "deferred")
        threads.append(
            {
                "ctx": ctx_id(a),
                "name": name(a),
                "run_us": us(run),
                "share": round(run / duration, 6) if duration else 0.0,
                "switches_in": w.switches_in.get(a, 0),
                "preempted": w.preempted.get(a, 0),
                "held": len(held),
                "held_us": us(sum(held)),
                "deferred_us": us(deferred),
                "response_us": stats([us(r) for r in w.response.get(a, [])]),
                "blocking_us": stats([us(b) for b in w.blocking.get(a, [])]),
            }
        )
    ids = [ctx_id(a) for a in ordered]
    counts = [[w.matrix.get((a, b), 0) for b in ordered] for a in ordered]
    rates = _clock_rates(trace, start, us)
    return {
        "schema": SCHEMA,
        "source": {
            "file": source,
            "port": h.port,
            "cpu": h.cpu,
            "clock_hz": h.clock_hz,
            "clock_rates": rates,
            "tick_hz": h.tick_hz,
            "clock_note": clock_note(h.port, h.clock_hz, bool(trace.clock), rates),
            "run": trace.run,
            "runs": trace.runs,
            "label": trace.label,
        },
        "span": {"start_us": us(start), "end_us": us(end)},
        "events": {
            "recorded": h.recorded,
            "kept": len(trace.events),
            "lost": h.lost,
            "cut": trace.cut_events,
            "wrapped": h.wrapped,
            "notes": list(trace.notes),
        },
        "contexts": contexts,
        "slices": slices,
        "counters": {
            "switches": [[us(t), n + 1] for n, t in enumerate(w.switch_times)],
            "cpu_load": _load(w, us),
            "ready_queue": [[us(t), n] for t, n in w.ready_series],
            "cpu_share": _share(w, ordered, us),
            "switch_rate": {
                "switches": _rate(w, w.switch_times),
                "preemptions": _rate(w, w.preempt_times),
            },
        },
        "summary": {
            "switches": len(w.switch_times),
            "preemptions": w.preemptions,
            "interrupts": w.interrupts,
            "duration_us": us(duration),
            "threads": threads,
        },
        "preemptions": {"ctx": ids, "counts": counts},
        "response_times": {ctx_id(a): [us(r) for r in v] for a, v in w.response.items()},
        "blocking_times": {ctx_id(a): [us(b) for b in v] for a, v in w.blocking.items()},
        "inversions": _inversions(w, name, us),
        "user_events": [
            {"t_us": us(u["t"]), "ctx": ctx_id(u["ctx"]), "id": u["id"], "a": u["a"], "b": u["b"]}
            for u in w.user
        ],
        "isr_slices": [{"start_us": us(a), "end_us": us(b), "irq": irq} for a, b, irq in w.isrs],
        "wakeups": [
            {
                "t_us": us(k["t_us"]),
                "from": ctx_id(k["from"]),
                "irq": k["irq"],
                "to": ctx_id(k["to"]),
                "run_us": us(k["run"]),
            }
            for k in w.wakeups
        ],
        "energy": _energy(trace, source, events, us, end),
        "event_log": log.entries,
    }
