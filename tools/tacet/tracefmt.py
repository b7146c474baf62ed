"""Decode a Tacet trace dump (docs/trace.md, include/tacet/trace.h) into dataclasses.

``decode(data, where)`` reads a dump of either pointer width and byte order and returns a
``Trace``: the header, the object registry and the kept events, oldest first, each with its
full 64-bit time and its sequence number (its place among every event recorded since tracing
was enabled). Input that is not a well-formed dump raises ``TraceFormatError`` naming the byte
offset and what was expected; a dump that lost events (a wrapped ring, a full buffer in stop
mode) decodes, and ``Trace.notes`` says what is missing.

The tables below (kernel events, services, statuses, object types, thread states) mirror the C
headers; tools/tests/test_tracefmt.py parses the headers and fails when they disagree.
"""

import struct
from dataclasses import dataclass, field
from typing import NamedTuple

from tacet.errors import TacetError

MAGIC = 0x52544354
VERSION = 2
ENDIAN = 0x01020304
NAME_SIZE = 20
HEADER_SIZE = 88
USER_FIRST = 4096
NONE16 = 0xFFFF
U32 = 1 << 32

F_STOP = 0x01
F_TICKS = 0x02
F_ON = 0x04
F_WRAPPED = 0x08
F_FULL = 0x10
FLAGS_KNOWN = F_STOP | F_TICKS | F_ON | F_WRAPPED | F_FULL

PRIORITIES = (32, 64, 256, 1024)

# Per pointer width: (registry entry size, event size).
GEOMETRY = {4: (32, 32), 8: (40, 56)}
ARGS_OFFSET = {4: 16, 8: 24}

KERNEL_EVENTS: dict[int, str] = {
    1: "TIME",
    2: "SWITCH",
    3: "READY",
    4: "BLOCK",
    5: "ISR_ENTER",
    6: "ISR_EXIT",
    7: "HISR_RUN",
    8: "TIMER_EXPIRE",
    9: "TICK",
    10: "STACK",
    11: "YIELD",
    12: "ENABLE",
    13: "POWER",
}
EV = {name: number for number, name in KERNEL_EVENTS.items()}


class Service(NamedTuple):
    """A service event: its name (TC_TRACE_SVC_<name>) and what a1 and a2 hold (None: unused)."""

    name: str
    a1: str | None = None
    a2: str | None = None


SERVICES: dict[int, Service] = {
    0x100: Service("THREAD_CREATE", "priority", "threshold"),
    0x101: Service("THREAD_DELETE"),
    0x102: Service("THREAD_TERMINATE"),
    0x103: Service("THREAD_SUSPEND"),
    0x104: Service("THREAD_RESUME"),
    0x105: Service("THREAD_SLEEP", "ticks"),
    0x106: Service("THREAD_YIELD"),
    0x107: Service("THREAD_PRIORITY_CHANGE", "new priority", "old priority"),
    0x108: Service("THREAD_THRESHOLD_CHANGE", "new threshold", "old threshold"),
    0x109: Service("THREAD_WAIT_ABORT"),
    0x10A: Service("THREAD_POST", "word", "timeout"),
    0x10B: Service("THREAD_RECEIVE", "word", "timeout"),
    0x120: Service("SEM_CREATE", "initial", "max"),
    0x121: Service("SEM_TAKE", "timeout"),
    0x122: Service("SEM_GIVE"),
    0x123: Service("SEM_DELETE"),
    0x130: Service("MUTEX_CREATE", "options"),
    0x131: Service("MUTEX_LOCK", "timeout"),
    0x132: Service("MUTEX_UNLOCK"),
    0x133: Service("MUTEX_DELETE"),
    0x140: Service("QUEUE_CREATE", "message size", "buffer size"),
    0x141: Service("QUEUE_SEND", "timeout"),
    0x142: Service("QUEUE_SEND_FRONT", "timeout"),
    0x143: Service("QUEUE_RECEIVE", "timeout"),
    0x144: Service("QUEUE_FLUSH"),
    0x145: Service("QUEUE_DELETE"),
    0x150: Service("PORT_CREATE", "slots"),
    0x151: Service("PORT_SEND", "message", "timeout"),
    0x152: Service("PORT_RECEIVE", "message", "timeout"),
    0x153: Service("PORT_DELETE"),
    0x160: Service("EVENT_CREATE"),
    0x161: Service("EVENT_SET", "flags"),
    0x162: Service("EVENT_CLEAR", "flags"),
    0x163: Service("EVENT_WAIT", "flags", "timeout"),
    0x164: Service("EVENT_DELETE"),
    0x170: Service("TIMER_CREATE", "initial", "period"),
    0x171: Service("TIMER_ACTIVATE"),
    0x172: Service("TIMER_DEACTIVATE"),
    0x173: Service("TIMER_CHANGE", "initial", "period"),
    0x174: Service("TIMER_DELETE"),
    0x180: Service("BLOCK_POOL_CREATE", "block size", "memory size"),
    0x181: Service("BLOCK_ALLOC", "block", "timeout"),
    0x182: Service("BLOCK_FREE", "block"),
    0x183: Service("BLOCK_POOL_DELETE"),
    0x190: Service("BYTE_POOL_CREATE", "memory size"),
    0x191: Service("BYTE_ALLOC", "memory", "size"),
    0x192: Service("BYTE_FREE", "memory"),
    0x193: Service("BYTE_POOL_DELETE"),
    0x1A0: Service("HISR_CREATE", "HISR priority"),
    0x1A1: Service("HISR_ACTIVATE"),
    0x1A2: Service("HISR_DELETE"),
    0x1B0: Service("SIGNAL_HANDLER_SET"),
    0x1B1: Service("SIGNAL_SEND", "signals"),
    0x1B2: Service("SIGNAL_ABORT_WAIT"),
}
SVC = {service.name: number for number, service in SERVICES.items()}

# tc_status (include/tacet/types.h), by value.
STATUSES: tuple[str, ...] = (
    "TC_OK",
    "TC_TIMEOUT",
    "TC_NO_INSTANCE",
    "TC_FULL",
    "TC_DELETED",
    "TC_WAIT_ABORTED",
    "TC_INVALID",
    "TC_PRIORITY_ERROR",
    "TC_CALLER_ERROR",
    "TC_NOT_OWNER",
    "TC_STATE_ERROR",
)

# Registry entry types (TC_TRACE_OBJ_*), by value.
OBJECT_TYPES: tuple[str, ...] = (
    "free",
    "thread",
    "hisr",
    "semaphore",
    "mutex",
    "queue",
    "message port",
    "event group",
    "timer",
    "block pool",
    "byte pool",
)
OBJ = {name: number for number, name in enumerate(OBJECT_TYPES)}

# Thread states (include/tacet/thread.h), the SWITCH event's a1 and the BLOCK event's a2.
THREAD_STATES: tuple[str, ...] = (
    "ready",
    "running",
    "suspended",
    "sleeping",
    "pending",
    "completed",
    "terminated",
)
STATE = {name: number for number, name in enumerate(THREAD_STATES)}


def status_name(value: int) -> str:
    return STATUSES[value] if value < len(STATUSES) else f"status {value}"


def event_name(event_id: int) -> str:
    if event_id in KERNEL_EVENTS:
        return KERNEL_EVENTS[event_id]
    if event_id in SERVICES:
        return SERVICES[event_id].name
    return f"USER_{event_id}"


class TraceFormatError(TacetError):
    """The input is not a well-formed trace dump: names the byte offset and what was expected."""

    def __init__(self, where: str, offset: int, message: str) -> None:
        super().__init__(f"{where}: byte offset {offset}: {message}")
        self.where = where
        self.offset = offset


@dataclass(frozen=True)
class Header:
    endian: str  # "little" or "big"
    version: int
    ptr_size: int
    flags: int
    clock_hz: int
    tick_hz: int
    header_size: int
    object_size: int
    event_size: int
    priorities: int
    objects: int
    events: int
    events_offset: int
    next: int
    laps: int  # times the ring wrapped
    dropped: int  # stop mode: events not recorded once the buffer was full
    objects_lost: int
    start: int  # tc_cycles() when tracing was enabled
    port: str
    cpu: str

    @property
    def stop_mode(self) -> bool:
        return bool(self.flags & F_STOP)

    @property
    def ticks(self) -> bool:
        return bool(self.flags & F_TICKS)

    @property
    def recording(self) -> bool:
        return bool(self.flags & F_ON)

    @property
    def wrapped(self) -> bool:
        return bool(self.flags & F_WRAPPED)

    @property
    def full(self) -> bool:
        return bool(self.flags & F_FULL)

    @property
    def kept(self) -> int:
        """Events the dump holds: every slot once the ring has wrapped (a ring whose `next`
        came back to 0 for the first time has wrapped without overwriting anything)."""
        return self.events if self.wrapped else self.next

    @property
    def recorded(self) -> int:
        """Events recorded since enabling, lost ones included (modulo 2^32)."""
        return (self.laps * self.events + self.next + self.dropped) % U32

    @property
    def lost(self) -> int:
        """Events recorded and not in the dump: overwritten in a ring, dropped when full."""
        return (self.recorded - self.kept) % U32

    @property
    def first_slot(self) -> int:
        return self.next if self.kept == self.events else 0


@dataclass(frozen=True)
class TraceObject:
    index: int  # registry entry
    address: int
    type: int  # OBJECT_TYPES index
    deleted: bool
    extra: int
    created: int  # sequence number of the first event that may concern it
    name: str

    @property
    def type_name(self) -> str:
        return OBJECT_TYPES[self.type]


@dataclass(frozen=True)
class Event:
    seq: int  # among all events recorded since enabling, lost ones included
    slot: int
    time: int  # full 64-bit tc_cycles()
    id: int
    irq: int
    priority: int | None
    threshold: int | None
    ctx: int
    args: tuple[int, int, int, int]

    @property
    def name(self) -> str:
        return event_name(self.id)

    @property
    def is_service(self) -> bool:
        return self.id in SERVICES

    @property
    def is_user(self) -> bool:
        return self.id >= USER_FIRST


@dataclass
class Trace:
    where: str
    header: Header
    objects: list[TraceObject]
    events: list[Event]
    notes: list[str] = field(default_factory=list)
    time_anchored: bool = True  # False: no TIME event survived, times are relative
    _by_address: dict[int, list[TraceObject]] | None = field(default=None, repr=False)

    @property
    def lost(self) -> int:
        return self.header.lost

    @property
    def wrapped(self) -> bool:
        return self.header.wrapped

    def object_at(self, address: int, seq: int | None = None) -> TraceObject | None:
        """The registry entry that named `address` when event `seq` was recorded."""
        if self._by_address is None:
            self._by_address = {}
            for obj in self.objects:
                self._by_address.setdefault(obj.address, []).append(obj)
        best: TraceObject | None = None
        for obj in self._by_address.get(address, ()):
            if seq is not None and obj.created > seq:
                continue
            if best is None or obj.created > best.created:
                best = obj
        return best

    def name_of(self, address: int, seq: int | None = None) -> str:
        """A readable name for `address`: its registry name, else the hex address."""
        if address == 0:
            return "idle"
        obj = self.object_at(address, seq)
        if obj is not None and obj.name:
            return obj.name
        return f"0x{address:x}"


class _Reader:
    def __init__(self, data: bytes, where: str, order: str) -> None:
        self.data = data
        self.where = where
        self.order = "<" if order == "little" else ">"

    def fail(self, offset: int, message: str) -> TraceFormatError:
        return TraceFormatError(self.where, offset, message)

    def need(self, offset: int, size: int, what: str) -> None:
        if offset + size > len(self.data):
            raise self.fail(
                offset,
                f"truncated: expected {what} ({size} bytes), "
                f"the input ends after {max(0, len(self.data) - offset)}",
            )

    def unpack(self, fmt: str, offset: int) -> tuple[int, ...]:
        return struct.unpack_from(self.order + fmt, self.data, offset)


def _text(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("utf-8", errors="replace")


def _header(data: bytes, where: str) -> tuple[_Reader, Header]:
    if len(data) < 4:
        raise TraceFormatError(
            where, 0, f"truncated: expected a {HEADER_SIZE}-byte trace header, got {len(data)}"
        )
    if struct.unpack_from("<I", data, 0)[0] == MAGIC:
        order = "little"
    elif struct.unpack_from(">I", data, 0)[0] == MAGIC:
        order = "big"
    else:
        raise TraceFormatError(
            where,
            0,
            f"expected the trace magic 0x{MAGIC:08x} ('TCTR'), found {data[:4].hex()}: "
            "not a Tacet trace dump",
        )
    r = _Reader(data, where, order)
    r.need(0, HEADER_SIZE, "the trace header")
    (
        _,
        version,
        ptr_size,
        flags,
        endian,
        clock_hz,
        tick_hz,
        header_size,
        object_size,
        event_size,
        priorities,
        objects,
        events,
        events_offset,
        nxt,
        laps,
        dropped,
        objects_lost,
        start_hi,
        start_lo,
    ) = r.unpack("IHBBIIIHHHHIIIIIIIII", 0)
    if endian != ENDIAN:
        raise r.fail(8, f"expected the endian word 0x{ENDIAN:08x}, found 0x{endian:08x}")
    header = Header(
        endian=order,
        version=version,
        ptr_size=ptr_size,
        flags=flags,
        clock_hz=clock_hz,
        tick_hz=tick_hz,
        header_size=header_size,
        object_size=object_size,
        event_size=event_size,
        priorities=priorities,
        objects=objects,
        events=events,
        events_offset=events_offset,
        next=nxt,
        laps=laps,
        dropped=dropped,
        objects_lost=objects_lost,
        start=(start_hi << 32) | start_lo,
        port=_text(data[64:76]),
        cpu=_text(data[76:88]),
    )
    _check_header(r, header)
    return r, header


def _check_header(r: _Reader, h: Header) -> None:
    """Raise at the first field that is not what the format allows (in offset order)."""
    want_object, want_event = GEOMETRY.get(h.ptr_size, (0, 0))
    registry_end = h.header_size + h.objects * h.object_size
    checks = (
        (h.version != VERSION, 4, f"expected format version {VERSION}, found {h.version}"),
        (h.ptr_size not in GEOMETRY, 6, f"expected a pointer size of 4 or 8, found {h.ptr_size}"),
        (
            h.flags & ~FLAGS_KNOWN,
            7,
            f"expected flags within 0x{FLAGS_KNOWN:02x}, found 0x{h.flags:02x}",
        ),
        (h.stop_mode and h.wrapped, 7, "expected no 'wrapped' flag in stop mode"),
        (not h.stop_mode and h.full, 7, "expected no 'full' flag in a ring (wrap mode)"),
        (h.clock_hz == 0, 12, "expected a non-zero clock rate"),
        (
            h.header_size != HEADER_SIZE,
            20,
            f"expected a header size of {HEADER_SIZE}, found {h.header_size}",
        ),
        (
            h.object_size != want_object,
            22,
            f"expected a registry entry size of {want_object} (pointer size {h.ptr_size}), "
            f"found {h.object_size}",
        ),
        (
            h.event_size != want_event,
            24,
            f"expected an event size of {want_event} (pointer size {h.ptr_size}), "
            f"found {h.event_size}",
        ),
        (
            h.priorities not in PRIORITIES,
            26,
            f"expected a priority count in {PRIORITIES}, found {h.priorities}",
        ),
        (h.events == 0, 32, "expected at least one event slot"),
        (
            h.events_offset < registry_end,
            36,
            f"expected the events to start at or after the registry's end ({registry_end}), "
            f"found {h.events_offset}",
        ),
        (
            h.next > h.events or (h.wrapped and h.next == h.events),
            40,
            f"expected the next slot below {h.events}, found {h.next}",
        ),
        (
            (h.laps != 0) != h.wrapped,
            44,
            f"expected laps {'above 0' if h.wrapped else '0'} (the ring "
            f"{'has' if h.wrapped else 'has not'} wrapped), found {h.laps}",
        ),
        (
            h.dropped and not h.full,
            48,
            f"expected no dropped events when the flags do not say full, found {h.dropped}",
        ),
    )
    for bad, offset, message in checks:
        if bad:
            raise r.fail(offset, message)


def _registry(r: _Reader, h: Header) -> list[TraceObject]:
    p = h.ptr_size
    pointer = "I" if p == 4 else "Q"
    r.need(h.header_size, h.objects * h.object_size, f"the registry ({h.objects} entries)")
    found = []
    for index in range(h.objects):
        offset = h.header_size + index * h.object_size
        address, kind, deleted, extra, created = r.unpack(pointer + "BBHI", offset)
        if kind >= len(OBJECT_TYPES):
            raise r.fail(
                offset + p,
                f"registry entry {index}: expected an object type 0..{len(OBJECT_TYPES) - 1}, "
                f"found {kind}",
            )
        if deleted > 1:
            raise r.fail(
                offset + p + 1,
                f"registry entry {index}: expected a deleted flag 0 or 1, found {deleted}",
            )
        if kind == 0:
            continue
        name = _text(r.data[offset + p + 8 : offset + p + 8 + NAME_SIZE])
        found.append(TraceObject(index, address, kind, bool(deleted), extra, created, name))
    return found


def _events(r: _Reader, h: Header) -> tuple[list[Event], list[int]]:
    p = h.ptr_size
    fmt = "IHBBHH" + ("I" if p == 4 else "4xQ") + ("4I" if p == 4 else "4Q")
    kept = h.kept
    r.need(h.events_offset, kept * h.event_size, f"{kept} event slots")
    first_slot = h.first_slot % h.events
    first_seq = 0 if h.stop_mode else (h.recorded - kept) % U32
    events: list[Event] = []
    raw_times: list[int] = []
    for i in range(kept):
        slot = (first_slot + i) % h.events
        offset = h.events_offset + slot * h.event_size
        time, event_id, irq, reserved, priority, threshold, ctx, *args = r.unpack(fmt, offset)
        if not (event_id in KERNEL_EVENTS or event_id in SERVICES or event_id >= USER_FIRST):
            raise r.fail(
                offset + 4,
                f"event slot {slot}: expected a kernel event (1..{len(KERNEL_EVENTS)}), a "
                f"service (0x100..0x1ff) or a user event (>= {USER_FIRST}), found {event_id}",
            )
        if reserved:
            raise r.fail(offset + 7, f"event slot {slot}: expected a reserved 0, found {reserved}")
        events.append(
            Event(
                seq=(first_seq + i) % U32,
                slot=slot,
                time=0,
                id=event_id,
                irq=irq,
                priority=None if priority == NONE16 else priority,
                threshold=None if threshold == NONE16 else threshold,
                ctx=ctx,
                args=(args[0], args[1], args[2], args[3]),
            )
        )
        raw_times.append(~time % U32)  # the port's down-counter, as the target stored it
    return events, raw_times


def _times(r: _Reader, h: Header, events: list[Event], raw: list[int]) -> tuple[list[int], bool]:
    """Full times: deltas modulo 2^32 from an anchor (the header's start, or a TIME event)."""
    n = len(events)
    full = [0] * n
    if n == 0:
        return full, True
    anchor = next((i for i, e in enumerate(events) if e.id == EV["TIME"]), None)
    anchored = True
    start = 0
    if h.stop_mode or h.lost == 0:
        # The first kept event is the first recorded: it follows the start.
        full[0] = _time_value(events[0]) if anchor == 0 else h.start + (raw[0] - h.start) % U32
    elif anchor is not None:
        start = anchor
        full[anchor] = _time_value(events[anchor])
        for i in range(anchor - 1, -1, -1):
            full[i] = full[i + 1] - (raw[i + 1] - raw[i]) % U32
        if full[0] < 0:
            raise r.fail(
                h.events_offset + events[anchor].slot * h.event_size + ARGS_OFFSET[h.ptr_size],
                f"event seq {events[anchor].seq}: expected a TIME value no smaller than the "
                f"time of the {anchor} events before it, found {full[anchor]}",
            )
    else:
        anchored = False
    for i in range(start + 1, n):
        e = events[i]
        if e.id == EV["TIME"]:
            value = _time_value(e)
            if value < full[i - 1]:
                raise r.fail(
                    h.events_offset + e.slot * h.event_size + ARGS_OFFSET[h.ptr_size],
                    f"event seq {e.seq}: expected a TIME value no earlier than the event "
                    f"before ({full[i - 1]}), found {value}",
                )
            full[i] = value
        else:
            full[i] = full[i - 1] + (raw[i] - raw[i - 1]) % U32
    return full, anchored


def _time_value(event: Event) -> int:
    return ((event.args[0] & 0xFFFFFFFF) << 32) | (event.args[1] & 0xFFFFFFFF)


def decode(data: bytes, where: str = "<dump>") -> Trace:
    """Decode a dump; raise TraceFormatError when it is not a well-formed one."""
    r, h = _header(bytes(data), where)
    objects = _registry(r, h)
    events, raw = _events(r, h)
    times, anchored = _times(r, h, events, raw)
    events = [
        Event(e.seq, e.slot, t, e.id, e.irq, e.priority, e.threshold, e.ctx, e.args)
        for e, t in zip(events, times, strict=True)
    ]
    notes = []
    if h.wrapped and h.lost:
        notes.append(f"the ring wrapped: the oldest {h.lost} events were overwritten")
    if h.full and h.lost:
        notes.append(f"the buffer filled (stop mode): the last {h.lost} events were dropped")
    if not anchored:
        notes.append("no TIME event survived in the ring: times are relative to the first event")
    if h.objects_lost:
        notes.append(f"{h.objects_lost} objects were created with the registry full (no names)")
    used = h.events_offset + h.kept * h.event_size
    if len(r.data) > used and len(r.data) != h.events_offset + h.events * h.event_size:
        notes.append(f"{len(r.data) - used} bytes after the last event were ignored")
    return Trace(where, h, objects, events, notes, anchored)
