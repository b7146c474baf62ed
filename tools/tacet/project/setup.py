# SPDX-License-Identifier: MIT
"""Arguments shared by the subcommands that build for a target, and their resolution.

``tacet build`` and ``tacet run`` build either an application of the Tacet tree (examples/hello,
in the tree's build/<target>) or a project of one's own, the kind ``tacet new`` writes: a
directory whose CMakeLists.txt calls project(), configured on its own (its CMakePresets.json,
its build/<target>) against the Tacet it finds itself (TACET_DIR, find_package, FetchContent).
"""

import argparse
import dataclasses
from dataclasses import dataclass
from pathlib import Path

from tacet.core.errors import TacetError
from tacet.core.repo import find_project, find_repo, is_repo_root
from tacet.core.targets import (
    BOARDS,
    DEFAULT_BOARD,
    Target,
    check_board,
    get_target,
    target_for_board,
)


@dataclass(frozen=True)
class Setup:
    """Where a command works: the source tree it configures, the target and its build
    directory."""

    repo: Path  # the CMake source tree configured: the Tacet tree, or the project (project)
    target: Target
    build_dir: Path
    cwd: Path
    project: bool = False  # repo is a project of its own, not the Tacet tree
    board: str | None = None  # a Cortex-M board other than the default (TACET_CM_BOARD)
    tacet_dir: Path | None = None  # a project's Tacet given with --repo (TACET_DIR)


def resolve_target(args: argparse.Namespace) -> tuple[Target, str | None]:
    """The target and the board (None: the default) that the arguments name."""
    name = getattr(args, "board", None)
    if name is None:
        return get_target(args.target or "sim"), None
    target = get_target(args.target) if args.target else target_for_board(BOARDS[name])
    check_board(target, name)
    if name == DEFAULT_BOARD:
        return target, None
    # The board's own build directory; the kernel tests need QEMU's boards, so a board's
    # build of the Tacet tree builds the examples only.
    extra = [("TACET_CM_BOARD", name)]
    return dataclasses.replace(target, extra_definitions=(*target.extra_definitions, *extra)), name


def default_build_dir(root: Path, target: Target, board: str | None) -> Path:
    return root / "build" / (target.name if board is None else f"{target.name}-{board}")


def resolve_setup(args: argparse.Namespace, cwd: Path | None = None) -> Setup:
    """The setup of a command that works on the Tacet tree (tests, benchmarks ...)."""
    cwd = (cwd or Path.cwd()).resolve()
    repo = find_repo(cwd, args.repo)
    target, board = resolve_target(args)
    if board is not None:
        target = dataclasses.replace(
            target, extra_definitions=(*target.extra_definitions, ("TACET_BUILD_TESTS", "OFF"))
        )
    build_dir = args.build_dir
    build_dir = (
        default_build_dir(repo, target, board) if build_dir is None else (cwd / build_dir).resolve()
    )
    return Setup(repo=repo, target=target, build_dir=build_dir, cwd=cwd, board=board)


def resolve_app_setup(args: argparse.Namespace, app: str | None, cwd: Path | None = None) -> Setup:
    """The setup of building ``app``: a project of one's own when ``app`` (default: the
    current directory) lies in one, else the Tacet tree's (``resolve_setup``)."""
    cwd = (cwd or Path.cwd()).resolve()
    start = cwd if app is None else cwd / Path(app).expanduser()
    project = find_project(start) if start.is_dir() else None
    if project is None:
        return resolve_setup(args, cwd)
    target, board = resolve_target(args)
    tacet_dir = None
    if args.repo is not None:
        tacet_dir = (cwd / args.repo.expanduser()).resolve()
        package = tacet_dir / "lib" / "cmake" / "Tacet" / "TacetConfig.cmake"
        if not is_repo_root(tacet_dir) and not package.is_file():
            raise TacetError(
                f"--repo {args.repo}: neither a Tacet source tree (CMakeLists.txt and kernel/) "
                f"nor an installed Tacet prefix (lib/cmake/Tacet/TacetConfig.cmake) in {tacet_dir}"
            )
    build_dir = args.build_dir
    build_dir = (
        default_build_dir(project, target, board)
        if build_dir is None
        else (cwd / build_dir).resolve()
    )
    return Setup(
        repo=project,
        target=target,
        build_dir=build_dir,
        cwd=cwd,
        project=True,
        board=board,
        tacet_dir=tacet_dir,
    )
