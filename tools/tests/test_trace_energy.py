# SPDX-License-Identifier: MIT
"""The energy snapshot of a trace (docs/trace.md, "The energy snapshot"): decoded and checked,
turned into joules per context, idle and the switch path with the model of docs/energy.md
(here written out again as a closed form, so that the analysis can be wrong), shown by
``tacet trace --stats``, the HTML report and the Perfetto export; partial and missing
snapshots said to be so; every malformed snapshot refused at its byte offset; and the times
of a port whose clock follows the operating point."""

import json
import math
import struct
from collections.abc import Callable
from pathlib import Path

import pytest
from test_trace_perfetto import problems
from trace_synth import Books, Encoded, Scenario, SynthEvent, Thread, encode

from tacet import cli
from tacet.trace import report as trace_report
from tacet.trace.analysis import analyze
from tacet.trace.format import (
    ARGS_OFFSET,
    ENERGY,
    EV,
    NO_POINT,
    OBJ,
    TraceFormatError,
    decode,
)
from tacet.trace.perfetto import perfetto

H, L, RX = 0x1000, 0x2000, 0x4000
POINTS = ((1_000_000, 900), (2_000_000, 1100))
C_EFF, P_STATIC = 1.5e-9, 0.004
Record = tuple[int, int, int, int]


def books(**changes: object) -> Books:
    """High and Low ran at both points, an HISR at the fast one, a deleted thread too."""
    fields: dict = {
        "points": POINTS,
        "c_eff": C_EFF,
        "p_static": P_STATIC,
        "elapsed": (5000, 20000),
        "idle": (3000, 0),
        "contexts": {H: (False, (0, 9000)), L: (False, (1000, 6000)), RX: (True, (0, 2000))},
        "deleted_threads": (0, 500),
        "switches": 35,
        "policy": 1,
        "point": 0,
        "changes": 7,
    }
    fields.update(changes)
    return Books(**fields)


def closed_form(cycles: tuple[int, ...]) -> float:
    """C_eff V^2 N + P_static N / f, summed over the points: docs/energy.md's model."""
    return sum(
        C_EFF * (mv / 1000) ** 2 * n + P_STATIC * n / hz
        for (hz, mv), n in zip(POINTS, cycles, strict=True)
    )


def scenario(
    snapshot: Books | None = None, records: list[Record] | None = None, close: bool = True
) -> Scenario:
    """A short schedule, then tc_trace_disable(): the snapshot's records (``records`` in place
    of those of ``snapshot`` when given) and the closing TIME event (unless not ``close``)."""
    sc = Scenario([Thread(H, "High", 1), Thread(L, "Low", 5)])
    sc.add_object(RX, "hisr", "rx")
    sc.running = L
    sc.at(1100).ready(H)
    sc.switch(H)
    sc.at(1300).block(0, 3, "sleeping")
    sc.switch(L, "sleeping")
    sc.at(1500).switch(0, "suspended")
    sc.at(2000)
    if records is None and snapshot is not None:
        records = snapshot.records()
    for args in records or ():
        sc.emit(EV["ENERGY"], *args)
    if close:
        sc.emit(EV["TIME"], 0, sc.now)
    return sc


def dump(records: list[Record] | None = None, *, energy: bool = True, **options: object) -> Encoded:
    return scenario(books(), records).encode(energy=energy, **options)


def mutated(change: Callable[[list[Record]], list[Record]]) -> list[Record]:
    return change(books().records())


def at(kind: str, records: list[Record], nth: int = 0) -> int:
    """The place of the ``nth`` record of ``kind``."""
    places = [i for i, r in enumerate(records) if r[0] & 0xFF == ENERGY[kind]]
    return places[nth]


def without(kind: int) -> Callable[[list[Record]], list[Record]]:
    """The records less those whose a0 is ``kind``, END's count made right."""

    def change(records: list[Record]) -> list[Record]:
        kept = [r for r in records if r[0] != kind]
        return replace(kept, len(kept) - 1, a1=len(kept))

    return change


def replace(records: list[Record], i: int, **args: int) -> list[Record]:
    a = list(records[i])
    for k, v in args.items():
        a[int(k[1])] = v
    return [*records[:i], (a[0], a[1], a[2], a[3]), *records[i + 1 :]]


def bits(x: float) -> tuple[int, int]:
    raw = struct.unpack("<Q", struct.pack("<d", x))[0]
    return raw >> 32, raw & 0xFFFFFFFF


# --- the figures ------------------------------------------------------------------------------


@pytest.mark.parametrize(("ptr_size", "endian"), [(4, "little"), (8, "big")])
def test_energy_per_context_idle_and_switching(ptr_size: int, endian: str) -> None:
    trace = decode(dump(ptr_size=ptr_size, endian=endian).data, "e.tctrace")
    assert trace.energy_status == "whole" and trace.notes == []
    snap = trace.energy
    assert snap is not None and snap.points == POINTS and snap.context_switches == 35
    energy = analyze(trace, "e.tctrace")["energy"]
    json.dumps(energy)
    assert energy["status"] == "whole" and energy["policy"] == "idle scaling"
    assert energy["point"] == 0 and energy["point_changes"] == 7 and not energy["modelled"]
    by_name = {c["name"]: c for c in energy["contexts"]}
    assert set(by_name) == {"High", "Low", "rx"}
    assert by_name["rx"]["kind"] == "hisr" and by_name["Low"]["kind"] == "thread"
    for name, cycles in (("High", (0, 9000)), ("Low", (1000, 6000)), ("rx", (0, 2000))):
        assert by_name[name]["cycles_per_point"] == list(cycles)
        assert by_name[name]["joules"] == pytest.approx(closed_form(cycles), rel=1e-12)
    # Most energy first.
    assert [c["name"] for c in energy["contexts"]] == ["High", "Low", "rx"]
    # The switch path: what elapsed less everything charged, as tc_energy_report derives it.
    switching = (5000 - 3000 - 1000, 20000 - 9000 - 6000 - 2000 - 500)
    assert energy["switching"]["cycles_per_point"] == list(switching)
    assert energy["switching"]["joules"] == pytest.approx(closed_form(switching), rel=1e-12)
    assert energy["joules_per_switch"] == pytest.approx(closed_form(switching) / 35, rel=1e-12)
    total = closed_form((5000, 20000))
    assert energy["total"]["joules"] == pytest.approx(total, rel=1e-12)
    assert energy["threads"]["joules"] == pytest.approx(closed_form((1000, 15500)), rel=1e-12)
    assert energy["hisrs"]["joules"] == pytest.approx(closed_form((0, 2000)), rel=1e-12)
    assert energy["idle"]["joules"] == pytest.approx(closed_form((3000, 0)), rel=1e-12)
    assert energy["switching"]["share"] == pytest.approx(closed_form(switching) / total)
    shares = sum(energy[k]["share"] for k in ("threads", "hisrs", "idle", "switching"))
    assert shares == pytest.approx(1.0)
    # Static energy is the time the cycles took at each point, times the static power.
    assert by_name["Low"]["static_joules"] == pytest.approx(P_STATIC * (1000 / 1e6 + 6000 / 2e6))
    assert [p["cycles"] for p in energy["points"]] == [5000, 20000]
    assert energy["points"][1]["watts"] == pytest.approx(C_EFF * 1.1**2 * 2e6 + P_STATIC)


def test_the_schedule_ends_where_the_snapshot_begins() -> None:
    plain = analyze(decode(scenario().encode().data), "a")
    with_books = analyze(decode(dump().data), "b")
    assert with_books["span"] == plain["span"]
    assert with_books["summary"] == plain["summary"]
    assert with_books["events"]["kept"] > plain["events"]["kept"]


def test_no_snapshot_no_energy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    encoded = scenario().encode()
    trace = decode(encoded.data)
    assert trace.energy is None and trace.energy_status == "none"
    assert analyze(trace, "x")["energy"] is None
    path = tmp_path / "plain.tctrace"
    path.write_bytes(encoded.data)
    assert cli.main(["trace", str(path), "--stats"]) == 0
    assert not [line for line in capsys.readouterr().out.splitlines() if line.startswith("energy")]
    assert cli.main(["trace", str(path), "--stats", "--json"]) == 0
    assert "energy" not in json.loads(capsys.readouterr().out)
    html = tmp_path / "r.html"
    trace_report.write_html(analyze(trace, "x"), html)
    text = html.read_text(encoding="utf-8")
    assert 'id="energy"' not in text and 'href="#energy"' not in text
    events = perfetto(trace, analyze(trace, "x"))["traceEvents"]
    assert not [e for e in events if e.get("name") == "operating point"]


def test_stats_and_json_print_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "e.tctrace"
    path.write_bytes(dump().data)
    assert cli.main(["trace", str(path), "--stats"]) == 0
    out = capsys.readouterr().out
    total = closed_form((5000, 20000)) * 1e6
    assert f"energy: {total:.2f} uJ over 25000 cycles" in out
    assert "energy_points_used: 1 MHz, 2 MHz; policy idle scaling" in out
    high = next(line for line in out.splitlines() if line.strip().startswith("High"))
    assert high.split()[1:3] == ["thread", "9000"]
    assert f"{closed_form((0, 9000)) * 1e6:.2f}" in high
    assert "energy_switching: 35 context switches" in out
    assert cli.main(["trace", str(path)]) == 0
    assert "energy: " in capsys.readouterr().out
    assert cli.main(["trace", str(path), "--stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["energy"]["total"]["joules"] == pytest.approx(total / 1e6)


def test_the_report_has_an_energy_section(tmp_path: Path) -> None:
    html = tmp_path / "r.html"
    trace_report.write_html(analyze(decode(dump().data), "e"), html)
    text = html.read_text(encoding="utf-8")
    assert '<section id="energy">' in text and 'href="#energy"' in text
    assert '<div class="chart" id="energy-chart"><svg' in text
    share = closed_form((1000, 2500)) / closed_form((5000, 20000))
    assert f'<span id="switching-share">{100 * share:.1f} %</span>' in text
    for name in ("High", "Low", "rx", "idle", "context switches"):
        assert f"<th scope=row>{name}</th>" in text
    assert 'id="point-chart"' not in text  # no POWER event in this trace


# --- partial and missing snapshots ---------------------------------------------------------


def test_a_full_buffer_that_dropped_the_end() -> None:
    full = dump()
    records = len(books().records())
    # Keep every event but the END record and the closing TIME event.
    encoded = dump(mode="stop", slots=len(full.recorded) - 2)
    trace = decode(encoded.data)
    assert trace.energy is None and trace.energy_status == "partial"
    assert any(f"partial ({records - 1} of its records kept" in n for n in trace.notes)
    energy = analyze(trace, "x")["energy"]
    assert energy["status"] == "partial" and "total" not in energy
    report = trace_report.render_html(analyze(trace, "x"))
    assert 'id="energy-note"' in report and "partial" in report


def test_a_full_buffer_that_dropped_all_of_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full = dump()
    begin = next(i for i, e in enumerate(full.recorded) if e.id == EV["ENERGY"])
    trace = decode(dump(mode="stop", slots=begin).data)
    assert trace.energy_status == "missing"
    assert any("the energy snapshot was not kept" in n for n in trace.notes)
    path = tmp_path / "m.tctrace"
    path.write_bytes(dump(mode="stop", slots=begin).data)
    assert cli.main(["trace", str(path), "--stats"]) == 0
    assert "energy: none (the energy snapshot was recorded but lost" in capsys.readouterr().out


def test_a_ring_that_overwrote_its_start() -> None:
    trace = decode(dump(slots=6).data)
    assert trace.header.wrapped and trace.energy_status == "partial"
    assert analyze(trace, "x")["energy"]["status"] == "partial"
    # A ring that wrapped but still holds it all: whole.
    records = len(books().records())
    assert decode(dump(slots=records + 2).data).energy_status == "whole"


# --- malformed snapshots -------------------------------------------------------------------

MALFORMED: list[tuple[str, Callable[[list[Record]], list[Record]], str]] = [
    ("unknown record", lambda r: replace(r, at("IDLE", r), a0=0x0F), "a0: expected a record 0..9"),
    ("point out of range", lambda r: replace(r, at("ELAPSED", r), a0=ENERGY["ELAPSED"] | 2 << 8),
     "ELAPSED: expected a point below 2, found 2"),
    ("a point twice", lambda r: replace(r, at("POINT", r, 1), a0=ENERGY["POINT"]),
     "POINT: expected point 0 once"),
    ("BEGIN later", lambda r: [r[1], r[0], *r[2:]], "expected BEGIN as the first record"),
    ("END not last", lambda r: [*r[:3], r[-1], *r[3:-1]], "expected END as the last record"),
    ("END's count", lambda r: replace(r, len(r) - 1, a1=len(r) + 1), "END: expected the"),
    ("no C_EFF", without(ENERGY["C_EFF"]), "expected a C_EFF record"),
    ("C_EFF NaN", lambda r: replace(r, at("C_EFF", r), a2=0x7FF80000, a3=0),
     "C_EFF: expected a finite value above 0, found nan"),
    ("static power below 0", lambda r: replace(r, at("P_STATIC", r), a2=bits(-1.0)[0], a3=0),
     "P_STATIC: expected a finite value 0 or more, found -1.0"),
    ("zero cycles", lambda r: replace(r, at("IDLE", r), a2=0, a3=0), "expected a count above 0"),
    ("context 0", lambda r: replace(r, at("CONTEXT", r), a1=0), "expected a context's address"),
    ("part 2", lambda r: replace(r, at("CONTEXT", r), a0=ENERGY["CONTEXT"] | 2 << 16),
     "in range or 0"),
    ("no SWITCHES", without(ENERGY["SWITCHES"]), "expected a SWITCHES record"),
    ("a POINT missing", without(ENERGY["POINT"] | 1 << 8), "expected a POINT record for point 1"),
    ("points out of order", lambda r: replace(r, at("POINT", r, 1), a1=500_000),
     "expected point 1 faster than point 0"),
    ("parts above the elapsed", lambda r: replace(r, at("ELAPSED", r, 1), a3=10_000),
     "point 1: expected the contexts and idle to have run at most the 10000 cycles"),
    ("no points", lambda r: replace(r, 0, a0=ENERGY["BEGIN"] | 1 << 16),
     "BEGIN: expected at least one operating point"),
    ("BEGIN's point", lambda r: replace(r, 0, a1=2), "BEGIN: expected a point below 2, found 2"),
    ("ELAPSED twice", lambda r: replace(r, at("ELAPSED", r, 1), a0=ENERGY["ELAPSED"]),
     "ELAPSED: point 0 given twice"),
    ("no BEGIN", lambda r: r[1:], "expected the snapshot to begin with BEGIN"),
    ("no END", lambda r: r[:-1], "expected the snapshot to end with END"),
    ("an a1 where none goes", lambda r: replace(r, at("IDLE", r), a1=3), "IDLE: expected 0"),
    ("a point index on C_EFF", lambda r: replace(r, at("C_EFF", r), a0=ENERGY["C_EFF"] | 1 << 8),
     "expected bits 8..15"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("change", "message"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED]
)
def test_a_malformed_snapshot_is_refused_where_it_is(
    change: Callable[[list[Record]], list[Record]], message: str
) -> None:
    with pytest.raises(
        TraceFormatError, match=r"byte offset [0-9]+: event seq [0-9]+: energy"
    ) as e:
        decode(dump(mutated(change)).data, "bad.tctrace")
    assert message in e.value.message


def test_the_offset_is_the_field_at_fault() -> None:
    records = mutated(lambda r: replace(r, at("IDLE", r), a0=0x0F))
    encoded = dump(records)
    slot = next(i for i, e in enumerate(encoded.kept) if e.id == EV["ENERGY"] and e.args[0] == 0x0F)
    h = decode(dump().data).header
    offset = h.events_offset + slot * h.event_size + ARGS_OFFSET[4]
    with pytest.raises(TraceFormatError, match=f"bad: byte offset {offset}: event seq {slot}:"):
        decode(encoded.data, "bad")


def test_out_of_place_events_are_refused() -> None:
    records = books().records()
    sc = scenario(records=records[:4], close=False)
    sc.yield_()  # an event inside the snapshot
    for args in records[4:]:
        sc.emit(EV["ENERGY"], *args)
    sc.emit(EV["TIME"], 0, sc.now)
    with pytest.raises(TraceFormatError, match="expected its records in a row, found YIELD"):
        decode(sc.encode(energy=True).data)
    sc = scenario(books())
    sc.yield_()  # an event after the closing TIME
    with pytest.raises(TraceFormatError, match="only the closing TIME event after it, found YIELD"):
        decode(sc.encode(energy=True).data)
    # The flag and the records go together.
    with pytest.raises(TraceFormatError, match="flags lack 0x20"):
        decode(dump(energy=False).data)
    with pytest.raises(TraceFormatError, match="byte offset 7: expected the energy snapshot"):
        decode(scenario().encode(energy=True).data)


def test_a_wide_word_is_refused() -> None:
    records = mutated(lambda r: replace(r, at("SWITCHES", r), a3=1 << 40))
    with pytest.raises(TraceFormatError, match="a3: expected a 32-bit word"):
        decode(dump(records, ptr_size=8).data)


# --- the operating point over time and the clock ----------------------------------------------


def clocked(clock: bool) -> Scenario:
    """Low runs 1000 cycles at the header's 1 MHz, the point changes to 2 MHz, Low runs 1000
    cycles more, then the snapshot (a port whose clock follows the point, or a model's)."""
    sc = Scenario([Thread(L, "Low", 5)])
    sc.running = L
    sc.at(1000).power(0, 1_000_000, 900, clock=clock)  # the table installed
    sc.at(2000).power(1, 2_000_000, 1100, before=0, clock=clock)
    sc.at(3000).switch(0, "suspended")
    sc.disable(
        Books(POINTS, C_EFF, P_STATIC, elapsed=(1000, 1000), contexts={L: (False, (1000, 1000))},
              point=1, changes=1, modelled=not clock)
    )  # fmt: skip
    return sc


@pytest.mark.parametrize("clock", [True, False])
def test_times_count_at_the_rate_of_the_point(clock: bool) -> None:
    trace = decode(clocked(clock).encode(energy=True).data)
    result = analyze(trace, "c")
    low = next(t for t in result["summary"]["threads"] if t["name"] == "Low")
    # 1000 cycles at 1 MHz and 1000 at 2 MHz: 1500 us where the clock follows the point.
    assert low["run_us"] == (1500.0 if clock else 2000.0)
    assert result["summary"]["duration_us"] == low["run_us"]
    assert ("follows the operating point" in result["source"]["clock_note"]) == clock
    series = result["energy"]["point_series"]
    assert [(p[1], p[2]) for p in series] == [(0, 1_000_000), (1, 2_000_000), (1, 2_000_000)]
    end = result["span"]["end_us"]
    assert series[1][0] - series[0][0] == 1000.0 and series[-1][0] == end
    assert result["energy"]["point_events"] == 2
    exported = perfetto(trace, result)
    assert problems(exported) == []
    counters = [e for e in exported["traceEvents"] if e.get("name") == "operating point"]
    assert [c["args"]["MHz"] for c in counters] == [1.0, 2.0, 2.0]
    assert counters[-1]["ts"] == end
    html = trace_report.render_html(result)
    assert 'id="point-chart"' in html and "2 POWER events in the trace" in html


def test_a_ring_that_lost_the_first_rate_takes_it_from_the_table() -> None:
    # The ring keeps the second change only: the rate before it is the point it left (0:
    # 1 MHz), from the snapshot's table, not the header's.
    recorded = len(clocked(True).encode(energy=True).recorded)
    encoded = clocked(True).encode(energy=True, slots=recorded - 2, clock_hz=4_000_000)
    trace = decode(encoded.data)
    assert trace.header.wrapped
    kept_power = [e for e in trace.events if e.id == EV["POWER"]]
    assert len(kept_power) == 1 and kept_power[0].args[3] >> 8 == 0
    assert trace.clock[0][2] == 1_000_000 and not any("times before" in n for n in trace.notes)


def test_a_clock_of_zero_hz_is_refused() -> None:
    sc = clocked(True)
    power = next(e for e in sc.events if e.id == EV["POWER"] and e.args[0] == 1)
    power.args = (1, 0, 1100, 1)
    with pytest.raises(TraceFormatError, match="POWER: expected the new clock's rate"):
        decode(sc.encode(energy=True).data)


def test_no_point_marks_the_install() -> None:
    trace = decode(clocked(True).encode(energy=True).data)
    first = next(e for e in trace.events if e.id == EV["POWER"])
    assert first.args[3] >> 8 == NO_POINT
    assert math.isclose(trace.clock_time(3000), 1000 + 1000 + 1000 / 2)
    assert OBJ["hisr"] == 2  # the registry type the snapshot's HISRs are named by


def test_a_missing_begin_is_partial_only_where_a_ring_lost_events() -> None:
    # The snapshot's records are the first events of the dump, less BEGIN: nothing was lost,
    # so nothing can have overwritten it.
    events = [
        SynthEvent(100, EV["ENERGY"], args=args)  # type: ignore[arg-type]
        for args in books().records()[1:]
    ]
    events.append(SynthEvent(100, EV["TIME"], args=(0, 100, 0, 0)))
    with pytest.raises(TraceFormatError, match="expected the snapshot to begin with BEGIN"):
        decode(encode(events, auto_time=False, energy=True).data)
    # The same in a ring that lost events: partial.
    lossy = encode([SynthEvent(90, EV["YIELD"]), *events], auto_time=False, energy=True,
                   slots=len(events))  # fmt: skip
    assert decode(lossy.data).energy_status == "partial"


def test_a_policy_choice_is_an_instant_in_perfetto() -> None:
    sc = Scenario([Thread(L, "Low", 5)])
    sc.running = L
    sc.at(1000).power(0, 1_000_000, 900)
    sc.at(1500).emit(EV["POLICY"], 2, 0)  # load scaling, at point 0
    sc.at(1600).emit(EV["POLICY"], 9, 0)  # a policy this decoder does not know: by number
    sc.at(3000).switch(0, "suspended")
    trace = decode(sc.encode().data)
    exported = perfetto(trace, analyze(trace, "c"))
    assert problems(exported) == []
    chosen = [e for e in exported["traceEvents"] if e.get("name", "").startswith("power policy")]
    assert [(e["name"], e["args"]["point"]) for e in chosen] == [
        ("power policy: load scaling", 0),
        ("power policy: policy 9", 0),
    ]
