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


def add_overhead_arguments(parser: argparse.ArgumentParser, simulation: bool) -> None:
    """The kernel overheads charged, the same options on ``tacet analyze`` and ``tacet
    simulate`` (resolved by tacet.app.schedulability.overheads); ``simulation``: the command
    also reads the description's simulation.switch_cost and release_cost."""
    section = " and simulation.{}_cost" if simulation else ""
    parser.add_argument(
        "--target",
        choices=("sim", "qemu-m3", "qemu-m4"),
        help="the target whose kernel overheads are charged (default: the description's first)",
    )
    parser.add_argument(
        "--switch-cost",
        metavar="CYCLES",
        type=int,
        help=f"cycles per context switch (overrides --target{section.format('switch')})",
    )
    parser.add_argument(
        "--release-cost",
        metavar="CYCLES",
        type=int,
        help="cycles of interrupt work per job release (overrides "
        f"--target{section.format('release')})",
    )
    parser.add_argument(
        "--no-overheads",
        action="store_true",
        help="charge no kernel overheads (the task model alone)",
    )
