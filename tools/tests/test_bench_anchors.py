# SPDX-License-Identifier: MIT
"""`tacet bench anchors`: Thread-Metric's programs on Tacet, ThreadX and FreeRTOS, read, compared
and reported from fabricated program outputs (no kernel is built or run here)."""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

import pytest

from tacet.bench import anchors
from tacet.bench.format import THREAD_METRIC_TESTS
from tacet.cli import bench as cli_bench
from tacet.core.errors import TacetError
from tacet.core.targets import TARGETS

TARGET = TARGETS["qemu-m3"]

# Instructions per operation each fabricated program prints, by build and test.
FIGURES = {
    "threadx_bare": [8207.5, 66.1, 217.8, 74.1, 287.3, 124.1, 50.1, 59.1],
    "threadx_checks": [8207.5, 75.1, 227.5, 87.1, 299.3, 144.2, 63.1, 77.1],
    "threadx_counters": [8208.6, 146.2, 374.1, 100.1, 488.6, 158.2, 76.1, 91.1],
    "freertos": [8207.5, 54.1, 257.1, 116.1, 326.4, 194.4, 119.1],
    "freertos_stats": [8207.5, 72.2, 285.9, 116.1, 362.4, 194.4, 119.1],
    "tacet_default": [8219.4, 74.2, 218.2, 124.3, 353.9, 138.4, 65.2, 100.3],
    "tacet_lean": [8214.0, 50.1, 160.3, 100.2, 254.5, 117.2, 52.1, 65.1],
}
HEADERS = {
    "threadx": "Thread-Metric on ThreadX (cortex_m3), 2000 ms per test; kernel version=7ad78c4 "
    "options=TX_DISABLE_ERROR_CHECKING tick_hz=1000",
    "freertos": "Thread-Metric on FreeRTOS (ARM_CM3), 2000 ms per test; kernel version=4269c69 "
    "options=default tick_hz=1000",
    None: "Thread-Metric on Tacet (cortex-m), 2000 ms per test; kernel TC_PRIORITIES=256 "
    "TC_CHECKS=1 TC_STATS=1 TC_STACK_CHECK=1 TC_TICK_HZ=1000u",
}


def line(test: str, value: float, failed: bool = False) -> str:
    mark = "  CHECK FAILED" if failed else ""
    return f"  {test:<21} {1000:10d} ops  {value:8.1f} instructions per op  (what){mark}"


def output(build: anchors.Build, tests: tuple[str, ...], failed: frozenset[str]) -> str:
    figures = dict(zip(build.tests, FIGURES[build.key], strict=True))
    lines = [HEADERS[build.kernel], *(line(t, figures[t], t in failed) for t in tests)]
    return "\n".join(lines) + "\n"


class FakeRuns:
    """Stands in for subprocess.run: answers each QEMU command line as the program would."""

    def __init__(
        self, failed: dict[str, frozenset[str]] | None = None, status: int | None = None
    ) -> None:
        self.failed = failed or {}
        self.status = status
        self.commands: list[list[str]] = []

    def __call__(self, command: list[str], **_: object) -> subprocess.CompletedProcess[str]:
        self.commands.append(command)
        program = Path(command[command.index("-kernel") + 1]).name
        build = next(b for b in anchors.BUILD.values() if b.program == program)
        words = command[command.index("-semihosting-config") + 1].split(",arg=")[1:]
        tests = build.tests if len(words) == 2 else (words[2],)
        failed = self.failed.get(build.key, frozenset())
        status = 1 if failed & set(tests) else 0
        if self.status is not None:
            status = self.status
        return subprocess.CompletedProcess(command, status, output(build, tests, failed), "")


def columns(runner: FakeRuns, given: tuple[str, ...] = ("threadx", "freertos")) -> list:
    builds = anchors.plan(given)
    executables = {b.program: Path("/build/bench") / b.program for b in builds}
    return anchors.run_all(TARGET, executables, builds, 2, runner=runner)


def test_plan_and_arguments() -> None:
    assert [b.key for b in anchors.plan(())] == ["tacet_default", "tacet_lean"]
    assert len(anchors.plan(("threadx", "freertos"))) == 7
    assert anchors.program_args(anchors.BUILD["tacet_lean"], 30) == [("30",)]
    freertos = anchors.program_args(anchors.BUILD["freertos"], 30)
    assert ("30", "memory") not in freertos and len(freertos) == 7  # no block pool
    assert len(anchors.program_args(anchors.BUILD["threadx_bare"], 30)) == 8


def test_every_program_runs_one_test_a_run_unless_it_restarts() -> None:
    runner = FakeRuns()
    cols = columns(runner)
    # 8 + 8 + 8 (ThreadX) + 7 + 7 (FreeRTOS) + 1 + 1 (Tacet) runs
    assert len(runner.commands) == 40
    by = {c.build.key: c for c in cols}
    assert by["threadx_bare"].version == "7ad78c4" and by["freertos"].port == "ARM_CM3"
    assert by["tacet_lean"].figures["synchronization"].value == 52.1
    assert "memory" not in by["freertos"].figures
    assert all(c.build.tests == tuple(c.figures) for c in cols)


def test_goals_and_their_ratios() -> None:
    cols = columns(FakeRuns())
    goals = {g.name.split()[0]: g for g in anchors.goals(cols)}
    lean = dict(goals["lean"].results)
    # the better bare anchor: FreeRTOS on cooperative (54.1), ThreadX on preemptive (217.8)
    assert lean["cooperative"] == pytest.approx(50.1 / 54.1)
    assert lean["preemptive"] == pytest.approx(160.3 / 217.8)
    assert lean["memory"] == pytest.approx(65.1 / 59.1)  # ThreadX alone: FreeRTOS has no pool
    assert goals["lean"].met == ["preemptive"]
    default = dict(goals["default"].results)
    assert default["interrupt_preemption"] == pytest.approx(353.9 / 488.6)
    assert set(goals["default"].met) == {"cooperative", "preemptive", "interrupt_preemption"}
    assert goals["moonshot:"].limit == 1.0 and goals["moonshot:"].met == []
    assert "basic" not in dict(goals["lean"].results)


def test_an_anchor_whose_check_fails_is_marked_and_does_not_count() -> None:
    cols = columns(FakeRuns(failed={"freertos": frozenset({"cooperative"})}))
    by = {c.build.key: c for c in cols}
    assert by["freertos"].figures["cooperative"].check_failed
    assert anchors.better_bare(by, "cooperative") == ("threadx_bare", 66.1)
    lean = dict(next(g for g in anchors.goals(cols) if g.build == "tacet_lean").results)
    assert lean["cooperative"] == pytest.approx(50.1 / 66.1)
    table = "\n".join(anchors.table(cols))
    assert "| cooperative | 66.1 | 75.1 | 146.2 | 54.1 ✗ |" in table


def test_a_check_that_fails_on_tacet_is_an_error() -> None:
    with pytest.raises(TacetError, match=r"check failed on Tacet .*Tacet lean: memory"):
        columns(FakeRuns(failed={"tacet_lean": frozenset({"memory"})}))


def test_a_program_that_crashes_or_prints_no_report_is_an_error() -> None:
    with pytest.raises(TacetError, match=r"failed \(exit status 135\)"):
        columns(FakeRuns(status=135))
    with pytest.raises(TacetError, match=r"exit status 1.* no check marked"):
        columns(FakeRuns(status=1))

    def silent(command: list[str], **_: object) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(command, 0, "hello\n", "")

    with pytest.raises(TacetError, match="no 'Thread-Metric on KERNEL' header"):
        columns(silent)  # type: ignore[arg-type]


def test_report_without_anchors_says_which_were_not_given() -> None:
    cols = columns(FakeRuns(), given=("threadx",))
    meta = {"target": "qemu-m3", "machine": "mps2-an385", "commit": "abc", "dirty": False,
            "date": "today", "compiler": "gcc 12", "qemu": "QEMU 7.2", "seconds": 2}  # fmt: skip
    text = anchors.markdown(cols, meta, "tacet bench anchors --target qemu-m3 --threadx T")
    assert "- ThreadX: commit 7ad78c4, port cortex_m3." in text
    assert "- FreeRTOS: not given (`--freertos DIR`" in text
    assert "FreeRTOS stats" not in text.split("\n| basic")[0].splitlines()[-2]
    assert "**lean <= 0.85 x the better bare anchor**" in text
    header = next(t for t in text.splitlines() if t.startswith("| test"))
    assert header.endswith(
        "| lean / better bare | default / ThreadX counters | default / ThreadX bare |"
    )
    only_tacet = anchors.markdown(columns(FakeRuns(), given=()), meta, "tacet bench anchors")
    assert "lean <=" not in only_tacet and "ThreadX: not given" in only_tacet
    doc = json.loads(json.dumps(anchors.document(cols, meta)))
    assert [c["build"] for c in doc["columns"]][:3] == [
        "threadx_bare", "threadx_checks", "threadx_counters"
    ]  # fmt: skip
    assert doc["columns"][0]["figures"]["message"] == {
        "value": 124.1, "operations": 1000, "check_failed": False
    }  # fmt: skip


def test_the_command_refuses_a_target_without_qemu_and_a_missing_tree(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    cli_bench.register(parser.add_subparsers())
    args = parser.parse_args(["bench", "anchors", "--target", "sim"])
    with pytest.raises(TacetError, match="under QEMU") as error:
        args.handler(args)
    assert error.value.status == 2
    args = parser.parse_args(["bench", "--target", "qemu-m3", "anchors", "--seconds", "0"])
    with pytest.raises(TacetError, match="--seconds 0"):
        args.handler(args)
    args = parser.parse_args(
        ["bench", "--target", "qemu-m3", "anchors", "--threadx", str(tmp_path / "none")]
    )
    assert args.target == "qemu-m3"  # given before the action, kept
    with pytest.raises(TacetError, match="no such directory"):
        args.handler(args)


def test_every_build_is_a_program_of_the_bench_tree() -> None:
    """The table's columns are the programs bench/CMakeLists.txt and anchors.cmake define."""
    bench = Path(__file__).resolve().parents[2] / "bench"
    tacet = (bench / "CMakeLists.txt").read_text()
    others = (bench / "thread_metric" / "anchors.cmake").read_text()
    for build in anchors.BUILDS:
        if build.kernel is None:
            assert f'"{build.program}|tacet_kernel_bench' in tacet, build.program
        elif build.kernel == "threadx":
            variant = build.program.removeprefix("thread_metric_threadx_")
            assert "_tm_anchor(thread_metric_threadx_${name}" in others
            assert f'"{variant}|' in others, build.program
        else:
            suffix = build.program.removeprefix("thread_metric_freertos")
            assert "_tm_anchor(thread_metric_freertos${suffix}" in others
            assert f'"{suffix}|' in others, build.program
    assert set(THREAD_METRIC_TESTS) == set(anchors.BUILD["threadx_bare"].tests)


# ---- RISC-V ------------------------------------------------------------------------------------


def test_riscv_reports_threadx_as_not_available_and_judges_the_lean_build_on_freertos() -> None:
    rv32 = TARGETS["qemu-rv32"]
    builds = anchors.plan(("freertos",))
    executables = {b.program: Path("/build/bench") / b.program for b in builds}
    runner = FakeRuns()
    cols = anchors.run_all(rv32, executables, builds, 1, runner=runner)
    assert all("qemu-system-riscv32" in c[0] and "shift=0" in c for c in runner.commands)
    assert [g.build for g in anchors.goals(cols)] == ["tacet_lean"]  # no ThreadX: one goal
    lean = dict(anchors.goals(cols)[0].results)
    assert lean["preemptive"] == pytest.approx(160.3 / 257.1)
    assert lean["memory"] is None  # FreeRTOS has no pool, and ThreadX no column here
    meta = {"target": "qemu-rv32", "machine": "virt", "commit": "abc", "dirty": False,
            "date": "today", "compiler": "gcc 12", "qemu": "QEMU 7.2", "seconds": 1,
            "icount_shift": rv32.icount_shift,
            "unavailable": anchors.unavailable(rv32.port)}  # fmt: skip
    text = anchors.markdown(cols, meta, "tacet bench anchors --target qemu-rv32 --freertos F")
    assert "`-icount shift=0`" in text
    assert "- ThreadX: not available on RV32: ThreadX has no RV32 port for GCC" in text
    assert "ThreadX: not given" not in text
    assert "feature-equal ThreadX**: not judged on this target" in text
    assert anchors.unavailable("cortex-m") == {}


def test_riscv_refuses_threadx_and_a_tree_without_the_riscv_port(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    cli_bench.register(parser.add_subparsers())
    args = parser.parse_args(
        ["bench", "anchors", "--target", "qemu-rv32", "--threadx", str(tmp_path)]
    )
    with pytest.raises(TacetError, match="ThreadX is not available on RV32") as error:
        args.handler(args)
    assert error.value.status == 2
    args = parser.parse_args(
        ["bench", "anchors", "--target", "qemu-rv32f", "--freertos", str(tmp_path)]
    )
    with pytest.raises(TacetError, match=r"with a RISC-V port \(no include/FreeRTOS.h\)"):
        args.handler(args)
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "FreeRTOS.h").write_text("")
    with pytest.raises(TacetError, match=r"\(no portable/GCC/RISC-V/portASM.S\)"):
        args.handler(args)
    args = parser.parse_args(
        ["bench", "anchors", "--target", "qemu-rv32", "--freertos", str(tmp_path / "x")]
    )
    with pytest.raises(TacetError, match="no such directory"):
        args.handler(args)


def test_riscv_programs_are_those_of_the_bench_tree() -> None:
    bench = Path(__file__).resolve().parents[2] / "bench"
    tacet = (bench / "CMakeLists.txt").read_text()
    riscv = (bench / "thread_metric" / "anchors_riscv.cmake").read_text()
    assert "include(thread_metric/anchors_riscv.cmake)" in tacet
    for build in anchors.plan(("freertos",)):
        if build.kernel is None:
            assert f'"{build.program}|tacet_kernel_bench' in tacet, build.program
        else:
            suffix = build.program.removeprefix("thread_metric_freertos")
            assert "set(exe thread_metric_freertos${suffix})" in riscv
            assert f'"{suffix}|' in riscv, build.program
    assert 'message(FATAL_ERROR "THREADX_DIR=' in riscv  # refused, with the reason


# ---- through CMSIS-RTOS2 -------------------------------------------------------------------------

META = {"target": "qemu-m3", "machine": "mps2-an385", "commit": "abc", "dirty": False,
        "date": "today", "compiler": "gcc 12", "qemu": "QEMU 7.2", "seconds": 2}  # fmt: skip

FIGURES.update(
    {
        "os2_default": [8208.6, 88.1, 243.5, 187.2, 609.8, 266.3, 76.1, 131.2],
        "os2_lean": [8204.3, 54.0, 170.0, 100.0, 270.0, 120.0, 55.0, 80.0],
        "rtx": [8215.0, 134.3, 228.6, 243.5, 481.1, 334.7, 142.3, 194.4],
        "cmsis_freertos": [8210.7, 105.2, 417.4, 375.6, 719.1, 315.7, 233.3, 358.5],
    }
)
HEADERS.update(
    {
        "tacet_os2": "Thread-Metric on Tacet through CMSIS-RTOS2 (cortex-m), 2000 ms per test; "
        "kernel version=0.1.0 options=default tick_hz=1000",
        "rtx": "Thread-Metric on RTX5 through CMSIS-RTOS2 (cortex-m), 2000 ms per test; kernel "
        "version=161e285 options=RTX_Config.h,no_round_robin tick_hz=1000",
        "cmsis_freertos": "Thread-Metric on FreeRTOS through CMSIS-RTOS2 (cortex-m), 2000 ms per "
        "test; kernel version=4269c69+CMSIS-FreeRTOS-c5effc8 options=wrapper_config tick_hz=1000",
    }
)


def cmsis_columns(runner: FakeRuns, given: tuple[str, ...] = ("rtx", "cmsis_freertos")) -> list:
    builds = anchors.plan(()) + anchors.cmsis_plan(given)
    executables = {b.program: Path("/build/bench") / b.program for b in builds}
    return anchors.run_all(TARGET, executables, builds, 2, runner=runner)


def test_cmsis_plan_runs_one_test_a_run() -> None:
    assert [b.key for b in anchors.cmsis_plan(())] == ["os2_default", "os2_lean"]
    assert len(anchors.cmsis_plan(("rtx", "cmsis_freertos"))) == 4
    assert [b.key for b in anchors.cmsis_plan(("rtx",))][-1] == "rtx"
    # A CMSIS kernel never stops: one test a run, Tacet's layer too.
    assert len(anchors.program_args(anchors.BUILD["os2_default"], 30)) == 8
    runner = FakeRuns()
    cols = cmsis_columns(runner)
    assert len(runner.commands) == 1 + 1 + 4 * 8
    by = {c.build.key: c for c in cols}
    assert by["rtx"].version == "161e285"
    assert by["os2_lean"].figures["memory"].value == 80.0


def test_cmsis_goals_and_their_ratios() -> None:
    goals = {g.name: g for g in anchors.cmsis_goals(cmsis_columns(FakeRuns()))}
    assert list(goals) == [
        "CMSIS on Tacet default <= 1.10 x Tacet default",
        "CMSIS on Tacet lean <= 1.10 x Tacet lean",
        "CMSIS on Tacet default <= RTX5",
        "CMSIS on Tacet default <= FreeRTOS + CMSIS-FreeRTOS",
    ]
    native = goals["CMSIS on Tacet default <= 1.10 x Tacet default"]
    assert dict(native.results)["message"] == pytest.approx(266.3 / 138.4)
    assert native.met == []
    lean = goals["CMSIS on Tacet lean <= 1.10 x Tacet lean"]
    assert lean.missed == ["memory"]  # 80.0 / 65.1; the others within 1.08
    rtx = goals["CMSIS on Tacet default <= RTX5"]
    assert rtx.missed == ["preemptive", "interrupt_preemption"]
    assert dict(rtx.results)["synchronization"] == pytest.approx(76.1 / 142.3)
    freertos = goals["CMSIS on Tacet default <= FreeRTOS + CMSIS-FreeRTOS"]
    assert len(freertos.met) == 7 and "basic" not in dict(freertos.results)


def test_cmsis_report_table_and_what_was_not_given() -> None:
    cols = cmsis_columns(FakeRuns(), given=("rtx",))
    text = anchors.cmsis_markdown(cols, {"rtx": "/trees/rtx"})
    assert "## Through CMSIS-RTOS2" in text
    assert "- RTX5: 161e285, /trees/rtx." in text
    assert "- FreeRTOS + CMSIS-FreeRTOS: not given (`--cmsis-freertos DIR`" in text
    header = next(t for t in text.splitlines() if t.startswith("| test"))
    assert header == (
        "| test | Tacet default | Tacet lean | CMSIS on Tacet default | CMSIS on Tacet lean | RTX5 "
        "| CMSIS default / Tacet default | CMSIS lean / Tacet lean | CMSIS default / RTX5 |"
    )
    assert (
        "| synchronization | 65.2 | 52.1 | 76.1 | 55.0 | 142.3 | 1.17 | 1.06 ✓ | 0.53 ✓ |" in text
    )
    assert "**CMSIS on Tacet default <= RTX5**: met on 5 of 7 tests; missed on preemptive" in text
    # The native table leaves the CMSIS columns out.
    native = [c for c in cols if c.build.key not in anchors.CMSIS_BUILD]
    assert "CMSIS" not in anchors.markdown(native, META, "tacet bench anchors")
    assert anchors.cmsis_markdown(native, {}) == ""
    doc = anchors.cmsis_document(cols)
    assert doc[2]["goal"] == "CMSIS on Tacet default <= RTX5" and doc[2]["limit"] == 1.0


def test_cmsis_checks_fail_on_tacet_as_an_error_and_elsewhere_as_a_mark() -> None:
    cols = cmsis_columns(FakeRuns(failed={"os2_lean": frozenset({"cooperative"})}))
    with pytest.raises(
        TacetError, match=r"through CMSIS-RTOS2 on Tacet .*CMSIS on Tacet lean: coop"
    ):
        anchors.check_cmsis_failures(cols)
    cols = cmsis_columns(FakeRuns(failed={"rtx": frozenset({"cooperative"})}))
    anchors.check_cmsis_failures(cols)
    rtx = next(g for g in anchors.cmsis_goals(cols) if g.anchor == "RTX5")
    assert dict(rtx.results)["cooperative"] is None  # a failed check is no anchor


def make_tree(root: Path, marker: str) -> Path:
    (root / marker).parent.mkdir(parents=True)
    (root / marker).write_text("")
    return root


def test_cmsis_trees_are_checked_before_the_build(tmp_path: Path) -> None:
    rtx = make_tree(tmp_path / "rtx", "Source/rtx_kernel.c")
    cmsis6 = make_tree(tmp_path / "cmsis6", "CMSIS/RTOS2/Include/cmsis_os2.h")
    wrapper = make_tree(tmp_path / "wrapper", "CMSIS/RTOS2/FreeRTOS/Source/cmsis_os2.c")
    anchors.check_trees({"rtx": rtx, "cmsis6": cmsis6, "cmsis_freertos": wrapper}, ["freertos"])
    with pytest.raises(
        TacetError, match=r"--rtx .*: not a CMSIS-RTX \(RTX5\) tree \(no Source/rtx_k"
    ):
        anchors.check_trees({"rtx": cmsis6, "cmsis6": cmsis6})
    with pytest.raises(TacetError, match=r"--cmsis6 .*: not a CMSIS_6 tree") as error:
        anchors.check_trees({"rtx": rtx, "cmsis6": rtx})
    assert error.value.status == 2
    with pytest.raises(TacetError, match="--rtx needs --cmsis6 DIR, a CMSIS_6 tree"):
        anchors.check_trees({"rtx": rtx})
    with pytest.raises(TacetError, match="--cmsis-freertos needs --freertos DIR"):
        anchors.check_trees({"cmsis_freertos": wrapper, "cmsis6": cmsis6})


def test_the_command_refuses_a_cmsis_tree_that_is_not_one(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    cli_bench.register(parser.add_subparsers())
    not_rtx = tmp_path / "not-rtx"
    not_rtx.mkdir()
    for words, message in (
        (["--rtx", str(tmp_path / "none")], "--rtx .*none: no such directory"),
        (["--rtx", str(not_rtx)], "not a CMSIS-RTX"),
        (["--cmsis6", str(not_rtx)], "not a CMSIS_6 tree"),
    ):
        args = parser.parse_args(["bench", "anchors", "--target", "qemu-m3", *words])
        with pytest.raises(TacetError, match=message) as error:
            args.handler(args)
        assert error.value.status == 2


def test_every_cmsis_build_is_a_program_of_the_bench_tree() -> None:
    bench = Path(__file__).resolve().parents[2] / "bench"
    tacet = (bench / "CMakeLists.txt").read_text()
    others = (bench / "thread_metric" / "anchors.cmake").read_text()
    for build in anchors.CMSIS_BUILDS:
        if build.kernel == "tacet_os2":
            assert f'"{build.program}|tacet_cmsis_os2_bench' in tacet, build.program
        else:
            assert f"_tm_cmsis_anchor({build.program} " in others, build.program
    for tree in anchors.CMSIS_TREES:
        assert f"set({tree.variable} " in others and tree.marker in others, tree.variable


def test_the_fe310_is_refused_naming_its_ram(tmp_path: Path) -> None:
    """No benchmark program fits the FE310's 16 KB: both commands say so before building."""
    parser = argparse.ArgumentParser()
    cli_bench.register(parser.add_subparsers())
    for argv in (
        ["bench", "anchors", "--target", "qemu-fe310", "--freertos", str(tmp_path)],
        ["bench", "--target", "qemu-fe310", "--quick"],
    ):
        args = parser.parse_args(argv)
        with pytest.raises(TacetError, match="--target qemu-fe310: the FE310's 16 KB") as error:
            args.handler(args)
        assert error.value.status == 2
    assert all(t.no_benchmarks is None for t in TARGETS.values() if t.name != "qemu-fe310")


def test_cmsis_is_refused_on_the_riscv_targets(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    cli_bench.register(parser.add_subparsers())
    for extra in (["--cmsis"], ["--rtx", str(tmp_path)]):
        args = parser.parse_args(["bench", "anchors", "--target", "qemu-rv32", *extra])
        with pytest.raises(TacetError, match="compared on Cortex-M: qemu-m3 or qemu-m4") as error:
            args.handler(args)
        assert error.value.status == 2
