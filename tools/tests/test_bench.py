# SPDX-License-Identifier: MIT
"""`tacet bench`: the programs' output format, the statistics, the results' schema, compare,
and bad input. The benchmark programs themselves run under ctest (bench/CMakeLists.txt);
the last test here runs the whole command on the sim port."""

from __future__ import annotations

import copy
import json
import math
import stat
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, needs_cmake, tool_env

from tacet.bench import format as bench_format
from tacet.bench import report as bench_report
from tacet.bench import results as bench_results
from tacet.bench import stats as bench_stats
from tacet.bench import suite as bench_suite
from tacet.bench.format import FormatError
from tacet.bench.results import Run
from tacet.cli import main
from tacet.core.targets import TARGETS

# ---- synthetic program output --------------------------------------------------------------


def series_text(tags: str, values: Iterable[int]) -> list[str]:
    """One series in measure.h's format."""
    values = list(values)
    lines = [f"S {tags} n={len(values)}"]
    lines += ["V " + " ".join(map(str, values[i : i + 16])) for i in range(0, len(values), 16)]
    lines.append(f"E {len(values)} {sum(values) % 2**32}")
    return lines


QEMU_CONFIG = (
    "config port=cortex-m priorities=256 checks=1 stats=1 stack_check=1 tick_hz=1000 "
    "cycles_hz=25000000 repeat={repeat} clock=qemu-icount icount_shift=5 cpu=cortex-m3"
)


def program_output(
    program: str,
    repeat: int = 21,
    value: int = 8,
    config: str = QEMU_CONFIG,
    units: tuple[str, ...] = ("cycles",),
) -> str:
    """A complete output of ``program`` (rhealstone or scaling): every series it prints, each
    sample ``value`` (the stamp series 2)."""
    lines = [f"tacet-bench 1 {program}", config.format(repeat=repeat)]
    keys = sorted(bench_format.expected_keys(program, units))
    each = math.ceil(repeat / 21)
    for key in keys:
        tags = dict(key)
        n = each if tags["case"] == "workload" else repeat
        v = 2 if tags["param"] == "stamp" else value
        lines += series_text(" ".join(f"{k}={t}" for k, t in key), [v] * n)
    lines.append(f"end {len(keys)} ok")
    return "\n".join(lines) + "\n"


GOOD = "\n".join(
    [
        "tacet-bench 1 rhealstone",
        "config port=sim repeat=3 clock=virtual",
        *series_text("param=task_switch case=empty unit=cycles", [100, 100, 101]),
        *series_text("param=task_switch case=empty unit=host_ns", [80, 95, 70]),
        "end 2 ok",
    ]
)


# ---- parsing ---------------------------------------------------------------------------------


def test_parse_reads_series_config_and_status() -> None:
    out = bench_format.parse("a line before the header\n" + GOOD, "prog")
    assert out.program == "rhealstone"
    assert out.config == {"port": "sim", "repeat": "3", "clock": "virtual"}
    assert [s.unit for s in out.series] == ["cycles", "host_ns"]
    assert out.series[0].values == (100, 100, 101)
    assert out.series[0].tag("param") == "task_switch"
    assert out.ok


def test_parse_keeps_the_programs_own_lines_as_notes_and_its_status() -> None:
    text = GOOD.replace("end 2 ok", "rhealstone: workload fft failed its self-check\nend 2 FAILED")
    out = bench_format.parse(text, "prog")
    assert not out.ok
    assert out.notes == ("rhealstone: workload fft failed its self-check",)


def test_parse_reads_more_than_sixteen_samples_a_series() -> None:
    text = "\n".join(
        ["tacet-bench 1 x", *series_text("param=a case=empty unit=cycles", range(40)), "end 1 ok"]
    )
    assert bench_format.parse(text, "x").series[0].values == tuple(range(40))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no 'tacet-bench' header"),
        ("tacet-bench 2 x\nend 0 ok", "expected 'tacet-bench 1 PROGRAM'"),
        (GOOD.replace("end 2 ok", ""), "without its 'end' line"),
        (GOOD.replace("E 3 301", "E 4 301"), "says 3 samples, its E line 4"),
        (GOOD.replace("E 3 301", "E 3 300"), "do not add up"),
        (GOOD.replace("V 100 100 101", "V 100 1x0 101"), "'1x0' is not an unsigned integer"),
        (GOOD.replace("V 100 100 101", "V 100 -100 101"), "is not an unsigned integer"),
        (
            GOOD.replace("case=empty unit=cycles", "case=empty flavour=x unit=cycles"),
            "unknown tag 'flavour'",
        ),
        (GOOD.replace("unit=cycles", "unit=furlongs"), "unknown unit 'furlongs'"),
        (
            GOOD.replace("param=task_switch case=empty unit=cycles", "case=empty unit=cycles"),
            "without param",
        ),
        (GOOD.replace("E 3 301\n", ""), "ends without its E line"),
        (GOOD.replace("end 2 ok", "end 3 ok"), "counts 3 series, 2 were printed"),
        (GOOD.replace("end 2 ok", "end 2 maybe"), "expected 'end SERIES ok|FAILED'"),
        (GOOD + "\nV 1", "text after the end line"),
        (GOOD.replace("unit=host_ns", "unit=cycles"), "appears twice"),
        ("tacet-bench 1 x\nV 1 2\nend 0 ok", "samples outside a series"),
        ("tacet-bench 1 x\nconfig port\nend 0 ok", "expected KEY=VALUE"),
        ("tacet-bench 1 x\nS param=a case=b unit=cycles n=1\nV 1", "ends inside the series"),
    ],
)
def test_parse_refuses_malformed_output_naming_the_line(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=r"^prog") as error:
        bench_format.parse(text, "prog")
    assert message in error.value.message


def test_a_complete_output_is_complete() -> None:
    for program in ("rhealstone", "scaling"):
        out = bench_format.parse(program_output(program), program)
        bench_format.complete(out, program)


def test_complete_names_a_missing_series_and_a_short_one() -> None:
    text = program_output("scaling")
    lines = text.splitlines()
    start = lines.index(next(line for line in lines if "policy=priority ready=8 " in line))
    kept = lines[:start] + lines[start + 4 :]  # without its S, two V lines and E
    dropped = "\n".join(kept).replace("end 19 ok", "end 18 ok")
    with pytest.raises(FormatError, match=r"no series .*policy=priority ready=8"):
        bench_format.complete(bench_format.parse(dropped, "s"), "s")
    short = program_output("scaling").replace("repeat=21", "repeat=22")
    with pytest.raises(FormatError, match="has 21 samples, not 22"):
        bench_format.complete(bench_format.parse(short, "s"), "s")


def test_complete_wants_host_time_on_the_sim_port() -> None:
    sim = QEMU_CONFIG.replace("clock=qemu-icount", "clock=virtual")
    with pytest.raises(FormatError, match="unit=host_ns"):
        bench_format.complete(bench_format.parse(program_output("scaling", config=sim), "s"), "s")
    both = program_output("scaling", config=sim, units=("cycles", "host_ns"))
    bench_format.complete(bench_format.parse(both, "s"), "s")


THREAD_METRIC = (
    "Thread-Metric on Tacet (cortex-m), 2000 ms per test; kernel TC_PRIORITIES=256 TC_CHECKS=1 "
    "TC_STATS=1 TC_STACK_CHECK=1\n"
    "  basic                       8691 ops    7191.3 instructions per op  (array pass)\n"
    "  cooperative               853994 ops      73.1 instructions per op  (relinquish)\n"
    "  preemptive                288085 ops     216.9 instructions per op  (resume)\n"
    "  interrupt                 959102 ops      65.1 instructions per op  (interrupt + give)\n"
    "  interrupt_preemption      196661 ops     317.8 instructions per op  (interrupt + resume)\n"
    "  message                   451751 ops     138.3 instructions per op  (send + receive)\n"
    "  synchronization          1133483 ops      55.1 instructions per op  (take + give)\n"
    "  memory                    708427 ops      88.2 instructions per op  (allocate + free)\n"
)


def test_thread_metric_report_is_read() -> None:
    tm = bench_format.parse_thread_metric(THREAD_METRIC, "tm")
    assert (tm.port, tm.interval_ms) == ("cortex-m", 2000)
    assert tm.config["TC_PRIORITIES"] == "256"
    assert [r.test for r in tm.rows] == list(bench_format.THREAD_METRIC_TESTS)
    assert tm.rows[1].value == 73.1 and tm.rows[1].operations == 853994
    assert not any(r.check_failed for r in tm.rows)
    failed = THREAD_METRIC.replace("(relinquish)", "(relinquish)  CHECK FAILED")
    assert bench_format.parse_thread_metric(failed, "tm").rows[1].check_failed


def test_thread_metric_report_with_a_test_missing_is_refused() -> None:
    text = "\n".join(line for line in THREAD_METRIC.splitlines() if "memory" not in line)
    with pytest.raises(FormatError, match="no line for memory"):
        bench_format.parse_thread_metric(text, "tm")
    with pytest.raises(FormatError, match="no 'Thread-Metric on KERNEL' header"):
        bench_format.parse_thread_metric("hello\n", "tm")


# ---- statistics -------------------------------------------------------------------------------


def test_summary_against_hand_computed_values() -> None:
    s = bench_stats.summarize([4, 1, 100, 3, 2])
    # mean 110 / 5; deviations -21 -20 -19 -18 78: squares 7610, / (n - 1) = 1902.5
    assert s.n == 5
    assert s.mean == 22
    assert s.stdev == pytest.approx(math.sqrt(1902.5))
    assert (s.min, s.max) == (1, 100)
    assert s.median == 3  # rank ceil(2.5) = 3
    assert s.p99 == 100  # rank ceil(4.95) = 5


def test_nearest_rank_percentile() -> None:
    ordered = list(range(1, 101))  # 1..100
    assert bench_stats.nearest_rank(ordered, 99) == 99
    assert bench_stats.nearest_rank(ordered, 50) == 50
    assert bench_stats.nearest_rank(ordered, 100) == 100
    assert bench_stats.nearest_rank(list(range(1, 201)), 99) == 198
    assert bench_stats.nearest_rank([7], 99) == 7
    with pytest.raises(ValueError, match="percentile"):
        bench_stats.nearest_rank(ordered, 0)


def test_single_sample_has_no_spread() -> None:
    s = bench_stats.summarize([5])
    assert (s.mean, s.stdev, s.median, s.p99) == (5, 0, 5, 5)
    with pytest.raises(ValueError, match="no samples"):
        bench_stats.summarize([])


def test_histogram_bins_whole_units() -> None:
    edges, counts = bench_stats.histogram([0, 0, 1, 5])
    assert edges == (0, 1, 2, 3, 4, 5, 6)
    assert counts == (2, 1, 0, 0, 0, 1)
    edges, counts = bench_stats.histogram([10, 11, 49, 50], bins=4)  # 41 units: width 11
    assert edges == (10, 21, 32, 43, 54)
    assert counts == (2, 0, 0, 2)
    h = bench_stats.scaled_histogram([8, 8, 9], bench_stats.Scale("instructions", 1.25, 2.0))
    assert h.edges == (8.0, 9.25, 10.5) and h.counts == (2, 1)


# ---- results -----------------------------------------------------------------------------------


def make_runs(value: int = 8) -> list[Run]:
    rh = bench_format.parse(program_output("rhealstone", value=value), "rhealstone")
    sc = bench_format.parse(program_output("scaling", value=value), "scaling")
    tm = bench_format.parse_thread_metric(THREAD_METRIC, "tm")
    return [
        Run("rhealstone", "default", ("qemu", "rhealstone"), 0, 1.0, output=rh),
        Run("scaling_p32", "p32", ("qemu", "scaling_p32"), 0, 1.0, output=sc),
        Run("thread_metric", "default", ("qemu", "thread_metric"), 0, 1.0, thread_metric=tm),
    ]


META = {
    "target": "qemu-m3",
    "date": "2026-01-01T00:00:00+00:00",
    "commit": "0123456789abcdef",
    "dirty": False,
    "compiler": "arm-none-eabi-gcc 12.2.1",
    "c_flags": "-Os",
    "bench_flags": "-O2",
    "qemu": "QEMU emulator version 7.2",
    "run_command": ["qemu-system-arm"],
    "host": "Linux",
    "python": "3.11",
    "tacet": "0.1.0",
    "repeat": 21,
    "quick": True,
    "thread_metric_interval": "20ms",
}


def make_doc(value: int = 8) -> dict[str, Any]:
    return bench_results.assemble(dict(META), make_runs(value))


def by_id(doc: dict[str, Any], id_: str) -> dict[str, Any]:
    return next(m for m in doc["measurements"] if m["id"] == id_)


def test_results_convert_timer_cycles_to_instructions_less_a_stamp() -> None:
    doc = make_doc(value=8)
    stamp = by_id(doc, "rhealstone/stamp/empty")
    assert stamp["value"] == 2.5  # 2 timer cycles
    switch = by_id(doc, "rhealstone/task_switch/empty")
    assert switch["unit"] == "instructions" and switch["factor"] == 1.25
    assert switch["value"] == 8 * 1.25 - 2.5  # less one stamp
    latency = by_id(doc, "rhealstone/interrupt_latency/empty/to=handler")
    assert latency["value"] == 10.0  # read off the timer: no stamp
    workload = by_id(doc, "rhealstone/message/workload/mechanism=queue/size=16")
    assert workload["summary"]["n"] == 21 and set(workload["by_point"]) == {
        "start",
        "middle",
        "end",
    }
    assert sum(len(s["samples"]) for s in workload["series"]) == 21
    assert by_id(doc, "scaling/p32/round_robin/ready=256")["value"] == 7.5


def test_results_scaling_goals_and_comparison() -> None:
    doc = make_doc()
    curves = doc["scaling"]
    assert {(c["priorities"], c["policy"]) for c in curves} == {
        (32, "priority"),
        (32, "round_robin"),
    }
    assert all(c["ratio"] == 1.0 and c["ready"][-1] == 256 for c in curves)
    goals = {g["goal"].split()[0]: g for g in doc["goals"]}
    assert goals["task_switch"]["met"] is True and goals["task_switch"]["measured"] == 7.5
    assert goals["preemption"]["met"] is True and goals["interrupt"]["met"] is True
    comparison = {(c["param"], tuple(c["detail"].items())): c for c in doc["comparison"]}
    assert comparison[("task_switch", ())]["mean_change_pct"] == 0
    tm = {r["id"]: r for r in doc["thread_metric"]}
    assert tm["thread_metric/default/cooperative"]["value"] == 73.1


def test_no_figure_of_another_kernel_is_quoted() -> None:
    """Thread-Metric's table holds what the run measured: Tacet's builds, and a pointer to the
    command that measures the other kernels beside them."""
    doc = make_doc()
    assert all(set(r) >= {"build", "value"} and "anchors" not in r for r in doc["thread_metric"])
    table = bench_report.thread_metric_table(doc)
    assert "tacet bench anchors" in table[0]
    assert table[2] == "| test | Tacet default |"
    assert "66.0" not in bench_report.markdown(doc, "tacet bench --target qemu-m3")


def test_results_pass_their_schema_and_a_broken_one_does_not() -> None:
    doc = make_doc()
    bench_results.validate(json.loads(json.dumps(doc)), "doc")
    broken = copy.deepcopy(doc)
    del broken["measurements"][0]["summary"]["p99"]
    with pytest.raises(
        bench_results.TacetError, match="measurements/0/summary: 'p99' is a required"
    ):
        bench_results.validate(broken, "doc")
    broken = copy.deepcopy(doc)
    broken["meta"]["target"] = "qemu-m7"
    with pytest.raises(bench_results.TacetError, match="meta/target"):
        bench_results.validate(broken, "doc")


def test_markdown_and_plots_from_results(tmp_path: Path) -> None:
    doc = make_doc()
    text = bench_report.markdown(doc, "tacet bench --target qemu-m3 --quick")
    assert "| task switch | 7.5 | 0.0 | 7.5 | 7.5 | 7.5 | 7.5 |" in text
    assert "| cooperative | 73.1 |" in text
    assert "| 32 | round robin | instructions | 7.5 |" in text
    written = bench_report.plots(doc, tmp_path)
    assert {p.name for p in written} == {name for name, _ in bench_report.PLOTS}
    assert all(p.stat().st_size > 1000 for p in written)


# ---- compare -----------------------------------------------------------------------------------


def write_doc(path: Path, doc: dict[str, Any]) -> Path:
    path.write_text(json.dumps(doc))
    return path


def scaled(doc: dict[str, Any], id_: str, factor: float) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    for m in [*doc["measurements"], *doc["thread_metric"]]:
        if m["id"] == id_:
            m["value"] *= factor
    return doc


def test_compare_flags_a_synthetic_regression(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = make_doc()
    a = write_doc(tmp_path / "a.json", doc)
    b = write_doc(tmp_path / "b.json", scaled(doc, "rhealstone/preemption/empty", 1.10))
    assert main(["bench", "compare", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("rhealstone/preemption/empty "))
    assert "1.100" in line and "REGRESSION" in line
    assert "1 of" in out and "rose by more than 5 %" in out
    # Under a wider threshold it passes; an improvement is shown, not flagged.
    assert main(["bench", "compare", str(a), str(b), "--threshold", "12"]) == 0
    assert main(["bench", "compare", str(b), str(a)]) == 0
    assert "improved" in capsys.readouterr().out


def test_compare_same_run_and_thread_metric(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = make_doc()
    a = write_doc(tmp_path / "a.json", doc)
    assert main(["bench", "compare", str(a), str(a)]) == 0
    assert "no regression" in capsys.readouterr().out
    b = write_doc(tmp_path / "b.json", scaled(doc, "thread_metric/default/message", 1.06))
    assert main(["bench", "compare", str(a), str(b)]) == 1


def test_compare_does_not_judge_host_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = make_doc()
    host = copy.deepcopy(doc)
    m = host["measurements"][0]
    m["judged"] = False
    m["id"] += "[host_ns]"
    doc["measurements"].append(copy.deepcopy(m))
    host["measurements"].append(m)
    m["value"] = m["value"] * 3 + 1
    a, b = write_doc(tmp_path / "a.json", doc), write_doc(tmp_path / "b.json", host)
    assert main(["bench", "compare", str(a), str(b)]) == 0
    assert "(not judged)" in capsys.readouterr().out


def test_compare_lists_what_only_one_side_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = make_doc()
    fewer = copy.deepcopy(doc)
    fewer["thread_metric"] = fewer["thread_metric"][:-1]
    a, b = write_doc(tmp_path / "a.json", doc), write_doc(tmp_path / "b.json", fewer)
    assert main(["bench", "compare", str(a), str(b)]) == 0
    assert "only in A (1): thread_metric/default/memory" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("{not json", "not JSON"),
        ('{"format": "tacet-bench-results"}', "not tacet bench results"),
    ],
)
def test_compare_bad_files_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, message: str
) -> None:
    good = write_doc(tmp_path / "good.json", make_doc())
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content)
    assert main(["bench", "compare", str(bad), str(good)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tacet: error: ") and message in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "--repeat", "0"], "--repeat 0: must be 1 to 2000"),
        (["bench", "--repeat", "5000"], "--repeat 5000"),
        (["bench", "--tm-seconds", "0"], "--tm-seconds 0"),
        (["bench", "compare", "a.json", "b.json", "--threshold", "-1"], "--threshold -1"),
    ],
)
def test_bad_command_lines(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_unknown_target_and_missing_arguments_are_usage_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for argv in (["bench", "--target", "qemu-m7"], ["bench", "compare", "a.json"]):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
    assert "usage: tacet bench compare" in capsys.readouterr().err


# ---- the ctest check --------------------------------------------------------------------------


def fake_program(tmp_path: Path, output: str, status: int = 0) -> Path:
    (tmp_path / "out.txt").write_text(output)
    prog = tmp_path / "prog"
    prog.write_text(f"#!/bin/sh\ncat {tmp_path / 'out.txt'}\nexit {status}\n")
    prog.chmod(prog.stat().st_mode | stat.S_IXUSR)
    return prog


def test_ctest_check_passes_a_complete_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prog = fake_program(tmp_path, program_output("scaling"))
    assert bench_format.main([str(prog), "21"]) == 0
    assert "well-formed and complete" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("output", "status", "message"),
    [
        ("tacet-bench 1 scaling\nS param=stamp", 0, "series without case, unit, n"),
        (program_output("scaling"), 1, "failed (exit status 1)"),
        (program_output("scaling").replace("end 19 ok", "end 19 FAILED"), 0, "failed"),
        ("Segmentation fault\n", 139, "no 'tacet-bench' header"),
    ],
)
def test_ctest_check_fails_a_bad_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], output: str, status: int, message: str
) -> None:
    prog = fake_program(tmp_path, output, status)
    assert bench_format.main([str(prog)]) == 1
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("output", "status", "message"),
    [
        (THREAD_METRIC, 0, ""),
        (THREAD_METRIC, 1, "it failed (exit status 1)"),
        (THREAD_METRIC.replace("(take + give)", "(take + give)  CHECK FAILED"), 1,
         "the check of synchronization failed"),
        ("\n".join(THREAD_METRIC.splitlines()[:-1]) + "\n", 0, "no line for memory"),
        ("Segmentation fault\n", 139, "no 'Thread-Metric on KERNEL' header"),
    ],
)  # fmt: skip
def test_ctest_check_of_thread_metric(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], output: str, status: int, message: str
) -> None:
    prog = fake_program(tmp_path, output, status)
    assert bench_format.main(["--thread-metric", str(prog), "1"]) == (1 if message else 0)
    captured = capsys.readouterr()
    if message:
        assert message in captured.err
    else:
        assert "the eight tests reported, every check passed" in captured.out


def test_emulated_command() -> None:
    qemu = "qemu-system-arm|-M|mps2-an385|-kernel"
    assert bench_format.emulated(qemu, "p", ["21"]) == [
        "qemu-system-arm", "-M", "mps2-an385", "-kernel", "p", "-append", "21"
    ]  # fmt: skip
    assert bench_format.emulated("qemu-aarch64|-L|/x", "p", ["21"]) == [
        "qemu-aarch64",
        "-L",
        "/x",
        "p",
        "21",
    ]
    assert bench_format.emulated("", "p", []) == ["p"]


# ---- the whole command -------------------------------------------------------------------------


@needs_cmake
def test_bench_quick_on_sim(tmp_path: Path) -> None:
    """Builds the benchmark programs in a private tree, runs them with few samples, and
    writes results that pass their schema; no figure is judged."""
    out = tmp_path / "results"
    result = subprocess.run(
        [sys.executable, "-m", "tacet", "bench", "--target", "sim", "--quick",
         "--build-dir", str(tmp_path / "build"), "--out", str(out)],
        cwd=REPO, env=tool_env(), stdin=subprocess.DEVNULL, capture_output=True, text=True,
        check=False, timeout=900,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    doc = bench_results.load(out / "results.json")
    assert doc["meta"]["target"] == "sim" and doc["meta"]["repeat"] == 21
    assert {m["param"] for m in doc["measurements"]} >= set(bench_results.PARAMETER_ORDER)
    assert len(doc["thread_metric"]) == 8
    assert "## Rhealstone parameters" in (out / "results.md").read_text()
    assert (out / "scaling.png").is_file()


def test_configurations_have_their_own_ids_table_and_goal_note() -> None:
    rh = bench_format.parse(program_output("rhealstone", value=60), "rhealstone")
    lean = bench_format.parse(program_output("rhealstone", value=40), "rhealstone_lean")
    runs = [
        Run("rhealstone", "default", ("qemu", "rhealstone"), 0, 1.0, output=rh),
        Run("rhealstone_lean", "lean", ("qemu", "rhealstone_lean"), 0, 1.0, output=lean),
    ]
    doc = bench_results.assemble(dict(META), runs)
    bench_results.validate(json.loads(json.dumps(doc)), "doc")
    assert by_id(doc, "rhealstone/task_switch/empty")["value"] == 60 * 1.25 - 2.5
    assert by_id(doc, "rhealstone_lean/task_switch/empty")["value"] == 40 * 1.25 - 2.5
    # The default build's tables and comparison do not pool the lean one's samples.
    assert by_id(doc, "rhealstone/task_switch/empty")["summary"]["n"] == len(
        by_id(doc, "rhealstone_lean/task_switch/empty")["series"][0]["samples"]
    )
    goals = {g["goal"].split()[0]: g for g in doc["goals"]}
    assert goals["task_switch"]["met"] is False
    assert goals["task_switch"]["note"] == "met by the lean build"
    table = bench_report.configurations_table(doc)
    # task switch (goal 60), preemption (goal 120): the same samples in both parameters here.
    assert table[2].startswith("| default |") and table[2].endswith("| 72.5 | 72.5 ✓ |")
    assert table[3].startswith("| lean |") and table[3].endswith("| 47.5 ✓ | 47.5 ✓ |")
    assert bench_report.configurations_table(make_doc()) == []  # the default alone: no table


RV32_CONFIG = (
    "config port=riscv priorities=256 checks=1 stats=1 stack_check=1 tick_hz=1000 "
    "cycles_hz=1000000000 repeat={repeat} clock=qemu-icount icount_shift=0 cpu=rv32imac"
)


def test_riscv_results_count_mcycle_as_instructions_and_say_so() -> None:
    rh = bench_format.parse(program_output("rhealstone", config=RV32_CONFIG), "rhealstone")
    run = Run("rhealstone", "default", ("qemu", "rhealstone"), 0, 1.0, output=rh)
    doc = bench_results.assemble({**META, "target": "qemu-rv32"}, [run])
    bench_results.validate(doc, "a qemu-rv32 run")
    switch = by_id(doc, "rhealstone/task_switch/empty")
    assert switch["factor"] == 1.0 and switch["value"] == 8 - 2  # one per cycle, less a stamp
    text = bench_report.markdown(doc, "tacet bench --target qemu-rv32")
    assert "`-icount shift=0`" in text and "mcycle" in text and "25 MHz" not in text
    tm = bench_format.parse_thread_metric(THREAD_METRIC, "tm")
    tm_run = Run("thread_metric", "default", ("qemu", "thread_metric"), 0, 1.0, thread_metric=tm)
    tm_doc = bench_results.assemble({**META, "target": "qemu-rv32f"}, [tm_run])
    assert "--target qemu-rv32f --freertos DIR` (ThreadX has no RV32 port" in "\n".join(
        bench_report.thread_metric_table(tm_doc)
    )
    plan = [p.name for p in bench_suite.plan(TARGETS["qemu-rv32"], 21, "20ms")]
    assert "rhealstone" in plan and "thread_metric_lean" in plan
    assert "rhealstone_lean" not in plan  # the other configurations: Cortex-M only


def test_ctest_check_of_a_thread_metric_run_of_named_tests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A kernel that cannot restart runs one test a run (CMSIS-RTOS2): the check wants the tests
    named on the command line, and only those."""
    header = (
        "Thread-Metric on Tacet through CMSIS-RTOS2 (cortex-m), 1000 ms per test; kernel "
        "version=0.1.0 options=TC_CHECKS=0,TC_PRIORITIES=64 tick_hz=1000\n"
    )
    message = next(x for x in THREAD_METRIC.splitlines() if "message" in x) + "\n"
    prog = fake_program(tmp_path, header + message, 0)
    assert bench_format.main(["--thread-metric", str(prog), "1", "message"]) == 0
    assert "message reported, every check passed" in capsys.readouterr().out
    tm = bench_format.parse_thread_metric(header + message, "tm", ("message",))
    assert tm.kernel == "Tacet through CMSIS-RTOS2"
    assert tm.config["options"] == "TC_CHECKS=0,TC_PRIORITIES=64"
    assert bench_format.main(["--thread-metric", str(prog), "1", "memory"]) == 1
    assert "no line for memory" in capsys.readouterr().err
