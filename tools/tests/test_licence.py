# SPDX-License-Identifier: MIT
"""Tacet is MIT-licensed: the LICENSE file, the packages' metadata and every source file say so.

A source file is one the repository tracks (``git ls-files``) and that is code a user may copy
into a product: C and assembly, headers, linker scripts, Python, CMake, shell and make scripts,
the YAML and pip files the tools read, and the scripts and stylesheets of the documentation
site. Each carries ``SPDX-License-Identifier: MIT`` in its first lines (after a ``#!`` line or
an editor's modeline), as the Linux kernel, Zephyr and FreeRTOS mark theirs, so that a scanner
(REUSE, ScanCode) finds the licence file by file.
"""

import re
import subprocess
import tomllib
from pathlib import Path

import pytest
from conftest import REPO

IDENTIFIER = "SPDX-License-Identifier: MIT"
# Where in a file the identifier must stand: its first lines.
HEAD_LINES = 5
SOURCE = re.compile(
    r"\.(c|h|S|ld|map|py|cmake|sh|yaml|yml|toml|in|js|css)$"
    r"|(^|/)CMakeLists\.txt$|^Makefile$|^\.ci/run$|^tools/constraints\.txt$"
)


def tracked_files() -> list[str]:
    try:
        listed = subprocess.run(
            ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    return listed.stdout.split()


def source_files() -> list[str]:
    return [f for f in tracked_files() if SOURCE.search(f) and not f.startswith("fuzz/corpus/")]


def without_identifier(paths: list[str]) -> list[str]:
    missing = []
    for path in paths:
        with (REPO / path).open(encoding="utf-8", errors="replace") as file:
            head = [file.readline() for _ in range(HEAD_LINES)]
        if not any(IDENTIFIER in line for line in head):
            missing.append(path)
    return missing


def test_the_licence_file_is_mit() -> None:
    text = (REPO / "LICENSE").read_text()
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text


def test_every_source_file_carries_the_identifier() -> None:
    sources = source_files()
    # The selection finds the kinds of file it is meant to (a broken pattern passes nothing).
    for example in (
        "kernel/sched.c",
        "include/tacet/port.h",
        "ports/cortex-m/pendsv.S",
        "tools/tacet/cli/__init__.py",
        "CMakeLists.txt",
        "cmake/TacetApp.cmake",
        "Makefile",
        "tools/tacet/docsite/file.js",
        "docs/stylesheets/tacet.css",
    ):
        assert example in sources
    missing = without_identifier(sources)
    assert not missing, f"no '{IDENTIFIER}' in the first {HEAD_LINES} lines of: {missing}"


def test_a_file_without_the_identifier_is_found(tmp_path: Path) -> None:
    marked = tmp_path / "marked.c"
    marked.write_text(f"/* {IDENTIFIER} */\nint x;\n")
    forgotten = tmp_path / "forgotten.c"
    forgotten.write_text("/* a file someone forgot to mark */\nint x;\n")
    late = tmp_path / "late.py"
    late.write_text("\n" * HEAD_LINES + f"# {IDENTIFIER}\n")
    assert without_identifier([str(marked), str(forgotten), str(late)]) == [
        str(forgotten),
        str(late),
    ]


def test_the_python_package_declares_mit() -> None:
    project = tomllib.loads((REPO / "tools" / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT"
