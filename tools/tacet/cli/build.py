# SPDX-License-Identifier: MIT
"""``tacet build``: configure a target's build tree and build an application."""

import argparse

from tacet.cli.options import add_target_arguments
from tacet.project import cmake
from tacet.project.build import build_app
from tacet.project.setup import resolve_app_setup


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "build",
        help="build an application (or everything) for a target",
        description="Configure the build tree of the target with CMake and Ninja and build "
        "APP; print the path of the built program. APP is an application of the Tacet tree "
        "(examples/hello, built in <repo>/build/<target>), or a project of one's own such as "
        "tacet new writes (a directory whose CMakeLists.txt calls project(), built in "
        "<project>/build/<target> with its preset of that name).",
    )
    add_target_arguments(parser, boards=True)
    parser.add_argument(
        "app",
        metavar="APP",
        nargs="?",
        help="application directory, e.g. examples/hello (its name is the CMake target), or a "
        "project's directory; omitted: the project the current directory is in, else "
        "everything of the Tacet tree",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    setup = resolve_app_setup(args, args.app)
    if args.app is None and not setup.project:
        cmake.configure(setup.target, setup.repo, setup.build_dir)
        cmake.build(setup.build_dir, f"everything for target {setup.target.name}")
        print(setup.build_dir)
    else:
        print(build_app(setup, args.app))
    return 0
