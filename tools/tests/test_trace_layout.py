# SPDX-License-Identifier: MIT
"""The C structs of include/tacet/trace.h have the layout docs/trace.md gives and the decoder
reads, for both pointer widths: clang checks offsetof/sizeof as static assertions for a
64-bit host and for Cortex-M (32-bit), and the decoder's struct formats are held to the same
offsets."""

import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from conftest import REPO

from tacet.trace import format as tracefmt

HEADER = {
    "magic": 0, "version": 4, "ptr_size": 6, "flags": 7, "endian": 8, "clock_hz": 12,
    "tick_hz": 16, "header_size": 20, "object_size": 22, "event_size": 24, "priorities": 26,
    "objects": 28, "events": 32, "events_offset": 36, "next": 40, "laps": 44, "lost": 48,
    "objects_lost": 52, "start_hi": 56, "start_lo": 60, "port": 64, "cpu": 76,
}  # fmt: skip


def layout(p: int) -> dict[str, dict[str, int]]:
    """Offsets and sizes by docs/trace.md for pointer size `p`."""
    return {
        "tc_trace_header": {**HEADER, "sizeof": 88},
        "tc_trace_object": {
            "address": 0, "type": p, "deleted": p + 1, "extra": p + 2, "created": p + 4,
            "name": p + 8, "sizeof": {4: 32, 8: 40}[p],
        },
        "tc_trace_event": {
            "time": 0, "id": 4, "irq": 6, "reserved": 7, "priority": 8, "threshold": 10,
            "ctx": {4: 12, 8: 16}[p], "arg": {4: 16, 8: 24}[p], "sizeof": {4: 32, 8: 56}[p],
        },
    }  # fmt: skip


def c_assertions(p: int) -> str:
    lines = ["#include <stddef.h>", '#include "tacet/trace.h"']
    lines.append(f'_Static_assert(sizeof(uintptr_t) == {p}, "pointer size");')
    for struct_name, fields in layout(p).items():
        for name, offset in fields.items():
            what = (
                f"sizeof({struct_name})"
                if name == "sizeof"
                else (f"offsetof({struct_name}, {name})")
            )
            lines.append(f'_Static_assert({what} == {offset}, "{struct_name}.{name}");')
    return "\n".join(lines) + "\n"


@pytest.mark.skipif(shutil.which("clang") is None, reason="needs clang")
@pytest.mark.parametrize(
    ("target", "p"), [("x86_64-linux-gnu", 8), ("aarch64-linux-gnu", 8), ("armv7m-none-eabi", 4)]
)
def test_c_structs_match_the_documented_layout(tmp_path: Path, target: str, p: int) -> None:
    source = tmp_path / "layout.c"
    source.write_text(c_assertions(p))
    result = subprocess.run(
        ["clang", f"--target={target}", "-ffreestanding", "-std=c11", "-fsyntax-only",
         f"-I{REPO / 'include'}", str(source)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("p", [4, 8])
def test_decoder_formats_match_the_documented_layout(p: int) -> None:
    want = layout(p)
    assert struct.calcsize("<IHBBIIIHHHHIIIIIIIII") + 24 == want["tc_trace_header"]["sizeof"]
    pointer = "I" if p == 4 else "Q"
    entry = struct.calcsize("<" + pointer + "BBHI")
    assert entry == want["tc_trace_object"]["name"]
    assert entry + tracefmt.NAME_SIZE <= want["tc_trace_object"]["sizeof"]
    assert tracefmt.GEOMETRY[p] == (
        want["tc_trace_object"]["sizeof"],
        want["tc_trace_event"]["sizeof"],
    )
    before_ctx = "<IHBBHH" + ("" if p == 4 else "4x")
    assert struct.calcsize(before_ctx) == want["tc_trace_event"]["ctx"]
    assert struct.calcsize(before_ctx + pointer) == want["tc_trace_event"]["arg"]
    assert tracefmt.ARGS_OFFSET[p] == want["tc_trace_event"]["arg"]
    assert struct.calcsize(before_ctx + pointer + "4" + pointer) == want["tc_trace_event"]["sizeof"]
