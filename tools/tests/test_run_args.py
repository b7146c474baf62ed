# SPDX-License-Identifier: MIT
"""`tacet run APP -- ARG...`: the program's arguments, on sim (argv) and under QEMU (the
semihosting command line, with the trace's file when there is one)."""

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, needs_cmake, tool_env

from tacet import cli
from tacet.core.errors import TacetError
from tacet.core.targets import TARGETS
from tacet.project import run
from tacet.project.run import CMDLINE_SIZE, emulated_command

PROGRAM = Path("/b/examples/priority_inversion")


def qemu_command() -> list[str]:
    return TARGETS["qemu-m3"].run_command(PROGRAM)


def semihosting(command: list[str]) -> str:
    return command[command.index("-semihosting-config") + 1]


def test_arguments_after_the_double_dash_go_to_the_program() -> None:
    args = cli.parse(["run", "--target", "qemu-m3", "APP", "--trace", "t", "--", "-x", "--", "y"])
    assert (args.app, args.target, str(args.trace)) == ("APP", "qemu-m3", "t")
    assert args.program_args == ["-x", "--", "y"]
    assert cli.parse(["run", "APP"]).program_args == []


def test_an_argument_without_the_double_dash_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["run", "APP", "plain"])
    assert exit_info.value.code == 2
    assert "unrecognized arguments: plain" in capsys.readouterr().err


def test_other_subcommands_keep_the_double_dash_as_end_of_options() -> None:
    assert str(cli.parse(["trace", "--", "-odd.tctrace"]).dump) == "-odd.tctrace"


def test_qemu_without_arguments_is_unchanged() -> None:
    assert emulated_command(qemu_command(), PROGRAM, [], None) == qemu_command()


def test_qemu_gets_argv0_the_arguments_and_the_trace() -> None:
    command = emulated_command(qemu_command(), PROGRAM, ["plain", "-v"], Path("/t/x.tctrace"))
    assert semihosting(command) == (
        "enable=on,target=native,arg=priority_inversion,arg=plain,arg=-v,"
        "arg=--tacet-trace=/t/x.tctrace"
    )
    command = emulated_command(qemu_command(), PROGRAM, [], Path("/t/x.tctrace"))
    assert semihosting(command).endswith(",arg=priority_inversion,arg=--tacet-trace=/t/x.tctrace")


def test_trace_size_and_mode_reach_either_port() -> None:
    args = cli.parse(["run", "--target", "qemu-m3", "APP", "--trace", "t", "--trace-size", "3M",
                      "--trace-mode", "stop"])  # fmt: skip
    assert (args.trace_size, args.trace_mode) == (3 << 20, "stop")
    assert [run.trace_size(t) for t in ("65536", "64K", "64KiB", "2m", "1G")] == [
        65536, 65536, 65536, 2 << 20, 1 << 30,
    ]  # fmt: skip
    setup = type("S", (), {"target": TARGETS["qemu-m3"]})()
    command, env = run.launch(args, setup, PROGRAM, Path("/t/x.tctrace"))  # type: ignore[arg-type]
    assert env is None
    assert semihosting(command).endswith(
        ",arg=--tacet-trace=/t/x.tctrace,arg=--tacet-trace-size=3145728,arg=--tacet-trace-mode=stop"
    )
    args = cli.parse(["run", "APP", "--trace", "t", "--trace-size", "512K"])
    setup = type("S", (), {"target": TARGETS["sim"]})()
    command, env = run.launch(args, setup, PROGRAM, Path("/t/x.tctrace"))  # type: ignore[arg-type]
    assert env is not None and env["TACET_TRACE"] == "/t/x.tctrace"
    assert env["TACET_TRACE_SIZE"] == str(512 << 10)


@pytest.mark.parametrize("bad", ["", "0", "-5", "12Q", "M", "1.5M"])
def test_a_bad_trace_size_is_a_usage_error(capsys: pytest.CaptureFixture[str], bad: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["run", "APP", "--trace", "t", "--trace-size", bad])
    assert exit_info.value.code == 2
    assert "expected a number of bytes" in capsys.readouterr().err


def test_trace_options_without_trace_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["run", "APP", "--trace-mode", "stop"]) == 1
    assert "--trace-size and --trace-mode go with --trace FILE" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["a b", "a,b", "a\tb", ""])
def test_qemu_refuses_what_the_command_line_cannot_carry(bad: str) -> None:
    with pytest.raises(TacetError, match=r"program argument .*spaces or commas"):
        emulated_command(qemu_command(), PROGRAM, [bad], None)
    if bad:
        with pytest.raises(TacetError, match=r"--trace .*spaces or commas"):
            emulated_command(qemu_command(), PROGRAM, [], Path(f"/t/{bad}/x"))


def test_qemu_refuses_a_command_line_longer_than_the_port_takes() -> None:
    fits = "a" * (CMDLINE_SIZE - 1 - len("priority_inversion "))
    emulated_command(qemu_command(), PROGRAM, [fits], None)
    with pytest.raises(TacetError, match=f"at most {CMDLINE_SIZE - 1}"):
        emulated_command(qemu_command(), PROGRAM, [fits + "a"], None)


@needs_cmake
def test_sim_program_sees_its_arguments(tmp_path: Path) -> None:
    def run(*program_args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tacet", "run", "--build-dir", str(tmp_path / "build"),
             "examples/priority_inversion", "--", *program_args],
            cwd=REPO, env=tool_env(), stdin=subprocess.DEVNULL, capture_output=True,
            text=True, check=False,
        )  # fmt: skip

    result = run("both")
    assert result.returncode == 0, result.stderr
    assert "\nboth " in result.stdout and "\nplain " not in result.stdout
    result = run("bogus")
    assert result.returncode == 2
    assert "unknown run 'bogus'" in result.stderr
