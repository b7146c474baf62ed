# SPDX-License-Identifier: MIT
"""Carbone's mutex experiment (examples/priority_inversion), from the trace: each of the four
runs is traced on its own (`tacet run --trace F APP -- RUN`), decoded (tacet.trace.format) and
analysed (tacet.trace.analysis). Without a preemption threshold and without priority
inheritance High waits while Medium runs (unbounded inversions); with either of them no
inversion is unbounded. The kernel's own counters, printed by the program, are held to the
trace: an inversion needs a get that found the mutex held.

On sim, and on qemu-m3 when its toolchain and QEMU are installed (one build, four runs of
about a second each).
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, needs_cmake, tool_env

from tacet.trace import analysis as trace_analysis
from tacet.trace import format as tracefmt

APP = "examples/priority_inversion"
RUNS = ("plain", "threshold", "inherit", "both")

needs_qemu_m3 = pytest.mark.skipif(
    not all(shutil.which(t) for t in ("arm-none-eabi-gcc", "qemu-system-arm", "cmake", "ninja")),
    reason="needs arm-none-eabi-gcc, qemu-system-arm, cmake and ninja on PATH",
)
TARGETS = [
    pytest.param("sim", marks=needs_cmake),
    pytest.param("qemu-m3", marks=needs_qemu_m3),
]


def run_traced(target: str, build_dir: Path, run: str, dump: Path) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "tacet", "run", "--target", target, "--build-dir",
         str(build_dir), "--trace", str(dump), APP, "--", run],
        cwd=REPO,
        env=tool_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert dump.is_file(), result.stderr
    return result.stdout


def counters(stdout: str, run: str) -> dict[str, int]:
    """The program's row for `run` in its table "What else the kernel and the threads
    counted"."""
    rows = re.findall(rf"^{run} +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+)$", stdout, re.M)
    assert len(rows) == 1, stdout
    keys = ("contended", "wake_to_put_max", "medium_jobs", "low_sections", "switches", "preempt")
    return dict(zip(keys, map(int, rows[0]), strict=True))


@pytest.fixture(scope="module", params=TARGETS)
def traced(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Each run of the example traced on its own on one target: {run: (stdout, dump path)}.
    One build directory per target, private to the test."""
    target = request.param
    root = tmp_path_factory.mktemp(f"pi-{target}")
    out = {}
    for run in RUNS:
        dump = root / f"{run}.tctrace"
        out[run] = (run_traced(target, root / "build", run, dump), dump)
    return {"target": target, "runs": out}


def analysed(traced: dict, run: str) -> tuple[dict, dict[str, int], dict[str, str]]:
    stdout, dump = traced["runs"][run]
    trace = tracefmt.decode(dump.read_bytes(), str(dump))
    analysis = trace_analysis.analyze(trace, str(dump))
    names = {c["id"]: c["name"] for c in analysis["contexts"]}
    # The whole run is in the dump: no inversion can hide in a lost stretch.
    assert analysis["events"]["lost"] == 0 and not analysis["events"]["wrapped"]
    return analysis, counters(stdout, run), names


def test_plain_run_has_unbounded_inversions(traced: dict) -> None:
    analysis, kernel, names = analysed(traced, "plain")
    unbounded = [i for i in analysis["inversions"] if not i["bounded"]]
    assert unbounded, f"{traced['target']}: no unbounded inversion in the plain run"
    for i in unbounded:
        assert (names[i["high"]], names[i["medium"]], names[i["low"]]) == ("High", "Medium", "Low")
        assert i["object"] == "Shared"
        assert i["end_us"] > i["start_us"]
    # Each inversion is a wait of High's, and High waits only when its get finds Low holding
    # the mutex, which the program counts without the trace.
    assert kernel["contended"] > 0
    assert len(analysis["inversions"]) <= kernel["contended"]


@pytest.mark.parametrize("run", ["threshold", "inherit", "both"])
def test_threshold_or_inheritance_leaves_no_unbounded_inversion(traced: dict, run: str) -> None:
    analysis, kernel, _ = analysed(traced, run)
    unbounded = [i for i in analysis["inversions"] if not i["bounded"]]
    assert not unbounded, f"{traced['target']} {run}: {len(unbounded)}, first {unbounded[0]}"
    assert len(analysis["inversions"]) <= kernel["contended"]
    if run != "inherit":
        # Nobody preempts Low: High never finds the mutex held, so never waits for it.
        assert kernel["contended"] == 0
        assert analysis["inversions"] == []
