# SPDX-License-Identifier: MIT
"""``tacet new``: write an application project that lives on its own, outside the Tacet tree
(tacet.project.new)."""

import argparse
from pathlib import Path

from tacet.core.targets import (
    BOARDS,
    DEFAULT_BOARD,
    TARGETS,
    Board,
    check_board,
    target_for_board,
)
from tacet.project.new import (
    APIS,
    DEFAULT_API,
    LOCAL_FILE,
    check_directory,
    check_prefix,
    commands,
    project_name,
    source_tree,
    write_project,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "new",
        help="write a new application project (app.yaml, main.c, CMake) that lives on its own",
        description="Write a Tacet application project into DIR (new or empty): app.yaml (one "
        "thread released by a timer through a semaphore), main.c (the functions app.yaml "
        "names), CMakeLists.txt (the code generated from app.yaml, tacet_add_app), "
        "cmake/tacet_import.cmake (finds Tacet: TACET_DIR, find_package or FetchContent), "
        "CMakePresets.json (sim, qemu-m3, qemu-m4, and the board's), README.md, .gitignore, "
        "and tacet-local.cmake, this machine's Tacet (not committed); with --api "
        "cmsis-rtos2, a main.c on CMSIS-RTOS2 alone and no app.yaml. Then, in DIR: "
        "tacet run --target TARGET, or cmake --preset TARGET && cmake --build --preset "
        "TARGET --target run.",
    )
    parser.add_argument("dir", metavar="DIR", type=Path, help="the project's directory")
    parser.add_argument(
        "--api",
        choices=list(APIS),
        default=DEFAULT_API,
        help="what main.c is written against: tacet, Tacet's API with app.yaml and the code "
        "generated from it (the default); cmsis-rtos2, CMSIS-RTOS2 alone (cmsis_os2.h, linked "
        "with tacet::cmsis_os2, no app.yaml)",
    )
    parser.add_argument(
        "--target",
        choices=list(TARGETS),
        help="the target the project is first built for: the README's commands and the "
        "first of the description's targets, whose overheads the analysis assumes (default: "
        "sim, or with --board the Cortex-M target of the board's CPU); every preset is written",
    )
    parser.add_argument(
        "--board",
        choices=list(BOARDS),
        help="a Cortex-M board other than the default (mps2, which QEMU models): its preset "
        "(of its name), its clock in app.yaml, the README's commands; "
        + "; ".join(f"{b.name}: {b.summary}" for b in BOARDS.values()),
    )
    parser.add_argument(
        "--name",
        help="the project's and the program's name, a C identifier (default: DIR's name, with "
        "each character that cannot be in one made _)",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--repo",
        type=Path,
        help="the Tacet source tree tacet-local.cmake names (default: the one the current "
        "directory is in, else the one this tool belongs to)",
    )
    source.add_argument(
        "--prefix",
        type=Path,
        help="name the Tacet installed in PREFIX (cmake --install) in tacet-local.cmake instead "
        "of a source tree",
    )
    source.add_argument(
        "--no-local",
        action="store_true",
        help="write no tacet-local.cmake: the project finds Tacet by TACET_DIR, find_package "
        "or FetchContent alone",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    cwd = Path.cwd()
    directory = (cwd / args.dir.expanduser()).resolve()
    name, note = project_name(args.name, directory)
    board: Board | None = None
    if args.board is not None:
        target = TARGETS[args.target] if args.target else target_for_board(BOARDS[args.board])
        board = check_board(target, args.board)
        if board.name == DEFAULT_BOARD:
            board = None
    else:
        target = TARGETS[args.target or "sim"]
    check_directory(directory)
    local: tuple[Path, str] | None = None
    if args.prefix is not None:
        prefix = check_prefix(args.prefix, target, board.name if board is not None else None)
        local = (prefix, "the prefix of the installed Tacet it was made with")
    elif not args.no_local:
        repo = source_tree(args.repo, cwd)
        if repo is not None:
            local = (repo, "the Tacet source tree it was made from")
    directory.mkdir(parents=True, exist_ok=True)
    for path in write_project(directory, name, target, board, local, api=args.api):
        print(f"wrote {path}")
    if note is not None:
        print(f"tacet new: {note}")
    if local is None:
        print(
            f"tacet new: no {LOCAL_FILE}: the project finds Tacet by TACET_DIR (the variable "
            "or the environment variable), find_package or FetchContent (its README)"
        )
    _, _, step = commands(target, board)
    print(f"next: cd {args.dir} && {step}")
    return 0
