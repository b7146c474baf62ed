# SPDX-License-Identifier: MIT
"""The reference model (tacet.conformance.model) on hand-written scenarios whose outcome the
rules of docs/kernel.md decide, and the scenario text format (tacet.conformance.scenario)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tacet.conformance.check import Profile, generate
from tacet.conformance.model import predict
from tacet.conformance.scenario import ScenarioError, parse_outcomes, parse_scenarios


def run(text: str) -> tuple[list[str], list[str]]:
    (sc,) = parse_scenarios("scenario 1\n" + text + "\nend\n")
    out = predict(sc)
    return out.log, out.lines


def line(lines: list[str], prefix: str) -> str:
    return next(x for x in lines if x.startswith(prefix))


def test_lmh_example() -> None:
    # L (10, threshold 5) runs; M (7) made ready: no switch; H (3): H runs; H suspends
    # itself: L resumes (7 does not beat 5), not M; L ends: M runs.
    log, lines = run("""
thread 10 5 1
thread 7 7 0
thread 3 3 0
do 0 resume 1
do 0 resume 2
do 2 suspend 2
""")
    # t2.0 never returns (H stays suspended); L completes before M runs (M makes no call).
    assert log == ["t0.0=0", "t0.1=0"]
    assert line(lines, "thread 0") == "thread 0 completed 10 5 10 5"
    assert line(lines, "thread 1") == "thread 1 completed 7 7 7 7"
    assert line(lines, "thread 2") == "thread 2 suspended 3 3 3 3"
    assert line(lines, "stats") == "stats 4 1"  # L, H, L, M; L preempted once


def test_terminating_another_thread_keeps_the_threshold() -> None:
    # Found against ThreadX (tests/test_pts.c), divergence 1.
    log, _ = run("""
thread 2 1 1
thread 1 1 1
thread 7 7 1
sem 0 1
do 1 take 0 1
do 0 give 0
do 0 term 2
""")
    assert log == ["t0.0=0", "t0.1=0", "t1.0=0"]


def test_threshold_change_keeps_a_ready_thread_in_place() -> None:
    # Found against ThreadX, divergence 2: T1 was made ready before T2 at priority 6.
    log, _ = run("""
thread 3 3 1
thread 6 6 1
thread 6 6 1
do 0 thr 1 1
do 1 yield
do 2 yield
""")
    assert log == ["t0.0=0", "t1.0=0", "t2.0=0"]


def test_changes_keep_a_waiter_in_its_turn() -> None:
    # Found against ThreadX, divergences 3 and 4: FIFO among equal priorities is the order
    # waits began.
    log, _ = run("""
thread 1 1 1
thread 4 4 1
thread 1 1 1
sem 0 2
do 0 take 0 1
do 2 take 0 1
do 1 prio 2 6
do 1 prio 0 6
do 1 give 0
do 1 give 0
""")
    assert log == ["t1.0=0", "t1.1=0", "t1.2=0", "t1.3=0", "t0.0=0", "t2.0=0"]


def test_a_tightened_preempted_threshold_waits_for_the_running_thread_to_leave() -> None:
    # Found against ThreadX, divergence 5.
    log, _ = run("""
thread 6 5 1
thread 2 2 0
thread 3 3 0
do 0 resume 1
do 1 thr 0 1
do 1 yield
do 1 resume 2
do 2 yield
""")
    # T1 completes: T0, threshold 1 now, resumes before T2 (3).
    assert log == ["t1.0=0", "t1.1=0", "t1.2=0", "t0.0=0", "t2.0=0"]


def test_one_event_set_is_seen_by_every_waiter() -> None:
    # Two CLEAR waiters and one plain waiter of flag 1: one set releases all three.
    log, lines = run("""
thread 2 2 1
thread 3 3 1
thread 4 4 1
thread 5 5 1
event
do 0 wait 0 1 5 1
do 1 wait 0 1 5 1
do 2 wait 0 1 1 1
do 3 set 0 1
""")
    assert log == ["t0.0=0/1", "t1.0=0/1", "t2.0=0/1", "t3.0=0"]
    assert line(lines, "event 0") == "event 0 0 w"


def test_inheritance_and_its_undoing() -> None:
    # L (9) locks and resumes H (2), which blocks on the mutex: L runs at 2, so resuming M (5)
    # does not preempt it; its unlock hands the mutex to H and drops L back to 9.
    log, lines = run("""
thread 9 9 1
thread 2 2 0
thread 5 5 0
mutex 1
do 0 lock 0 1
do 0 resume 1
do 0 resume 2
do 0 unlock 0
do 1 lock 0 1
do 2 yield
""")
    assert log == ["t0.0=0", "t0.1=0", "t0.2=0", "t1.0=0", "t2.0=0", "t0.3=0"]
    assert line(lines, "thread 0") == "thread 0 completed 9 9 9 9"
    assert line(lines, "mutex 0") == "mutex 0 - 0 w"


def test_interrupt_and_hisr() -> None:
    # The handler readies T1 (above T0's threshold): it runs after the HISR, which gives.
    log, lines = run("""
thread 6 4 1
thread 2 2 0
sem 0 3
hisr give 0
do 0 isr resume 1 ; hisr 0
""")
    assert log == ["i0.0.0=0", "i0.0.1=0", "h0.0=0", "t0.0=0"]
    assert line(lines, "sem 0") == "sem 0 1 w"


def test_scheduler_lock_defers_the_switch() -> None:
    # T1 (2) is chosen inside the locked section but runs only at the unlock.
    log, _ = run("""
thread 6 6 1
thread 2 2 0
do 0 slock
do 0 resume 1
do 0 sunlock
do 1 yield
""")
    assert log == ["t0.0=0", "t0.1=0", "t1.0=0", "t0.2=0"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("scenario 1\nthread 3 4 1\nend\n", "threshold 4 not in 0..3"),
        ("scenario 1\nthread 3 3 1\ndo 0 fly\nend\n", "unknown call 'fly'"),
        ("scenario 1\nthread 3 3 1\ndo 0 give 0\nend\n", "semaphore 0 out of range"),
        ("scenario 1\nthread 3 3 1\ndo 0 resume 1\nend\n", "thread 1 out of range"),
        ("scenario 1\nthread 3 3 1\ndo 0 hisr 0\nend\n", "'hisr' outside an interrupt"),
        ("scenario 1\nthread 3 3 1\n", "has no 'end'"),
        ("scenario 1\nthread 3 3 1\ndo 0 take 0\nend\n", "takes 2 arguments, got 1"),
        ("thread 3 3 1\n", "outside a scenario"),
        ("scenario x\n", "'x' is not a decimal number"),
    ],
)
def test_bad_scenarios_are_named_by_line(text: str, message: str) -> None:
    with pytest.raises(ScenarioError) as error:
        parse_scenarios(text, "s.txt")
    assert message in str(error.value)
    assert "s.txt:" in str(error.value)


def test_a_cut_short_outcome_is_an_error() -> None:
    with pytest.raises(ScenarioError, match="no 'end'"):
        parse_outcomes("scenario 1\nlog t0.0=0\n")


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_scenarios_survive_their_text_form(seed: int) -> None:
    sc = generate(random.Random(seed), seed, Profile())
    assert parse_scenarios(sc.text()) == [sc]
    assert predict(sc).text() == predict(parse_scenarios(sc.text())[0]).text()
