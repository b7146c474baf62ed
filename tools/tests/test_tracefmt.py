# SPDX-License-Identifier: MIT
"""The trace decoder: round trips through the synthetic encoder, every header check, the
tables against the C headers, and a seeded fuzz (truncations, bit flips) that must only ever
raise TraceFormatError."""

import json
import random
import re
import struct

import pytest
from conftest import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from trace_synth import Books, Scenario, SynthEvent, SynthObject, Thread, encode

from tacet.core.errors import TacetError
from tacet.trace import format as tracefmt
from tacet.trace.analysis import POLICIES, analyze
from tacet.trace.format import EV, OBJ, SVC, TraceFormatError, decode
from tacet.trace.perfetto import perfetto

WIDTHS = [(4, "little"), (4, "big"), (8, "little"), (8, "big")]


def sample_events(n: int, seed: int = 1, start: int = 5000) -> list[SynthEvent]:
    """A mix of kernel, service and user events with growing times (some long gaps)."""
    rng = random.Random(seed)
    ids = [EV["SWITCH"], EV["READY"], EV["BLOCK"], SVC["SEM_GIVE"], SVC["QUEUE_SEND"], 4096]
    time = start
    events = []
    for _ in range(n):
        time += rng.choice([1, 7, 100, 5000, 1 << 31, (1 << 32) + 3])
        events.append(
            SynthEvent(
                time,
                rng.choice(ids),
                ctx=rng.choice([0, 0x20001000, 0x20002000]),
                args=tuple(rng.randrange(1 << 32) for _ in range(4)),  # type: ignore[arg-type]
                priority=rng.choice([None, 3, 17]),
                threshold=rng.choice([None, 1, 17]),
                irq=rng.choice([0, 0, 11]),
            )
        )
    return events


OBJECTS = [
    SynthObject(0x20001000, OBJ["thread"], "producer", extra=3),
    SynthObject(0x20002000, OBJ["thread"], "a-very-long-thread-name-indeed", extra=17),
    SynthObject(0x20003000, OBJ["semaphore"], "sem", created=4, deleted=True),
]


def check_round_trip(encoded, trace) -> None:  # noqa: ANN001
    assert len(trace.events) == len(encoded.kept)
    for i, (want, got) in enumerate(zip(encoded.kept, trace.events, strict=True)):
        assert got.seq == encoded.first_seq + i
        assert got.id == want.id
        assert got.ctx == want.ctx
        assert got.args == want.args
        assert got.priority == want.priority
        assert got.threshold == want.threshold
        assert got.irq == want.irq
        assert got.time == want.time, f"event {i}"


@pytest.mark.parametrize(("ptr_size", "endian"), WIDTHS)
@pytest.mark.parametrize("mode", ["wrap", "stop"])
@pytest.mark.parametrize("slots", [None, 16])
def test_round_trip(ptr_size: int, endian: str, mode: str, slots: int | None) -> None:
    events = sample_events(40)
    if ptr_size == 4:
        events = [
            SynthEvent(
                e.time,
                e.id,
                e.ctx,
                tuple(a % (1 << 32) for a in e.args),
                e.priority,
                e.threshold,
                e.irq,
            )  # type: ignore[arg-type]
            for e in events
        ]
    encoded = encode(
        events,
        OBJECTS,
        ptr_size=ptr_size,
        endian=endian,
        mode=mode,
        slots=slots,
        port="cortex-m",
        cpu="cortex-m3",
    )
    trace = decode(encoded.data, "t.tctrace")
    h = trace.header
    assert (h.ptr_size, h.endian, h.port, h.cpu) == (ptr_size, endian, "cortex-m", "cortex-m3")
    assert h.stop_mode == (mode == "stop")
    check_round_trip(encoded, trace)
    assert [o.name for o in trace.objects] == ["producer", "a-very-long-thread-n", "sem"]
    assert trace.objects[2].deleted and trace.objects[2].type_name == "semaphore"
    lost = len(encoded.recorded) - len(encoded.kept)
    assert h.lost == lost
    if lost and mode == "wrap":
        assert h.wrapped and any("wrapped" in n and str(lost) in n for n in trace.notes)
    if lost and mode == "stop":
        assert h.full and any("dropped" in n and str(lost) in n for n in trace.notes)
    if not lost:
        assert trace.notes == []


def test_wrapped_ring_anchors_leading_events_at_first_time_event() -> None:
    # Events 1 apart, a TIME event forced every 2^30: with a small ring the oldest kept
    # events precede the first surviving TIME event and are anchored backwards from it.
    events = [SynthEvent(100 + i * (1 << 28), EV["SWITCH"]) for i in range(30)]
    encoded = encode(events, slots=7)
    trace = decode(encoded.data)
    assert trace.events[0].id != EV["TIME"]
    assert trace.time_anchored
    assert [e.time for e in trace.events] == [e.time for e in encoded.kept]


def test_wrapped_ring_without_time_event_says_times_are_relative() -> None:
    events = [SynthEvent(10 + i, EV["SWITCH"]) for i in range(20)]
    trace = decode(encode(events, slots=5).data)
    assert not trace.time_anchored
    assert any("relative" in n for n in trace.notes)
    assert [e.time - trace.events[0].time for e in trace.events] == [0, 1, 2, 3, 4]


def test_name_lookup_respects_creation_order() -> None:
    objects = [
        SynthObject(0x100, OBJ["semaphore"], "old", created=0, deleted=True),
        SynthObject(0x100, OBJ["queue"], "new", created=3),
    ]
    events = [SynthEvent(10 + i, SVC["SEM_GIVE"], args=(0x100, 0, 0, 0)) for i in range(5)]
    trace = decode(encode(events, objects).data)
    assert [trace.name_of(0x100, e.seq) for e in trace.events] == ["old"] * 3 + ["new"] * 3
    assert trace.name_of(0x999) == "0x999"
    assert trace.name_of(0) == "idle"


def header_field(data: bytes, offset: int, fmt: str, value: int) -> bytes:
    out = bytearray(data)
    struct.pack_into("<" + fmt, out, offset, value)
    return bytes(out)


GOOD = encode(sample_events(10), OBJECTS).data


@pytest.mark.parametrize(
    ("offset", "fmt", "value", "expected"),
    [
        (0, "I", 0x464C457F, "magic"),
        (4, "H", 1, "version"),
        (6, "B", 5, "pointer size"),
        (7, "B", 0x80, "flags"),
        (7, "B", 0x09, "wrapped"),
        (8, "I", 0x04030201, "endian"),
        (12, "I", 0, "clock"),
        (20, "H", 96, "header size"),
        (22, "H", 40, "entry size"),
        (24, "H", 56, "event size"),
        (26, "H", 33, "priority count"),
        (32, "I", 0, "at least one event"),
        (36, "I", 90, "registry"),
        (40, "I", 999, "next slot"),
        (44, "I", 0, "laps"),
        (48, "I", 5, "dropped"),
    ],
)
def test_bad_header_names_offset(offset: int, fmt: str, value: int, expected: str) -> None:
    with pytest.raises(TraceFormatError) as info:
        decode(header_field(GOOD, offset, fmt, value), "d.bin")
    assert info.value.offset == offset
    assert f"d.bin: byte offset {offset}:" in info.value.message
    assert expected in info.value.message


def test_a_header_too_short_is_the_only_truncation_refused() -> None:
    with pytest.raises(TraceFormatError, match="offset 0: truncated"):
        decode(b"TC")
    with pytest.raises(TraceFormatError, match="truncated: expected the trace header"):
        decode(GOOD[:50])
    # Just the header: no registry, no event, and a note saying how much is missing.
    trace = decode(GOOD[: tracefmt.HEADER_SIZE])
    assert trace.events == [] and trace.objects == []
    assert trace.cut_events == trace.header.kept > 0
    assert any("cut short" in n and "the registry is cut too" in n for n in trace.notes)


def cut_dump(mode: str, slots: int | None, ptr_size: int = 4) -> tuple[bytes, list[SynthEvent]]:
    """A dump of 30 events 10 units apart (TIME events added where the kernel records them, the
    closing one of tc_trace_disable() included), and what it keeps."""
    events = [
        SynthEvent(
            1000 + 10 * i, EV["SWITCH"] if i % 2 else 4096, ctx=0x20001000, args=(i, 0, 0, 0)
        )
        for i in range(30)
    ]
    events.append(SynthEvent(1300, EV["TIME"], args=(0, 1300, 0, 0)))
    encoded = encode(events, OBJECTS, mode=mode, slots=slots, ptr_size=ptr_size)
    return encoded.data, encoded.kept


@pytest.mark.parametrize("mode", ["wrap", "stop"])
@pytest.mark.parametrize("missing", [1, 5, 12])
def test_a_dump_cut_short_decodes_what_it_holds(mode: str, missing: int) -> None:
    data, kept = cut_dump(mode, None)  # not wrapped: the events in slot order
    whole = decode(data)
    h = whole.header
    size = h.event_size
    cut = data[: len(data) - missing * size + 3]  # a part of the last slot left over
    trace = decode(cut, "cut.tctrace")
    assert len(trace.events) == len(kept) - missing
    assert trace.cut_events == missing and trace.cut_bytes == missing * size - 3
    assert [e.time for e in trace.events] == [e.time for e in kept[: len(trace.events)]]
    assert [e.seq for e in trace.events] == list(range(len(trace.events)))
    note = next(n for n in trace.notes if "cut short" in n)
    assert f"ends {missing * size - 3} bytes before its last event slot" in note
    assert f"{missing} of its {len(kept)} events are missing" in note
    assert f"the {len(kept) - missing} it holds are decoded" in note
    analyze(trace, "cut.tctrace")  # and the rest takes it


@pytest.mark.parametrize("ptr_size", [4, 8])
def test_a_wrapped_ring_cut_short_keeps_its_newest_run(ptr_size: int) -> None:
    data, kept = cut_dump("wrap", 12, ptr_size)
    h = decode(data).header
    assert h.wrapped and 0 < h.next < h.events - 3
    # Cut after `next`: slots 0 .. next-1 (the newest) are whole, the oldest stretch is not.
    keep_slots = h.next + 3
    trace = decode(data[: h.events_offset + keep_slots * h.event_size])
    newest = kept[len(kept) - h.next :]
    assert [e.time for e in trace.events] == [e.time for e in newest]
    assert trace.cut_events == len(kept) - h.next
    assert trace.time_anchored  # the closing TIME event is among the newest
    note = next(n for n in trace.notes if "cut short" in n)
    assert "; 3 older ones before the gap are left out" in note
    # Cut before `next`: the first slots, which follow the gap, are all there is.
    trace = decode(data[: h.events_offset + 2 * h.event_size])
    assert [e.args[0] for e in trace.events] == [e.args[0] for e in newest[:2]]
    assert [e.seq for e in trace.events] == [h.recorded - h.next + i for i in range(2)]


def test_a_cut_energy_snapshot_is_partial_not_an_error() -> None:
    data = _with_snapshot()
    whole = decode(data)
    assert whole.energy_status == "whole"
    h = whole.header
    trace = decode(data[: len(data) - 3 * h.event_size])
    assert trace.energy_status == "partial" and trace.energy is None
    assert any("energy snapshot is partial" in n and "cut short" in n for n in trace.notes)
    snapshot = next(i for i, e in enumerate(whole.events) if e.id == EV["ENERGY"])
    trace = decode(data[: h.events_offset + snapshot * h.event_size])
    assert trace.energy_status == "missing"


def test_several_dumps_in_one_file_one_per_run() -> None:
    first = Scenario([Thread(0x20001000, "D", 4, 1)])
    first.running = 0x20001000
    first.user(4096, 1, 2)
    first.objects.append(SynthObject(0, OBJ["label"], "case 1: threshold 4"))
    second = Scenario([Thread(0x20001000, "D", 4, 1)])
    second.objects.append(SynthObject(0, OBJ["label"], "case 2", created=0))
    second.objects.append(SynthObject(0, OBJ["label"], "case 2: threshold 1", created=1))
    second.at(2000).switch(0x20001000)
    a, b = first.encode().data, second.encode(ptr_size=8, endian="big").data
    traces = tracefmt.decode_runs(a + b, "two.tctrace")
    assert [(t.run, t.runs, t.offset) for t in traces] == [(1, 2, 0), (2, 2, len(a))]
    assert [t.label for t in traces] == ["case 1: threshold 4", "case 2: threshold 1"]
    assert traces[1].title == "run 2 of 2, case 2: threshold 1"
    assert [o.name for o in traces[1].objects] == ["D"]  # a label is not an object
    assert traces[0].notes == [] and traces[1].header.ptr_size == 8
    with pytest.raises(TacetError, match=r"two.tctrace: holds 2 traces .* choose one, 1 to 2"):
        decode(a + b, "two.tctrace")
    assert decode(a + b, "two.tctrace", run=2).label == "case 2: threshold 1"
    with pytest.raises(TacetError, match="no trace 3: it holds 2"):
        decode(a + b, "two.tctrace", run=3)
    # An error in the second names where it is in the file.
    bad = bytearray(a + b)
    struct.pack_into(">I", bad, len(a) + 8, 0x04030201)  # its endian word, wrong
    with pytest.raises(TraceFormatError) as info:
        tracefmt.decode_runs(bytes(bad), "two.tctrace")
    assert info.value.offset == len(a) + 8
    assert f"two.tctrace (dump 2, at byte {len(a)}): byte offset {len(a) + 8}" in info.value.message
    # The second cut short, in its header: noted on the first; in its events: decoded.
    traces = tracefmt.decode_runs(a + b[:40], "two.tctrace")
    assert len(traces) == 1 and any("40 bytes of a further dump" in n for n in traces[0].notes)
    traces = tracefmt.decode_runs(a + b[:-5], "two.tctrace")
    assert len(traces) == 2 and traces[1].cut_events == 1


def test_a_whole_buffer_copied_out_is_one_dump() -> None:
    # A debugger's copy holds every slot, the unused ones too: not a trailing-bytes note.
    events = [SynthEvent(100 + i, EV["SWITCH"]) for i in range(5)]
    data = encode(events, slots=40).data
    h = decode(data).header
    assert (
        len(data)
        == h.events_offset + h.events * h.event_size
        > h.events_offset + h.kept * h.event_size
    )
    assert decode(data).notes == []
    assert len(tracefmt.decode_runs(data + data)) == 2


def test_truncated_and_bad_events() -> None:
    h = decode(GOOD).header
    bad_id = header_field(GOOD, h.events_offset + 4, "H", 0x99)
    with pytest.raises(TraceFormatError, match=f"offset {h.events_offset + 4}: event slot 0"):
        decode(bad_id)
    bad_type = header_field(GOOD, h.header_size + 4, "B", 77)
    with pytest.raises(TraceFormatError, match="registry entry 0: expected an object type"):
        decode(bad_type)


def test_trailing_bytes_are_reported() -> None:
    trace = decode(GOOD + b"\0" * 8)
    assert any("8 bytes after" in n for n in trace.notes)


def test_time_going_back_is_an_error() -> None:
    events = [
        SynthEvent(1000, EV["SWITCH"]),
        SynthEvent(900, EV["TIME"], args=(0, 900, 0, 0)),
    ]
    data = encode(events, auto_time=False).data
    with pytest.raises(TraceFormatError, match="TIME value"):
        decode(data)


# --- the tables against the C headers ---------------------------------------------------


def c_enum(text: str, prefix: str) -> dict[str, int]:
    """NAME -> value for the enum constants starting with `prefix` (implicit values counted)."""
    found: dict[str, int] = {}
    for raw in re.findall(r"enum\s*{(.*?)}", text, re.DOTALL):
        body = re.sub(r"/\*.*?\*/", "", raw, flags=re.DOTALL)
        value = -1
        for item in (i.strip() for i in body.split(",")):
            if not item:
                continue
            name, _, init = item.partition("=")
            name = name.strip()
            value = int(init.strip(), 0) if init.strip() else value + 1
            if name.startswith(prefix):
                found[name[len(prefix) :]] = value
    return found


TRACE_H = (REPO / "include" / "tacet" / "trace.h").read_text()


def test_kernel_events_match_trace_h() -> None:
    assert c_enum(TRACE_H, "TC_TRACE_EV_") == tracefmt.EV


def test_services_match_trace_h() -> None:
    assert c_enum(TRACE_H, "TC_TRACE_SVC_") == tracefmt.SVC
    # Where trace.h documents an a1 or a2 for a service, the Python table names one too.
    documented = re.findall(r"TC_TRACE_SVC_(\w+)[^/\n]*/\*([^*]*)\*/", TRACE_H)
    assert len(documented) > 30
    for name, comment in documented:
        service = tracefmt.SERVICES[tracefmt.SVC[name]]
        assert (service.a1 is not None) == ("a1" in comment), name
        assert (service.a2 is not None) == ("a2" in comment), name


def test_object_types_match_trace_h() -> None:
    types = c_enum(TRACE_H, "TC_TRACE_OBJ_")
    assert sorted(types.values()) == list(range(len(tracefmt.OBJECT_TYPES)))
    python = {name.upper().replace(" ", "_"): n for name, n in tracefmt.OBJ.items()}
    renames = {"SEMAPHORE": "SEM", "MESSAGE_PORT": "PORT", "EVENT_GROUP": "EVENT"}
    assert {renames.get(k, k): v for k, v in python.items()} == types


def test_statuses_match_types_h() -> None:
    text = (REPO / "include" / "tacet" / "types.h").read_text()
    body = text.split("typedef enum {", 1)[1].split("} tc_status;", 1)[0]
    assert tuple(re.findall(r"^\s*(TC_[A-Z_]+)", body, re.MULTILINE)) == tracefmt.STATUSES


def test_thread_states_match_thread_h() -> None:
    text = (REPO / "include" / "tacet" / "thread.h").read_text()
    states = c_enum(text, "TC_")
    wanted = {name.upper(): n for name, n in tracefmt.STATE.items()}
    assert {k: states[k] for k in wanted} == wanted


def test_constants_match_trace_h() -> None:
    defines = dict(re.findall(r"#define (TC_TRACE_\w+)\s+(0x[0-9a-fA-F]+|\d+)u", TRACE_H))
    assert int(defines["TC_TRACE_MAGIC"], 0) == tracefmt.MAGIC
    assert int(defines["TC_TRACE_VERSION"], 0) == tracefmt.VERSION
    assert int(defines["TC_TRACE_ENDIAN"], 0) == tracefmt.ENDIAN
    assert int(defines["TC_TRACE_NAME"], 0) == tracefmt.NAME_SIZE
    assert int(defines["TC_TRACE_USER_FIRST"], 0) == tracefmt.USER_FIRST
    for flag in ("STOP", "TICKS", "ON", "WRAPPED", "FULL", "ENERGY"):
        assert int(defines[f"TC_TRACE_F_{flag}"], 0) == getattr(tracefmt, f"F_{flag}")
    assert int(defines["TC_TRACE_POWER_CLOCK"], 0) == tracefmt.POWER_CLOCK
    assert int(defines["TC_TRACE_NO_POINT"], 0) == tracefmt.NO_POINT


def test_energy_records_match_trace_h() -> None:
    assert c_enum(TRACE_H, "TC_TRACE_ENERGY_") == tracefmt.ENERGY


def test_policies_match_power_h() -> None:
    text = (REPO / "include" / "tacet" / "power.h").read_text()
    policies = dict(re.findall(r"#define TC_POLICY_(\w+)\s+(\d+)u", text))
    assert sorted(int(v) for v in policies.values()) == list(range(len(POLICIES)))
    names = {"FIXED": "fixed", "IDLE_SCALING": "idle scaling", "LOAD_SCALING": "load scaling",
             "STATIC": "static", "RT_DVS": "RT-DVS"}  # fmt: skip
    assert {names[k]: int(v) for k, v in policies.items()} == {p: i for i, p in enumerate(POLICIES)}


# --- fuzz --------------------------------------------------------------------------------

SEEDS = [
    encode(sample_events(12, seed=s), OBJECTS, ptr_size=p, endian=e, mode=m, slots=8).data
    for s, (p, e), m in [
        (1, WIDTHS[0], "wrap"),
        (2, WIDTHS[1], "stop"),
        (3, WIDTHS[2], "wrap"),
        (4, WIDTHS[3], "stop"),
        (5, WIDTHS[0], "stop"),
    ]
]


def _with_snapshot() -> bytes:
    """A dump with POWER events of a clock that follows the point and an energy snapshot."""
    sc = Scenario([Thread(0x20001000, "producer", 3)])
    sc.running = 0x20001000
    sc.power(1, 2_000_000, 1000)
    sc.at(2000).power(0, 1_000_000, 900, before=1)
    sc.at(2500).switch(0, "suspended")
    sc.disable(
        Books(((1_000_000, 900), (2_000_000, 1000)), 1e-9, 0.001, elapsed=(900, 1200),
              contexts={0x20001000: (False, (500, 1000))}, idle=(400, 0), switches=3)
    )  # fmt: skip
    return sc.encode(energy=True).data


SEEDS.append(_with_snapshot())


def decode_cleanly(data: bytes) -> None:
    try:
        traces = tracefmt.decode_runs(data, "fuzz")
    except TraceFormatError as error:
        assert "fuzz" in error.message and "byte offset" in error.message
        return
    for trace in traces:
        decoded_cleanly(trace)


def decoded_cleanly(trace: tracefmt.Trace) -> None:
    # Every kept slot was read, or the notes say how many were cut; times never go back.
    h = trace.header
    assert len(trace.events) == h.kept - trace.cut_events
    assert not trace.cut_events or any("cut short" in n for n in trace.notes)
    times = [e.time for e in trace.events]
    assert times == sorted(times)
    # And whatever it says, the analysis and the export take it.
    analysis = analyze(trace, "fuzz")
    json.dumps(analysis)
    json.dumps(perfetto(trace, analysis))


@settings(
    max_examples=3000, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    which=st.integers(0, len(SEEDS) - 1),
    cut=st.integers(0, 2000),
    flips=st.lists(st.tuples(st.integers(0, 2000), st.integers(0, 7)), max_size=4),
)
def test_fuzz_only_clean_errors(which: int, cut: int, flips: list[tuple[int, int]]) -> None:
    data = bytearray(SEEDS[which])
    for offset, bit in flips:
        if offset < len(data):
            data[offset] ^= 1 << bit
    if cut < len(data) and cut % 3 == 0:
        data = data[:cut]
    decode_cleanly(bytes(data))


def test_fuzz_random_bytes_seeded() -> None:
    rng = random.Random(11)
    for _ in range(2000):
        base = bytearray(rng.choice(SEEDS))
        for _ in range(rng.randrange(1, 6)):
            base[rng.randrange(min(len(base), 120))] = rng.randrange(256)
        decode_cleanly(bytes(base[: rng.randrange(len(base) + 1)]))


def test_ring_exactly_full() -> None:
    events = [SynthEvent(10 + i, EV["SWITCH"]) for i in range(7)]
    encoded = encode(events, slots=8)  # 8 with the TIME event: next is back at 0, one lap
    trace = decode(encoded.data)
    assert trace.header.wrapped and trace.header.laps == 1 and trace.notes == []
    check_round_trip(encoded, trace)
    # The kernel sets the flag and counts the lap together: one without the other is corrupt.
    with pytest.raises(TraceFormatError, match="offset 44: expected laps 0"):
        decode(header_field(encoded.data, 7, "B", 0))


def test_gap_before_events_and_unnamed_objects() -> None:
    events = sample_events(6)
    objects = [*OBJECTS, SynthObject(0x20004000, OBJ["queue"], "q")]
    for ptr_size in (4, 8):
        evs = [
            SynthEvent(e.time, e.id, e.ctx, tuple(a % (1 << 32) for a in e.args))  # type: ignore[arg-type]
            for e in events
        ]
        encoded = encode(evs, objects, registry=3, gap=8, ptr_size=ptr_size)
        trace = decode(encoded.data)
        check_round_trip(encoded, trace)
        assert trace.header.objects_lost == 1
        assert any("1 objects were created with the registry full" in n for n in trace.notes)
