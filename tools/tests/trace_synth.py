# SPDX-License-Identifier: MIT
"""Build trace dumps (docs/trace.md) from lists of events and objects, as the kernel would.

`encode()` lays out the header, the registry and the event slots for either pointer width and
byte order, in a ring (wrap) or until full (stop), adding TIME events where the kernel would
(at the start and whenever 2^30 units passed since the last one). `Scenario` writes the events
of a schedule -- switches, readies, waits, service calls, point changes, the energy snapshot of
tc_trace_disable() -- with the right arguments, so an analysis test reads like the story it
tells.
"""

import struct
from collections.abc import Sequence
from dataclasses import dataclass, field

from tacet.trace.format import (
    ENERGY,
    EV,
    F_ENERGY,
    F_FULL,
    F_STOP,
    F_WRAPPED,
    GEOMETRY,
    HEADER_SIZE,
    MAGIC,
    NO_POINT,
    OBJ,
    POWER_CLOCK,
    STATE,
    SVC,
    VERSION,
)

U32 = 1 << 32
TIME_EVERY = 1 << 30


@dataclass
class SynthObject:
    address: int
    type: int
    name: str
    extra: int = 0  # thread: priority at creation
    created: int = 0
    deleted: bool = False


@dataclass
class SynthEvent:
    time: int  # full 64-bit
    id: int
    ctx: int = 0
    args: tuple[int, int, int, int] = (0, 0, 0, 0)
    priority: int | None = None
    threshold: int | None = None
    irq: int = 0


@dataclass
class Encoded:
    data: bytes
    recorded: list[SynthEvent]  # every event recorded (TIME events added), in order
    kept: list[SynthEvent]  # the ones the dump holds, oldest first
    first_seq: int


def _pad(text: str, size: int) -> bytes:
    raw = text.encode()[:size]
    return raw + b"\0" * (size - len(raw))


def with_time_events(events: list[SynthEvent], start: int) -> list[SynthEvent]:
    """TIME events where the kernel records them, in the context of the event that follows."""

    def time_event(t: int, like: SynthEvent | None) -> SynthEvent:
        args = (t >> 32, t % U32, 0, 0)
        if like is None:
            return SynthEvent(t, EV["TIME"], args=args)
        return SynthEvent(t, EV["TIME"], like.ctx, args, like.priority, like.threshold, like.irq)

    out = [time_event(start, events[0] if events else None)]
    last_time = start
    for e in events:
        if e.time - last_time >= TIME_EVERY:
            out.append(time_event(e.time, e))
            last_time = e.time
        out.append(e)
    return out


def encode(
    events: list[SynthEvent],
    objects: list[SynthObject] = (),  # type: ignore[assignment]
    *,
    ptr_size: int = 4,
    endian: str = "little",
    mode: str = "wrap",
    slots: int | None = None,
    registry: int | None = None,
    start: int | None = None,
    clock_hz: int = 1_000_000,
    tick_hz: int = 1000,
    priorities: int = 32,
    port: str = "sim",
    cpu: str = "host",
    auto_time: bool = True,
    recording: bool = False,
    gap: int = 0,
    energy: bool = False,
) -> Encoded:
    """A dump holding `events` (TIME events added unless auto_time is False)."""
    objects = list(objects)
    if start is None:
        start = events[0].time if events else 0
    recorded = with_time_events(events, start) if auto_time else list(events)
    n_slots = slots if slots is not None else max(len(recorded), 1)
    n_objects = registry if registry is not None else max(len(objects), 1)
    object_size, event_size = GEOMETRY[ptr_size]
    order = "<" if endian == "little" else ">"
    pointer = "I" if ptr_size == 4 else "Q"

    stop = mode == "stop"
    if stop:
        kept = recorded[:n_slots]
        lost = len(recorded) - len(kept)
        nxt = len(kept)
        wrapped = False
        first_seq = 0
    else:
        wrapped = len(recorded) >= n_slots and len(recorded) > 0
        kept = recorded[-n_slots:] if wrapped else recorded
        lost = len(recorded) - len(kept)
        nxt = len(recorded) % n_slots if wrapped else len(recorded)
        first_seq = lost
    flags = (F_STOP if stop else 0) | (F_WRAPPED if wrapped else 0)
    flags |= F_FULL if stop and len(recorded) >= n_slots else 0
    flags |= 0x04 if recording else 0
    flags |= F_ENERGY if energy else 0

    events_offset = HEADER_SIZE + n_objects * object_size + gap
    header = struct.pack(
        order + "IHBBIIIHHHHIIIIIIIII",
        MAGIC,
        VERSION,
        ptr_size,
        flags,
        0x01020304,
        clock_hz,
        tick_hz,
        HEADER_SIZE,
        object_size,
        event_size,
        priorities,
        n_objects,
        n_slots,
        events_offset,
        nxt,
        0 if stop else (len(recorded) // n_slots) % U32,  # laps
        lost if stop else 0,  # dropped when full
        max(0, len(objects) - n_objects),
        start >> 32,
        start % U32,
    )
    header += _pad(port, 12) + _pad(cpu, 12)
    assert len(header) == HEADER_SIZE

    registry_bytes = b""
    for i in range(n_objects):
        if i < len(objects):
            o = objects[i]
            entry = struct.pack(
                order + pointer + "BBHI", o.address, o.type, int(o.deleted), o.extra, o.created
            )
            entry += _pad(o.name, 20)
        else:
            entry = b""
        registry_bytes += entry + b"\0" * (object_size - len(entry))

    slot_bytes = [b"\0" * event_size] * n_slots
    fmt = order + "IHBBHH" + ("I4I" if ptr_size == 4 else "4xQ4Q")
    first_slot = nxt if wrapped else 0
    for i, e in enumerate(kept):
        slot = (first_slot + i) % n_slots
        slot_bytes[slot] = struct.pack(
            fmt,
            ~e.time % U32,  # stored as the port's down-counter
            e.id,
            e.irq,
            0,
            0xFFFF if e.priority is None else e.priority,
            0xFFFF if e.threshold is None else e.threshold,
            e.ctx,
            *e.args,
        )
    data = header + registry_bytes + b"\0" * gap + b"".join(slot_bytes)
    return Encoded(data, recorded, kept, first_seq)


@dataclass
class Books:
    """The energy books tc_trace_disable() records (docs/trace.md, "The energy snapshot")."""

    points: Sequence[tuple[int, int]]  # (Hz, mV)
    c_eff: float
    p_static: float
    elapsed: Sequence[int]
    contexts: dict[int, tuple[bool, Sequence[int]]] = field(default_factory=dict)  # hisr, cycles
    idle: Sequence[int] = ()
    deleted_threads: Sequence[int] = ()
    deleted_hisrs: Sequence[int] = ()
    switches: int = 0
    policy: int = 0
    point: int | None = None  # default: the last
    changes: int = 0
    modelled: bool = False

    def records(self) -> list[tuple[int, int, int, int]]:
        """The ENERGY events' arguments, in the kernel's order."""
        n = len(self.points)
        point = n - 1 if self.point is None else self.point

        def rec(a0: int, a1: int = 0, value: int = 0) -> tuple[int, int, int, int]:
            return (a0, a1, value >> 32, value % U32)

        def bits(x: float) -> int:
            return struct.unpack("<Q", struct.pack("<d", x))[0]

        def cycles(kind: str, counts: Sequence[int], part: int = 0, a1: int = 0) -> list:
            return [
                rec(ENERGY[kind] | p << 8 | part << 16, a1, c) for p, c in enumerate(counts) if c
            ]

        out = [rec(ENERGY["BEGIN"] | n << 8 | self.policy << 16 | int(self.modelled) << 24,
                   point, self.changes)]  # fmt: skip
        out += [rec(ENERGY["POINT"] | i << 8, hz, mv) for i, (hz, mv) in enumerate(self.points)]
        out += [rec(ENERGY["C_EFF"], 0, bits(self.c_eff))]
        out += [rec(ENERGY["P_STATIC"], 0, bits(self.p_static))]
        out += cycles("ELAPSED", self.elapsed) + cycles("IDLE", self.idle)
        out += cycles("DELETED", self.deleted_threads) + cycles("DELETED", self.deleted_hisrs, 1)
        for address, (hisr, counts) in self.contexts.items():
            out += cycles("CONTEXT", counts, int(hisr), address)
        out += [rec(ENERGY["SWITCHES"], 0, self.switches)]
        out.append(rec(ENERGY["END"], len(out) + 1))
        return out


def pt(priority: int, threshold: int) -> int:
    """An event's `priority | threshold << 16` argument."""
    return priority | threshold << 16


@dataclass
class Thread:
    address: int
    name: str
    priority: int
    threshold: int | None = None

    def __post_init__(self) -> None:
        if self.threshold is None:
            self.threshold = self.priority


@dataclass
class Scenario:
    """A schedule written as kernel events. Times are in clock units (default 1 MHz: µs)."""

    threads: list[Thread]
    objects: list[SynthObject] = field(default_factory=list)
    events: list[SynthEvent] = field(default_factory=list)
    now: int = 1000
    running: int = 0  # the running context's address (0: idle)
    prio: dict[int, tuple[int, int]] = field(default_factory=dict)  # effective (p, t)

    def __post_init__(self) -> None:
        for t in self.threads:
            self.objects.append(SynthObject(t.address, OBJ["thread"], t.name, t.priority))
            self.prio[t.address] = (t.priority, t.threshold or t.priority)

    def add_object(self, address: int, kind: str, name: str) -> int:
        self.objects.append(SynthObject(address, OBJ[kind], name))
        return address

    def at(self, time: int) -> "Scenario":
        assert time >= self.now
        self.now = time
        return self

    def emit(self, event_id: int, *args: int, irq: int = 0, ctx: int | None = None) -> None:
        ctx = self.running if ctx is None else ctx
        p, t = self.prio.get(ctx, (None, None))
        full = (*args, 0, 0, 0, 0)[:4]
        self.events.append(SynthEvent(self.now, event_id, ctx, full, p, t, irq))  # type: ignore[arg-type]

    def switch(self, to: int, state: str = "ready", obj: int = 0) -> None:
        """The running context leaves in `state` (waiting on `obj`); `to` runs."""
        self.emit(EV["SWITCH"], self.running, STATE[state], obj, ctx=to)
        self.running = to

    def ready(self, thread: int, obj: int = 0, status: int = 0, irq: int = 0) -> None:
        self.emit(EV["READY"], thread, obj, status, pt(*self.prio[thread]), irq=irq)

    def block(self, obj: int, timeout: int = 0xFFFFFFFF, state: str = "pending") -> None:
        self.emit(EV["BLOCK"], obj, timeout, STATE[state])

    def service(self, name: str, obj: int = 0, a1: int = 0, a2: int = 0, status: int = 0) -> None:
        self.emit(SVC[name], obj, a1, a2, status)

    def set_priority(self, thread: int, priority: int, threshold: int | None = None) -> None:
        """An effective priority change (inheritance) -- no event of its own."""
        self.prio[thread] = (priority, priority if threshold is None else threshold)

    def yield_(self, reason: int = 1) -> None:
        self.emit(EV["YIELD"], reason)

    def isr(self, length: int, irq: int = 11) -> None:
        self.emit(EV["ISR_ENTER"], 1, irq=irq)
        self.now += length
        self.emit(EV["ISR_EXIT"], 0, irq=irq)

    def user(self, event_id: int, a: int, b: int) -> None:
        self.emit(event_id, a, b)

    def power(
        self, index: int, hz: int, mv: int, before: int = NO_POINT, clock: bool = True
    ) -> None:
        """The operating point changes (a port whose clock follows it: ``clock``)."""
        self.emit(EV["POWER"], index, hz, mv, (POWER_CLOCK if clock else 0) | before << 8)

    def disable(self, books: Books | None = None) -> None:
        """tc_trace_disable(): the energy snapshot of ``books``, then the closing TIME event."""
        if books is not None:
            for args in books.records():
                self.emit(EV["ENERGY"], *args)
        self.emit(EV["TIME"], self.now >> 32, self.now % U32)

    def encode(self, **options: object) -> Encoded:
        return encode(self.events, self.objects, **options)  # type: ignore[arg-type]


def producer_consumer(rounds: int, threshold: int, work: int = 150) -> Scenario:
    """The producer/consumer of examples/producer_consumer as a trace: producer D (priority 4,
    preemption threshold `threshold`) sends three messages to each of the queues "A", "B",
    "C", which consumers of the same names (priorities 1, 2, 3) each wait on, then yields; a
    consumer takes its messages and waits again. Threshold 4: each message preempts D.
    Threshold 1: the consumers made ready are held off by D's threshold until D yields. Work
    takes `work` clock units; a tick interrupt every 1000."""
    d = 0x2000_4000
    consumers = [(0x2000_1000, "A", 1, 0x2000_5000), (0x2000_2000, "B", 2, 0x2000_6000),
                 (0x2000_3000, "C", 3, 0x2000_7000)]  # fmt: skip
    sc = Scenario([Thread(d, "D", 4, threshold)] + [Thread(a, n, p) for a, n, p, _ in consumers])
    for _, name, _, queue in consumers:
        sc.add_object(queue, "queue", name)
    forever = 0xFFFFFFFF
    next_tick = [sc.now + 1000]

    def advance(units: int) -> None:
        """Time passes in the running context; the tick interrupts it when it is due."""
        end = sc.now + units
        while next_tick[0] <= end:
            sc.at(next_tick[0]).isr(2, irq=15)
            next_tick[0] += 1000
            end += 2
        sc.at(end)

    def consume(queue: int, messages: int) -> None:
        """The running consumer's receives return, it works on each, then waits again."""
        for _ in range(messages):
            sc.service("QUEUE_RECEIVE", queue, 0, forever)
            advance(work)
        sc.block(queue)

    sc.running = d
    for _ in range(rounds):
        held = []
        for address, _, priority, queue in consumers:
            for _ in range(3):
                advance(work)
                if priority < threshold:  # preempts D, takes the message, waits again
                    sc.ready(address, queue, 0)
                    sc.switch(address)
                    advance(5)
                    consume(queue, 1)
                    sc.switch(d, "pending", queue)
                elif address not in held:  # held off by D's threshold
                    sc.ready(address, queue, 0)
                    held.append(address)
                sc.service("QUEUE_SEND", queue, forever)
        sc.yield_()
        if held:  # each consumer in priority order takes its three messages
            sc.switch(consumers[0][0])
            for i, (_, _, _, queue) in enumerate(consumers):
                advance(5)
                consume(queue, 3)
                sc.switch(consumers[i + 1][0] if i + 1 < len(consumers) else d, "pending", queue)
        sc.service("THREAD_YIELD")
    sc.disable()
    return sc
