# SPDX-License-Identifier: MIT
"""The simulator's switch cost from `tacet bench`'s results (tools/tacet/sim/switchcost.py): the
samples turned into cycles, the engine drawing them, `tacet simulate --switch-cost-from` and a
sweep's `switch_cost: {bench: ...}`."""

from __future__ import annotations

import json
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import cli_run, needs_cmake
from test_bench import META, Run, make_runs, program_output

from tacet.bench import format as bench_format
from tacet.bench import results as bench_results
from tacet.core.errors import TacetError
from tacet.sim import engine, sweep, switchcost
from tacet.sim.taskset import SimTask, TaskSet

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "periodic_control" / "app.yaml"
PREEMPTION = "rhealstone/preemption/empty"


def results(values: list[int] | None = None) -> dict[str, Any]:
    """A results document of a qemu-m3 run (25 MHz timer, -icount shift=5: 1.25 instructions
    per timer cycle, a stamp of 2 timer cycles = 2.5 instructions), whose preemption samples are
    ``values`` (timer cycles; default all 8)."""
    runs = make_runs()
    if values is not None:
        text = program_output("rhealstone")
        rh = bench_format.parse(text, "rhealstone")
        series = tuple(
            bench_format.Series(s.tags, s.unit, tuple(values))
            if s.tag("param") == "preemption" and s.tag("case") == "empty"
            else s
            for s in rh.series
        )
        runs[0] = Run("rhealstone", "default", ("qemu",), 0, 1.0, output=replace(rh, series=series))
    return bench_results.assemble(dict(META), runs)


def test_samples_become_cycles_of_the_clock() -> None:
    # 8 timer cycles = 10 instructions, less the stamp's 2.5: 7.5 instructions of 32 ns = 240
    # ns: 6 cycles at 25 MHz, 24 at 100 MHz; 20 timer cycles = 22.5 instructions = 720 ns.
    model = switchcost.from_results(results([8, 8, 20]), "r.json", PREEMPTION, 25_000_000)
    assert model.costs == (6, 6, 18)
    assert model.worst() == 18
    assert "3 samples" in model.source and "6 to 18 cycles of a 25,000,000 Hz clock" in model.source
    # Rounded up: 240 ns at 1 MHz is 0.24 of a cycle, one whole cycle.
    assert switchcost.from_results(results([8]), "r.json", PREEMPTION, 1_000_000).costs == (1,)
    assert switchcost.from_results(results([8]), "r.json", PREEMPTION, 100_000_000).costs == (24,)


def test_a_wrong_measurement_file_or_clock_is_a_clear_error(tmp_path: Path) -> None:
    doc = results()
    with pytest.raises(TacetError, match=r"r\.json: no measurement 'rhealstone/nothing/empty'"):
        switchcost.from_results(doc, "r.json", "rhealstone/nothing/empty", 25_000_000)
    with pytest.raises(
        TacetError, match=r"between empty threads there: .*rhealstone/preemption/empty"
    ):
        switchcost.from_results(doc, "r.json", "rhealstone/nothing/empty", 25_000_000)
    for bad in (0, -1, 2.5, True):
        with pytest.raises(TacetError, match="clock must be a positive integer"):
            switchcost.from_results(doc, "r.json", PREEMPTION, bad)  # type: ignore[arg-type]
    sim = dict(META, target="sim")
    sim_doc = bench_results.assemble(sim, make_runs())
    for m in sim_doc["measurements"]:
        m["unit"] = "virtual cycles"
    with pytest.raises(TacetError, match="in virtual cycles, not instructions"):
        switchcost.from_results(sim_doc, "s.json", PREEMPTION, 25_000_000)
    with pytest.raises(TacetError, match="no such file"):
        switchcost.from_bench(tmp_path / "none.json", PREEMPTION, 25_000_000)
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(TacetError, match="not JSON"):
        switchcost.from_bench(broken, PREEMPTION, 25_000_000)


@needs_cmake
def test_the_engine_draws_the_samples_reproducibly() -> None:
    eng = engine.load(REPO)
    ts = TaskSet((SimTask("a", 0, 0, 1_000, 1_000, 300), SimTask("b", 1, 1, 1_500, 1_500, 400)))
    one = eng.run(ts, horizon=300_000, seed=3, measured=engine.MeasuredCost((17,)))
    constant = eng.run(ts, horizon=300_000, seed=3, switch_cost=17)
    assert one == constant  # one sample is the constant model
    costs = engine.MeasuredCost((10, 40))
    a = eng.run(ts, horizon=300_000, seed=3, measured=costs)
    assert a == eng.run(ts, horizon=300_000, seed=3, measured=costs)
    # Both samples drawn: the total lies strictly between all-10 and all-40.
    assert 10 * a.context_switches < a.switch_cycles < 40 * a.context_switches
    assert eng.run(ts, horizon=300_000, seed=4, measured=costs).switch_cycles != a.switch_cycles
    with pytest.raises(TacetError, match="at least one sample"):
        eng.run(ts, horizon=1_000, measured=engine.MeasuredCost(()))
    with pytest.raises(TacetError, match="give one switch cost model"):
        eng.run(ts, horizon=1_000, measured=costs, switch_model=lambda f, t: 1)


@needs_cmake
def test_simulate_takes_the_switch_cost_from_a_results_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results([8, 20])), encoding="utf-8")
    status, out, _ = cli_run(capsys, "simulate", str(EXAMPLE), "--switch-cost-from", str(path))
    assert status == 0, out
    assert "overheads: 18 cycles per switch" in out and "one drawn per switch" in out
    status, out, _ = cli_run(
        capsys, "simulate", str(EXAMPLE), "--json", "--switch-cost-from", str(path)
    )
    doc = json.loads(out)
    assert doc["overheads"]["switch_cycles"] == 18
    # Some switches at 6 cycles, some at 18: the measured distribution, not the constant.
    totals = doc["totals"]
    assert (
        6 * totals["context_switches"] < totals["switch_cycles"] < 18 * totals["context_switches"]
    )
    for argv, message in (
        (("--switch-measurement", PREEMPTION), "--switch-measurement goes with"),
        (("--switch-cost-from", str(path), "--switch-cost", "5"), "not both"),
        (("--switch-cost-from", str(tmp_path / "none.json")), "no such file"),
        (("--switch-cost-from", str(path), "--switch-measurement", "x/y"), "no measurement 'x/y'"),
    ):
        status, _, err = cli_run(capsys, "simulate", str(EXAMPLE), *argv)
        assert status != 0 and message in err and "Traceback" not in err


SPEC = """\
    seed: 7
    tasks: [3]
    utilisation: [0.5]
    sets: 2
    periods: {min: 1000, max: 50000, granularity: 10}
    horizon: {longest_periods: 2}
    switch_cost: {bench: results.json, clock_hz: 100000000}
    modes: [preemptive]
"""


@needs_cmake
def test_a_sweep_prices_switches_with_the_samples(tmp_path: Path) -> None:
    (tmp_path / "results.json").write_text(json.dumps(results([8, 20])), encoding="utf-8")
    spec_path = tmp_path / "spec.yaml"
    spec_path.write_text(textwrap.dedent(SPEC), encoding="utf-8")
    spec = sweep.load_spec(spec_path)
    assert spec.measured == (24, 72)
    rows = sweep.run(spec, engine.library(REPO), 1).rows
    text = sweep.csv_text(rows)
    assert len(text.splitlines()) == 3
    (tmp_path / "results.json").unlink()
    with pytest.raises(TacetError, match=r"spec.yaml:7: switch_cost.bench: .*no such file"):
        sweep.load_spec(spec_path)
