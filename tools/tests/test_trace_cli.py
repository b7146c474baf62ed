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

from tacet import cli


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
        (None, "byte offset"),  # truncated real dump
    ],
)
def test_bad_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, dump: Path, content: bytes | None,
    expected: str,
) -> None:  # fmt: skip
    bad = tmp_path / "bad.tctrace"
    bad.write_bytes(dump.read_bytes()[:300] if content is None else content)
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
