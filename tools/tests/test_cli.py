# SPDX-License-Identifier: MIT
"""The command line itself: the subcommand registry and argparse's usage errors."""

import argparse

import pytest

from tacet import cli


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


def test_run_needs_an_app(capsys: pytest.CaptureFixture[str]) -> None:
    assert "APP" in parse_error(capsys, "run", "--target", "sim")


def test_run_timeout_must_be_a_number(capsys: pytest.CaptureFixture[str]) -> None:
    assert "--timeout" in parse_error(capsys, "run", "--timeout", "soon", "examples/hello")


def test_target_defaults_to_sim() -> None:
    args = cli.make_parser().parse_args(["run", "examples/hello"])
    assert args.target == "sim"
    assert args.app == "examples/hello"


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.startswith("tacet ")
