# SPDX-License-Identifier: MIT
"""``tacet lint`` and ``tacet misra``: parsing cppcheck's output, matching the inline
suppressions, the configurations against the builds', and both commands on small trees."""

import re
import shutil
from pathlib import Path

import pytest
from conftest import REPO, make_tree, write

from tacet import cli
from tacet.project import lint, misra, misra_record
from tacet.project.lint import Configuration, Finding, Port, Suppression

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


def test_the_cmsis_layer_is_linted_where_its_tests_run() -> None:
    # compat/cmsis-rtos2/tests: the default kernel, and the tests' kernels without checks and
    # with the trace, on both ports; never with 32 priorities (it needs 64).
    tests = (REPO / "compat" / "cmsis-rtos2" / "tests" / "CMakeLists.txt").read_text()
    assert "foreach(cfg nochecks trace)" in tests
    for port in ("sim", "cortex-m"):
        with_layer = [
            set(c.defines)
            for c in lint.CONFIGURATIONS
            if c.port.name == port and lint.CMSIS_OS2 in c.layers
        ]
        for definitions in (set(), {"TC_CHECKS=0"}, {"TC_TRACE=1"}):
            assert any(definitions <= d for d in with_layer), f"{port}: {definitions}"
    for config in lint.CONFIGURATIONS:
        if lint.CMSIS_OS2 in config.layers:
            assert "TC_PRIORITIES=32" not in config.defines, config.name


def test_lint_commands_name_existing_sources_and_includes() -> None:
    for config in lint.CONFIGURATIONS:
        command = lint.cppcheck_command(REPO, config)
        assert any(arg.startswith("ports/") and arg.endswith(".c") for arg in command)
        for layer in config.layers:
            assert any(arg.startswith(layer.sources[0].split("*")[0]) for arg in command)
        for include in (d for part in config.parts for d in part.includes):
            assert (REPO / include).is_dir(), f"{config.name}: -I{include}"


def test_lint_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["lint", "--repo", str(REPO), "--jobs", "0"]) == 1
    assert "--jobs 0" in capsys.readouterr().err
    assert cli.main(["lint", "--repo", str(REPO), "--cppcheck", "no-such-cppcheck"]) == 1
    assert "no-such-cppcheck: not found" in capsys.readouterr().err
    assert cli.main(["misra", "--repo", str(REPO), "--rule", "fifteen"]) == 1
    assert "--rule fifteen" in capsys.readouterr().err


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


def test_misra_table_counts_by_rule_in_order() -> None:
    def rule(number: str, file: str = "kernel/a.c", line: int = 1) -> Finding:
        return Finding(file, line, 1, "style", f"misra-c2012-{number}", "")

    findings = [
        rule("15.5", line=1),
        rule("15.5", line=2),
        rule("2.5"),
        rule("10.4", "include/tacet/sem.h"),
        rule("99.1"),
        rule("8.10", "ports/cortex-m/include/tacet_port.h"),  # the port's: not counted
    ]
    lines = misra.table(findings)
    rows = [line.split("|")[1:4] for line in lines[2:-1]]
    assert [[c.strip() for c in r] for r in rows] == [
        ["2.5", "advisory", "1"],
        ["10.4", "required", "1"],
        ["15.5", "advisory", "2"],
        ["99.1", "?", "1"],
    ]
    assert lines[-1].startswith("| all | | 5 | 4 rules; ")
    assert "?" in lines[-1] and "advisory 3" in lines[-1] and "required 1" in lines[-1]


@needs_cppcheck
def test_misra_on_a_small_tree(tmp_path: Path) -> None:
    repo = make_tree(tmp_path / "repo")
    write(
        repo / "kernel" / "a.c",
        "int f(int x);\nint f(int x)\n{\n  if (x > 0) { return 1; }\n  return 0;\n}\n",
    )
    findings = misra.misra_findings(repo, Configuration("tiny", TINY, ()), lint.find_cppcheck(None))
    assert ("kernel/a.c", 4, "15.5") in {(f.file, f.line, misra.rule_of(f)) for f in findings}
    assert not list(repo.rglob("*.dump")), "the addon's dump files stay out of the tree"


def test_rule_texts_file_has_the_layout_the_addon_reads() -> None:
    lines = misra.rule_texts().splitlines()
    assert lines[0] == "Appendix A Summary of guidelines"
    i = lines.index("Rule 15.5 Advisory")
    assert lines[i + 1][0].isupper() and "exit" in lines[i + 1]
    assert len(lines) == 1 + 2 * len(misra.RULES)
    texts = [lines[k] for k in range(2, len(lines), 2)]
    assert len(set(texts)) == len(texts), "each rule's message must differ (cppcheck merges)"


def test_doc_table_agrees_with_the_rule_summaries() -> None:
    """docs/misra.md's rows of the compliance summary, the addon's rule summaries (misra.RULES)
    and the record's catalogue give each guideline the same category, and every permit the
    page names is in the record."""
    text = (REPO / "docs" / "misra.md").read_text()
    rows = re.findall(
        r"^\| ((?:Dir )?\d+\.\d+) \| (\w+) \| (\w+) \| [^|]+ \| ([^|]+) \|$", text, re.MULTILINE
    )
    assert len(rows) >= 20, "docs/misra.md: summary rows not read"
    record = misra_record.load(REPO / misra_record.RECORD, misra_record.RECORD)
    permits = {p.id for p in record.permits}
    for guideline, category, applied, compliance in rows:
        assert misra_record.GUIDELINES[guideline] == category, f"{guideline}: category"
        assert record.category[guideline] == applied, f"{guideline}: applied as"
        assert set(re.findall(r"TC-P\d\d", compliance)) <= permits, guideline
    for rule, (category, _topic) in misra.RULES.items():
        assert misra_record.GUIDELINES[rule] == category, f"misra.RULES {rule}: category"
