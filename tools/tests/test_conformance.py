# SPDX-License-Identifier: MIT
"""The kernel against the reference model: model-based random tests.

Hypothesis generates scenarios (shrinking a failing one to a minimal case), the sim port's
scenario interpreter runs them one at a time, and the outcome must be the model's. The
budget is seeded (derandomized) so that `make test` runs the same scenarios every time;
TACET_CONFORMANCE_EXAMPLES changes it. The bulk runner `tacet conformance` is tested too,
on sim and on a Cortex-M3 sample, and so is its report of a divergence."""

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO, needs_cmake, tool_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tacet.cli import conformance as conformance_command
from tacet.conformance.check import Interpreter, difference, interpreter_program
from tacet.conformance.model import predict
from tacet.conformance.scenario import (
    CALLS,
    EVENT_ALL,
    EVENT_ANY,
    EVENT_CLEAR,
    Call,
    Scenario,
    ThreadSpec,
)
from tacet.core.targets import TARGETS

EXAMPLES = int(os.environ.get("TACET_CONFORMANCE_EXAMPLES", "3000"))

# ---- the strategy -------------------------------------------------------------------------


@st.composite
def calls(draw: st.DrawFn, counts: dict[str, int], context: str) -> Call:
    names = ["resume", "suspend", "prio", "thr", "abort"]
    if context != "isr":
        names.append("term")
    if context == "thread":
        names += ["yield", "sleep", "slock", "sunlock", "isr"]
    if counts["s"]:
        names += ["take", "give"]
    if counts["q"]:
        names += ["send", "sendf", "recv", "flush"]
    if counts["e"]:
        names += ["set", "clear", "wait"]
    if counts["m"]:
        names += ["lock", "unlock"]
    if context == "isr" and counts["h"]:
        names.append("hisr")
    name = draw(st.sampled_from(names))
    if name == "isr":
        return Call("isr", (), tuple(draw(st.lists(calls(counts, "isr"), min_size=1, max_size=3))))
    limits = {
        "s": counts["s"],
        "q": counts["q"],
        "e": counts["e"],
        "m": counts["m"],
        "t": counts["t"],
        "h": counts["h"],
        "w": 2 if context == "thread" else 1,
        "p": 10,
    }
    args = []
    for kind in CALLS[name]:
        if kind == "v":
            args.append(
                draw(st.sampled_from((1, 2, 3, 5, 7, 15))) if name != "wait" or not args[1:] else 0
            )
        else:
            args.append(draw(st.integers(0, limits[kind] - 1)))
    if name == "wait":  # event, flags, mode, wait
        mode = draw(st.sampled_from((EVENT_ANY, EVENT_ALL)))
        mode |= draw(st.sampled_from((0, EVENT_CLEAR)))
        args = [args[0], draw(st.sampled_from((1, 2, 3, 5, 7, 15))), mode, args[3]]
    return Call(name, tuple(args))


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    n = draw(st.integers(1, 6))
    specs = []
    for _ in range(n):
        p = draw(st.integers(1, 8))
        specs.append((p, draw(st.integers(0, p)), draw(st.booleans())))
    counts = {
        "t": n,
        "s": draw(st.integers(0, 2)),
        "q": draw(st.integers(0, 2)),
        "e": draw(st.integers(0, 1)),
        "m": draw(st.integers(0, 2)),
        "h": 0,
    }
    sems = tuple(
        (i, i + draw(st.integers(0, 2)) or 1)
        for i in (draw(st.integers(0, 2)) for _ in range(counts["s"]))
    )
    queues = tuple(draw(st.integers(1, 3)) for _ in range(counts["q"]))
    mutexes = tuple(draw(st.booleans()) for _ in range(counts["m"]))
    hisr = tuple(
        tuple(draw(st.lists(calls(counts, "hisr"), min_size=1, max_size=3)))
        for _ in range(draw(st.integers(0, 2)))
    )
    counts["h"] = len(hisr)
    threads = tuple(
        ThreadSpec(p, t, s, tuple(draw(st.lists(calls(counts, "thread"), max_size=8))))
        for p, t, s in specs
    )
    return Scenario(0, threads, sems, queues, counts["e"], mutexes, hisr)


# ---- against the sim port ------------------------------------------------------------------


@pytest.fixture(scope="module")
def sim() -> Iterator[Interpreter]:
    if not shutil.which("cmake") or not shutil.which("ninja"):
        pytest.skip("needs cmake and ninja")
    target = TARGETS["sim"]
    program = interpreter_program(target, REPO, target.build_dir(REPO))
    interpreter = Interpreter(program)
    yield interpreter
    interpreter.close()


@needs_cmake
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(sc=scenarios())
def test_the_kernel_does_what_the_model_says(sim: Interpreter, sc: Scenario) -> None:
    expected, got = predict(sc), sim.run(sc)
    assert difference(expected, got) is None, (
        f"{difference(expected, got)}\n\n{sc.text()}\n"
        f"model:\n{expected.text()}\nkernel:\n{got.text()}"
    )


# ---- the bulk runner -----------------------------------------------------------------------


def conformance(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tacet", "conformance", *args],
        cwd=REPO, env=tool_env(), stdin=subprocess.DEVNULL, capture_output=True, text=True,
        check=False,
    )  # fmt: skip


@needs_cmake
def test_bulk_run_on_sim() -> None:
    result = conformance("--target", "sim", "--count", "20000", "--seed", "8")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "20000 scenarios (seed 8, from 0) on sim agree with the model" in result.stdout
    assert "a preempted thread resumed with its threshold" in result.stdout


needs_qemu = pytest.mark.skipif(
    not (shutil.which("qemu-system-arm") and shutil.which("arm-none-eabi-gcc")),
    reason="needs qemu-system-arm and arm-none-eabi-gcc",
)


@needs_cmake
@needs_qemu
@pytest.mark.parametrize("target", ["qemu-m3", "qemu-m4"])
def test_sample_on_cortex_m(target: str) -> None:
    """The same scenarios on Cortex-M under QEMU: real NVIC interrupts and PendSV."""
    count = "10000" if target == "qemu-m3" else "2000"
    result = conformance("--target", target, "--count", count, "--seed", "8")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{count} scenarios (seed 8, from 0) on {target} agree with the model" in result.stdout


needs_riscv = pytest.mark.skipif(
    not (shutil.which("qemu-system-riscv32") and shutil.which("riscv64-unknown-elf-gcc")),
    reason="needs qemu-system-riscv32 and riscv64-unknown-elf-gcc",
)


@needs_cmake
@needs_riscv
def test_sample_on_riscv() -> None:
    """The same scenarios on RISC-V under QEMU: the machine software interrupt, the switch at
    the end of the trap."""
    result = conformance("--target", "qemu-rv32", "--count", "5000", "--seed", "8")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5000 scenarios (seed 8, from 0) on qemu-rv32 agree with the model" in result.stdout


@needs_cmake
def test_a_divergence_is_shrunk_and_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An interpreter that gets one thing wrong -- it makes every threshold change a priority
    change -- is caught, and the scenario printed is a small one that still shows it."""
    target = TARGETS["sim"]
    real = interpreter_program(target, REPO, target.build_dir(REPO))
    wrong = tmp_path / "wrong.sh"
    wrong.write_text(f'#!/bin/sh\nsed "s/ thr / prio /g" "$1" | {real}\n')
    wrong.chmod(0o755)
    monkeypatch.setattr(conformance_command, "interpreter_program", lambda *_: wrong)
    args = argparse.Namespace(
        target="sim",
        repo=REPO,
        build_dir=tmp_path / "build",
        count=2000,
        seed=3,
        first=0,
        batch=500,
        jobs=1,
        no_interrupts=False,
        save=tmp_path / "small.txt",
    )
    assert conformance_command.handle(args) == 1
    small = (tmp_path / "small.txt").read_text()
    assert " thr " in small
    assert small.count("\ndo ") <= 3, small
    out = capsys.readouterr().out
    assert "diverges on sim; shrunk to:" in out
    assert "difference: " in out
