"""``tacet size``: argument handling, and the footprint it prints for the real tree."""

import shutil
from pathlib import Path

import pytest

from tacet import cli, footprint


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
    # The minimal program uses threads, semaphores and queues: the linker keeps all three.
    minimal = out.split("\nfull")[0]
    modules = {line.split()[0] for line in minimal.splitlines() if line.startswith("  ")}
    assert {"sched", "thread", "sem", "queue"} <= modules


def test_linked_sizes_skips_discarded_sections(tmp_path: Path) -> None:
    lib = "tacet/libtacet_kernel.a"
    map_file = tmp_path / "minimal.map"
    map_file.write_text(
        "Discarded input sections\n\n"
        f" .text.tc_queue_flush\n                0x00000000       0x40 {lib}(queue.c.obj)\n"
        "\nMemory Configuration\n\n"
        "Linker script and memory map\n\n"
        f" .text.send     0x00000238       0xb8 {lib}(queue.c.obj)\n"
        f" .text.tc_queue_create\n                0x000002f0       0x5c {lib}(queue.c.obj)\n"
        f" .bss.tc__k     0x20000000       0x10 {lib}(sched.c.obj)\n"
    )
    sizes = footprint.linked_sizes(map_file)
    assert sizes["queue"].flash == 0xB8 + 0x5C
    assert sizes["sched"].ram == 0x10 and sizes["sched"].flash == 0
