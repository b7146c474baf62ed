# SPDX-License-Identifier: MIT
"""Decode a Tacet trace dump (docs/trace.md, include/tacet/trace.h) into dataclasses.

``decode_runs(data, where)`` reads a file of one or more dumps (the ports write one per kernel
run, one after another) of either pointer width and byte order and returns a ``Trace`` per
dump: the header, the object registry, the trace's name (``tc_trace_label``) and the kept
events, oldest first, each with its full 64-bit time and its sequence number (its place among
every event recorded since tracing was enabled); ``decode(data, where, run)`` returns one of
them. Input that is not a well-formed dump raises ``TraceFormatError`` naming the byte offset
and what was expected; a dump that lost events (a wrapped ring, a full buffer in stop mode) or
that was cut short (a file that ends before its last event slot) decodes what it holds, and
``Trace.notes`` says what is missing. Only a header too short to read is refused for being
short. A kernel built with TC_POWER records
its energy books at the end of the trace (TC_TRACE_EV_ENERGY records): ``Trace.energy`` is that
snapshot when the dump holds it whole, and ``Trace.energy_status`` says whether it does.

The tables below (kernel events, services, statuses, object types, thread states) mirror the C
headers; tools/tests/test_tracefmt.py parses the headers and fails when they disagree.
"""

import bisect
import math
import struct
from dataclasses import dataclass, field
from typing import NamedTuple

from tacet.core.errors import TacetError

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
F_ENERGY = 0x20
POWER_CLOCK = 0x1  # a POWER event's a3: the port's clock follows the point from there
NO_POINT = 0xFF  # a POWER event's point before (a3 >> 8) when a table was just installed
FLAGS_KNOWN = F_STOP | F_TICKS | F_ON | F_WRAPPED | F_FULL | F_ENERGY

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
    14: "ENERGY",
    15: "POLICY",
    16: "LOCK",
}
EV = {name: number for number, name in KERNEL_EVENTS.items()}

# The records of the energy snapshot (TC_TRACE_ENERGY_*: an ENERGY event's a0 & 0xff), in the
# order the kernel records them.
ENERGY_RECORDS: tuple[str, ...] = (
    "BEGIN",
    "POINT",
    "C_EFF",
    "P_STATIC",
    "ELAPSED",
    "IDLE",
    "DELETED",
    "CONTEXT",
    "SWITCHES",
    "END",
)
ENERGY = {name: number for number, name in enumerate(ENERGY_RECORDS)}


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
    "label",  # not an object: the trace's name (tc_trace_label)
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


@dataclass(frozen=True)
class EnergyContext:
    """A thread or HISR of the energy snapshot and the cycles it ran at each point."""

    address: int
    hisr: bool
    cycles: tuple[int, ...]  # per operating point, in the table's order


@dataclass(frozen=True)
class EnergySnapshot:
    """The kernel's energy books when tracing was disabled (docs/trace.md, "The energy
    snapshot"): what tc_energy_report() computes from. Cycles are per operating point."""

    seq: int  # the BEGIN record's: names the contexts as they were then
    time: int
    points: tuple[tuple[int, int], ...]  # (Hz, mV) of each operating point
    c_eff_farad: float
    p_static_watt: float
    policy: int  # TC_POLICY_*
    point: int  # in force when the snapshot was taken
    point_changes: int  # since tc_kernel_init()
    modelled: bool  # the port cannot change its clock: the points are the model's only
    elapsed: tuple[int, ...]
    idle: tuple[int, ...]
    deleted_threads: tuple[int, ...]
    deleted_hisrs: tuple[int, ...]
    contexts: tuple[EnergyContext, ...]
    context_switches: int


@dataclass
class Trace:
    where: str
    header: Header
    objects: list[TraceObject]
    events: list[Event]
    notes: list[str] = field(default_factory=list)
    time_anchored: bool = True  # False: no TIME event survived, times are relative
    energy: EnergySnapshot | None = None  # the snapshot, when the dump holds it whole
    # "none": no snapshot was recorded (TC_POWER=0, no table, tracing not disabled); "whole";
    # "partial" or "missing": recorded, and some or all of its records were lost.
    energy_status: str = "none"
    # Where the clock's rate changed (POWER events of a port whose clock follows the operating
    # point): (tc_cycles() value, its time in units of the header's clock_hz, rate in Hz).
    clock: tuple[tuple[int, float, int], ...] = ()
    label: str | None = None  # the trace's name (tc_trace_label), None when it has none
    run: int = 1  # its place in the file: the ports write one dump per kernel run, in order
    runs: int = 1  # dumps in the file
    offset: int = 0  # of its header in the file
    cut_events: int = 0  # events its header says it holds that the input lacks (cut short)
    cut_bytes: int = 0  # bytes missing from the end of the dump
    _by_address: dict[int, list[TraceObject]] | None = field(default=None, repr=False)

    @property
    def lost(self) -> int:
        return self.header.lost

    @property
    def wrapped(self) -> bool:
        return self.header.wrapped

    @property
    def title(self) -> str:
        """Which trace of the file this is, and its name: "run 2 of 2, case 2: threshold 1"."""
        where = f"run {self.run} of {self.runs}"
        return f"{where}, {self.label}" if self.label else where

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

    def clock_time(self, t: int) -> float:
        """The time of tc_cycles() value ``t`` in units of the header's clock_hz: ``t`` itself
        unless the clock changed rate (the sim port with a power table), then the time the
        cycles at each rate took, counted from the first kept event."""
        if not self.clock:
            return t
        at = max(0, bisect.bisect_right([c[0] for c in self.clock], t) - 1)
        since, units, hz = self.clock[at]
        return units + (t - since) * self.header.clock_hz / hz

    def name_of(self, address: int, seq: int | None = None) -> str:
        """A readable name for `address`: its registry name, else the hex address."""
        if address == 0:
            return "idle"
        obj = self.object_at(address, seq)
        if obj is not None and obj.name:
            return obj.name
        return f"0x{address:x}"


class _Reader:
    """One dump's bytes (``data``, from its header to the end of the input), its byte order,
    and where it starts in the file (``base``), which every error's offset counts from."""

    def __init__(self, data: bytes, where: str, order: str, base: int = 0) -> None:
        self.data = data
        self.where = where
        self.order = "<" if order == "little" else ">"
        self.base = base

    def fail(self, offset: int, message: str) -> TraceFormatError:
        return TraceFormatError(self.where, self.base + offset, message)

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


def _magic_at(data: bytes, offset: int) -> bool:
    """Whether a dump's header (its magic, in either byte order) starts at ``offset``."""
    word = data[offset : offset + 4]
    return len(word) == 4 and MAGIC in (struct.unpack("<I", word)[0], struct.unpack(">I", word)[0])


def _header(data: bytes, where: str, base: int = 0) -> tuple[_Reader, Header]:
    if len(data) < 4:
        raise TraceFormatError(
            where, base, f"truncated: expected a {HEADER_SIZE}-byte trace header, got {len(data)}"
        )
    if struct.unpack_from("<I", data, 0)[0] == MAGIC:
        order = "little"
    elif struct.unpack_from(">I", data, 0)[0] == MAGIC:
        order = "big"
    else:
        raise TraceFormatError(
            where,
            base,
            f"expected the trace magic 0x{MAGIC:08x} ('TCTR'), found {data[:4].hex()}: "
            "not a Tacet trace dump",
        )
    r = _Reader(data, where, order, base)
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
    """The registry's entries in use (labels included), as far as the input holds whole ones."""
    p = h.ptr_size
    pointer = "I" if p == 4 else "Q"
    whole = max(0, len(r.data) - h.header_size) // h.object_size
    found = []
    for index in range(min(h.objects, whole)):
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


def _present(r: _Reader, h: Header) -> tuple[int, int, int]:
    """Which of the kept events the input holds, when it was cut short: the newest run of
    consecutive ones whose slots lie wholly in the input, as (index of its first among the kept,
    oldest first; how many; events whose slots are there but lie before a gap and are left out).
    A ring's slots are in the file by slot, not by age: a cut removes a stretch in the middle of
    its history, and what lies before that stretch cannot be placed in time."""
    kept = h.kept
    whole = max(0, len(r.data) - h.events_offset) // h.event_size
    first_slot = h.first_slot % h.events
    if first_slot == 0:  # the kept events in slot order: a cut leaves the oldest
        return 0, min(kept, whole), 0
    if whole >= h.events:
        return 0, kept, 0
    # A ring, oldest at `first_slot`: slots 0 .. first_slot-1 hold the newest events.
    newest = min(first_slot, whole)
    return kept - first_slot, newest, max(0, whole - first_slot)


def _events(r: _Reader, h: Header, first: int, count: int) -> tuple[list[Event], list[int]]:
    """Kept events ``first`` .. ``first + count - 1`` (oldest first) and their raw times."""
    p = h.ptr_size
    fmt = "IHBBHH" + ("I" if p == 4 else "4xQ") + ("4I" if p == 4 else "4Q")
    kept = h.kept
    first_slot = h.first_slot % h.events
    first_seq = 0 if h.stop_mode else (h.recorded - kept) % U32
    events: list[Event] = []
    raw_times: list[int] = []
    for i in range(first, first + count):
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


def _times(
    r: _Reader, h: Header, events: list[Event], raw: list[int], from_start: bool
) -> tuple[list[int], bool]:
    """Full times: deltas modulo 2^32 from an anchor (the header's start when the first event
    is the first recorded, ``from_start``, or a TIME event)."""
    n = len(events)
    full = [0] * n
    if n == 0:
        return full, True
    anchor = next((i for i, e in enumerate(events) if e.id == EV["TIME"]), None)
    anchored = True
    start = 0
    if from_start:
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


# What a record may carry: a point index in a0's bits 8..15, a part (threads 0, HISRs 1) in
# bits 16..23, a first argument a1; the rest must be zero.
_WITH_POINT = {"BEGIN", "POINT", "ELAPSED", "IDLE", "DELETED", "CONTEXT"}
_WITH_PART = {"DELETED", "CONTEXT"}
_WITH_A1 = {"BEGIN", "POINT", "CONTEXT", "END"}
_CYCLES = {"ELAPSED", "IDLE", "DELETED", "CONTEXT"}


class _Snapshot:
    """The energy snapshot's records, checked one by one (``add``) and as a whole
    (``finish``); errors name the byte offset of the field at fault."""

    def __init__(self, r: _Reader, h: Header) -> None:
        self.r = r
        self.h = h
        self.n = 0  # operating points (BEGIN's), 0 until BEGIN
        self.begin: tuple[int, int, int, bool] = (
            0,
            0,
            0,
            False,
        )  # policy, point, changes, modelled
        self.points: dict[int, tuple[int, int]] = {}
        self.values: dict[str, int] = {}  # C_EFF, P_STATIC (bits), SWITCHES
        self.cycles: dict[tuple[str, int, int], int] = {}  # (record, part or address, point)

    def fail(self, e: Event, arg: int | None, message: str) -> TraceFormatError:
        offset = self.h.events_offset + e.slot * self.h.event_size
        offset += 4 if arg is None else ARGS_OFFSET[self.h.ptr_size] + arg * self.h.ptr_size
        what = "" if arg is None else f"a{arg}: "
        return self.r.fail(offset, f"event seq {e.seq}: energy snapshot: {what}{message}")

    def word(self, e: Event, arg: int) -> int:
        if e.args[arg] >= U32:
            raise self.fail(e, arg, f"expected a 32-bit word, found 0x{e.args[arg]:x}")
        return e.args[arg]

    def add(self, e: Event) -> None:
        """Check one record (its point against BEGIN's count once BEGIN is known)."""
        a0 = self.word(e, 0)
        kind, point, part, top = a0 & 0xFF, (a0 >> 8) & 0xFF, (a0 >> 16) & 0xFF, a0 >> 24
        if kind >= len(ENERGY_RECORDS):
            raise self.fail(e, 0, f"expected a record 0..{len(ENERGY_RECORDS) - 1}, found {kind}")
        name = ENERGY_RECORDS[kind]
        value = self.word(e, 2) << 32 | self.word(e, 3)
        unused = (
            (top > (name == "BEGIN"), "24..31"),
            (part > (1 if name in _WITH_PART else 255 if name == "BEGIN" else 0), "16..23"),
            (point and name not in _WITH_POINT, "8..15"),
        )
        for bad, bits in unused:
            if bad:
                raise self.fail(e, 0, f"{name}: expected bits {bits} of 0x{a0:x} in range or 0")
        if name not in _WITH_A1 and e.args[1]:
            raise self.fail(e, 1, f"{name}: expected 0, found {e.args[1]}")
        if name == "BEGIN":
            self._begin(e, point, part, value, bool(top))
            return
        if self.n and point >= self.n:
            raise self.fail(e, 0, f"{name}: expected a point below {self.n}, found {point}")
        if name == "POINT":
            self._point(e, point, value)
        elif name in _CYCLES:
            self._cycles(e, name, point, part, value)
        elif name in ("C_EFF", "P_STATIC", "SWITCHES"):
            if name in self.values:
                raise self.fail(e, None, f"expected one {name} record, found a second")
            self.values[name] = value
        elif value:  # END
            raise self.fail(e, 3, f"END: expected 0, found {value}")

    def _begin(self, e: Event, points: int, policy: int, changes: int, modelled: bool) -> None:
        if self.n:
            raise self.fail(e, None, "expected one BEGIN record, found a second")
        if points == 0:
            raise self.fail(e, 0, "BEGIN: expected at least one operating point, found 0")
        current = self.word(e, 1)
        if current >= points:
            raise self.fail(e, 1, f"BEGIN: expected a point below {points}, found {current}")
        self.n = points
        self.begin = (policy, current, changes, modelled)

    def _point(self, e: Event, point: int, millivolt: int) -> None:
        hz = self.word(e, 1)
        if point in self.points:
            raise self.fail(e, 0, f"POINT: expected point {point} once, found it again")
        if hz == 0 or millivolt == 0:
            raise self.fail(e, 1, f"POINT {point}: expected a frequency and a voltage above 0")
        self.points[point] = (hz, millivolt)

    def _cycles(self, e: Event, name: str, point: int, part: int, value: int) -> None:
        if value == 0:
            raise self.fail(e, 3, f"{name}: expected a count above 0 (zeros are not recorded)")
        who = e.args[1] if name == "CONTEXT" else part
        if name == "CONTEXT" and who == 0:
            raise self.fail(e, 1, "CONTEXT: expected a context's address, found 0")
        key = (f"{name}{part}", who, point)
        if key in self.cycles:
            raise self.fail(e, 0, f"{name}: point {point} given twice")
        self.cycles[key] = value

    def _figure(self, end: Event, name: str) -> float:
        if name not in self.values:
            raise self.fail(end, None, f"expected a {name} record before END, found none")
        figure = struct.unpack("<d", struct.pack("<Q", self.values[name]))[0]
        if not math.isfinite(figure) or figure < 0 or (name == "C_EFF" and figure == 0):
            bound = "above 0" if name == "C_EFF" else "0 or more"
            raise self.fail(end, None, f"{name}: expected a finite value {bound}, found {figure}")
        return figure

    def finish(self, begin: Event, end: Event, records: int) -> EnergySnapshot:
        """The snapshot of a BEGIN .. END run of ``records`` records, each added."""
        if self.word(end, 1) != records:
            raise self.fail(
                end, 1, f"END: expected the {records} records kept, found {end.args[1]}"
            )
        n = self.n
        missing = [p for p in range(n) if p not in self.points]
        if missing:
            raise self.fail(
                end, None, f"expected a POINT record for point {missing[0]}, found none"
            )
        points = tuple(self.points[i] for i in range(n))
        for i in range(1, n):
            if points[i][0] <= points[i - 1][0] or points[i][1] < points[i - 1][1]:
                raise self.fail(
                    begin,
                    None,
                    f"expected point {i} faster than point {i - 1} and at no lower voltage, "
                    f"found {points[i]} after {points[i - 1]} (Hz, mV)",
                )
        c_eff, p_static = self._figure(end, "C_EFF"), self._figure(end, "P_STATIC")
        if "SWITCHES" not in self.values:
            raise self.fail(end, None, "expected a SWITCHES record before END, found none")

        def cycles(record: str, who: int) -> tuple[int, ...]:
            return tuple(self.cycles.get((record, who, p), 0) for p in range(n))

        addresses = {(key[0], key[1]) for key in self.cycles if key[0].startswith("CONTEXT")}
        contexts = tuple(
            EnergyContext(address, record == "CONTEXT1", cycles(record, address))
            for record, address in sorted(addresses, key=lambda k: (k[0], k[1]))
        )
        elapsed, idle = cycles("ELAPSED0", 0), cycles("IDLE0", 0)
        deleted = cycles("DELETED0", 0), cycles("DELETED1", 1)
        for p in range(n):
            charged = idle[p] + deleted[0][p] + deleted[1][p] + sum(c.cycles[p] for c in contexts)
            if charged > elapsed[p]:
                raise self.fail(
                    end,
                    None,
                    f"point {p}: expected the contexts and idle to have run at most the "
                    f"{elapsed[p]} cycles elapsed there, found {charged}",
                )
        policy, point, changes, modelled = self.begin
        return EnergySnapshot(
            seq=begin.seq,
            time=begin.time,
            points=points,
            c_eff_farad=c_eff,
            p_static_watt=p_static,
            policy=policy,
            point=point,
            point_changes=changes,
            modelled=modelled,
            elapsed=elapsed,
            idle=idle,
            deleted_threads=deleted[0],
            deleted_hisrs=deleted[1],
            contexts=contexts,
            context_switches=self.values["SWITCHES"],
        )


@dataclass(frozen=True)
class _Gaps:
    """What the decoded events lack at either end: the oldest (a ring overwrote them, or a cut
    left them out) or the newest (a full stop-mode buffer dropped them, or the dump was cut)."""

    oldest: bool
    newest: bool
    why: str  # said in the notes: "the ring wrapped: ..."


def _energy(
    r: _Reader, h: Header, events: list[Event], gaps: _Gaps
) -> tuple[EnergySnapshot | None, str, str]:
    """The energy snapshot of the dump, its status and what to note about it.

    The kernel records it with the lock held, as the last events before the closing TIME
    event: its records are consecutive, BEGIN first and END last, nothing but that TIME after.
    A ring may have overwritten its start, a full stop-mode buffer or a cut dropped its end;
    anything else out of place is a malformed dump."""
    at = [i for i, e in enumerate(events) if e.id == EV["ENERGY"]]
    snapshot = _Snapshot(r, h)
    if not at:
        if not h.flags & F_ENERGY:
            return None, "none", ""
        if not (gaps.oldest or gaps.newest):
            raise r.fail(
                7,
                "expected the energy snapshot's events (the flags say it was recorded), found none",
            )
        return (
            None,
            "missing",
            f"the energy snapshot was not kept ({gaps.why}): no energy figures",
        )
    first, last = at[0], at[-1]
    if not h.flags & F_ENERGY:
        raise snapshot.fail(
            events[first],
            None,
            f"expected none: the header's flags lack 0x{F_ENERGY:02x} (recorded)",
        )
    if last - first + 1 != len(at):
        gap = next(events[i] for i in range(first, last) if events[i].id != EV["ENERGY"])
        raise snapshot.fail(
            gap, None, f"expected its records in a row, found {gap.name} among them"
        )
    after = events[last + 1 :]
    if after and (len(after) > 1 or after[0].id != EV["TIME"]):
        odd = after[1] if after[0].id == EV["TIME"] else after[0]
        raise snapshot.fail(
            odd, None, f"expected only the closing TIME event after it, found {odd.name}"
        )
    records = events[first : last + 1]
    kinds = [e.args[0] & 0xFF for e in records]
    for i, e in enumerate(records):
        if kinds[i] == ENERGY["BEGIN"] and i:
            raise snapshot.fail(e, None, "expected BEGIN as the first record, found it later")
        if kinds[i] == ENERGY["END"] and i != len(records) - 1:
            raise snapshot.fail(e, None, "expected END as the last record, found records after it")
        snapshot.add(e)
    begun, ended = kinds[0] == ENERGY["BEGIN"], kinds[-1] == ENERGY["END"]
    if begun and ended:
        return snapshot.finish(records[0], records[-1], len(records)), "whole", ""
    # Where records may be missing: the oldest of a ring, the newest of a full buffer.
    overwritten = first == 0 and gaps.oldest
    dropped = gaps.newest and not after
    if (begun or overwritten) and (ended or dropped):
        return (
            None,
            "partial",
            (
                f"the energy snapshot is partial ({len(records)} of its records kept; "
                f"{gaps.why}): no energy figures"
            ),
        )
    end = "begin with BEGIN" if not (begun or overwritten) else "end with END"
    at_fault = records[0] if end.startswith("begin") else records[-1]
    raise snapshot.fail(at_fault, None, f"expected the snapshot to {end} (nothing was lost there)")


def _clock(
    r: _Reader, h: Header, events: list[Event], energy: EnergySnapshot | None, gaps: _Gaps
) -> tuple[tuple[tuple[int, float, int], ...], str]:
    """The clock's segments (Trace.clock) and what to note about them. A port whose clock
    follows the operating point records it in each POWER event's a3; the rate before the
    first one is the header's, unless a ring lost the events before it: then the rate of the
    point it left (a3's point before, in the snapshot's table), or the snapshot's point when
    no POWER event was kept (the point did not change in the kept span)."""
    changes = [e for e in events if e.id == EV["POWER"] and e.args[3] & POWER_CLOCK]
    for e in changes:
        if e.args[1] == 0 or e.args[1] >= U32:
            raise r.fail(
                h.events_offset + e.slot * h.event_size + ARGS_OFFSET[h.ptr_size] + h.ptr_size,
                f"event seq {e.seq}: POWER: expected the new clock's rate (1 .. 2^32-1 Hz), "
                f"found {e.args[1]}",
            )
    follows = bool(changes) or (energy is not None and not energy.modelled)
    if not events or not follows:
        return (), ""
    rate, note = h.clock_hz, ""
    if gaps.oldest:  # the rate when the first kept event was recorded
        if not changes and energy is not None:
            rate = energy.points[energy.point][0]
        else:
            before = (changes[0].args[3] >> 8) & 0xFF
            if energy is not None and before < len(energy.points):
                rate = energy.points[before][0]
            elif before != NO_POINT or changes[0] is not events[0]:
                note = (
                    "the clock follows the operating point and the events before the first "
                    f"kept POWER event are lost: times before it assume {h.clock_hz} Hz"
                )
    if rate == h.clock_hz and not changes:
        return (), note
    segments = [(events[0].time, float(events[0].time), rate)]
    for e in changes:
        since, units, hz = segments[-1]
        segments.append((e.time, units + (e.time - since) * h.clock_hz / hz, e.args[1]))
    return tuple(segments), note


def _why_lost(h: Header) -> str:
    if h.stop_mode:
        return f"the buffer filled: the last {h.lost} events were dropped"
    return f"the ring wrapped: the oldest {h.lost} events were overwritten"


def _decode_one(data: bytes, where: str, base: int) -> tuple[Trace, int]:
    """The dump whose header starts at ``base`` of the file ``data``; and where the next one
    may start (the end of its events, as the ports write it), or the end of the input."""
    r, h = _header(data[base:], where, base)
    entries = _registry(r, h)
    objects = [o for o in entries if o.type != OBJ["label"]]
    labels = [o for o in entries if o.type == OBJ["label"]]
    label = max(labels, key=lambda o: o.created).name if labels else None
    first, count, before_gap = _present(r, h)
    events, raw = _events(r, h, first, count)
    cut = h.kept - count
    newest_cut = first + count < h.kept
    from_start = first == 0 and (h.stop_mode or h.lost == 0)
    times, anchored = _times(r, h, events, raw, from_start)
    events = [
        Event(e.seq, e.slot, t, e.id, e.irq, e.priority, e.threshold, e.ctx, e.args)
        for e, t in zip(events, times, strict=True)
    ]
    used = h.events_offset + h.kept * h.event_size
    cut_bytes = max(0, used - len(r.data))
    why = [_why_lost(h)] if h.lost else []
    if cut:
        why.append(f"the dump is cut short: {cut} of its events are not in the input")
    gaps = _Gaps(
        oldest=first > 0 or (h.lost > 0 and not h.stop_mode),
        newest=newest_cut or (h.full and h.lost > 0),
        why="; ".join(why),
    )
    energy, energy_status, energy_note = _energy(r, h, events, gaps)
    clock, clock_note = _clock(r, h, events, energy, gaps)
    notes = []
    if cut_bytes:
        clauses = [
            f"the dump is cut short: it ends {cut_bytes} bytes before its last event slot "
            f"({len(r.data)} of {used} bytes)",
            f"{cut} of its {h.kept} events are missing",
        ]
        if before_gap:
            clauses.append(
                f"{before_gap} older ones before the gap are left out (their times cannot be "
                "placed)"
            )
        clauses.append(f"the {count} it holds are decoded")
        if len(r.data) < h.header_size + h.objects * h.object_size:
            clauses.append("the registry is cut too: some objects have no name")
        notes.append("; ".join(clauses))
    if h.wrapped and h.lost:
        notes.append(f"the ring wrapped: the oldest {h.lost} events were overwritten")
    if h.full and h.lost:
        notes.append(f"the buffer filled (stop mode): the last {h.lost} events were dropped")
    if not anchored:
        notes.append("no TIME event survived in the ring: times are relative to the first event")
    if h.objects_lost:
        notes.append(f"{h.objects_lost} objects were created with the registry full (no names)")
    whole = h.events_offset + h.events * h.event_size
    end = used
    if len(r.data) > used and not _magic_at(r.data, used):
        if len(r.data) >= whole and (len(r.data) == whole or _magic_at(r.data, whole)):
            end = whole  # the whole buffer was copied out (a debugger), unused slots too
        else:
            end = len(r.data)
            notes.append(f"{len(r.data) - used} bytes after the last event were ignored")
    notes += [note for note in (energy_note, clock_note) if note]
    trace = Trace(
        where, h, objects, events, notes, anchored, energy, energy_status, clock, label,
        offset=base, cut_events=cut, cut_bytes=cut_bytes,
    )  # fmt: skip
    return trace, base + min(end, len(r.data))


def dump_count(data: bytes) -> int:
    """How many dumps ``data`` holds one after another, from their headers alone (a quick
    look: ``decode_runs`` checks them)."""
    count, base = 0, 0
    while _magic_at(data, base) and len(data) - base >= HEADER_SIZE:
        order = "<" if struct.unpack_from("<I", data, base)[0] == MAGIC else ">"
        (flags,) = struct.unpack_from(order + "B", data, base + 7)
        event_size, events, events_offset, nxt = (
            struct.unpack_from(order + "H", data, base + 24)[0],
            *struct.unpack_from(order + "III", data, base + 32),
        )
        count += 1
        kept = events if flags & F_WRAPPED else nxt
        used = base + events_offset + kept * event_size
        whole = base + events_offset + events * event_size
        base = used if _magic_at(data, used) else whole
        if base <= 0 or base >= len(data):
            break
    return count


def decode_runs(data: bytes, where: str = "<dump>") -> list[Trace]:
    """Every dump of the file ``data``, in order (the ports write one per kernel run: the
    first run's first). Raise TraceFormatError when one is not well formed, or when the first
    is too short to hold a header; a later dump too short for its header is noted on the one
    before it."""
    data = bytes(data)
    traces: list[Trace] = []
    base = 0
    while True:
        label = where if not traces else f"{where} (dump {len(traces) + 1}, at byte {base})"
        if traces and len(data) - base < HEADER_SIZE:
            traces[-1].notes.append(
                f"the file ends with {len(data) - base} bytes of a further dump, too few for its "
                f"{HEADER_SIZE}-byte header: not decoded"
            )
            break
        trace, end = _decode_one(data, label, base)
        traces.append(trace)
        if end >= len(data) or not _magic_at(data, end):
            break
        base = end
    for n, trace in enumerate(traces):
        trace.run, trace.runs = n + 1, len(traces)
    return traces


def decode(data: bytes, where: str = "<dump>", run: int | None = None) -> Trace:
    """One dump of ``data``: the only one, or the ``run``-th (1 = the first); raise
    TraceFormatError when it is not well formed, TacetError when ``run`` is not given and the
    file holds several, or names none of them."""
    traces = decode_runs(data, where)
    if run is None and len(traces) > 1:
        raise TacetError(
            f"{where}: holds {len(traces)} traces (one per kernel run of the program): choose "
            f"one, 1 to {len(traces)}"
        )
    index = 1 if run is None else run
    if not 1 <= index <= len(traces):
        raise TacetError(f"{where}: no trace {index}: it holds {len(traces)} (1 to {len(traces)})")
    return traces[index - 1]
