# SPDX-License-Identifier: MIT
"""Options shared by the subcommands that build for a target (resolved by tacet.project.setup)."""

import argparse
from pathlib import Path

from tacet.core.targets import (
    BOARDS,
    DEFAULT_BOARD,
    TARGETS,
)


def add_target_arguments(parser: argparse.ArgumentParser, boards: bool = False) -> None:
    parser.add_argument(
        "--target",
        choices=list(TARGETS),
        help="where to build and run: "
        + "; ".join(f"{t.name}: {t.summary}" for t in TARGETS.values())
        + " (default: sim, or with --board the Cortex-M target of the board's CPU)",
    )
    if boards:
        parser.add_argument(
            "--board",
            choices=list(BOARDS),
            help="the board of a Cortex-M target (TACET_CM_BOARD): "
            + "; ".join(f"{b.name}: {b.summary}" for b in BOARDS.values())
            + f" (default: {DEFAULT_BOARD})",
        )
    parser.add_argument(
        "--repo",
        type=Path,
        help="the Tacet source tree (default: found by walking up from the current "
        "directory); for a project of one's own, the Tacet it is built against (TACET_DIR: a "
        "source tree or an installed prefix; default: the project's own way of finding it)",
    )
    parser.add_argument(
        "--build-dir",
        type=Path,
        help="CMake build directory (default: build/<target> of the Tacet tree or the project, "
        "build/<target>-<board> for another board)",
    )
