# SPDX-License-Identifier: MIT
"""``tacet build``: configure a target's build tree and build an application."""

import argparse
from pathlib import Path

from tacet import cmake
from tacet.common import Setup, add_target_arguments, resolve_setup
from tacet.errors import TacetError
from tacet.host import Output
from tacet.repo import resolve_app


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "build",
        help="build an application (or everything) for a target",
        description="Configure <repo>/build/<target> with CMake and Ninja and build APP; "
        "print the path of the built program.",
    )
    add_target_arguments(parser)
    parser.add_argument(
        "app",
        metavar="APP",
        nargs="?",
        help="application directory, e.g. examples/hello (its name is the CMake target); "
        "omitted: build everything",
    )
    parser.set_defaults(handler=handle)


def build_app(setup: Setup, app: str, output: Output = "stderr") -> Path:
    """Build application ``app`` for the setup's target and return its program path."""
    app_dir = resolve_app(app, setup.repo, setup.cwd)
    cmake.configure(setup.target, setup.repo, setup.build_dir, output=output)
    name, program = cmake.program_for(setup.target, app_dir, setup.repo, setup.build_dir)
    cmake.build(setup.build_dir, f"{name} for target {setup.target.name}", name, output=output)
    if not program.is_file():
        raise TacetError(f"build of {name} reported success but {program} does not exist")
    return program


def handle(args: argparse.Namespace) -> int:
    setup = resolve_setup(args)
    if args.app is None:
        cmake.configure(setup.target, setup.repo, setup.build_dir)
        cmake.build(setup.build_dir, f"everything for target {setup.target.name}")
        print(setup.build_dir)
    else:
        print(build_app(setup, args.app))
    return 0
