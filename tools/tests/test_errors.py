# SPDX-License-Identifier: MIT
"""Bad input and failed steps end in one line, ``tacet: error: ...``, and a non-zero exit.

Host programs are replaced by small shell scripts on an otherwise empty PATH.
"""

import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from conftest import FakeBin, write

from tacet import cli
from tacet.cli import run as run_command
from tacet.project import cmake


def run_main(capfd: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capfd.readouterr()
    return status, out, err


def last_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert lines, "nothing was printed"
    return lines[-1]


def assert_one_error_line(err: str, *fragments: str) -> None:
    line = last_line(err)
    assert line.startswith("tacet: error: "), err
    for fragment in fragments:
        assert fragment in line, (fragment, line)
    assert "Traceback" not in err


@pytest.fixture
def in_tree(tree: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tree)
    return tree.resolve()


@pytest.fixture
def cmake_ok(fake_bin: FakeBin) -> FakeBin:
    """cmake and ninja that succeed (and build nothing)."""
    fake_bin.add("cmake")
    fake_bin.add("ninja")
    return fake_bin


def pretend_built(monkeypatch: pytest.MonkeyPatch, programs: dict[str, Path]) -> None:
    """Stand in for CMake's file-API answer: these executables exist in the build tree."""
    monkeypatch.setattr(cmake, "executables", lambda build_dir: programs)


@pytest.mark.parametrize("command", ["build", "run", "test"])
def test_cmake_missing(
    capfd: pytest.CaptureFixture[str], in_tree: Path, fake_bin: FakeBin, command: str
) -> None:
    fake_bin.add("ctest")
    argv = [command] if command == "test" else [command, "examples/hello"]
    status, _, err = run_main(capfd, *argv)
    assert status == 1
    assert_one_error_line(err, "target sim needs cmake", "apt-get install cmake")


def test_ninja_missing(capfd: pytest.CaptureFixture[str], in_tree: Path, fake_bin: FakeBin) -> None:
    fake_bin.add("cmake")
    status, _, err = run_main(capfd, "build", "examples/hello")
    assert status == 1
    assert_one_error_line(err, "needs ninja", "apt-get install ninja-build")


def test_missing_app_directory(
    capfd: pytest.CaptureFixture[str], in_tree: Path, cmake_ok: FakeBin
) -> None:
    status, out, err = run_main(capfd, "run", "examples/nope")
    assert status == 1
    assert out == ""
    assert_one_error_line(err, "examples/nope: no such directory", str(in_tree / "examples"))


@pytest.mark.parametrize("target", ["qemu-m3", "qemu-m4"])
def test_qemu_target_without_the_port(
    capfd: pytest.CaptureFixture[str], in_tree: Path, cmake_ok: FakeBin, target: str
) -> None:
    cmake_ok.add("arm-none-eabi-gcc")
    status, _, err = run_main(capfd, "build", "--target", target, "examples/hello")
    assert status == 1
    assert_one_error_line(err, f"target {target}: no such port 'cortex-m'", "ports/cortex-m")


def test_qemu_target_without_the_toolchain_file(
    capfd: pytest.CaptureFixture[str], in_tree: Path, cmake_ok: FakeBin
) -> None:
    write(in_tree / "ports" / "cortex-m" / "port.cmake")
    cmake_ok.add("arm-none-eabi-gcc")
    status, _, err = run_main(capfd, "build", "--target", "qemu-m3", "examples/hello")
    assert status == 1
    assert_one_error_line(err, "toolchain file cmake/arm-none-eabi.cmake is missing")


def test_qemu_target_without_the_cross_compiler(
    capfd: pytest.CaptureFixture[str], in_tree: Path, cmake_ok: FakeBin
) -> None:
    write(in_tree / "ports" / "cortex-m" / "port.cmake")
    write(in_tree / "cmake" / "arm-none-eabi.cmake")
    status, _, err = run_main(capfd, "build", "--target", "qemu-m3", "examples/hello")
    assert status == 1
    assert_one_error_line(
        err,
        "target qemu-m3 needs arm-none-eabi-gcc",
        "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi",
    )


def test_qemu_run_without_qemu(
    capfd: pytest.CaptureFixture[str], in_tree: Path, cmake_ok: FakeBin
) -> None:
    write(in_tree / "ports" / "cortex-m" / "port.cmake")
    write(in_tree / "cmake" / "arm-none-eabi.cmake")
    cmake_ok.add("arm-none-eabi-gcc")
    status, _, err = run_main(capfd, "run", "--target", "qemu-m4", "examples/hello")
    assert status == 1
    assert_one_error_line(err, "target qemu-m4 needs qemu-system-arm", "apt-get install")


def test_configure_failure_shows_cmake_output(
    capfd: pytest.CaptureFixture[str], in_tree: Path, fake_bin: FakeBin
) -> None:
    fake_bin.add("cmake", 'echo "CMake Error: something is wrong"; exit 1')
    fake_bin.add("ninja")
    status, out, err = run_main(capfd, "run", "examples/hello")
    assert status == 1
    assert out == ""
    assert "CMake Error: something is wrong" in err
    assert_one_error_line(err, f"configuring {in_tree / 'build' / 'sim'}", "exit status 1")


def test_no_file_api_reply(
    capfd: pytest.CaptureFixture[str], in_tree: Path, cmake_ok: FakeBin
) -> None:
    status, _, err = run_main(capfd, "build", "examples/hello")
    assert status == 1
    assert_one_error_line(err, "CMake wrote no file-API reply")


def test_app_without_a_cmake_target(
    capfd: pytest.CaptureFixture[str],
    in_tree: Path,
    cmake_ok: FakeBin,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    build_dir = in_tree / "build" / "sim"
    pretend_built(
        monkeypatch,
        {"blinky": build_dir / "examples" / "blinky", "test_x": build_dir / "tests" / "test_x"},
    )
    status, _, err = run_main(capfd, "run", "examples/hello")
    assert status == 1
    assert_one_error_line(
        err,
        "no CMake executable target named 'hello'",
        str(build_dir),
        "applications there: blinky",
    )


def test_app_built_for_another_port_only(
    capfd: pytest.CaptureFixture[str],
    in_tree: Path,
    cmake_ok: FakeBin,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    write(in_tree / "ports" / "cortex-m" / "port.cmake")
    write(in_tree / "cmake" / "arm-none-eabi.cmake")
    write(in_tree / "examples" / "hello" / "sim-only")
    cmake_ok.add("arm-none-eabi-gcc")
    pretend_built(monkeypatch, {})
    status, _, err = run_main(capfd, "build", "--target", "qemu-m3", "examples/hello")
    assert status == 1
    assert_one_error_line(
        err, "examples/hello is built only for port sim, not cortex-m (target qemu-m3)"
    )


def test_build_failure(
    capfd: pytest.CaptureFixture[str],
    in_tree: Path,
    fake_bin: FakeBin,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_bin.add("cmake", '[ "$1" = --build ] && { echo "main.c:3: error: oops"; exit 2; }; exit 0')
    fake_bin.add("ninja")
    build_dir = in_tree / "build" / "sim"
    pretend_built(monkeypatch, {"hello": build_dir / "examples" / "hello"})
    status, out, err = run_main(capfd, "run", "examples/hello")
    assert status == 1
    assert out == ""
    assert "main.c:3: error: oops" in err
    assert_one_error_line(err, "build of hello for target sim", str(build_dir), "exit status 2")


def test_unwritable_build_dir(
    capfd: pytest.CaptureFixture[str], in_tree: Path, cmake_ok: FakeBin
) -> None:
    blocker = write(in_tree / "not-a-dir")
    status, _, err = run_main(capfd, "build", "--build-dir", str(blocker / "b"), "examples/hello")
    assert status == 1
    assert_one_error_line(err, str(blocker))


def fake_program(in_tree: Path, monkeypatch: pytest.MonkeyPatch, script: str) -> None:
    program = write(in_tree / "build" / "sim" / "examples" / "hello", f"#!/bin/sh\n{script}\n")
    program.chmod(0o755)
    pretend_built(monkeypatch, {"hello": program})


def test_run_passes_on_output_and_exit_status(
    capfd: pytest.CaptureFixture[str],
    in_tree: Path,
    cmake_ok: FakeBin,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_program(in_tree, monkeypatch, 'echo "hello from the program"; exit 7')
    status, out, err = run_main(capfd, "run", "examples/hello")
    assert status == 7
    assert out == "hello from the program\n"
    assert err == ""


def test_run_reports_a_killed_program(
    capfd: pytest.CaptureFixture[str],
    in_tree: Path,
    cmake_ok: FakeBin,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_program(in_tree, monkeypatch, "kill -SEGV $$")
    status, _, err = run_main(capfd, "run", "examples/hello")
    assert status == 128 + 11
    assert_one_error_line(err, "hello on sim was killed by SIGSEGV")


def test_run_timeout(
    capfd: pytest.CaptureFixture[str],
    in_tree: Path,
    cmake_ok: FakeBin,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_program(in_tree, monkeypatch, "exit 0")
    seen: list[float | None] = []

    def never_finishes(
        command: Sequence[str], timeout: float | None, env: Mapping[str, str] | None = None
    ) -> int:
        seen.append(timeout)
        raise subprocess.TimeoutExpired(list(command), timeout or 0)

    monkeypatch.setattr(run_command, "run_program", never_finishes)
    status, _, err = run_main(capfd, "run", "--timeout", "5", "examples/hello")
    assert seen == [5.0]
    assert status == 124
    assert_one_error_line(err, "still running after 5 s", "--timeout")


def test_negative_timeout(capfd: pytest.CaptureFixture[str], in_tree: Path) -> None:
    status, _, err = run_main(capfd, "run", "--timeout", "-1", "examples/hello")
    assert status == 1
    assert_one_error_line(err, "--timeout -1: must be 0")


def test_qemu_run_command_and_default_timeout(
    capfd: pytest.CaptureFixture[str],
    in_tree: Path,
    cmake_ok: FakeBin,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    write(in_tree / "ports" / "cortex-m" / "port.cmake")
    write(in_tree / "cmake" / "arm-none-eabi.cmake")
    cmake_ok.add("arm-none-eabi-gcc")
    cmake_ok.add("qemu-system-arm")
    elf = write(in_tree / "build" / "qemu-m3" / "examples" / "hello")
    pretend_built(monkeypatch, {"hello": elf})
    calls: list[tuple[list[str], float | None]] = []

    def semihosting_exit(
        command: Sequence[str], timeout: float | None, env: Mapping[str, str] | None = None
    ) -> int:
        calls.append((list(command), timeout))
        return 3

    monkeypatch.setattr(run_command, "run_program", semihosting_exit)
    status, _, _ = run_main(capfd, "run", "--target", "qemu-m3", "examples/hello")
    assert status == 3
    [(command, timeout)] = calls
    assert command[:5] == ["qemu-system-arm", "-M", "mps2-an385", "-cpu", "cortex-m3"]
    assert command[-2:] == ["-kernel", str(elf)]
    assert timeout == 120.0


def test_test_without_ctest(
    capfd: pytest.CaptureFixture[str], in_tree: Path, cmake_ok: FakeBin
) -> None:
    status, _, err = run_main(capfd, "test")
    assert status == 1
    assert_one_error_line(err, "target sim needs ctest")


def test_failing_tests(capfd: pytest.CaptureFixture[str], in_tree: Path, cmake_ok: FakeBin) -> None:
    cmake_ok.add("ctest", 'echo "1 tests failed out of 3"; exit 8')
    status, out, err = run_main(capfd, "test", "-j", "2")
    assert status == 1
    assert "1 tests failed out of 3" in out
    build_dir = in_tree / "build" / "sim"
    assert_one_error_line(err, "tests for target sim", str(build_dir), "exit status 8")


def test_passing_tests_pass_their_options_to_ctest(
    capfd: pytest.CaptureFixture[str], in_tree: Path, cmake_ok: FakeBin
) -> None:
    cmake_ok.add("ctest", 'echo "ctest $*"; echo "cwd $(pwd)"')
    status, out, _ = run_main(capfd, "test", "-j", "3", "-R", "sched")
    assert status == 0
    assert "ctest --output-on-failure --no-tests=error -j 3 -R sched" in out
    assert f"cwd {in_tree / 'build' / 'sim'}" in out
