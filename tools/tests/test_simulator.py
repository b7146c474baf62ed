# SPDX-License-Identifier: MIT
"""The simulation engine from Python (tacet.sim.engine) and ``tacet simulate``: schedules worked
by hand, determinism, the execution-time models, the switch cost model, refused task sets;
the command's table, JSON and exit statuses; the description's simulator fields and their
errors (file, line, field); a task set written as a description and read back. The engine
itself has its C tests (simulator/test_engine.c); the cross-check is test_crosscheck.py."""

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import cli_run, needs_cmake, write_yaml

from tacet.analysis import rta as analysis
from tacet.analysis.workload import Execution
from tacet.app.description import load
from tacet.core.errors import TacetError
from tacet.sim import crosscheck, engine, simulate
from tacet.sim.taskset import Section, SimTask, TaskSet, description, from_app

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "periodic_control" / "app.yaml"

pytestmark = needs_cmake


@pytest.fixture(scope="module")
def eng() -> engine.Engine:
    return engine.load(REPO)


def task(name: str, prio: int, period: int, wcet: int, **kw: object) -> SimTask:
    return SimTask(name, prio, prio, period, period, wcet, **kw)  # type: ignore[arg-type]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return cli_run(capsys, "simulate", *argv)


write = write_yaml


# ---- the engine ----------------------------------------------------------------------------


def test_rate_monotonic_by_hand(eng: engine.Engine) -> None:
    # a (T 10 C 3): 0-3, 10-13, 20-23; b (T 15 C 4): 3-7, 15-19; c (T 30 C 8): 7-10, 13-15,
    # 19-20, 23-25, preempted three times.
    ts = TaskSet((task("a", 0, 10, 3), task("b", 1, 15, 4), task("c", 2, 30, 8)))
    r = eng.run(ts, horizon=30)
    assert [t.completed for t in r.threads] == [3, 2, 1]
    assert [t.response_max for t in r.threads] == [3, 7, 25]
    assert r.thread("b").response_avg == 5.5
    assert r.thread("c").preemptions == r.thread("c").preemptions_max == 3
    assert r.context_switches == 9
    assert r.idle_cycles == 5
    # Fully preemptive and released together, the analysis is exact.
    bounds = analysis.analyze(ts.analysis_tasks())
    assert [b.response for b in bounds.tasks] == [3, 7, 25]


def test_same_seed_same_result(eng: engine.Engine) -> None:
    case = crosscheck.random_case(7)
    kw = {"horizon": case.horizon, "switch_cost": 30, "release_cost": 5}
    first = eng.run(case.taskset, seed=11, **kw)
    assert first == eng.run(case.taskset, seed=11, **kw)
    assert json.dumps(first.as_dict()) == json.dumps(eng.run(case.taskset, seed=11, **kw).as_dict())
    ts = replace(
        case.taskset,
        tasks=tuple(replace(t, execution=Execution("uniform", bcet=1)) for t in case.taskset.tasks),
    )
    assert eng.run(ts, seed=1, **kw) != eng.run(ts, seed=2, **kw)


def test_execution_models_keep_their_bounds(eng: engine.Engine) -> None:
    ts = TaskSet(
        (
            task("fixed", 0, 1000, 200),
            task("uniform", 1, 1000, 200, execution=Execution("uniform", bcet=100)),
            task("normal", 2, 1000, 200, execution=Execution("normal", 100, 150.0, 20.0)),
            task("trace", 3, 1000, 200, execution=Execution("trace", values=(5, 200, 60))),
        )
    )
    r = eng.run(ts, horizon=3_000_000, seed=5)
    fixed, uniform, normal, trace = r.threads
    assert fixed.exec_min == fixed.exec_max == 200
    for t in (uniform, normal):
        assert t.completed == 3000
        assert t.exec_min >= 100 and t.exec_max <= 200
        assert abs(t.exec_sum / t.completed - 150) < 3
    assert uniform.exec_min == 100 and uniform.exec_max == 200
    assert (trace.exec_min, trace.exec_max, trace.exec_sum) == (5, 200, 1000 * 265)


def test_the_switch_model_prices_each_switch(eng: engine.Engine) -> None:
    # b runs last at start-up; at 200 the CPU comes back from idle to a, which it ran last:
    # no switch there.
    ts = TaskSet((task("a", 0, 100, 30), task("b", 1, 200, 40)))
    seen: list[tuple[int, int]] = []

    def model(src: int, dst: int) -> int:
        seen.append((src, dst))
        return 7 if dst == 0 else 1

    r = eng.run(ts, horizon=300, switch_model=model)
    assert seen == [(1, 0), (0, 1), (1, 0), (0, 1)]
    assert r.switch_cycles == 7 + 1 + 7 + 1
    assert r.thread("a").response_max == 30 + 7
    assert r.thread("b").response_max == 7 + 30 + 1 + 40


def test_an_error_in_the_switch_model_is_raised(eng: engine.Engine) -> None:
    ts = TaskSet((task("a", 0, 10, 3), task("b", 1, 20, 4)))

    def model(_src: int, _dst: int) -> int:
        raise ValueError("the model failed")

    with pytest.raises(ValueError, match="the model failed"):
        eng.run(ts, horizon=30, switch_model=model)
    with pytest.raises(TacetError, match="switch model's cost"):
        eng.run(ts, horizon=30, switch_model=lambda _s, _d: -1)
    assert eng.run(ts, horizon=30).completed == 5  # and the engine goes on


@pytest.mark.parametrize(
    ("taskset", "kw", "words"),
    [
        (TaskSet(()), {}, "no threads"),
        (TaskSet((task("a", 1024, 10, 3),)), {}, "priority 1024 out of range"),
        (TaskSet((task("a", 0, 10, 3, sections=(Section("m", 0, 1),)),)), {}, "unknown mutex"),
        (
            TaskSet((task("a", 0, 10, 3, sections=(Section("m", 0, 1),) * 5),), (("m", True),)),
            {},
            "at most 4",
        ),
        (TaskSet((task("a", 0, 10, 3, execution=Execution("gamma")),)), {}, "unknown execution"),
        (TaskSet((task("a", 0, 10, 3),)), {"horizon": 0}, "horizon must be"),
        (TaskSet((task("a", 0, 10, 3),)), {"seed": -1}, "seed must be"),
        (
            TaskSet((task("a", 0, 10, 3, execution=Execution("uniform", bcet=4)),)),
            {},
            "bcet above wcet",
        ),
    ],
)
def test_bad_task_sets_are_refused(
    eng: engine.Engine, taskset: TaskSet, kw: dict, words: str
) -> None:
    with pytest.raises(TacetError, match=words):
        eng.run(taskset, **{"horizon": 100, **kw})


# The three sets with which the simulator's cross-check corrected the analysis
# (docs/analysis.md, test_analysis.py): the kernel's schedule, and the bound now above it.


def test_a_busy_period_meets_one_mutex_twice(eng: engine.Engine) -> None:
    ts = TaskSet(
        (
            SimTask("H", 0, 0, 3, 12, 2, offset=3, sections=(Section("m", 0, 1),)),
            task("L1", 1, 40, 7, offset=1, sections=(Section("m", 1, 5),)),
            task("L2", 2, 40, 5, sections=(Section("m", 0, 4),)),
        ),
        (("m", True),),
    )
    h = eng.run(ts, horizon=40).thread("H")
    assert h.response_max == 8  # job 1: waits for L1's section, handed m by job 0
    assert h.blocking_max == 5
    assert analysis.analyze(ts.analysis_tasks()).tasks[0].response == 11  # once per mutex: 7


def test_a_wait_costs_two_switches(eng: engine.Engine) -> None:
    ts = TaskSet(
        (
            task("H", 0, 100, 5, offset=2, sections=(Section("m", 1, 1),)),
            task("L", 1, 100, 10, sections=(Section("m", 1, 6),)),
        ),
        (("m", True),),
    )
    h = eng.run(ts, horizon=100, switch_cost=2).thread("H")
    assert h.response_max == 16  # 3 switches + H's 5 + L's 5 left of its section
    assert h.lock_waits == 1
    bound = analysis.analyze(ts.analysis_tasks(), analysis.Overheads(2, 0)).tasks[0]
    assert bound.response == 19  # with two switches per job: 15


def test_a_hand_over_preempts_again(eng: engine.Engine) -> None:
    ts = TaskSet(
        (
            task("H", 0, 100, 3, offset=2, sections=(Section("m", 0, 1),)),
            task("L", 1, 100, 10, sections=(Section("m", 1, 4),)),
        ),
        (("m", True),),
    )
    low = eng.run(ts, horizon=100).thread("L")
    assert low.preemptions_max == 2
    assert analysis.analyze(ts.analysis_tasks()).tasks[1].preemptions == 2


def test_simultaneous_releases_are_handed_out_in_description_order(eng: engine.Engine) -> None:
    """The release handler gives the semaphores of the threads due in one cycle in the
    description's order, and each give is a decision: the thread chosen first holds its
    threshold against those released after it in the same handler, though it runs only when
    the handler returns (docs/simulator.md, Releases)."""
    shielded = replace(task("A", 5, 100, 10), threshold=1)  # priority 5, threshold 1
    urgent = task("B", 3, 100, 10)
    first = eng.run(TaskSet((shielded, urgent)), horizon=100)
    # A, given first, is chosen with its threshold in force: B (3) does not beat 1.
    assert first.thread("A").response_max == 10
    assert first.thread("B").response_max == 20
    second = eng.run(TaskSet((urgent, shielded)), horizon=100)
    # B, given first, is chosen; A (5) does not beat B's threshold (3).
    assert second.thread("B").response_max == 10
    assert second.thread("A").response_max == 20


# ---- tacet simulate ------------------------------------------------------------------------


def test_the_example(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, str(EXAMPLE))
    assert status == 0, err
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.split()}
    assert rows["control"][1:3] == ["2", "1*"]  # the analysis' thresholds, marked
    jobs = {t: int(rows[t][3].replace(",", "")) for t in ("sensor", "control", "logger")}
    assert jobs == {"sensor": 6250, "control": 3125, "logger": 625}  # 62.5 hyperperiods
    assert "not simulated (no period): reporter" in out
    assert "every job within the analysis' bounds" in out


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, str(EXAMPLE), "--json", "--horizon", "1s", "--seed", "3")
    assert status == 0
    data = json.loads(out)
    assert data["horizon_cycles"] == 25_000_000 and data["seed"] == 3
    sensor = data["threads"][0]
    assert sensor["name"] == "sensor" and sensor["simulated"]["completed"] == 200
    assert sensor["simulated"]["response_max"] <= sensor["analysis"]["response_cycles"]
    assert data["totals"]["completed"] == 200 + 100 + 20
    assert data["not_simulated"] == ["reporter"] and data["exceeds_analysis"] == []


def test_costs_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, str(EXAMPLE), "--json", "--target", "qemu-m3")
    assert status == 0
    data = json.loads(out)
    assert data["overheads"]["switch_cycles"] == 131  # bench/cm_switch, docs/analysis.md
    assert data["totals"]["switch_cycles"] > 0
    status, out, _ = run(capsys, str(EXAMPLE), "--json", "--switch-cost", "50")
    assert json.loads(out)["overheads"]["switch_cycles"] == 50


def test_no_overheads_as_on_tacet_analyze(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, _ = run(capsys, str(EXAMPLE), "--json", "--target", "qemu-m3", "--no-overheads")
    assert status == 0
    data = json.loads(out)
    assert data["overheads"]["switch_cycles"] == data["overheads"]["release_cycles"] == 0
    assert data["overheads"]["source"] == "none (--no-overheads)"
    assert data["totals"]["switch_cycles"] == 0
    bench = tmp_path / "results.json"  # refused before the file is read
    for argv, words in (
        (["--switch-cost", "5"], "give it or --switch-cost, not both"),
        (["--switch-cost-from", str(bench)], "give it or --switch-cost-from, not both"),
    ):
        status, out, err = run(capsys, str(EXAMPLE), "--no-overheads", *argv)
        assert status == 1 and out == "" and words in err, err
    with pytest.raises(SystemExit):
        run(capsys, "--help")
    text = " ".join(capsys.readouterr().out.split())
    assert "3 when a job missed its deadline, 4 when the simulation exceeded a bound" in text


@pytest.mark.parametrize(
    ("text", "cycles"),
    [("1000", 1000), ("2ms", 200_000), ("1.5 s", 150_000_000), ("3us", 300), ("2ticks", 200_000)],
)
def test_horizon_units(text: str, cycles: int) -> None:
    assert simulate.parse_time(text, 100_000_000, 1000) == cycles


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--horizon", "3 weeks"], "expected cycles or a number with us, ms, s or ticks"),
        (["--horizon", "0.1"], "cycles are whole"),
        (["--horizon", "0us"], "must be at least 1"),
        (["--seed", "-1"], "--seed -1"),
        (["--switch-cost", "-3"], "--switch-cost -3"),
    ],
)
def test_bad_options(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    status, _, err = run(capsys, str(EXAMPLE), *argv)
    assert status == 1
    assert words in err and "Traceback" not in err


BASE = """\
board: {clock_hz: 1000000}
targets: [sim]
threads:
  - {name: a, entry: a_main, priority: 0, stack: 16384, period: 1000, wcet: 100,
     locks: [{mutex: m, length: 10}]}
  - name: b
    entry: b_main
    priority: 1
    stack: 16384
    period: 2000
    wcet: 300
    locks: [{mutex: m, length: 50}]
mutexes: [{name: m}]
"""


@pytest.mark.parametrize(
    ("extra", "where", "words"),
    [
        ("    execution: {model: uniform}\n", "13: threads[1].execution", "needs bcet"),
        (
            "    execution: {model: fixed, bcet: 3}\n",
            "13: threads[1].execution.bcet",
            "does not use",
        ),
        (
            "    execution: {model: uniform, bcet: 301}\n",
            "13: threads[1].execution.bcet",
            "above the wcet",
        ),
        (
            "    execution: {model: normal, bcet: 10, mean: 5, stddev: 3}\n",
            "13: threads[1].execution.mean",
            "outside [bcet, wcet]",
        ),
        (
            "    execution: {model: normal, bcet: 10, mean: 50, stddev: 0}\n",
            "13: threads[1].execution.stddev",
            "at least a cycle",
        ),
        (
            "    execution: {model: trace, values: [1, 400]}\n",
            "13: threads[1].execution.values[1]",
            "above the wcet",
        ),
        ("    execution: {model: gamma}\n", "13: threads[1].execution.model", "one of fixed"),
    ],
)
def test_execution_errors(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: str,
    where: str,
    words: str,
) -> None:
    path = write(tmp_path, BASE.replace("mutexes:", extra.rstrip("\n") + "\nmutexes:", 1))
    # the model's line is the one before mutexes:
    status, _, err = run(capsys, str(path))
    assert status == 1, err
    assert f"app.yaml:{where}: " in err and words in err, err
    assert "Traceback" not in err


def test_lock_offsets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = BASE.replace(
        "locks: [{mutex: m, length: 50}]", "locks: [{mutex: m, length: 50, offset: 260}]"
    )
    status, _, err = run(capsys, str(write(tmp_path, text)))
    assert status == 1
    assert "app.yaml:12: threads[1].locks[0].offset: the lock ends at 310 cycles" in err
    text = BASE.replace("length: 50}]", "length: 50, offset: 100}]")
    app = load(write(tmp_path, text))
    assert from_app(app, app.threads).tasks[1].sections == (Section("m", 100, 50),)


def test_the_simulator_takes_four_locks_in_a_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locks = ", ".join(f"{{mutex: m{k}, length: 80}}" for k in range(5))
    mutexes = ", ".join(f"{{name: m{k}}}" for k in range(5))
    text = (
        BASE.replace("locks: [{mutex: m, length: 50}]", f"locks: [{locks}]")
        .replace("mutexes: [{name: m}]", f"mutexes: [{mutexes}]")
        .replace("locks: [{mutex: m, length: 10}]", "locks: [{mutex: m0, length: 10}]")
    )
    status, _, err = run(capsys, str(write(tmp_path, text)))
    assert status == 1
    assert "threads[1].locks: the simulator takes at most 4 locks per thread" in err
    # One after the other they would end at 400 of a 300-cycle job: an offset is asked for.
    assert "threads[1].locks[3]: after the locks before it this one would end at 320" in err


def test_simulation_section(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = BASE + "simulation: {horizon: {ms: 20}, seed: 4, switch_cost: 7, release_cost: 2}\n"
    status, out, _ = run(capsys, str(write(tmp_path, text)), "--json")
    assert status == 0
    data = json.loads(out)
    assert (data["horizon_cycles"], data["seed"]) == (20_000, 4)
    assert (data["overheads"]["switch_cycles"], data["overheads"]["release_cycles"]) == (7, 2)
    assert "simulation.switch_cost" in data["overheads"]["source"]
    status, _, err = run(capsys, str(write(tmp_path, BASE + "simulation: {horizon: 0}\n")))
    assert status == 1
    assert "app.yaml:14: simulation.horizon: the horizon is 0 cycles" in err


def test_a_missed_deadline_exits_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # b, non-preemptive, starts at 0 for 950 cycles; a, released at 1, ends at 1050.
    text = (
        BASE.replace("period: 2000\n    wcet: 300", "period: 2000\n    wcet: 950")
        .replace("priority: 1\n", "priority: 1\n    threshold: 0\n")
        .replace("wcet: 100,", "wcet: 100, offset: 1,")
    )
    status, _, err = run(capsys, str(write(tmp_path, text)))
    assert status == 3
    assert "a missed" in err and "deadlines" in err


@pytest.mark.usefixtures("short_analysis")
def test_an_exceeded_bound_exits_4(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, str(EXAMPLE))
    assert status == 4
    assert "EXCEEDS THE ANALYSIS: logger: response" in out
    assert "the simulation exceeds the analysis: logger: response" in err


def test_excesses_names_each_bound(eng: engine.Engine) -> None:
    ts = TaskSet((task("a", 0, 10, 3), task("b", 1, 15, 4, offset=1), task("c", 2, 30, 8)))
    result = eng.run(ts, horizon=300)
    bounds = analysis.analyze(ts.analysis_tasks())
    assert simulate.excesses(result, bounds) == []
    c = result.thread("c")
    assert c.blocking_max == 0 and result.thread("a").blocking_max == 0
    low = replace(bounds.tasks[2], response=c.worst - 1, preemptions=c.preemptions_max - 1)
    lower = replace(bounds, tasks=[*bounds.tasks[:2], low])
    found = simulate.excesses(result, lower)
    assert [(e.thread, e.what) for e in found] == [
        ("c", "response"),
        ("c", "preemptions of one job"),
    ]
    nonpre = TaskSet(tuple(replace(t, threshold=0) for t in ts.tasks))
    result = eng.run(nonpre, horizon=300)
    bounds = analysis.analyze(nonpre.analysis_tasks())
    a = result.thread("a")
    assert 0 < a.blocking_max <= bounds.tasks[0].blocking
    short = replace(bounds.tasks[0], blocking=a.blocking_max - 1)
    found = simulate.excesses(result, replace(bounds, tasks=[short, *bounds.tasks[1:]]))
    assert [e.text() for e in found] == [
        f"a: blocking of one job {a.blocking_max:,} > the analysis' {a.blocking_max - 1:,}"
    ]


def test_a_time_slice_is_not_simulated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = BASE.replace("priority: 1\n", "priority: 1\n    time_slice: 2\n")
    status, out, _ = run(capsys, str(write(tmp_path, text)))
    assert status == 0
    assert "time slices not simulated (threads of equal priority run in turn): b" in out


def test_no_periodic_thread(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (
        "board: {clock_hz: 1000}\n"
        "threads:\n  - {name: a, entry: a_main, priority: 0, stack: 16384}\n"
    )
    status, _, err = run(capsys, str(write(tmp_path, text)))
    assert status == 1 and "no periodic or sporadic thread to simulate" in err


def test_a_task_set_reads_back_the_same(tmp_path: Path) -> None:
    for seed in range(60):
        case = crosscheck.random_case(seed)
        path = tmp_path / f"set{seed}.yaml"
        path.write_text(description(case.taskset, clock_hz=100_000_000, comment="x\ny"))
        app = load(path)
        assert from_app(app, app.threads) == case.taskset, seed


def test_a_sporadic_thread_runs_at_its_shortest_interval(
    eng: engine.Engine, tmp_path: Path
) -> None:
    app = load(write(tmp_path, BASE.replace("period: 2000", "release: sporadic\n    period: 2000")))
    ts = from_app(app, app.threads)
    assert ts.tasks[1].period == 2000
    assert eng.run(ts, horizon=20_000).thread("b").released == 10


def test_random_engine_runs_stay_within_their_bounds(eng: engine.Engine) -> None:
    # A smaller version of the cross-check through simulate.excesses, the command's own test.
    rng = random.Random(3)
    for _ in range(20):
        case = crosscheck.random_case(rng.randrange(10**6))
        bounds = analysis.analyze(case.taskset.analysis_tasks(), case.overheads, 1024)
        result = eng.run(
            case.taskset,
            horizon=case.horizon,
            seed=case.seed,
            switch_cost=case.switch_cost,
            release_cost=case.release_cost,
        )
        assert simulate.excesses(result, bounds) == []
