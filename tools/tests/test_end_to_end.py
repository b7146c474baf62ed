# SPDX-License-Identifier: MIT
"""The real thing: build and run examples/hello of this repository on the sim port."""

import subprocess
import sys
from pathlib import Path

from conftest import REPO, needs_cmake, tool_env


@needs_cmake
def test_run_hello_on_sim(tmp_path: Path) -> None:
    # A private build directory, so the test neither depends on nor disturbs build/sim.
    result = subprocess.run(
        [sys.executable, "-m", "tacet", "run", "--target", "sim",
         "--build-dir", str(tmp_path / "build"), "examples/hello"],
        cwd=REPO,
        env=tool_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "context switches" in result.stdout
