# SPDX-License-Identifier: MIT
"""tacet prove's reading of WP's output and of docs/proof.md's table, and their comparison."""

from pathlib import Path

import pytest

from tacet.cli import make_parser
from tacet.core.errors import TacetError
from tacet.project.prove import (
    DOC,
    PRIORITY_COUNTS,
    Run,
    compare,
    parse_listed,
    parse_wp_output,
    wp_command,
)

WP_OUTPUT = """\
[kernel] Parsing kernel/sched.c (with preprocessing)
[wp] Running WP plugin...
[wp] 4 goals scheduled
[wp] [Qed] Goal typed_f_assigns : Valid (1ms)
[wp] [Z3 4.8.12] Goal typed_f_ensures : Valid (Qed:3ms) (30ms) (104149)
[wp] [Failed] Goal typed_g_ensures_linked
  Z3 4.8.12: Failed Unknown error
  CVC4 1.8: Timeout (Qed:9ms) (10s)
[wp] [CVC4 1.8] Goal typed_g_assigns : Valid (Qed:3ms) (70ms) (21424)
[wp] Proved goals:    3 / 4
  Qed:             1  (1ms)
"""

TABLE = """\
# Proof

## Goals not proved

| goal | priorities | why it is not proved |
|---|---|---|
| `typed_g_ensures_linked` | all | the head's links: the provers time out |
| `typed_h_ensures` | 64, 1024 | a reason |

## Next
| `typed_ignored` | all | after the section |
"""


def test_wp_output_each_goal_and_its_status() -> None:
    goals = parse_wp_output(WP_OUTPUT)
    assert goals == {
        "typed_f_assigns": True,
        "typed_f_ensures": True,
        "typed_g_ensures_linked": False,
        "typed_g_assigns": True,
    }


def test_wp_output_without_summary_fails() -> None:
    with pytest.raises(TacetError, match="no summary"):
        parse_wp_output(WP_OUTPUT.replace("[wp] Proved goals:    3 / 4\n", ""))


def test_wp_output_whose_count_disagrees_fails() -> None:
    with pytest.raises(TacetError, match="counted 3 of 5"):
        parse_wp_output(WP_OUTPUT.replace("3 / 4", "3 / 5"))


def test_wp_output_of_two_passes_adds_their_counts() -> None:
    lemmas = (
        "[wp] [Z3 4.8.12] Goal typed_lemma_a : Valid (40ms) (186056)\n"
        "[wp] [Failed] Goal typed_lemma_b\n"
        "[wp] Proved goals:    1 / 2\n"
    )
    goals = parse_wp_output(WP_OUTPUT + lemmas)
    assert len(goals) == 6 and goals["typed_lemma_a"] and not goals["typed_lemma_b"]
    with pytest.raises(TacetError, match="counted 4 of 7"):
        parse_wp_output(WP_OUTPUT + lemmas.replace("1 / 2", "1 / 3"))


def test_split_goal_is_proved_when_each_part_is() -> None:
    text = (
        "[wp] [Qed] Goal typed_f_ensures_by_cases_part01 : Valid\n"
        "[wp] [CVC4 1.8] Goal typed_f_ensures_by_cases_part02 : Valid (Qed:65ms) (12.8s) (737986)\n"
        "[wp] [Qed] Goal typed_g_ensures_by_cases_part1 : Valid\n"
        "[wp] [Failed] Goal typed_g_ensures_by_cases_part2\n"
        "[wp] [Qed] Goal typed_g_ensures_by_cases_part3 : Valid\n"
        "[wp] [Failed] Goal typed_g_assigns_normal_part4\n"
        "[wp] Proved goals:    4 / 6\n"
    )
    assert parse_wp_output(text) == {
        "typed_f_ensures_by_cases": True,
        "typed_g_ensures_by_cases": False,
        "typed_g_assigns_normal_part4": False,  # WP's own part of a goal: a goal of its own
    }
    with pytest.raises(TacetError, match="counted 4 of 7"):
        parse_wp_output(text.replace("4 / 6", "4 / 7"))


def test_timeout_and_unknown_goals_are_not_proved() -> None:
    text = (
        "[wp] [Timeout] Goal typed_a_ensures (Qed:1ms) (10s)\n"
        "[wp] [Unknown] Goal typed_b_ensures (Qed:1ms)\n"
        "[wp] Proved goals:    0 / 2\n"
    )
    assert parse_wp_output(text) == {"typed_a_ensures": False, "typed_b_ensures": False}


def test_table_rows_their_priorities_and_reasons() -> None:
    listed = parse_listed(TABLE)
    assert set(listed) == {"typed_g_ensures_linked", "typed_h_ensures"}
    assert listed["typed_g_ensures_linked"].counts == frozenset(PRIORITY_COUNTS)
    assert listed["typed_h_ensures"].counts == frozenset({64, 1024})
    assert listed["typed_h_ensures"].reason == "a reason"
    assert listed["typed_h_ensures"].line == 8


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("| `typed_x` | all | |", "without its reason"),
        ("| typed_x | all | why |", "not a WP goal name"),
        ("| `typed_x` | 48 | why |", "priorities '48'"),
        ("| `typed_x` | some | why |", "priorities 'some'"),
        ("| `typed_x` | all |", "expected"),
        ("| `typed_g_ensures_linked` | all | again |", "listed twice"),
    ],
)
def test_table_row_that_cannot_be_read_fails_naming_its_line(row: str, message: str) -> None:
    text = TABLE.replace("\n## Next", f"{row}\n\n## Next")
    with pytest.raises(TacetError, match=message) as error:
        parse_listed(text)
    assert f"{DOC}:9:" in error.value.message


def test_table_missing_fails() -> None:
    with pytest.raises(TacetError, match="no '## Goals not proved' section"):
        parse_listed("# Proof\n")


def run(priorities: int, **goals: bool) -> Run:
    return Run(priorities, goals, 1.0)


def test_listed_unproved_goals_agree() -> None:
    listed = parse_listed(TABLE)
    runs = [
        run(64, typed_g_ensures_linked=False, typed_h_ensures=False, typed_f_ensures=True),
        run(256, typed_g_ensures_linked=False, typed_h_ensures=True),
    ]
    assert compare(runs, listed) == []


def test_unlisted_unproved_goal_fails() -> None:
    problems = compare(
        [run(32, typed_g_ensures_linked=False, typed_f_ensures=False)], parse_listed(TABLE)
    )
    assert problems == [f"TC_PRIORITIES=32: typed_f_ensures is not proved and not listed in {DOC}"]


def test_goal_unproved_at_a_count_it_is_not_listed_for_fails() -> None:
    problems = compare(
        [run(256, typed_g_ensures_linked=False, typed_h_ensures=False)], parse_listed(TABLE)
    )
    assert problems == [f"TC_PRIORITIES=256: typed_h_ensures is not proved and not listed in {DOC}"]


def test_listed_goal_that_proves_fails() -> None:
    problems = compare(
        [run(1024, typed_g_ensures_linked=True, typed_h_ensures=False)], parse_listed(TABLE)
    )
    assert problems == [
        f"TC_PRIORITIES=1024: typed_g_ensures_linked is proved but listed in {DOC}: remove it"
    ]


def test_listed_goal_that_no_longer_exists_fails() -> None:
    problems = compare([run(32, typed_f_ensures=True)], parse_listed(TABLE))
    assert problems == [
        f"TC_PRIORITIES=32: typed_g_ensures_linked, listed in {DOC}, is no goal of the proof"
    ]


def test_command_reads_the_kernel_unchanged_with_the_proof_port(tmp_path: Path) -> None:
    command = wp_command(tmp_path, 64, 2)
    assert command[0] == "frama-c"
    assert f"-I{tmp_path / 'proof/include'}" in command[2] and "-DTC_PRIORITIES=64" in command[2]
    assert str(tmp_path / "kernel/sched.c") in command
    assert command[command.index("-wp-par") + 1] == "2"
    # the functions' goals but those proved case by case; then those, split; then the lemmas
    first = command.index("-then")
    assert command[first - 1] == "-wp-prop=-by_cases" and "-wp-split" not in command[:first]
    assert command[first:] == [
        "-then",
        "-wp-split",
        "-wp-prop=by_cases",
        "-then",
        "-wp-no-split",
        "-wp-fct=",
        "-wp-prop=@lemma",
    ]


def test_the_repository_table_reads() -> None:
    repo = Path(__file__).resolve().parents[2]
    listed = parse_listed((repo / DOC).read_text())
    assert all(entry.reason for entry in listed.values())


@pytest.mark.parametrize("args", [["--priorities", "48"], ["--priorities", "x"], ["--jobs", "0"]])
def test_bad_option_is_refused_before_anything_runs(args: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        make_parser().parse_args(["prove", *args])
    assert exit_.value.code == 2
