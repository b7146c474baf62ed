# SPDX-License-Identifier: MIT
"""``tacet test``: build a target's kernel tests and run them with ctest; in a project of one's
own (tacet new), the project's tests."""

import argparse
import os

from tacet.cli.options import add_target_arguments
from tacet.core.errors import TacetError
from tacet.core.host import require_tool, run_step
from tacet.project import cmake
from tacet.project.setup import resolve_app_setup


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "test",
        help="build and run the kernel tests for a target (ctest)",
        description="Configure and build <repo>/build/<target>, then run ctest there; in the "
        "directory of a project of one's own (tacet new), the project's build/<target> and its "
        "tests. An empty test suite is an error.",
    )
    add_target_arguments(parser)
    parser.add_argument(
        "-j", "--jobs", type=int, default=os.cpu_count() or 1, help="tests run in parallel"
    )
    parser.add_argument("-R", "--tests-regex", metavar="REGEX", help="run only matching tests")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        raise TacetError(f"--jobs {args.jobs}: must be at least 1")
    setup = resolve_app_setup(args, None)
    require_tool("ctest", f"target {setup.target.name}")
    if setup.project:
        cmake.configure_project(setup.target, setup.repo, setup.build_dir, setup.tacet_dir)
    else:
        cmake.configure(setup.target, setup.repo, setup.build_dir)
    cmake.build(setup.build_dir, f"the tests for target {setup.target.name}")
    command = ["ctest", "--output-on-failure", "--no-tests=error", "-j", str(args.jobs)]
    if args.tests_regex:
        command += ["-R", args.tests_regex]
    what = f"tests for target {setup.target.name} in {setup.build_dir}"
    run_step(command, what, cwd=setup.build_dir, output="stdout")
    return 0
