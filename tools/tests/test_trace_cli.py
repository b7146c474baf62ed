# SPDX-License-Identifier: MIT
"""`tacet trace`: the summary, --stats [--json], --perfetto, --html, and clean errors for bad
command lines and bad files (one line, non-zero status, never a traceback)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import tool_env
from test_trace_analysis import story
from test_trace_perfetto import problems
from trace_synth import SynthObject, producer_consumer

from tacet import cli
from tacet.trace.format import OBJ


@pytest.fixture
def dump(tmp_path: Path) -> Path:
    path = tmp_path / "run.tctrace"
    path.write_bytes(story("plain").encode(ptr_size=8, slots=20).data)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(["trace", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_summary(capsys: pytest.CaptureFixture[str], dump: Path) -> None:
    status, out, _ = run(capsys, str(dump))
    assert status == 0
    assert "port sim" in out and "64-bit little-endian" in out
    assert "20 kept of" in out and "lost" in out
    assert "note: the ring wrapped: the oldest" in out
    assert "High" in out and "Medium" in out and "Low" in out
    assert "1 unbounded, 0 bounded" in out


def test_stats_text_and_json(capsys: pytest.CaptureFixture[str], dump: Path) -> None:
    status, out, _ = run(capsys, str(dump), "--stats")
    assert status == 0
    assert "switches: " in out and "thread High (0x1000):" in out
    status, out, _ = run(capsys, str(dump), "--stats", "--json")
    assert status == 0
    stats = json.loads(out)
    assert stats["events"]["wrapped"] is True and stats["events"]["kept"] == 20
    assert stats["inversions"] == {"unbounded": 1, "bounded": 0}
    assert {t["name"] for t in stats["summary"]["threads"]} == {"High", "Medium", "Low"}


def test_perfetto_file(capsys: pytest.CaptureFixture[str], dump: Path, tmp_path: Path) -> None:
    out_json = tmp_path / "trace.json"
    status, out, err = run(capsys, str(dump), "--perfetto", str(out_json), "--stats", "--json")
    assert status == 0
    json.loads(out)  # stdout stays pure JSON; the "wrote" line goes to stderr
    assert "wrote" in err and "ui.perfetto.dev" in err
    assert problems(json.loads(out_json.read_text())) == []


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "byte offset 0: truncated"),
        (b"\x7fELF" + b"\0" * 100, "byte offset 0: expected the trace magic"),
        (None, "byte offset 0: truncated: expected the trace header"),  # cut in its header
    ],
)
def test_bad_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, dump: Path, content: bytes | None,
    expected: str,
) -> None:  # fmt: skip
    bad = tmp_path / "bad.tctrace"
    bad.write_bytes(dump.read_bytes()[:60] if content is None else content)
    status, _, err = run(capsys, str(bad))
    assert status == 1
    assert err.startswith(f"tacet: error: {bad}: ") and expected in err


def test_missing_file_and_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, str(tmp_path / "nope.tctrace"))
    assert status == 1 and "cannot read the trace dump" in err and "No such file" in err
    status, _, err = run(capsys, str(tmp_path))
    assert status == 1 and "cannot read the trace dump" in err


def test_unwritable_output(capsys: pytest.CaptureFixture[str], dump: Path, tmp_path: Path) -> None:
    status, _, err = run(capsys, str(dump), "--perfetto", str(tmp_path / "no" / "dir.json"))
    assert status == 1 and "cannot write the Perfetto JSON" in err


def test_json_without_stats_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], dump: Path
) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["trace", str(dump), "--json"])
    assert info.value.code == 2
    assert "--json goes with --stats" in capsys.readouterr().err


def test_no_traceback_from_the_command(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tctrace"
    bad.write_bytes(b"TCTR" + b"\xff" * 200)
    result = subprocess.run(
        [sys.executable, "-m", "tacet", "trace", str(bad)],
        capture_output=True, text=True, env=tool_env(), check=False,
    )  # fmt: skip
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "byte offset 8: expected the endian word" in result.stderr


@pytest.fixture
def two_runs(tmp_path: Path) -> Path:
    """A file as `tacet run --trace` leaves it for a program that runs the kernel twice: a
    dump per run, each named after its case."""
    runs = []
    for case, threshold in ((1, 4), (2, 1)):
        sc = producer_consumer(6, threshold)
        sc.objects.append(SynthObject(0, OBJ["label"], f"case {case}: threshold {threshold}"))
        runs.append(sc.encode().data)
    path = tmp_path / "run.tctrace"
    path.write_bytes(b"".join(runs))
    return path


def test_every_run_of_the_file(capsys: pytest.CaptureFixture[str], two_runs: Path) -> None:
    status, out, _ = run(capsys, str(two_runs))
    assert status == 0
    assert "run.tctrace: run 1 of 2, case 1: threshold 4: port sim" in out
    assert "run.tctrace: run 2 of 2, case 2: threshold 1: port sim" in out
    status, out, _ = run(capsys, str(two_runs), "--stats", "--json")
    stats = json.loads(out)
    assert [s["source"]["label"] for s in stats] == ["case 1: threshold 4", "case 2: threshold 1"]
    assert stats[0]["summary"]["preemptions"] == 9 * 6 and stats[1]["summary"]["preemptions"] == 0
    status, out, _ = run(capsys, str(two_runs), "--run", "2", "--stats")
    assert "run: 2 of 2, case 2: threshold 1" in out
    assert "held_off: 6 times by a threshold" in out  # each consumer, each round
    status, _, err = run(capsys, str(two_runs), "--run", "3")
    assert status == 1 and "--run 3: " in err and "holds 2 traces (runs 1 to 2)" in err


def test_a_report_per_run_and_one_perfetto_file(
    capsys: pytest.CaptureFixture[str], two_runs: Path, tmp_path: Path
) -> None:
    html, perfetto_json = tmp_path / "report.html", tmp_path / "trace.json"
    status, _, err = run(
        capsys, str(two_runs), "--html", str(html), "--perfetto", str(perfetto_json)
    )
    assert status == 0
    first, second = tmp_path / "report-run1.html", tmp_path / "report-run2.html"
    assert first.is_file() and second.is_file() and not html.exists()
    assert f"wrote {first} (run 1 of 2, case 1: threshold 4)" in err
    # What make demo prints of each run's events.
    assert "run 2 of 2, case 2: threshold 1: " in err and " recorded, 0 lost" in err
    assert 'href="report-run2.html"' in first.read_text(encoding="utf-8")
    doc = json.loads(perfetto_json.read_text())
    names = [e["args"]["name"] for e in doc["traceEvents"] if e.get("name") == "process_name"]
    assert names == [
        "Tacet sim (host), run 1 of 2: case 1: threshold 4",
        "Tacet sim (host), run 2 of 2: case 2: threshold 1",
    ]
    assert problems(doc) == []
    assert [r["label"] for r in doc["otherData"]["runs"]] == [
        "case 1: threshold 4", "case 2: threshold 1",
    ]  # fmt: skip


def test_lost_events_are_said_with_what_to_do(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "lossy.tctrace"
    path.write_bytes(producer_consumer(6, 1).encode(slots=100).data)
    status, out, _ = run(capsys, str(path))
    assert status == 0
    assert "warning: " in out and "events lost (the ring wrapped" in out
    assert "--trace-size 8M" in out and "--trace-mode stop" in out
    status, _, err = run(capsys, str(path), "--html", str(tmp_path / "r.html"))
    assert "warning: the trace: " in err and "--trace-size" in err


def test_a_dump_cut_short_is_decoded_with_a_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    whole = producer_consumer(6, 1).encode().data
    path = tmp_path / "cut.tctrace"
    path.write_bytes(whole[: len(whole) - 1000])
    status, out, _ = run(capsys, str(path))
    assert status == 0
    assert "note: the dump is cut short: it ends 1000 bytes before its last event slot" in out
    assert "warning: " in out and "events are missing: the dump was cut short" in out
