# SPDX-License-Identifier: MIT
"""``tacet size``: argument handling, and the footprint it prints for the real tree."""

import re
import shutil
from pathlib import Path

import pytest
from conftest import REPO

from tacet import cli
from tacet.project import footprint


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
    minimal, full = out.split("\nfull")
    modules = {line.split()[0] for line in minimal.splitlines() if line.startswith("  ")}
    assert {"sched", "thread", "sem", "queue"} <= modules
    # The full program calls every service: each object type's module is linked, and the
    # invariant checker is not (it is the separate "+ tc_check()" line, and adds something).
    modules = {line.split()[0] for line in full.splitlines() if line.startswith("  ")}
    services = {"sem", "mutex", "queue", "msgport", "taskport", "event", "signal", "timer"}
    assert services | {"block_pool", "byte_pool", "hisr", "isr", "stats"} <= modules
    assert "check" not in modules
    check_line = next(line for line in full.splitlines() if "+ tc_check()" in line)
    assert int(check_line.split()[2]) > 0


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


# Public functions FULL_APP deliberately does not call, and why.
NOT_CALLED = {
    "tc_stack_overflow_hook": "a hook the kernel calls and an application may define; with "
    "stack checking on (the full configuration) the kernel's default is linked anyway",
    "tc_isr_priority_hook": "a hook the kernel calls and an application may define; the "
    "measured kernel has no checks (TC_CHECKS=0), which are what call it",
    # The footprint is the kernel's with the trace compiled out (TC_TRACE=0): these would only
    # link the stubs that return TC_STATE_ERROR. bench/trace_cost measures the trace.
    "tc_trace_enable": "the trace is compiled out of the measured kernel (TC_TRACE=0)",
    "tc_trace_disable": "the trace is compiled out of the measured kernel (TC_TRACE=0)",
    "tc_trace_user": "the trace is compiled out of the measured kernel (TC_TRACE=0)",
    "tc_trace_label": "the trace is compiled out of the measured kernel (TC_TRACE=0)",
    "tc_trace_buffer": "the trace is compiled out of the measured kernel (TC_TRACE=0)",
}


def strip_comments(c_text: str) -> str:
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", c_text, flags=re.DOTALL)


def public_functions() -> set[str]:
    """Functions declared in include/tacet/*.h for applications: tc_ names, not static inline,
    not the port's entry points (tc__thread_run ...: a double underscore, so tc_[a-z] skips
    them)."""
    names: set[str] = set()
    for header in sorted((REPO / "include" / "tacet").glob("*.h")):
        if header.name == "power.h":  # TC_POWER=1 only; the footprint is the default kernel's
            continue
        text = strip_comments(header.read_text())
        inline = set(re.findall(r"static\s+inline\b[^;{]*?\b(tc_[a-z]\w*)\s*\(", text))
        names |= set(re.findall(r"\b(tc_[a-z]\w*)\s*\(", text)) - inline
    return names


def test_full_app_calls_every_public_function() -> None:
    """A service added to the headers later must not be left out of the full figure."""
    declared = public_functions()
    assert len(declared) > 50, "the header parser found too few functions"
    stale = set(NOT_CALLED) - declared
    assert not stale, f"NOT_CALLED names functions no header declares: {sorted(stale)}"
    app = strip_comments(footprint.FULL_APP)
    missing = sorted(
        name for name in declared - set(NOT_CALLED) if not re.search(rf"\b{name}\s*\(", app)
    )
    assert not missing, f"FULL_APP does not call: {missing}"


def test_full_app_calls_tc_check_only_in_its_check_variant() -> None:
    """tc_check() is reported apart: the program measured as "full" must not link it."""
    app = strip_comments(footprint.FULL_APP)
    before, guard, after = app.partition("#ifdef TACET_FOOTPRINT_CHECK")
    assert guard and "tc_check(" not in before
    assert "tc_check(" in after.partition("#endif")[0]
    assert footprint.PROGRAMS["full"] == {
        "full": (footprint.FULL_APP, ""),
        "full_check": (footprint.FULL_APP, "TACET_FOOTPRINT_CHECK"),
    }


def test_table_prints_what_tc_check_adds(capsys: pytest.CaptureFixture[str]) -> None:
    sizes = {"sched": footprint.Size(text=1000, bss=100), "startup": footprint.Size(text=50)}
    checked = {
        "sched": footprint.Size(text=1200, bss=100),
        "check": footprint.Size(text=300),
        "startup": footprint.Size(text=40),
    }
    assert footprint.table("full", sizes, 2000, with_check=checked)
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].split()[:3] == ["sched", "1000", "100"]
    assert lines[3].split()[:3] == ["kernel", "total", "1000"]
    # The board support's change is not the checker's: only kernel modules are compared.
    assert lines[4].split()[:4] == ["+", "tc_check()", "+500", "+0"]
