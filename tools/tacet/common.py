# SPDX-License-Identifier: MIT
"""Arguments shared by the subcommands that build for a target, and their resolution."""

import argparse
from dataclasses import dataclass
from pathlib import Path

from tacet.repo import find_repo
from tacet.targets import TARGETS, Target, get_target


@dataclass(frozen=True)
class Setup:
    """Where a command works: the repository, the target and its build directory."""

    repo: Path
    target: Target
    build_dir: Path
    cwd: Path


def add_target_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--target",
        choices=list(TARGETS),
        default="sim",
        help="where to build and run: "
        + "; ".join(f"{t.name}: {t.summary}" for t in TARGETS.values())
        + " (default: sim)",
    )
    parser.add_argument(
        "--repo",
        type=Path,
        help="the Tacet source tree (default: found by walking up from the current directory)",
    )
    parser.add_argument(
        "--build-dir",
        type=Path,
        help="CMake build directory (default: <repo>/build/<target>)",
    )


def resolve_setup(args: argparse.Namespace, cwd: Path | None = None) -> Setup:
    cwd = (cwd or Path.cwd()).resolve()
    repo = find_repo(cwd, args.repo)
    target = get_target(args.target)
    build_dir = args.build_dir
    build_dir = target.build_dir(repo) if build_dir is None else (cwd / build_dir).resolve()
    return Setup(repo=repo, target=target, build_dir=build_dir, cwd=cwd)
