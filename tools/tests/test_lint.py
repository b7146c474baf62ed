"""``tacet lint``: parsing cppcheck's output, matching the inline suppressions, the
configurations against the builds', and the command on a small tree."""

import re
import shutil
from pathlib import Path

import pytest
from conftest import REPO, make_tree, write

from tacet import cli, lint
from tacet.lint import Configuration, Finding, Port, Suppression

needs_cppcheck = pytest.mark.skipif(shutil.which("cppcheck") is None, reason="needs cppcheck")


def finding(file: str = "kernel/a.c", line: int = 5, ident: str = "nullPointer") -> Finding:
    return Finding(file, line, 3, "error", ident, "Null pointer dereference: p")


def test_parse_findings_reads_the_template_and_skips_the_rest() -> None:
    output = (
        "Checking kernel/a.c ...\n"
        "kernel/a.c:12:7:style:knownConditionTrueFalse:Condition 'n==0' is always false\n"
        "nofile:0:0:information:missingIncludeSystem:Cppcheck cannot find: <stdio.h>\n"
        "1/2 files checked 50% done\n"
    )
    found = lint.parse_findings(output)
    assert found == [
        Finding(
            "kernel/a.c", 12, 7, "style", "knownConditionTrueFalse",
            "Condition 'n==0' is always false",
        ),
        Finding(
            "nofile", 0, 0, "information", "missingIncludeSystem",
            "Cppcheck cannot find: <stdio.h>",
        ),
    ]  # fmt: skip
    assert str(found[0]) == (
        "kernel/a.c:12:7: style: Condition 'n==0' is always false [knownConditionTrueFalse]"
    )


def test_parse_suppressions_reads_id_and_reason() -> None:
    text = (
        "int a;\n"
        "  /* cppcheck-suppress knownConditionTrueFalse ; n wraps to 0 */\n"
        "x = 1; // cppcheck-suppress nullPointer\n"
    )
    assert lint.parse_suppressions("kernel/a.c", text) == [
        Suppression("kernel/a.c", 2, "knownConditionTrueFalse", "n wraps to 0"),
        Suppression("kernel/a.c", 3, "nullPointer", ""),
    ]


def test_judge_covers_stale_and_unexplained() -> None:
    one = Configuration("one", lint.SIM, ())
    two = Configuration("two", lint.SIM, ("TC_PRIORITIES=32",))
    before = Suppression("kernel/a.c", 4, "nullPointer", "why")  # covers line 5
    same_line = Suppression("kernel/a.c", 9, "uninitvar", "why")  # covers line 9
    only_in_two = Suppression("kernel/b.c", 1, "badBitmaskCheck", "by design")
    stale = Suppression("kernel/a.c", 20, "nullPointer", "gone")
    bare = Suppression("kernel/c.c", 1, "shadowFunction", "")
    results = {
        one: [finding(line=5), finding(line=9, ident="uninitvar"), finding(line=30)],
        two: [finding(line=5), finding("kernel/b.c", 2, "badBitmaskCheck"), finding(line=30)],
    }
    found, stale_found, unexplained = lint.judge(
        results, [before, same_line, only_in_two, stale, bare]
    )
    assert found == {finding(line=30): ["one", "two"]}
    assert stale_found == [stale, bare]  # the bare one matches nothing either
    assert unexplained == [bare]
    # A suppression for another id, or two lines above, covers nothing.
    assert not Suppression("kernel/a.c", 3, "nullPointer", "x").covers(finding(line=5))
    assert not Suppression("kernel/a.c", 4, "uninitvar", "x").covers(finding(line=5))


def configured_definitions(cmake_file: Path) -> list[set[str]]:
    """The definitions of each "name|definitions" configuration of a tests CMake file."""
    text = cmake_file.read_text()
    block = text.split("set(TACET_TEST_CONFIGS", 1)[1].split(")", 1)[0]
    return [set(filter(None, d.split(","))) for d in re.findall(r'"[\w-]+\|([^"]*)"', block)]


def test_every_tested_configuration_is_linted() -> None:
    ports = {
        "sim": REPO / "tests" / "CMakeLists.txt",
        "cortex-m": REPO / "ports" / "cortex-m" / "tests.cmake",
    }
    for port, cmake_file in ports.items():
        configs = configured_definitions(cmake_file)
        assert len(configs) >= 3, f"{cmake_file}: configurations not read"
        linted = [set(c.defines) for c in lint.CONFIGURATIONS if c.port.name == port]
        for definitions in configs:
            assert any(definitions <= d for d in linted), f"{port}: {definitions} not linted"


def test_lint_commands_name_existing_sources_and_includes() -> None:
    for config in lint.CONFIGURATIONS:
        command = lint.cppcheck_command(REPO, config)
        assert any(arg.startswith("ports/") and arg.endswith(".c") for arg in command)
        for include in config.port.includes:
            assert (REPO / include).is_dir(), f"{config.name}: -I{include}"


def test_lint_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["lint", "--repo", str(REPO), "--jobs", "0"]) == 1
    assert "--jobs 0" in capsys.readouterr().err
    assert cli.main(["lint", "--repo", str(REPO), "--cppcheck", "no-such-cppcheck"]) == 1
    assert "no-such-cppcheck: not found" in capsys.readouterr().err


BUGGY = """\
unsigned shift(unsigned x);
unsigned shift(unsigned x)
{
  return x << 32;
}
"""
TINY = Port("tiny", sources=("kernel/*.c",), includes=("kernel",))


@needs_cppcheck
def test_lint_on_a_small_tree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = make_tree(tmp_path / "repo")
    source = write(repo / "kernel" / "a.c", BUGGY)
    configs = [Configuration("tiny", TINY, ())]
    cppcheck = lint.find_cppcheck(None)

    assert lint.lint(repo, cppcheck, configs, jobs=1) == 1
    out = capsys.readouterr().out
    assert "kernel/a.c:4:" in out and "[shiftTooManyBits]" in out and "(in tiny)" in out

    justified = BUGGY.replace(
        "  return", "  /* cppcheck-suppress shiftTooManyBits ; a test */\n  return"
    )
    source.write_text(justified)
    assert lint.lint(repo, cppcheck, configs, jobs=1) == 0
    assert "0 findings, 1 inline suppression" in capsys.readouterr().out

    source.write_text(justified.replace(" ; a test", ""))
    assert lint.lint(repo, cppcheck, configs, jobs=1) == 1
    assert "without its reason" in capsys.readouterr().out

    source.write_text(justified.replace("x << 32", "x << 3"))
    assert lint.lint(repo, cppcheck, configs, jobs=1) == 1
    assert "matches nothing in any configuration" in capsys.readouterr().out
