# SPDX-License-Identifier: MIT
"""TC_TRACE=0 compiles every trace point away: the kernel built from the sources as they are
is byte for byte the kernel built from the same sources with every trace construct cut out
(the trace wrappers, the trace points, the `#if TC_TRACE` blocks, TC_BODY(name) as name): the
"build without the feature". Built as `tacet size` builds it (arm-none-eabi-gcc -Os, Cortex-M3,
TC_CHECKS=0) and in the default configuration; kernel/trace.c itself (the API's stubs, linked
only when called) is left out of the comparison."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO

GCC = "arm-none-eabi-gcc"
needs_gcc = pytest.mark.skipif(shutil.which(GCC) is None, reason=f"needs {GCC}")

POINT = re.compile(
    r"^[ \t]*TC_TRACE_(?:EVENT|READY|CALL|OBJECT|WAITQ)\(.*\);[ \t]*\n", re.MULTILINE
)
IF_BLOCK = re.compile(r"^#if TC_TRACE\n.*?^#endif[^\n]*\n", re.MULTILINE | re.DOTALL)
BODY = re.compile(r"\bTC_BODY\((\w+)\)")


def cut_wrappers(text: str) -> str:
    """Remove each `TC_TRACED(...)` invocation (balanced parentheses, possibly multi-line)."""
    out, i = [], 0
    while (start := text.find("TC_TRACED(", i)) >= 0:
        out.append(text[i:start])
        depth, j = 0, start + len("TC_TRACED")
        while True:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
            if depth == 0:
                break
        i = j + 1 if text[j : j + 1] == "\n" else j
    out.append(text[i:])
    return "".join(out)


def without_trace(text: str) -> str:
    text = cut_wrappers(text)
    text = IF_BLOCK.sub("", text)
    text = POINT.sub("", text)
    return BODY.sub(r"\1", text)


def test_the_cutter_removes_every_construct() -> None:
    for source in sorted((REPO / "kernel").glob("*.c")):
        if source.name == "trace.c":
            continue
        cut = re.sub(r"/\*.*?\*/", " ", without_trace(source.read_text()), flags=re.DOTALL)
        leftover = re.findall(r"TC_TRACE\w*|TC_BODY|tc__trace\w*", cut)
        assert leftover == [], f"{source.name}: {sorted(set(leftover))}"


def compile_kernel(tree: Path, out: Path, definitions: list[str]) -> dict[str, bytes]:
    """Each kernel/*.c but trace.c compiled as the footprint is; name -> object bytes."""
    out.mkdir(parents=True, exist_ok=True)
    objects = {}
    for source in sorted((tree / "kernel").glob("*.c")):
        if source.name == "trace.c":
            continue
        obj = out / (source.stem + ".o")
        subprocess.run(
            [GCC, "-mcpu=cortex-m3", "-mthumb", "-Os", "-ffunction-sections", "-fdata-sections",
             "-std=c11", *[f"-D{d}" for d in definitions], "-I", "include",
             "-I", "ports/cortex-m/include", "-I", "ports/cortex-m/boards/mps2/include",
             "-I", "kernel", "-c", f"kernel/{source.name}", "-o", str(obj)],
            cwd=tree, check=True, capture_output=True, text=True,
        )  # fmt: skip
        objects[source.name] = obj.read_bytes()
    return objects


@needs_gcc
@pytest.mark.parametrize("definitions", [["TC_CHECKS=0"], []], ids=["footprint", "default"])
def test_trace_off_is_the_kernel_without_the_feature(
    tmp_path: Path, definitions: list[str]
) -> None:
    bare = tmp_path / "bare"
    for part in ("include", "ports", "kernel"):
        shutil.copytree(REPO / part, bare / part)
    for source in (bare / "kernel").glob("*.c"):
        source.write_text(without_trace(source.read_text()))
    defs = [*definitions, "TC_TRACE=0"]
    ours = compile_kernel(REPO, tmp_path / "ours", defs)
    theirs = compile_kernel(bare, tmp_path / "bare-objects", defs)
    assert sorted(ours) == sorted(theirs)
    differ = [name for name in ours if ours[name] != theirs[name]]
    assert differ == [], f"objects that differ with the trace compiled out: {differ}"


def test_a_trace_point_would_be_seen(tmp_path: Path) -> None:
    """The comparison can fail: a trace point left in with TC_TRACE=0 changes an object."""
    if shutil.which(GCC) is None:
        pytest.skip(f"needs {GCC}")
    tree = tmp_path / "tree"
    for part in ("include", "ports", "kernel"):
        shutil.copytree(REPO / part, tree / part)
    isr = tree / "kernel" / "isr.c"
    before = compile_kernel(tree, tmp_path / "a", ["TC_TRACE=0"])["isr.c"]
    isr.write_text(
        isr.read_text().replace("tc__k.isr_nesting++;", "tc__k.isr_nesting++;\n  tc__k.tick++;", 1)
    )
    after = compile_kernel(tree, tmp_path / "b", ["TC_TRACE=0"])["isr.c"]
    assert before != after
