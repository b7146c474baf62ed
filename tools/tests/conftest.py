"""Shared fixtures: small Tacet-shaped trees and fake host programs on PATH."""

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def write(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def make_tree(root: Path, ports: tuple[str, ...] = ("sim",)) -> Path:
    """An empty-but-recognisable Tacet tree: CMakeLists.txt, kernel/, ports, examples/hello."""
    write(root / "CMakeLists.txt", "# fake\n")
    (root / "kernel").mkdir(parents=True)
    for port in ports:
        write(root / "ports" / port / "port.cmake")
    (root / "examples" / "hello").mkdir(parents=True)
    return root


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return make_tree(tmp_path / "repo")


class FakeBin:
    """A directory of fake host programs that is the whole of PATH."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def add(self, name: str, script: str = "exit 0") -> Path:
        path = write(self.directory / name, f"#!/bin/sh\n{script}\n")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
        return path


@pytest.fixture
def fake_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeBin:
    directory = tmp_path / "bin"
    directory.mkdir()
    monkeypatch.setenv("PATH", str(directory))
    return FakeBin(directory)


def have_native_toolchain() -> bool:
    return all(shutil.which(tool) for tool in ("cmake", "ninja", "cc"))


needs_cmake = pytest.mark.skipif(
    not have_native_toolchain(), reason="needs cmake, ninja and a C compiler on PATH"
)


def tool_env() -> dict[str, str]:
    """Environment for running ``python -m tacet`` from this source tree."""
    env = dict(os.environ)
    tools = str(REPO / "tools")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (tools, env.get("PYTHONPATH")) if p)
    return env


def run_config(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m tacet config ARGV`` from this source tree, in ``cwd``, output captured."""
    return subprocess.run(
        [sys.executable, "-m", "tacet", "config", *argv],
        cwd=cwd,
        env=tool_env(),
        capture_output=True,
        text=True,
        check=False,
    )
