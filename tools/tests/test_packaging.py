# SPDX-License-Identifier: MIT
"""Every Python dependency is pinned, the two lists of pins agree, and the pins resolve on the
oldest Python the package supports."""

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9_.-]+)(?:\[[a-z,]+\])?==([0-9][A-Za-z0-9.]*)$")
# What pip prints when it cannot reach the package index at all (not when a pin is wrong).
OFFLINE = re.compile(
    r"NewConnectionError|Temporary failure in name resolution|Network is unreachable"
    r"|Max retries exceeded|ProxyError|ConnectTimeoutError"
)


def pins(requirements: list[str]) -> dict[str, str]:
    found = {}
    for requirement in requirements:
        match = PIN.match(requirement)
        assert match, f"{requirement!r} is not pinned with =="
        found[match[1].lower()] = match[2]
    return found


def project() -> dict:
    return tomllib.loads((TOOLS / "pyproject.toml").read_text())


def constraints() -> list[str]:
    lines = (TOOLS / "constraints.txt").read_text().splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def normalised(name: str) -> str:
    """A distribution name as the package index compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def oldest_python() -> str:
    """requires-python's lower bound: the one place that says which Python is the oldest."""
    spec = project()["project"]["requires-python"]
    match = re.fullmatch(r">=(\d+\.\d+\.\d+)", spec)
    assert match, f"requires-python = {spec!r}: expected '>=X.Y.Z', the oldest Python supported"
    return match[1]


def test_dependencies_are_pinned_and_constrained() -> None:
    direct = pins(project()["project"]["dependencies"])
    for extra in project()["project"]["optional-dependencies"].values():
        direct |= pins(extra)
    pins(project()["build-system"]["requires"])
    constrained = pins(constraints())
    for name, version in direct.items():
        assert constrained.get(name) == version, f"{name}: constraints.txt disagrees"


def test_console_entry_point() -> None:
    assert project()["project"]["scripts"] == {"tacet": "tacet.cli:main"}


def test_oldest_python_is_debian_12s() -> None:
    # make deps makes .venv from the distribution's python3; on Debian 12 that is 3.11.2.
    assert oldest_python() == "3.11.2"
    makefile = (TOOLS.parent / "Makefile").read_text()
    assert re.search(r"^PYTHON := /usr/bin/python3$", makefile, re.MULTILINE)


def test_pins_resolve_on_the_oldest_python(tmp_path: Path) -> None:
    """pip resolves every pin of constraints.txt and the build requirement, with their
    dependencies, for the oldest supported Python (wheels only: that interpreter is not the
    one running pip), and picks exactly the pinned set: a pinned release that needs a newer
    Python, or an indirect dependency missing from constraints.txt, fails here. It asks the
    package index, as make deps does; CI reaches it, so only a machine without the network
    outside CI skips."""
    python = oldest_python()
    build = project()["build-system"]["requires"]
    report = tmp_path / "report.json"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
         "--disable-pip-version-check", "--quiet", "--only-binary=:all:",
         "--python-version", python, "--target", str(tmp_path / "target"),
         "--report", str(report), "-r", str(TOOLS / "constraints.txt"), *build],
        capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    if result.returncode != 0:
        if OFFLINE.search(result.stderr) and not os.environ.get("CI"):
            pytest.skip("the package index cannot be reached from here (CI runs this)")
        # pip's lines are long (every version of a package): their first 300 characters.
        errors = "\n".join(line[:300] for line in result.stderr.splitlines() if "ERROR" in line)
        pytest.fail(f"the pins do not resolve on Python {python}:\n{errors or result.stderr}")
    resolved = {
        normalised(item["metadata"]["name"]): item["metadata"]["version"]
        for item in json.loads(report.read_text())["install"]
    }
    pinned = {normalised(name): version for name, version in pins(constraints() + build).items()}
    assert resolved == pinned
