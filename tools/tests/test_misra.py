# SPDX-License-Identifier: MIT
"""The MISRA compliance record (kernel/misra-record.yaml) and what tacet misra decides from it:
what covers each finding, what fails, the guideline compliance summary."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tacet.core.yamldoc import DescriptionError
from tacet.project.lint import Finding
from tacet.project.misra import checked_rules
from tacet.project.misra_record import (
    GUIDELINES,
    RECORD,
    Row,
    header_guard_failures,
    judge,
    load,
    summary,
    summary_counts,
)

REPO = Path(__file__).resolve().parents[2]

MINIMAL = """\
standard: MISRA C:2012
scope: the kernel, in a test of the record
recategorization:
  - guidelines: ["15.5"]
    category: disapplied
    reason: a reason long enough
reviewed:
  - guidelines: ["1.1"]
    by: compiler
    how: built with -Werror everywhere
    status: compliant
permits:
  - id: TC-P01
    rules: ["15.6"]
    title: One line
    rationale: a rationale long enough
    safeguard: a safeguard long enough
    scope:
      files: ["kernel/*.c"]
      lines: "^\\\\s*if "
not_violations:
  - id: TC-F01
    rules: ["12.3"]
    reason: the addon's error, long enough
    scope:
      files: ["kernel/a.c"]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "record.yaml"
    path.write_text(text)
    return path


def finding(file: str, line: int, rule: str) -> tuple[Finding, str]:
    return Finding(file, line, 1, "style", f"misra-c2012-{rule}", ""), rule


def lines_of(text: dict[tuple[str, int], str]) -> Callable[[Finding], str]:
    return lambda f: text.get((f.file, f.line), "")


def test_the_catalogue_has_every_guideline_once() -> None:
    directives = [g for g in GUIDELINES if g.startswith("Dir ")]
    assert (len(GUIDELINES), len(directives)) == (175, 17)
    mandatory = sorted(g for g, c in GUIDELINES.items() if c == "mandatory")
    expected = "9.1 12.5 13.6 17.3 17.4 17.6 19.1 21.13 21.17 21.18 21.19 21.20 22.2 22.4 22.5 22.6"
    assert mandatory == sorted(expected.split(" "))


def test_a_permit_covers_what_its_scope_selects(tmp_path: Path) -> None:
    record = load(write(tmp_path, MINIMAL), "record.yaml")
    findings = [
        finding("kernel/a.c", 3, "15.6"),  # an if: covered by TC-P01
        finding("kernel/a.c", 4, "15.6"),  # a for: the line does not match
        finding("include/a.h", 3, "15.6"),  # outside the files
        finding("kernel/a.c", 5, "12.3"),  # the checker's error
        finding("kernel/b.c", 9, "15.5"),  # disapplied
    ]
    text = {("kernel/a.c", 3): "  if (x) return;", ("kernel/a.c", 4): "  for (;;) x();"}
    text[("include/a.h", 3)] = "  if (x) return;"
    verdict = judge(record, findings, lines_of(text), tmp_path)
    assert [j.by for j in verdict.judged] == ["TC-P01", "", "", "TC-F01", "disapplied"]
    assert verdict.failures == [
        "kernel/a.c:4: rule 15.6 (required): no permit covers it",
        "include/a.h:3: rule 15.6 (required): no permit covers it",
    ]


def test_an_entry_that_covers_nothing_fails(tmp_path: Path) -> None:
    record = load(write(tmp_path, MINIMAL), "record.yaml")
    verdict = judge(record, [], lines_of({}), tmp_path)
    assert verdict.failures == [
        "record.yaml: TC-P01 (One line) covers no finding",
        "record.yaml: TC-F01 (the addon's error, long enough) covers no finding",
    ]


def test_the_summary_says_how_each_guideline_stands(tmp_path: Path) -> None:
    record = load(write(tmp_path, MINIMAL), "record.yaml")
    text = {("kernel/a.c", 3): "if (x) return;"}
    found = [finding("kernel/a.c", 3, "15.6"), finding("kernel/a.c", 5, "12.3")]
    verdict = judge(record, found, lines_of(text), tmp_path)
    everything = {g for g in GUIDELINES if not g.startswith("Dir ")} - {"1.1"}
    rows = {r.guideline: r for r in summary(record, verdict, everything, set())}
    assert rows["15.6"].compliance == "deviations (TC-P01)"
    assert rows["15.5"].compliance == "disapplied"
    assert rows["12.3"].compliance == "compliant"  # the checker's error is no deviation
    assert (rows["1.1"].enforcement, rows["1.1"].compliance) == ("compiler", "compliant")
    # The directives are neither checked by a tool nor reviewed in this record.
    assert "Dir 4.1: neither checked by a tool nor in `reviewed`" in verdict.failures


def test_a_mandatory_guideline_with_a_finding_fails(tmp_path: Path) -> None:
    record = load(write(tmp_path, MINIMAL), "record.yaml")
    verdict = judge(record, [finding("kernel/a.c", 1, "17.3")], lines_of({}), tmp_path)
    rows = {r.guideline: r for r in summary(record, verdict, set(GUIDELINES), set())}
    assert rows["17.3"].compliance == "violations"
    assert "17.3 is Mandatory and violations" in verdict.failures


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('rules: ["15.6"]', 'rules: ["17.3"]'), "17.3 is Mandatory: no permit may cover it"),
        (('rules: ["15.6"]', 'rules: ["15.66"]'), "15.66 is not a MISRA C:2012 guideline"),
        (
            ('guidelines: ["15.5"]', 'guidelines: ["15.6"]'),
            "15.6 is required: it cannot become disapplied",
        ),
        (('lines: "^\\\\s*if "', 'lines: "(if"'), "not a regular expression"),
        (
            (
                "not_violations:\n",
                "  - {id: TC-P01, rules: ['15.7'], title: again, rationale: "
                "a rationale long enough, safeguard: a safeguard long enough, scope: {files: [x]}}"
                "\nnot_violations:\n",
            ),
            "TC-P01 is used twice",
        ),
        (("by: compiler", "by: hope"), "hope"),
        (("    safeguard: a safeguard long enough\n", ""), "safeguard"),
    ],
)
def test_a_malformed_record_is_refused_with_where(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    text = MINIMAL.replace(*change)
    assert text != MINIMAL
    with pytest.raises(DescriptionError) as error:
        load(write(tmp_path, text), "record.yaml")
    assert message in str(error.value)
    assert str(error.value).startswith("record.yaml:")


def test_a_header_without_its_guard_is_found(tmp_path: Path) -> None:
    (tmp_path / "kernel").mkdir()
    (tmp_path / "include" / "tacet").mkdir(parents=True)
    guarded = "/* a comment */\n// SPDX\n#ifndef A_H\n#define A_H\n#endif\n"
    (tmp_path / "kernel" / "a.h").write_text(guarded)
    late = "#include <x.h>\n#ifndef B_H\n#define B_H\n"
    (tmp_path / "include" / "tacet" / "b.h").write_text(late)
    (tmp_path / "include" / "tacet" / "c.h").write_text("#ifndef C_H\n#define D_H\n")
    assert header_guard_failures(tmp_path) == [
        "include/tacet/b.h: no include guard (#ifndef NAME, #define NAME) first",
        "include/tacet/c.h: no include guard (#ifndef NAME, #define NAME) first",
    ]


def test_the_kernel_record_is_valid_and_every_header_guarded() -> None:
    record = load(REPO / RECORD, RECORD)
    assert {p.id for p in record.permits} and header_guard_failures(REPO) == []


needs_cppcheck = pytest.mark.skipif(shutil.which("cppcheck") is None, reason="no cppcheck")


@needs_cppcheck
def test_the_addon_reports_what_it_checks() -> None:
    own, from_cppcheck = checked_rules("cppcheck")
    assert {"15.6", "11.3", "17.7"} <= own and {"9.1", "18.1"} <= from_cppcheck
    assert not own & from_cppcheck and own | from_cppcheck <= set(GUIDELINES)


@needs_cppcheck
def test_tacet_misra_holds_the_kernel_to_its_record(tmp_path: Path) -> None:
    """The whole check on the kernel: it passes, and a finding no permit covers makes it fail
    naming the line."""
    run = [sys.executable, "-m", "tacet", "misra", "--repo", str(REPO)]
    passed = subprocess.run(run, capture_output=True, text=True, check=False, timeout=900)
    assert passed.returncode == 0, passed.stderr
    assert "175 guidelines: " in passed.stdout and "violations" not in passed.stdout
    record = (REPO / RECORD).read_text()
    narrowed = record.replace(
        'files: ["kernel/*.c", "kernel/*.h"]\n  - id: TC-P07',
        'files: ["kernel/sched.c"]\n  - id: TC-P07',
    )
    assert narrowed != record
    (tmp_path / "record.yaml").write_text(narrowed)
    failed = subprocess.run(
        [*run, "--record", str(tmp_path / "record.yaml")],
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    assert failed.returncode == 1
    assert "rule 15.6 (required): no permit covers it" in failed.stderr
    assert "kernel/thread.c:" in failed.stderr


def test_a_record_that_cannot_be_read_exits_2(tmp_path: Path) -> None:
    (tmp_path / "record.yaml").write_text("standard: x\n")
    for record in (tmp_path / "record.yaml", tmp_path / "absent.yaml"):
        run = [sys.executable, "-m", "tacet", "misra", "--repo", str(REPO), "--record", str(record)]
        done = subprocess.run(run, capture_output=True, text=True, check=False, timeout=120)
        assert done.returncode == 2, done.stderr
        assert str(record) in done.stderr and "Traceback" not in done.stderr


def test_the_summary_counts_read_as_a_sentence() -> None:
    rows = [
        Row("1.1", "required", "required", "compiler", "compliant"),
        Row("15.6", "required", "required", "cppcheck misra addon", "deviations (TC-P01)"),
        Row("1.3", "required", "required", "cppcheck (tacet lint)", "compliant"),
        Row("15.5", "advisory", "disapplied", "cppcheck misra addon", "disapplied"),
    ]
    assert summary_counts(rows) == "4 guidelines: 2 compliant, 1 deviations, 1 disapplied"
