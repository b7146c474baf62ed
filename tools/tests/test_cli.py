# SPDX-License-Identifier: MIT
"""The command line itself: the subcommand registry and argparse's usage errors."""

import argparse

import pytest
from conftest import REPO

from tacet import cli
from tacet.core.targets import TARGETS
from tacet.project.setup import resolve_target


def parse_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(list(argv))
    assert exit_info.value.code == 2
    return capsys.readouterr().err


def test_every_registered_module_adds_a_subcommand_with_a_handler() -> None:
    parser = cli.make_parser()
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert len(actions) == 1
    commands = actions[0].choices
    assert {"build", "run", "test"} <= set(commands)
    for name, subparser in commands.items():
        assert callable(subparser.get_default("handler")), name


def test_no_subcommand_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert "required: COMMAND" in parse_error(capsys)


def test_unknown_subcommand_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert "invalid choice: 'frobnicate'" in parse_error(capsys, "frobnicate")


@pytest.mark.parametrize("command", ["build", "run", "test"])
def test_unknown_target_is_a_usage_error(capsys: pytest.CaptureFixture[str], command: str) -> None:
    err = parse_error(capsys, command, "--target", "qemu-m7", "examples/hello")
    assert "invalid choice: 'qemu-m7'" in err
    assert "sim" in err and "qemu-m3" in err and "qemu-m4" in err


def test_run_in_the_tree_needs_an_app(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # In the Tacet tree (not a project of one's own), APP names the application.
    monkeypatch.chdir(REPO)
    assert cli.main(["run", "--target", "sim"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("tacet: error: no application: name one (e.g. examples/hello)")


def test_run_timeout_must_be_a_number(capsys: pytest.CaptureFixture[str]) -> None:
    assert "--timeout" in parse_error(capsys, "run", "--timeout", "soon", "examples/hello")


def test_target_defaults_to_sim_or_the_board_s() -> None:
    args = cli.make_parser().parse_args(["run", "examples/hello"])
    assert resolve_target(args) == (TARGETS["sim"], None)
    assert args.app == "examples/hello"
    args = cli.make_parser().parse_args(["build", "--board", "stm32f407"])
    target, board = resolve_target(args)
    assert (target.name, board) == ("qemu-m4", "stm32f407")
    assert ("TACET_CM_BOARD", "stm32f407") in target.extra_definitions
    # The default board is no board of its own: the target's usual build.
    args = cli.make_parser().parse_args(["build", "--board", "mps2", "--target", "qemu-m3"])
    assert resolve_target(args) == (TARGETS["qemu-m3"], None)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--board", "stm32f407", "--target", "sim"],
            "boards are for the Cortex-M targets, not sim",
        ),
        (
            ["--board", "stm32f407", "--target", "qemu-m3"],
            "the board's CPU is cortex-m4f, target qemu-m3 is cortex-m3 (use --target qemu-m4)",
        ),
    ],
)
def test_a_board_that_does_not_fit_the_target(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(REPO)
    for command in ("build", "run"):
        assert cli.main([command, *argv, "examples/hello"]) == 1
        err = capsys.readouterr().err
        assert err.startswith("tacet: error: --board stm32f407: ") and message in err, err


def test_a_board_without_an_emulator_is_not_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tacet.cli import run  # noqa: PLC0415

    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("built before saying it cannot run")

    monkeypatch.setattr(run, "build_app", no_build)
    monkeypatch.chdir(REPO)
    assert cli.main(["run", "--board", "stm32f407", "examples/hello"]) == 1
    err = capsys.readouterr().err
    assert "board stm32f407: QEMU has no model of it, so its programs cannot run here" in err
    assert "tacet build --target qemu-m4 --board stm32f407" in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.startswith("tacet ")
