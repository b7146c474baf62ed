# SPDX-License-Identifier: MIT
"""tacet against real CMake, Ninja and cc on a tiny project shaped like Tacet.

This checks what the fakes in test_errors.py stand in for: the CMake file-API lookup,
real build failures and exit statuses.
"""

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import make_tree, needs_cmake, tool_env, write

pytestmark = needs_cmake

TOP = """\
cmake_minimum_required(VERSION 3.20)
project(tiny C)
include(ports/${TACET_PORT}/port.cmake)
enable_testing()
add_subdirectory(examples)
"""

EXAMPLES = """\
add_executable(hello hello/main.c)
add_executable(status status/main.c)
add_executable(broken EXCLUDE_FROM_ALL broken/main.c)
add_test(NAME passes COMMAND hello)
add_test(NAME fails COMMAND status)
"""


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    root = make_tree(tmp_path / "tiny")
    write(root / "CMakeLists.txt", TOP)
    write(root / "examples" / "CMakeLists.txt", EXAMPLES)
    write(
        root / "examples" / "hello" / "main.c",
        '#include <stdio.h>\nint main(void) { puts("context switches 0"); return 0; }\n',
    )
    write(
        root / "examples" / "status" / "main.c",
        '#include <stdio.h>\nint main(void) { puts("status says hi"); return 3; }\n',
    )
    write(root / "examples" / "broken" / "main.c", "int main(void) { return undeclared; }\n")
    return root


def tacet(tiny: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tacet", *argv],
        cwd=tiny,
        env=tool_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )


def test_build_prints_the_program_path(tiny: Path) -> None:
    result = tacet(tiny, "build", "--target", "sim", "examples/hello")
    assert result.returncode == 0, result.stderr
    program = tiny / "build" / "sim" / "examples" / "hello"
    assert result.stdout.strip() == str(program)
    assert program.is_file()


def test_run_streams_output_and_returns_the_exit_status(tiny: Path) -> None:
    result = tacet(tiny, "run", "examples/status")
    assert result.returncode == 3, result.stderr
    assert result.stdout == "status says hi\n"
    assert "tacet: error" not in result.stderr


def test_run_from_an_application_directory(tiny: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tacet", "run", "."],
        cwd=tiny / "examples" / "hello",
        env=tool_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "context switches 0\n"


def test_compile_error(tiny: Path) -> None:
    result = tacet(tiny, "run", "examples/broken")
    assert result.returncode == 1
    assert "undeclared" in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("tacet: error: build of broken for target sim")
    assert "Traceback" not in result.stderr


def test_directory_without_a_target(tiny: Path) -> None:
    result = tacet(tiny, "build", "kernel")
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("tacet: error: application kernel: no CMake executable target")
    assert "broken, hello, status" in last


def test_ctest_pass_fail_and_empty(tiny: Path) -> None:
    passing = tacet(tiny, "test", "-R", "passes")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "100% tests passed" in passing.stdout
    # "fails" runs a program that exits 3.
    failing = tacet(tiny, "test", "-R", "fails")
    assert failing.returncode == 1
    assert "tacet: error: " in failing.stderr
    empty = tacet(tiny, "test", "-R", "no-such-test")
    assert empty.returncode != 0
