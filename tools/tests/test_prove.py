# SPDX-License-Identifier: MIT
"""tacet prove's reading of WP's output and of docs/proof.md's table, and their comparison."""

import shutil
from pathlib import Path

import pytest

from tacet.cli import make_parser
from tacet.cli.prove import _goals
from tacet.core.errors import TacetError
from tacet.project.prove import (
    AXIOMS_SOURCE,
    AXIOMS_SOURCES,
    DOC,
    INDUCTION,
    PRIORITY_COUNTS,
    STEPS,
    WP_CACHE,
    Induction,
    Run,
    check_axioms_parse,
    clear_wp_cache,
    compare,
    induction_problems,
    parse_axiomatics,
    parse_listed,
    parse_theories,
    parse_why3_output,
    parse_wp_output,
    parse_wp_steps,
    run_induction,
    skipped_properties,
    why3_config,
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


def test_steps_of_each_proved_goal_cached_or_not_and_of_its_costliest_case() -> None:
    text = (
        WP_OUTPUT
        + "[wp] [Z3 4.8.12] Goal typed_h_ensures : Valid (Qed:9ms) (70ms) (171299) (cached)\n"
        "[wp] [Qed] Goal typed_k_ensures_by_cases_part01 : Valid\n"
        "[wp] [CVC4 1.8] Goal typed_k_ensures_by_cases_part02 : Valid (Qed:65ms) (12.8s) (737986)\n"
        "[wp] [Z3 4.8.12] Goal typed_k_ensures_by_cases_part03 : Valid (Qed:5ms) (1s) (5000)\n"
    )
    assert parse_wp_steps(text) == {
        "typed_f_assigns": 0,  # Qed's own
        "typed_f_ensures": 104149,
        "typed_g_assigns": 21424,
        "typed_h_ensures": 171299,
        "typed_k_ensures_by_cases": 737986,
    }


def test_goals_near_their_budget_are_named_most_steps_first() -> None:
    goals = {"typed_a": True, "typed_b": True, "typed_c": True, "typed_d": False}
    steps = {"typed_a": STEPS * 9 // 10, "typed_b": STEPS // 2, "typed_c": STEPS * 95 // 100}
    run = Run(32, goals, 1.0, steps=steps)
    assert run.near_budget() == [("typed_c", STEPS * 95 // 100), ("typed_a", STEPS * 9 // 10)]
    assert run.most_steps() == ("typed_c", STEPS * 95 // 100)
    assert Run(32, {"typed_d": False}, 1.0).most_steps() is None
    assert Run(32, {"typed_b": True}, 1.0, steps={"typed_b": 10}).near_budget() == []


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
    assert "-wp-cache" not in command
    cached = wp_command(tmp_path, 64, 2, cache=tmp_path / WP_CACHE)
    assert cached[cached.index("-wp-cache-dir") + 1] == str(tmp_path / WP_CACHE)
    assert cached[cached.index("-wp-cache") + 1] == "update"
    # the functions' goals but those proved case by case; then those, split; then the lemmas
    first = command.index("-then")
    assert command[first - 1] == "-wp-prop=-by_cases" and "-wp-split" not in command[:first]
    functions = command[command.index("-wp-fct") + 1]
    assert command[first:] == [
        "-then",
        "-wp-split",
        "-wp-fct",
        functions,
        "-wp-prop=by_cases",
        "-then",
        "-wp-no-split",
        "-wp-fct=",
        "-wp-prop=@lemma",
    ]


def test_skipped_goals_name_their_properties() -> None:
    skip = skipped_properties(
        [
            "typed_tc_list_remove_ensures_head_linked",  # WP's single underscore
            "typed_tc_ready_remove_assert_preempt_member",
            "typed_tc_ready_remove_assigns_normal_part4",  # an assigns clause has no label
            "typed_tc__sched_reschedule_call_tc__ready_unflag_tc_ready_unflag_requires_ready",
            "typed_tc_sched_reschedule_ensures_by_cases",
            "typed_tc_ready_insert_check_linked",
        ]
    )
    assert skip == {
        "tc__list_remove": {"head_linked"},
        "tc__ready_remove": {"preempt_member", "@assigns"},
        "tc__sched_reschedule": {"ready", "by_cases"},
        "tc__ready_insert": {"linked"},
    }


@pytest.mark.parametrize(
    ("goal", "message"),
    [
        ("typed_nowhere_ensures_x", "names none of the functions"),
        ("typed_tc_list_remove_ensures", "has no label to leave it out by"),
        ("typed_tc__sched_reschedule_call_choose_thread_requires", "has no label"),
    ],
)
def test_a_goal_that_cannot_be_skipped_is_refused(goal: str, message: str) -> None:
    with pytest.raises(TacetError, match=message):
        skipped_properties([goal])


def test_skipped_properties_leave_their_passes(tmp_path: Path) -> None:
    command = wp_command(
        tmp_path,
        32,
        2,
        functions=("f", "g", "h"),
        skip={"g": frozenset({"head_linked", "@assigns"}), "h": frozenset({"by_cases"})},
    )
    passes = " ".join(command).split(" -then ")
    assert passes[0].endswith("-wp-fct f,h -wp-prop=-by_cases")  # h: all but its by_cases
    assert passes[1:] == [
        "-wp-fct g -wp-prop=-@assigns,-by_cases,-head_linked",
        "-wp-split -wp-fct f,g -wp-prop=by_cases",
        "-wp-no-split -wp-fct= -wp-prop=@lemma",
    ]


def test_a_skipped_listed_goal_is_not_missing() -> None:
    listed = parse_listed(TABLE)
    runs = [Run(32, {"typed_f_ensures": True}, 1.0, frozenset({"typed_g_ensures_linked"}))]
    assert compare(runs, listed) == []
    # a goal left out is not proved either: the unlisted failure still counts
    runs = [Run(32, {"typed_f_ensures": False}, 1.0, frozenset({"typed_g_ensures_linked"}))]
    assert compare(runs, listed) == [
        f"TC_PRIORITIES=32: typed_f_ensures is not proved and not listed in {DOC}"
    ]


def test_the_repository_table_reads_and_each_goal_can_be_left_out() -> None:
    repo = Path(__file__).resolve().parents[2]
    listed = parse_listed((repo / DOC).read_text())
    assert all(entry.reason for entry in listed.values())
    for count in PRIORITY_COUNTS:  # what make test's tacet prove --skip-listed does
        skipped_properties([goal for goal, e in listed.items() if count in e.counts])


@pytest.mark.parametrize("args", [["--priorities", "48"], ["--priorities", "x"], ["--jobs", "0"]])
def test_bad_option_is_refused_before_anything_runs(args: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        make_parser().parse_args(["prove", *args])
    assert exit_.value.code == 2


AXIOMATICS = """\
/*@ axiomatic Casts {
      logic int *cast(int *p);
      axiom cast_id: \\forall int *p; cast(p) == p;
    }
*/
/*@ axiomatic Walks {
  predicate step{L1,L2}(int *p) = \\at(*p, L1) == \\at(*p, L2);
  axiom walk_one{L1,L2}: \\forall int *p; step{L1,L2}(p) ==> \\true;
  axiom walk_two: \\true;
  }
*/
"""

THEORIES = """\
(* lemma in_a_comment: not a lemma *)
theory Walk
  predicate step (x: int) = x = 1 (* definitions only: names no axiomatic *)
end
theory Walks
  lemma walk_one: true
  lemma helper: true (* a lemma the axioms do not name *)
  lemma walk_two: true
end
"""

WHY3_OUTPUT = """\
File "proof/reach.mlw", line 3, characters 2-20:
Goal walk_one.
Prover result is: Valid (0.01s, 4849 steps).

File "proof/reach.mlw", line 3, characters 2-20:
Goal walk_one.
Prover result is: Valid (0.02s, 7200 steps).

File "proof/reach.mlw", line 4, characters 2-20:
Goal helper.
Prover result is: Valid (0.02s, 5742 steps).

File "proof/reach.mlw", line 5, characters 2-20:
Goal walk_two.
Prover result is: Valid (0.01s, 6053 steps).

File "proof/reach.mlw", line 5, characters 2-20:
Goal walk_two.
Prover result is: Unknown (unknown) (0.45s, 1000190 steps).
"""


def test_axiomatics_and_their_axioms_braces_of_labels_included() -> None:
    assert parse_axiomatics(AXIOMATICS) == {
        "Casts": ("cast_id",),
        "Walks": ("walk_one", "walk_two"),
    }


def test_unclosed_axiomatic_is_named_with_its_line() -> None:
    with pytest.raises(TacetError, match=rf"{AXIOMS_SOURCE}:6: axiomatic Walks is not closed"):
        parse_axiomatics(AXIOMATICS.rsplit("}", 1)[0])


def test_theories_and_their_lemmas_comments_left_out() -> None:
    assert parse_theories(THEORIES) == {
        "Walk": (),
        "Walks": ("walk_one", "helper", "walk_two"),
    }


def test_a_lemma_declared_twice_or_no_theory_is_refused() -> None:
    with pytest.raises(TacetError, match="lemma walk_one is declared twice"):
        parse_theories(THEORIES + THEORIES.replace("Walk", "Other"))
    with pytest.raises(TacetError, match="no theory"):
        parse_theories("(* nothing *)")


def test_a_lemma_is_proved_when_each_case_of_its_induction_is() -> None:
    assert parse_why3_output(WHY3_OUTPUT) == {"walk_one": True, "helper": True, "walk_two": False}


def induction(lemmas: dict[str, bool], axioms: tuple[str, ...]) -> Induction:
    return Induction(lemmas, {"Walks": tuple(lemmas)}, {"Walks": axioms}, 0.5)


def test_induction_agrees_when_every_lemma_proves_and_every_axiom_is_one() -> None:
    assert induction_problems(induction({"walk_one": True, "helper": True}, ("walk_one",))) == []


def test_unproved_lemma_and_axiom_without_lemma_fail() -> None:
    problems = induction_problems(induction({"walk_one": False}, ("walk_one", "walk_two")))
    assert problems == [
        f"{INDUCTION}: lemma walk_one is not proved (induction_pr, then z3 at 1,000,000 steps)",
        f"{AXIOMS_SOURCE}: axiom walk_two of axiomatic Walks is no lemma of theory Walks "
        f"in {INDUCTION}",
    ]


@pytest.mark.skipif(shutil.which("why3") is None, reason="why3 is not installed")
def test_the_repository_lemmas_prove_and_stand_behind_their_axioms(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[2]
    run = run_induction(repo, why3_config(tmp_path))
    assert run.lemmas and all(run.lemmas.values())
    assert set(run.axiomatics) == {
        "RingRemoval",
        "RingInsertion",
        "RingOfOne",
        "RingFrame",
        "RingSelf",
    }
    assert all(run.axiomatics.values()) and induction_problems(run) == []
    # the behaviours ring of tc__list_remove and tc__list_insert use them: in the header WP reads
    assert set(run.homes.values()) == {"kernel/internal.h"}


def test_an_axiomatic_in_both_sources_or_an_axiom_without_lemma_is_named_where_it_is(
    tmp_path: Path,
) -> None:
    (tmp_path / "proof").mkdir()
    (tmp_path / "kernel").mkdir()
    (tmp_path / "kernel/internal.h").write_text(AXIOMATICS)
    (tmp_path / AXIOMS_SOURCE).write_text(AXIOMATICS.replace("Walks", "Other"))
    (tmp_path / INDUCTION).write_text(THEORIES)
    with pytest.raises(TacetError, match=f"{AXIOMS_SOURCE}: axiomatic Casts is also in kernel/"):
        run_induction(tmp_path, tmp_path / "why3.conf")  # refused before why3 runs
    run = Induction(
        {"walk_one": True},
        {"Walks": ("walk_one",)},
        {"Walks": ("walk_one", "x")},
        0.5,
        {"Walks": "kernel/internal.h"},
    )
    assert induction_problems(run) == [
        f"kernel/internal.h: axiom x of axiomatic Walks is no lemma of theory Walks in {INDUCTION}"
    ]


@pytest.mark.skipif(shutil.which("why3") is None, reason="why3 is not installed")
def test_a_theory_of_lemmas_naming_no_axiomatic_is_refused(tmp_path: Path) -> None:
    (tmp_path / "proof").mkdir()
    (tmp_path / "kernel").mkdir()
    (tmp_path / AXIOMS_SOURCE).write_text(AXIOMATICS)
    (tmp_path / "kernel/internal.h").write_text("/* no axiomatic here */\n")
    (tmp_path / INDUCTION).write_text(THEORIES.replace("theory Walks", "theory Nowhere"))
    with pytest.raises(TacetError, match="theory Nowhere names no axiomatic block"):
        run_induction(tmp_path, why3_config(tmp_path / "build"))


@pytest.mark.skipif(shutil.which("why3") is None, reason="why3 is not installed")
def test_a_false_lemma_does_not_prove(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[2]
    (tmp_path / "proof").mkdir()
    (tmp_path / "kernel").mkdir()
    for source in AXIOMS_SOURCES:
        (tmp_path / source).write_text((repo / source).read_text())
    text = (repo / INDUCTION).read_text()
    wrong = text.replace("reach next1 h x /\\ x <> n", "reach next1 h x /\\ x <> p")
    assert wrong != text
    (tmp_path / INDUCTION).write_text(wrong)
    run = run_induction(tmp_path, why3_config(tmp_path / "build"))
    assert induction_problems(run) == [
        f"{INDUCTION}: lemma reach_remove_old is not proved (induction_pr, then z3 at "
        "1,000,000 steps)"
    ]


@pytest.mark.skipif(shutil.which("frama-c") is None, reason="frama-c is not installed")
def test_the_axioms_parse_and_a_wrong_one_is_refused(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[2]
    check_axioms_parse(repo)
    for d in ("proof/include", "include", "kernel"):
        shutil.copytree(repo / d, tmp_path / d)
    # an axiom that applies reach to three nodes, whatever blocks the file holds today
    wrong = "/*@ axiomatic Wrong { axiom three{L}: \\forall tc_node *h; reach(h, h, h); } */\n"
    (tmp_path / AXIOMS_SOURCE).write_text((repo / AXIOMS_SOURCE).read_text() + wrong)
    with pytest.raises(TacetError, match=f"frama-c does not parse {AXIOMS_SOURCE}"):
        check_axioms_parse(tmp_path)


def test_each_run_starts_from_an_empty_wp_cache(tmp_path: Path) -> None:
    conf = tmp_path / "proof" / "why3.conf"
    clear_wp_cache(conf)  # made where there was none
    entry = tmp_path / "proof" / WP_CACHE / "8230996bff62e37638ffa4314130ea42.json"
    entry.write_text("{}")
    clear_wp_cache(conf)
    assert (tmp_path / "proof" / WP_CACHE).is_dir() and not entry.exists()


def test_a_count_of_goals_reads_singular_for_one() -> None:
    assert _goals(0) == "0 goals" and _goals(1) == "1 goal" and _goals(2) == "2 goals"
    assert _goals(1, "listed ") == "1 listed goal" and _goals(4, "listed ") == "4 listed goals"
