# SPDX-License-Identifier: MIT
"""``tacet new``: write an application project that lives on its own, outside the Tacet tree.

The project (templates/new/) is a CMake project of its own, written against one of two APIs
(templates/new/<api>/: main.c, the lines of CMakeLists.txt that build it, the README's opening).
Tacet's: app.yaml describes its threads, timers and objects; CMakeLists.txt builds main.c with
the code generated from the description (tacet_add_app); main.c holds the functions the
description names. CMSIS-RTOS2's: main.c calls cmsis_os2.h alone and links tacet::cmsis_os2.
CMakePresets.json has a preset per target (and per board). cmake/tacet_import.cmake finds
Tacet -- TACET_DIR, else an installed package (find_package), else FetchContent -- so nothing
committed names a path of one machine; the Tacet the project was made from is written as this
machine's default into tacet-local.cmake, which .gitignore keeps out of git. ``tacet run`` and
``tacet build`` work from the project's directory. docs/using-tacet.md describes it.
"""

import json
import re
from pathlib import Path

from tacet import __version__
from tacet.app.description import C_KEYWORDS, RESERVED_PREFIXES
from tacet.core.errors import TacetError
from tacet.core.repo import HOME, find_repo, is_repo_root
from tacet.core.targets import (
    BOARDS,
    DEFAULT_BOARD,
    TARGETS,
    Board,
    Target,
)

TEMPLATES = Path(__file__).resolve().parent / "templates" / "new"
# Template file -> the file written into the project, whatever the API.
TEMPLATE_FILES = {
    "CMakeLists.txt": "CMakeLists.txt",
    "cmake/tacet_import.cmake": "cmake/tacet_import.cmake",
    "README.md": "README.md",
    "gitignore": ".gitignore",
}
# The APIs a program may be written against (--api): what CMakeLists.txt calls the program
# (@ABOUT@) and the files of its subdirectory of TEMPLATES written into the project; that
# subdirectory also has the lines of CMakeLists.txt that build it (program.cmake, at
# @PROGRAM@) and the README's opening (intro.md, at @INTRO@).
APIS = {"tacet": "a Tacet application", "cmsis-rtos2": "a CMSIS-RTOS2 application on Tacet"}
API_FILES = {"tacet": ("main.c", "app.yaml"), "cmsis-rtos2": ("main.c",)}
DEFAULT_API = "tacet"
# A fragment's first line is its licence comment (the file it goes into has its own).
FRAGMENTS = {"@PROGRAM@": "program.cmake", "@INTRO@": "intro.md"}
LOCAL_FILE = "tacet-local.cmake"
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
# Names CMake or Ninja already give a target, and the project's own `run`.
RESERVED_TARGETS = frozenset(
    ("all", "clean", "help", "install", "package", "package_source", "test", "run",
     "edit_cache", "rebuild_cache", "list_install_components")
)  # fmt: skip


def source_tree(override: Path | None, cwd: Path) -> Path | None:
    """The Tacet tree the project is made from: ``--repo``, the tree around ``cwd`` or this
    tool's (None when the tool is not in one)."""
    if override is not None:
        return find_repo(cwd, override)
    try:
        return find_repo(cwd)
    except TacetError:
        return HOME if is_repo_root(HOME) else None


def configuration(target: Target, board: str | None) -> str:
    """The installed configuration (find_package component) a target and board build
    against: cmake/tacet_import.cmake's default of TACET_COMPONENT."""
    if target.port == "cortex-m" and board is not None:
        return board
    return dict(target.definitions).get("TACET_CPU", target.port)


def check_prefix(prefix: Path, target: Target, board: str | None) -> Path:
    """An installed prefix that holds the configuration ``target`` (and ``board``) needs."""
    root = prefix.expanduser().resolve()
    package = root / "lib" / "cmake" / "Tacet"
    if not (package / "TacetConfig.cmake").is_file():
        raise TacetError(
            f"--prefix {prefix}: no Tacet package there (expected {package}/TacetConfig.cmake; "
            "cmake --install a Tacet build into it)"
        )
    config = configuration(target, board)
    if not (package / config / "TacetConfiguration.cmake").is_file():
        installed = sorted(p.parent.name for p in package.glob("*/TacetConfiguration.cmake"))
        raise TacetError(
            f"--prefix {prefix}: no configuration {config} for target {target.name} "
            f"(installed: {', '.join(installed) or 'none'}; install a build of preset "
            f"{target.name} into it)"
        )
    return root


def project_name(given: str | None, directory: Path) -> tuple[str, str | None]:
    """The project's name, and when it is not the directory's name as it is, why."""
    if given is not None:
        if not NAME.match(given):
            raise TacetError(
                f"--name: {given!r} is not a project name (a letter, then letters, digits or _)"
            )
        name, note = given, None
    else:
        name = re.sub(r"[^A-Za-z0-9_]", "_", directory.name)
        if not name[:1].isalpha():
            name = "app_" + name
        note = None
        if name != directory.name:
            note = (
                f"the project and its program are called {name}: the directory's name, "
                f"{directory.name!r}, made a C and CMake identifier (--name gives another)"
            )
    where = "--name" if given is not None else f"the directory's name ({directory.name})"
    if name.lower() in RESERVED_TARGETS or name in C_KEYWORDS:
        raise TacetError(
            f"{where}: {name!r} is a name CMake, C or the project already uses; give another "
            "with --name"
        )
    if name.lower().startswith(RESERVED_PREFIXES):
        raise TacetError(
            f"{where}: {name!r}: names beginning with tc_, tct_ or tacet_ belong to Tacet; give "
            "another with --name"
        )
    return name, note


def presets(board: Board | None, board_target: Target | None) -> dict:
    """CMakePresets.json of a new project: a configure, build and test preset per target, and
    one of the board's name; no path of this machine (cmake/tacet_import.cmake finds Tacet
    and its toolchain file)."""
    configure: list[dict] = [
        {
            "name": "base",
            "hidden": True,
            "generator": "Ninja",
            "binaryDir": "${sourceDir}/build/${presetName}",
        }
    ]
    for target in TARGETS.values():
        configure.append(
            {
                "name": target.name,
                "inherits": "base",
                "displayName": target.summary,
                "cacheVariables": dict(target.definitions),
            }
        )
    runnable = list(TARGETS)
    if board is not None and board_target is not None:
        configure.append(
            {
                "name": board.name,
                "inherits": "base",
                "displayName": board.summary,
                "cacheVariables": {
                    **dict(board_target.definitions),
                    "TACET_CM_BOARD": board.name,
                },
            }
        )
        if board.emulated:
            runnable.append(board.name)
    names = [p["name"] for p in configure[1:]]
    return {
        "version": 3,
        "cmakeMinimumRequired": {"major": 3, "minor": 21, "patch": 0},
        "configurePresets": configure,
        "buildPresets": [{"name": n, "configurePreset": n} for n in names],
        "testPresets": [
            {"name": n, "configurePreset": n, "output": {"outputOnFailure": True}} for n in runnable
        ],
    }


def check_directory(directory: Path) -> None:
    if directory.exists() and not directory.is_dir():
        raise TacetError(f"{directory}: exists and is not a directory")
    if directory.is_dir():
        entries = sorted(p.name for p in directory.iterdir())
        if entries:
            shown = ", ".join(entries[:5]) + (" ..." if len(entries) > 5 else "")
            raise TacetError(
                f"{directory}: not empty ({shown}); tacet new writes into a new or empty "
                "directory and overwrites nothing"
            )


def local_file(tacet: Path, kind: str) -> str:
    return (
        "# SPDX-License-Identifier: MIT\n"
        f"# This machine's Tacet for this project: {kind} (tacet new).\n"
        "# The default of TACET_DIR (cmake/tacet_import.cmake) when neither -DTACET_DIR nor the\n"
        "# environment variable TACET_DIR is given. A path of this machine, so .gitignore keeps\n"
        "# it out of git: change it, or delete it to find Tacet by find_package or FetchContent.\n"
        f'set(TACET_LOCAL_DIR "{tacet.as_posix()}")\n'
    )


def aligned(lines: list[tuple[str, str]]) -> str:
    """Shell commands with their comments in one column."""
    width = max(len(command) for command, _ in lines)
    return "\n".join(
        f"{command:<{width}}   # {comment}" if comment else command for command, comment in lines
    )


def commands(target: Target, board: Board | None) -> tuple[str, str, str]:
    """The README's commands (tacet, then CMake) and the next step tacet new prints."""
    if board is not None and not board.emulated:
        build = f"tacet build --target {target.name} --board {board.name}"
        tacet = aligned(
            [
                (build, "the program, to flash"),
                ("tacet run --target sim", "on the sim port"),
                ("tacet run --target sim --trace run.tctrace", "recorded ..."),
                ("tacet trace run.tctrace", "... and read back"),
            ]
        )
        cmake = (
            f"cmake --preset {board.name} && cmake --build --preset {board.name}\n"
            "cmake --preset sim && cmake --build --preset sim --target run && ctest --preset sim"
        )
        return tacet, cmake, build
    option = f" --board {board.name}" if board is not None else ""
    preset = board.name if board is not None else target.name
    run = f"tacet run --target {target.name}{option}"
    tacet = aligned(
        [
            (run, "build, run; the program's exit status"),
            (f"{run} --trace run.tctrace", "recorded ..."),
            ("tacet trace run.tctrace", "... and read back"),
            (f"tacet build --target {target.name}{option}", "prints the program's path"),
        ]
    )
    cmake = (
        f"cmake --preset {preset}\ncmake --build --preset {preset} --target run\n"
        f"ctest --preset {preset}"
    )
    return tacet, cmake, run


def fragment(api: str, file: str) -> str:
    """A fragment of an API's templates, without its first line (FRAGMENTS)."""
    return (TEMPLATES / api / file).read_text(encoding="utf-8").split("\n", 1)[1]


def write_project(
    directory: Path,
    name: str,
    target: Target,
    board: Board | None,
    local: tuple[Path, str] | None,
    *,
    api: str = DEFAULT_API,
) -> list[Path]:
    """Write the project's files, its program written against ``api`` (of APIS); return
    their paths."""
    if api not in APIS:
        raise TacetError(f"--api {api}: one of {', '.join(APIS)}")
    others = [t for t in TARGETS if t != target.name]
    tacet_commands, cmake_commands, _ = commands(target, board)
    preset_names = [*TARGETS, *([board.name] if board is not None else [])]
    values = {
        **{key: fragment(api, file) for key, file in FRAGMENTS.items()},
        "@ABOUT@": APIS[api],
        "@API_OPTION@": "" if api == DEFAULT_API else f" --api {api}",
        "@NAME@": name,
        "@VERSION@": ".".join(__version__.split(".")[:2]),
        "@FULL_VERSION@": __version__,
        "@TARGETS@": ", ".join([target.name, *others]),
        "@BOARD@": board.name if board is not None else DEFAULT_BOARD,
        "@CLOCK_HZ@": str((board or BOARDS[DEFAULT_BOARD]).clock_hz),
        "@TACET_COMMANDS@": tacet_commands,
        "@CMAKE_COMMANDS@": cmake_commands,
        "@PRESETS@": ", ".join(f"`{p}`" for p in preset_names),
        "@LOCAL@": "nothing (--no-local: there is none)" if local is None else local[1],
    }
    written = []
    files = {**TEMPLATE_FILES, **{f"{api}/{file}": file for file in API_FILES[api]}}
    for template, target_file in files.items():
        text = (TEMPLATES / template).read_text(encoding="utf-8")
        for key, value in values.items():
            text = text.replace(key, value)
        path = directory / target_file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    board_target = target if board is not None else None
    path = directory / "CMakePresets.json"
    path.write_text(json.dumps(presets(board, board_target), indent=2) + "\n", encoding="utf-8")
    written.append(path)
    if local is not None:
        path = directory / LOCAL_FILE
        path.write_text(local_file(*local), encoding="utf-8")
        written.append(path)
    return written
