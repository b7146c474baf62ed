# SPDX-License-Identifier: MIT
"""Every Python dependency is pinned, and the two lists of pins agree."""

import re
import tomllib
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9_.-]+)(?:\[[a-z,]+\])?==([0-9][A-Za-z0-9.]*)$")


def pins(requirements: list[str]) -> dict[str, str]:
    found = {}
    for requirement in requirements:
        match = PIN.match(requirement)
        assert match, f"{requirement!r} is not pinned with =="
        found[match[1].lower()] = match[2]
    return found


def test_dependencies_are_pinned_and_constrained() -> None:
    project = tomllib.loads((TOOLS / "pyproject.toml").read_text())
    direct = pins(project["project"]["dependencies"])
    for extra in project["project"]["optional-dependencies"].values():
        direct |= pins(extra)
    pins(project["build-system"]["requires"])
    lines = (TOOLS / "constraints.txt").read_text().splitlines()
    constrained = pins([line for line in lines if line and not line.startswith("#")])
    for name, version in direct.items():
        assert constrained.get(name) == version, f"{name}: constraints.txt disagrees"


def test_console_entry_point() -> None:
    project = tomllib.loads((TOOLS / "pyproject.toml").read_text())
    assert project["project"]["scripts"] == {"tacet": "tacet.cli:main"}
    assert project["project"]["requires-python"] == ">=3.11"
