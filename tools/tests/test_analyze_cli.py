# SPDX-License-Identifier: MIT
"""``tacet analyze``: the table, --json, --explain and the exit statuses, on the repository's
descriptions (examples/periodic_control, docs/examples/stopping_rule.yaml) and small ones
written here. The analysis itself is tested in test_analysis.py; this is the command around
it: that it reports what the analysis computes, for the priorities and thresholds that
``tacet config`` generates."""

import json
from pathlib import Path

import pytest
from conftest import cli_run, write_yaml

from tacet.analysis import rta as analysis
from tacet.app import generate as appgen
from tacet.app.description import load

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "periodic_control" / "app.yaml"
STOPPING = REPO / "docs" / "examples" / "stopping_rule.yaml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return cli_run(capsys, "analyze", *argv)


write = write_yaml


def test_example_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, str(EXAMPLE))
    assert status == 0, err
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.split()}
    # The thresholds the description leaves to the analysis are marked.
    assert rows["sensor"][1:3] == ["1", "1"]
    assert rows["control"][1:3] == ["2", "1*"]
    assert rows["logger"][1:3] == ["3", "2*"]
    assert all(rows[t][-1] == "ok" for t in ("sensor", "control", "logger"))
    assert "not analysed (no period): reporter" in out
    assert "non-preemptive groups (2): {sensor, control}; {logger}" in out
    assert out.rstrip().endswith("schedulable")


def test_json_is_the_analysis_of_what_config_generates(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, str(EXAMPLE), "--json", "--target", "qemu-m3")
    assert status == 0
    doc = json.loads(out)
    app = load(EXAMPLE)
    overheads = analysis.default_overheads("qemu-m3", app.board.clock_hz)
    expected = analysis.analyze(app.resolve(), overheads, app.priorities)
    assert doc["schedulable"] is True
    assert doc["overheads"]["switch_cycles"] == overheads.switch == 131
    assert [(t["name"], t["response_cycles"]) for t in doc["threads"]] == [
        (r.name, r.response) for r in expected.tasks
    ]
    assert doc["stack_shared"] == expected.stack_shared < doc["stack_separate"]
    assert [t["threshold_auto"] for t in doc["threads"]] == [False, True, True]
    # The priorities and thresholds analysed are those of the generated code (chosen with
    # the overheads of the description's first target, sim), whichever target is charged.
    header = appgen.generate(app, "app.yaml", app.resolved_threads()).header
    for t in doc["threads"]:
        assert f"#define TACET_APP_{t['name']}_PRIORITY {t['priority']}u" in header
        assert f"#define TACET_APP_{t['name']}_THRESHOLD {t['threshold']}u" in header


def test_unschedulable_names_the_thread_and_by_how_much(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, str(STOPPING), "--no-overheads")
    assert status == 3
    assert "MISSES" in out and "NOT schedulable" in out
    assert err.strip() == (
        f"tacet: error: {STOPPING}: not schedulable: t2: response 26 > deadline 25 by 1 "
        "(cycles of the 1 Hz clock)"
    )


def test_explain_prints_the_derivation(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, str(STOPPING), "--no-overheads", "--explain", "t2")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("thread t2: priority 2, threshold 1")
    assert "  R(1) = F - q*T + J = 46 - 20 + 0 = 26" in lines
    assert lines[-1] == (
        "result: R = max over the 3 job(s) = 26 (job 1) against D = 25: UNSCHEDULABLE"
    )


def test_explain_of_an_unknown_thread(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, str(STOPPING), "--explain", "t9")
    assert status == 1
    assert "no thread named 't9' (threads: t0, t1, t2)" in err


def test_policy_and_overheads_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(
        tmp_path,
        """\
        board: {clock_hz: 1000000}
        targets: [qemu-m4]
        threads:
          - {name: a, entry: a_main, priority: auto, stack: 1024, period: 1000, deadline: 900,
             wcet: 100}
          - {name: b, entry: b_main, priority: auto, stack: 1024, period: 500, wcet: 100}
        """,
    )
    status, out, _ = run(capsys, str(path), "--json")
    doc = json.loads(out)
    assert status == 0
    # `policy` defaults to dm: b (deadline 500) before a (deadline 900).
    prio = {t["name"]: t["priority"] for t in doc["threads"]}
    assert prio["b"] < prio["a"]
    assert doc["policy"] == "dm"
    # 170.02 instructions of 32 ns (bench/cm_switch on qemu-m4) at 1 MHz: 5.4, rounded up.
    assert "qemu-m4" in doc["overheads"]["source"] and doc["overheads"]["switch_cycles"] == 6
    status, out, _ = run(capsys, str(path), "--json", "--policy", "rm", "--no-overheads")
    doc = json.loads(out)
    assert doc["policy"] == "rm" and doc["overheads"]["switch_cycles"] == 0


def test_the_overhead_options_are_simulate_s(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--switch-cost and --release-cost replace the target's figures, as on tacet simulate;
    --no-overheads with either is refused, as is a negative cost."""
    status, out, _ = run(
        capsys, str(EXAMPLE), "--json", "--switch-cost", "500", "--release-cost", "70"
    )
    assert status == 0
    charged = json.loads(out)["overheads"]
    assert (charged["switch_cycles"], charged["release_cycles"]) == (500, 70)
    assert charged["source"].startswith("switch 500 from the command line; release 70 from")
    # The responses grow with what is charged: the costs reach the analysis.
    _, cheap, _ = run(capsys, str(EXAMPLE), "--json", "--no-overheads")
    responses = [t["response_cycles"] for t in json.loads(cheap)["threads"]]
    assert [t["response_cycles"] for t in json.loads(out)["threads"]] > responses
    for argv, words in (
        (["--no-overheads", "--switch-cost", "5"], "give it or --switch-cost, not both"),
        (["--no-overheads", "--release-cost", "5"], "give it or --release-cost, not both"),
        (["--no-overheads", "--switch-cost", "0"], "give it or --switch-cost, not both"),
        (["--release-cost", "-1"], "--release-cost -1: must be 0 or more cycles"),
    ):
        status, out, err = run(capsys, str(EXAMPLE), *argv)
        assert status == 1 and out == "" and words in err, err


def test_help_states_the_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run(capsys, "--help")
    text = " ".join(capsys.readouterr().out.split())
    assert "Exit status: 0 when every periodic thread meets its deadline, 3 when one" in text


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "board: {clock_hz: 1000}\nthreads:\n  - {name: a, entry: a_main\n")
    status, out, err = run(capsys, str(path))
    assert status == 1 and out == ""
    assert err.startswith(f"tacet: error: {path}:") and len(err.strip().splitlines()) == 1
    missing = tmp_path / "nowhere.yaml"
    status, _, err = run(capsys, str(missing))
    assert status == 1 and "nowhere.yaml" in err and "Traceback" not in err


def test_no_periodic_thread(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(
        tmp_path,
        """\
        board: {clock_hz: 1000}
        targets: [qemu-m3]
        threads:
          - {name: a, entry: a_main, priority: 3, stack: 1024}
        """,
    )
    status, _, err = run(capsys, str(path))
    assert status == 1
    assert "no periodic or sporadic thread to analyse" in err
