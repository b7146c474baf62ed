# SPDX-License-Identifier: MIT
"""The simulator against the analysis (tacet.sim.crosscheck): 3,000 seeded random task sets per
scheduling mode run on the kernel, every thread within its response-time bound and its
predicted preemptions, the fully preemptive bounds of the plain sets reached exactly; and
that the check fails, writing a description that ``tacet simulate`` runs to the same
result, when the analysis is one cycle short. docs/simulator.md describes the sets."""

from pathlib import Path

import pytest
from conftest import needs_cmake

from tacet import cli
from tacet.app.description import load
from tacet.sim import crosscheck, engine
from tacet.sim.taskset import from_app

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "build" / "crosscheck"  # where a failing set is written, to run it again
SETS = 3000

pytestmark = needs_cmake


@pytest.fixture(scope="module")
def eng() -> engine.Engine:
    return engine.load(REPO)


@pytest.mark.parametrize("mode", crosscheck.MODES)
def test_the_kernel_stays_within_the_analysis(eng: engine.Engine, mode: str) -> None:
    report = crosscheck.run(eng, mode, SETS, out_dir=OUT)
    print(crosscheck.summary(report))
    assert not report.findings, "\n".join(f.text() for f in report.findings[:10])
    assert report.sets == SETS
    assert report.threads > 3 * SETS and report.jobs > 500 * SETS
    if mode == "preemptive":
        assert report.exact > SETS / 2  # plain sets whose bound must be reached exactly
    else:
        assert report.exact == 0
    if mode == "non-preemptive":
        assert report.at_bound > 0


@pytest.mark.usefixtures("short_analysis")
def test_a_bound_one_cycle_short_is_caught(
    eng: engine.Engine, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = crosscheck.run(eng, "preemptive", 40, out_dir=tmp_path)
    assert report.findings
    finding = report.findings[0]
    assert finding.path is not None and finding.path.is_file()
    assert f"tacet simulate {finding.path}" in finding.text()
    assert "response" in finding.text()
    # The file is the set: tacet simulate reads it back to the same threads, and (with the
    # same short analysis) fails the same way.
    case = crosscheck.random_case(finding.seed)
    app = load(finding.path)
    assert from_app(app, app.threads) == crosscheck.in_mode(case, "preemptive")
    assert cli.main(["simulate", str(finding.path)]) == 4
    out = capsys.readouterr().out
    assert "EXCEEDS THE ANALYSIS" in out


def test_a_written_set_simulates_to_the_same_result(eng: engine.Engine, tmp_path: Path) -> None:
    for seed in (3, 17, 250):
        case = crosscheck.random_case(seed)
        taskset = crosscheck.in_mode(case, "thresholds")
        path = crosscheck.write(case, taskset, "thresholds", ["(a test)"], tmp_path)
        app = load(path)
        sim = app.simulation
        assert (sim.horizon, sim.seed, sim.switch_cost, sim.release_cost) == (
            case.horizon,
            case.seed,
            case.switch_cost,
            case.release_cost,
        )
        again = eng.run(
            from_app(app, app.threads),
            horizon=sim.horizon,  # type: ignore[arg-type]
            seed=sim.seed,  # type: ignore[arg-type]
            switch_cost=sim.switch_cost,  # type: ignore[arg-type]
            release_cost=sim.release_cost,  # type: ignore[arg-type]
        )
        first = eng.run(
            taskset,
            horizon=case.horizon,
            seed=case.seed,
            switch_cost=case.switch_cost,
            release_cost=case.release_cost,
        )
        assert again == first


def test_random_sets_are_seeded() -> None:
    assert crosscheck.random_case(5) == crosscheck.random_case(5)
    assert crosscheck.random_case(5) != crosscheck.random_case(6)
    kinds = [crosscheck.random_case(s) for s in range(200)]
    assert sum(c.plain for c in kinds) > 30
    assert any(c.taskset.mutexes for c in kinds)
    assert {t.execution.model for c in kinds for t in c.taskset.tasks} == {
        "fixed",
        "uniform",
        "normal",
        "trace",
    }
