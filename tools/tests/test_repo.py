# SPDX-License-Identifier: MIT
"""Finding the repository root, the application directory and a project of one's own."""

from pathlib import Path

import pytest
from conftest import REPO, make_tree, write

from tacet.core.errors import TacetError
from tacet.core.repo import find_project, find_repo, is_repo_root, resolve_app


def test_found_from_the_root_and_from_below(tree: Path) -> None:
    assert find_repo(tree) == tree.resolve()
    assert find_repo(tree / "examples" / "hello") == tree.resolve()


def test_a_cmake_directory_without_kernel_is_not_the_root(tree: Path) -> None:
    write(tree / "examples" / "CMakeLists.txt")
    assert find_repo(tree / "examples" / "hello") == tree.resolve()


def test_nested_tree_wins(tree: Path) -> None:
    inner = make_tree(tree / "vendor" / "tacet")
    assert find_repo(inner / "examples") == inner.resolve()


def test_not_found_names_the_start(tmp_path: Path) -> None:
    start = tmp_path / "elsewhere"
    start.mkdir()
    with pytest.raises(TacetError, match=r"no Tacet source tree at or above .*elsewhere"):
        find_repo(start)


def test_override(tree: Path, tmp_path: Path) -> None:
    assert find_repo(tmp_path, override=tree) == tree.resolve()
    with pytest.raises(TacetError, match=r"--repo .*: not a Tacet source tree"):
        find_repo(tree, override=tmp_path)


def test_this_checkout_is_a_tacet_tree() -> None:
    assert is_repo_root(REPO)
    assert find_repo(REPO / "tools" / "tests") == REPO


def test_app_relative_to_cwd_or_repo(tree: Path) -> None:
    repo = tree.resolve()
    hello = repo / "examples" / "hello"
    assert resolve_app("examples/hello", repo, repo) == hello
    assert resolve_app("hello", repo, repo / "examples") == hello
    assert resolve_app("examples/hello", repo, repo / "kernel") == hello
    assert resolve_app(str(hello), repo, Path("/")) == hello


def test_missing_app_names_where_it_looked(tree: Path) -> None:
    repo = tree.resolve()
    with pytest.raises(TacetError, match=r"application examples/nope: no such directory") as e:
        resolve_app("examples/nope", repo, repo / "kernel")
    assert str(repo / "kernel" / "examples" / "nope") in e.value.message
    assert str(repo / "examples" / "nope") in e.value.message


def test_app_must_be_a_directory_inside_the_repo(tree: Path, tmp_path: Path) -> None:
    repo = tree.resolve()
    write(repo / "examples" / "hello" / "main.c")
    with pytest.raises(TacetError, match="is not a directory"):
        resolve_app("examples/hello/main.c", repo, repo)
    outside = tmp_path / "outside"
    outside.mkdir()
    with pytest.raises(TacetError, match="not an application directory inside"):
        resolve_app(str(outside), repo, repo)
    with pytest.raises(TacetError, match="not an application directory inside"):
        resolve_app(".", repo, repo)


def test_a_project_of_one_s_own(tmp_path: Path) -> None:
    project = tmp_path / "blinky"
    write(project / "CMakeLists.txt", "cmake_minimum_required(VERSION 3.21)\nproject(blinky C)\n")
    # A subdirectory's CMakeLists.txt calls no project(): the top is found from below it.
    write(project / "src" / "CMakeLists.txt", "# project(not_this)\nadd_library(x x.c)\n")
    assert find_project(project) == project.resolve()
    assert find_project(project / "src") == project.resolve()
    # The keyword in any case, after blanks.
    write(project / "CMakeLists.txt", "  PROJECT (blinky)\n")
    assert find_project(project / "src") == project.resolve()
    lone = tmp_path / "lone"
    lone.mkdir()
    assert find_project(lone) is None


def test_the_tacet_tree_is_not_a_project_of_one_s_own(tree: Path) -> None:
    write(tree / "CMakeLists.txt", "project(tacet C ASM)\n")
    assert find_project(tree) is None
    assert find_project(tree / "examples" / "hello") is None
    assert find_project(REPO / "examples" / "hello") is None
    # A project inside the tree (tacet new there, tests/consumer) is one.
    mine = tree / "mine"
    write(mine / "CMakeLists.txt", "project(mine C)\n")
    assert find_project(mine) == mine.resolve()
    assert find_project(REPO / "tests" / "consumer") == REPO / "tests" / "consumer"
