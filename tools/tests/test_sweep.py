# SPDX-License-Identifier: MIT
"""Sweeps (tacet.sim.sweep, ``tacet simulate --sweep``): the same bytes on one worker, on two and on
a Dask LocalCluster; malformed specs named by file, line and field; and Kim et al.'s register
files (tacet.sim.regfiles): the mapping against the paper's example, its experiment's direction."""

import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import cli_run, needs_cmake

from tacet.core.errors import TacetError
from tacet.sim import engine, regfiles, sweep

REPO = Path(__file__).resolve().parents[2]

pytestmark = needs_cmake

TINY = """\
name: tiny
seed: 7
tasks: [3, 5]
utilisation: {from: 0.6, to: 0.9, step: 0.3}
sets: 3
periods: {min: 1000, max: 50000, granularity: 10}
horizon: {longest_periods: 4}
execution: {model: uniform, bcet: 0.5}
switch_cost: 40
"""


@pytest.fixture(scope="module")
def library() -> Path:
    return engine.library(REPO)


def spec_file(tmp_path: Path, text: str, name: str = "spec.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_one_worker_and_two_give_the_same_bytes(tmp_path: Path, library: Path) -> None:
    spec = sweep.load_spec(spec_file(tmp_path, TINY))
    one = sweep.csv_text(sweep.run(spec, library, 1).rows)
    two = sweep.csv_text(sweep.run(spec, library, 2).rows)
    assert one == two
    # Every item in every mode, in item order; a different seed draws other sets.
    assert len(one.splitlines()) == 1 + 2 * 2 * 3 * 3
    other = sweep.load_spec(spec_file(tmp_path, TINY.replace("seed: 7", "seed: 8"), "b.yaml"))
    assert sweep.csv_text(sweep.run(other, library, 1).rows) != one


def test_the_dask_cluster_gives_the_pools_bytes(tmp_path: Path, library: Path) -> None:
    pytest.importorskip("distributed")
    spec = sweep.load_spec(spec_file(tmp_path, TINY))
    pool = sweep.csv_text(sweep.run(spec, library, 2).rows)
    outcome = sweep.run(spec, library, 2, dask="local")
    assert outcome.workers == 2
    assert sweep.csv_text(outcome.rows) == pool


def test_the_command_writes_the_csv_and_the_plots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = spec_file(tmp_path, TINY)
    out = tmp_path / "out"
    status, text, err = cli_run(
        capsys, "simulate", "--sweep", str(path), "--out", str(out), "--jobs", "1"
    )
    assert status == 0, err
    assert "jobs/s" in text and "thresholds remove" in text
    rows = (out / "results.csv").read_text().splitlines()
    assert rows[0].split(",") == list(sweep.COLUMNS)
    for stem in ("schedulable", "preemptions", "switching"):
        assert (out / f"{stem}.svg").read_text().startswith("<?xml")
    # The rows agree with what they count: a run that missed is not schedulable.
    for d in sweep.records([r.split(",") for r in rows[1:]]):
        assert d["simulation_schedulable"] == (d["missed"] == 0)
        assert d["jobs"] <= d["released"]
        assert d["switch_cycles"] == 40 * d["context_switches"]
        # What the analysis accepts, the kernel schedules (the cross-check's guarantee).
        assert d["simulation_schedulable"] >= d["analysis_schedulable"]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (TINY.replace("sets: 3", "sets: 3\nsetz: 4"), ":6: setz: unknown field 'setz'"),
        (TINY.replace("min: 1000", "min: 90000"), ":6: periods.max: 50000 is below min"),
        (
            TINY.replace("tasks: [3, 5]", "tasks: [3, 5]\nutilisation: [0.5]"),
            ":5: utilisation: key given twice in one mapping (first at line 4)",
        ),
        (TINY.replace("step: 0.3", "step: 0"), ":4: utilisation.step: 0 must be more than 0"),
        (TINY.replace("to: 0.9", "to: 4.0"), ":4: utilisation: 3 is too much for 3 tasks"),
        (TINY.replace("sets: 3", "sets: three"), ":5: sets: expected an integer, got 'three'"),
        (TINY.replace("modes", "x") + "modes: [eager]", ":10: modes[0]: expected"),
        (TINY.replace("switch_cost: 40", "switch_cost: {regfiles: {file: [2]}}"), ":9: "),
        (TINY.replace("bcet: 0.5}", "bcet: 0.5"), ":9: YAML syntax"),
        (TINY.replace("{model: uniform, bcet: 0.5}", "{model: fixed, bcet: 0.5}"), ":8: exec"),
    ],
)
def test_malformed_specs_name_file_line_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, where: str
) -> None:
    path = spec_file(tmp_path, text)
    status, _, err = cli_run(capsys, "simulate", "--sweep", str(path))
    assert status == 1
    assert f"{path}{where}" in err, err
    assert "Traceback" not in err


def test_one_input_at_a_time(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = cli_run(capsys, "simulate")
    assert status == 1 and "--sweep" in err
    status, _, err = cli_run(capsys, "simulate", "app.yaml", "--regfiles")
    assert status == 1 and "one of" in err


# ---- Kim et al. -----------------------------------------------------------------------------


def test_mapping_follows_the_papers_example(library: Path) -> None:
    """Figure 2: n - 2 tasks of the highest rate-monotonic priority own files, the others share
    file n - 1 (0-based n - 2); file n is the interrupts'."""
    eng = engine.Engine(library)
    periods = [14, 1, 57, 3, 5]  # table 1's T4 T1 T5 T2 T3
    assert eng.regfile_map(periods, 4) == ([2, 0, 2, 1, 2], 3)
    assert eng.regfile_map(periods, 6) == ([3, 0, 4, 1, 2], 1)
    assert eng.regfile_map(periods, 1) == ([0] * 5, 0)
    assert eng.regfile_map(periods, 2) == ([0] * 5, 5)


def test_the_experiment_reproduces_the_papers_direction(library: Path) -> None:
    eng = engine.Engine(library)
    model = engine.RegFiles(1)
    ts = regfiles.table1(regfiles.CLOCK_HZ, regfiles.LOOP_CYCLES)
    rows = regfiles.experiment(eng, ts, regfiles.CLOCK_HZ, model)
    one, own, shared = model.costs()
    assert own < one < shared
    # The same jobs in every run; from 2 files on, more files leave more idle time.
    assert len({r.result.completed for r in rows}) == 1
    idle = [r.idle for r in rows[1:]]
    assert idle == sorted(idle) and idle[-1] > rows[0].idle
    # Inside the window the starvation case misses on one file and not on six.
    a, b = regfiles.window(eng, regfiles.CLOCK_HZ, model)
    assert a < b
    starving = regfiles.table1(regfiles.CLOCK_HZ, (a + b) / 2, regfiles.STARVING_T4)
    rows = regfiles.experiment(eng, starving, regfiles.CLOCK_HZ, model)
    assert rows[0].result.missed > 0 and rows[-1].result.missed == 0
    assert isinstance(a, Fraction)


def test_a_regfile_sweep_runs_per_number_of_files(tmp_path: Path, library: Path) -> None:
    text = TINY.replace("switch_cost: 40", "switch_cost: {regfiles: {files: [1, 4]}}")
    spec = sweep.load_spec(spec_file(tmp_path, text + "modes: [preemptive]\n"))
    rows = list(sweep.records(sweep.run(spec, library, 1).rows))
    assert {d["files"] for d in rows} == {1, 4}
    by = {(d["tasks"], d["utilisation"], d["set"], d["files"]): d for d in rows}
    for (n, u, k, files), d in by.items():
        if files == 4:  # the same set on one file: same switches or close, dearer ones
            single = by[(n, u, k, 1)]
            assert d["switch_cycles"] / d["context_switches"] < 132
            assert single["switch_cycles"] == 132 * single["context_switches"]


def test_bad_dask_address_and_missing_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    path = spec_file(tmp_path, TINY)
    status, _, err = cli_run(capsys, "simulate", "--sweep", str(path), "--dask", "host:port")
    assert status == 1 and "--dask host:port: cannot reach the scheduler" in err
    assert "Traceback" not in err
    spec = sweep.load_spec(path)
    with pytest.raises(TacetError, match="no simulation engine at /nowhere/"):
        sweep.run_chunk(spec, spec.items()[:1], "/nowhere/libtacet_engine.so")
