# SPDX-License-Identifier: MIT
"""``tacet build``: configure a target's build tree and build an application."""

import re
from pathlib import Path

from tacet.core.errors import TacetError
from tacet.core.host import Output, StepFailed
from tacet.core.repo import resolve_app
from tacet.project import cmake
from tacet.project.setup import Setup

# How GNU ld and LLD report a function that no object defines (GCC's quotes are typographic
# in a UTF-8 locale).
UNDEFINED = re.compile(r"undefined (?:reference to|symbol:?) [`'\u2018]?([A-Za-z_]\w*)['\u2019]?")


def missing_functions(output: str, description: Path) -> str | None:
    """What a failed link means when the functions it misses are ones the system description
    names (a thread added to app.yaml whose entry no source defines): None otherwise."""
    undefined = set(UNDEFINED.findall(output))
    if not undefined or not description.is_file():
        return None
    from tacet.app.description import load  # noqa: PLC0415  (only after a failed link)

    try:
        app = load(description)
    except TacetError:
        return None
    roles = [(t.entry, f"thread {t.name}'s entry", "void {}(void *arg)") for t in app.threads]
    roles += [(m.callback, f"timer {m.name}'s callback", "void {}(void *arg)") for m in app.timers]
    roles += [(h.function, f"HISR {h.name}'s function", "void {}(void)") for h in app.hisrs]
    missing = [(name, what, signature) for name, what, signature in roles if name in undefined]
    if not missing:
        return None
    listed = "; ".join(f"{what}, {signature.format(name)}" for name, what, signature in missing)
    return (
        f"{description.name} names functions that no source of the program defines: {listed} "
        "(tacet_app.h declares them: write them, e.g. in main.c)"
    )


def build_app(setup: Setup, app: str | None, output: Output = "stderr") -> Path:
    """Build application ``app`` (a project's: its program) for the setup's target and
    return its program path."""
    if setup.project:
        cmake.configure_project(
            setup.target, setup.repo, setup.build_dir, setup.tacet_dir, output=output
        )
        name, program = cmake.project_program(setup.repo, setup.build_dir)
        description = setup.repo / "app.yaml"
    else:
        if app is None:
            raise TacetError(
                "no application: name one (e.g. examples/hello) or run in the directory of a "
                "project of one's own (tacet new)"
            )
        app_dir = resolve_app(app, setup.repo, setup.cwd)
        cmake.configure(setup.target, setup.repo, setup.build_dir, output=output)
        name, program = cmake.program_for(setup.target, app_dir, setup.repo, setup.build_dir)
        description = app_dir / "app.yaml"
    board = f" on board {setup.board}" if setup.board else ""
    try:
        cmake.build(
            setup.build_dir, f"{name} for target {setup.target.name}{board}", name, output=output
        )
    except StepFailed as failure:
        hint = missing_functions(failure.output, description)
        if hint is None:
            raise
        raise TacetError(f"{failure.message}: {hint}") from None
    if not program.is_file():
        raise TacetError(f"build of {name} reported success but {program} does not exist")
    return program
