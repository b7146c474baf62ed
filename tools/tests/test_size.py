"""``tacet size``: argument handling, and the footprint it prints for the real tree."""

import shutil
from pathlib import Path

import pytest

from tacet import cli


def test_size_rejects_unknown_cpu(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["size", "--cpu", "cortex-m0"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_size_names_missing_tool(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    assert cli.main(["size"]) != 0
    err = capsys.readouterr().err
    assert "error:" in err and "not found" in err


@pytest.mark.skipif(
    shutil.which("arm-none-eabi-gcc") is None or shutil.which("cmake") is None,
    reason="needs cmake and arm-none-eabi-gcc",
)
def test_size_prints_both_configurations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["size", "--build-root", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "minimal" in out and "full" in out
    assert "sched.c" in out or "sched" in out
