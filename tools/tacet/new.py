# SPDX-License-Identifier: MIT
"""``tacet new``: write a minimal application project that builds against Tacet.

The project (templates/new/) is a CMake project of its own: main.c with one thread released by
a timer through a semaphore, app.yaml describing that system for ``tacet config`` and
``tacet analyze``, and CMakePresets.json with a preset per target. Tacet comes either from the
source tree the command runs from (add_subdirectory) or, with ``--prefix``, from a package
installed by ``cmake --install`` (find_package). docs/using-tacet.md describes both.
"""

import argparse
import json
import re
from pathlib import Path

from tacet import __version__
from tacet.errors import TacetError
from tacet.repo import find_repo, is_repo_root
from tacet.targets import TARGETS, Target

TEMPLATES = Path(__file__).resolve().parent / "templates" / "new"
TEMPLATE_FILES = ("CMakeLists.txt", "main.c", "app.yaml", "README.md")
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "new",
        help="write a new application project (CMake, one thread, a semaphore, app.yaml)",
        description="Write a minimal Tacet application project into DIR (new or empty): "
        "CMakeLists.txt, CMakePresets.json (presets sim, qemu-m3, qemu-m4), main.c, app.yaml "
        "and README.md. Then: cmake --preset TARGET && cmake --build --preset TARGET --target run",
    )
    parser.add_argument("dir", metavar="DIR", type=Path, help="the project's directory")
    parser.add_argument(
        "--target",
        choices=list(TARGETS),
        default="sim",
        help="the target the project is first built for: the README's commands and the "
        "analysis' default (default: sim); every preset is written",
    )
    parser.add_argument("--name", help="the project's and the program's name (default: DIR's name)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--repo",
        type=Path,
        help="the Tacet source tree the project adds with add_subdirectory (default: the one "
        "the current directory is in, else the one this tool belongs to)",
    )
    source.add_argument(
        "--prefix",
        type=Path,
        help="use the Tacet package installed in PREFIX (cmake --install) with find_package "
        "instead of a source tree",
    )
    parser.set_defaults(handler=handle)


def source_tree(override: Path | None, cwd: Path) -> Path:
    """The Tacet tree to build against: ``--repo``, the tree around ``cwd`` or this tool's."""
    if override is not None:
        return find_repo(cwd, override)
    try:
        return find_repo(cwd)
    except TacetError:
        own = Path(__file__).resolve().parents[2]
        if is_repo_root(own):
            return own
        raise


def check_prefix(prefix: Path, target: Target) -> Path:
    """An installed prefix that holds the configuration ``target`` needs."""
    root = prefix.expanduser().resolve()
    package = root / "lib" / "cmake" / "Tacet"
    if not (package / "TacetConfig.cmake").is_file():
        raise TacetError(
            f"--prefix {prefix}: no Tacet package there (expected {package}/TacetConfig.cmake; "
            "cmake --install a Tacet build into it)"
        )
    config = configuration(target)
    if not (package / config / "TacetConfiguration.cmake").is_file():
        installed = sorted(p.parent.name for p in package.glob("*/TacetConfiguration.cmake"))
        raise TacetError(
            f"--prefix {prefix}: no configuration {config} for target {target.name} "
            f"(installed: {', '.join(installed) or 'none'}; install a build of preset "
            f"{target.name} into it)"
        )
    return root


def configuration(target: Target) -> str:
    """The installed configuration (find_package component) a target builds against."""
    cpu = dict(target.definitions).get("TACET_CPU")
    return cpu if target.port == "cortex-m" and cpu else target.port


def presets(source: dict[str, str], toolchains: Path) -> dict:
    """CMakePresets.json of a new project: a configure, build and test preset per target."""
    configure: list[dict] = [
        {
            "name": "base",
            "hidden": True,
            "generator": "Ninja",
            "binaryDir": "${sourceDir}/build/${presetName}",
            "cacheVariables": source,
        }
    ]
    for target in TARGETS.values():
        preset: dict = {
            "name": target.name,
            "inherits": "base",
            "displayName": target.summary,
            "cacheVariables": dict(target.definitions),
        }
        if target.toolchain_file is not None:
            preset["toolchainFile"] = str(toolchains / Path(target.toolchain_file).name)
        configure.append(preset)
    names = list(TARGETS)
    return {
        "version": 3,
        "cmakeMinimumRequired": {"major": 3, "minor": 21, "patch": 0},
        "configurePresets": configure,
        "buildPresets": [{"name": n, "configurePreset": n} for n in names],
        "testPresets": [
            {"name": n, "configurePreset": n, "output": {"outputOnFailure": True}} for n in names
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


def write_project(
    directory: Path, name: str, target: Target, source: dict[str, str], toolchains: Path
) -> list[Path]:
    """Write the project's files; return their paths."""
    others = [t for t in TARGETS if t != target.name]
    values = {
        "@NAME@": name,
        "@VERSION@": ".".join(__version__.split(".")[:2]),
        "@TARGET@": target.name,
        "@TARGETS@": ", ".join([target.name, *others]),
        "@BOARD@": target.qemu_machine or "mps2-an385",
        "@SOURCE@": f"the Tacet source tree {source['TACET_SOURCE_DIR']}"
        if source["TACET_SOURCE_DIR"]
        else f"the Tacet package installed in {source['CMAKE_PREFIX_PATH']}",
    }
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for file in TEMPLATE_FILES:
        text = (TEMPLATES / file).read_text(encoding="utf-8")
        for key, value in values.items():
            text = text.replace(key, value)
        written.append(directory / file)
        written[-1].write_text(text, encoding="utf-8")
    written.append(directory / "CMakePresets.json")
    written[-1].write_text(json.dumps(presets(source, toolchains), indent=2) + "\n")
    return written


def handle(args: argparse.Namespace) -> int:
    cwd = Path.cwd()
    directory = (cwd / args.dir.expanduser()).resolve()
    name = args.name if args.name is not None else directory.name
    if not NAME.match(name):
        where = "--name" if args.name is not None else f"the directory's name ({directory})"
        raise TacetError(
            f"{where}: {name!r} is not a project name (a letter, then letters, digits or _); "
            "give one with --name"
        )
    target = TARGETS[args.target]
    check_directory(directory)
    if args.prefix is not None:
        prefix = check_prefix(args.prefix, target)
        source = {"TACET_SOURCE_DIR": "", "CMAKE_PREFIX_PATH": str(prefix)}
        toolchains = prefix / "share" / "tacet" / "cmake"
    else:
        repo = source_tree(args.repo, cwd)
        source = {"TACET_SOURCE_DIR": str(repo)}
        toolchains = repo / "cmake"
    for path in write_project(directory, name, target, source, toolchains):
        print(f"wrote {path}")
    shown = args.dir
    print(
        f"next: cd {shown} && cmake --preset {target.name} && "
        f"cmake --build --preset {target.name} --target run"
    )
    return 0
