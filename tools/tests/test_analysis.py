# SPDX-License-Identifier: MIT
"""The schedulability analysis (tacet.analysis.rta): task sets worked by hand, several from the
literature with their published response times; properties over thousands of seeded random
task sets (UUniFast utilisations) against independent implementations written here (classic
fixed-priority RTA, non-preemptive RTA, a discrete-time scheduler of preemption thresholds);
and every error of bad input."""

import itertools
import math
import random
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from tacet.analysis import rta as analysis
from tacet.analysis.rta import (
    HYPERPERIOD_CAP_PERIODS,
    AnalysisError,
    CriticalSection,
    Overheads,
    Task,
    analyze,
    assign_priorities,
    assign_thresholds,
    default_overheads,
    explain,
    resolve,
)
from tacet.core.errors import TacetError


def prop(examples: int) -> settings:
    """Seeded (derandomize): the same examples on every run."""
    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


NONE = Overheads()
ANY_PERIOD = st.integers(10, 400)


def responses(tasks: list[Task], overheads: Overheads = NONE) -> list[int | None]:
    return [r.response for r in analyze(tasks, overheads).tasks]


# ---- independent analyses written for the tests --------------------------------------------


def classic_rta(tasks: list[Task]) -> list[int | None]:
    """Fixed-priority preemptive RTA with release jitter and arbitrary deadlines, in the form
    of Tindell, Burns & Wellings (RTS 1994) and Lehoczky (RTSS 1990): job q's completion w
    from (q+1)C plus interference; the busy period ends with the first job that completes
    before the next one arrives (a safe rule when every thread is fully preemptive).
    Priorities distinct."""
    out: list[int | None] = []
    for t in tasks:
        hp = [u for u in tasks if u.priority < t.priority]
        if Fraction(t.wcet, t.period) + sum(Fraction(u.wcet, u.period) for u in hp) >= 1:
            out.append(None)
            continue
        worst, q = 0, 0
        while True:
            w = (q + 1) * t.wcet
            while True:
                nw = (q + 1) * t.wcet + sum(
                    math.ceil((w + u.jitter) / u.period) * u.wcet for u in hp
                )
                if nw == w:
                    break
                w = nw
            worst = max(worst, w - q * t.period + t.jitter)
            if w + t.jitter <= (q + 1) * t.period:
                break
            q += 1
        out.append(worst)
    return out


def np_rta(tasks: list[Task]) -> list[int | None]:
    """Fixed-priority non-preemptive RTA (the revised form of Davis, Burns, Bril & Lukkien,
    RTS 2007, and Bril, Lukkien & Verhaegh, RTS 2009): blocking by the longest lower-priority
    job, the level-i busy period found by walking forward from one instant where the pending
    work is known to the first instant it is all done, every job in it examined. Priorities
    distinct."""
    out: list[int | None] = []
    for t in tasks:
        lower = [u.wcet for u in tasks if u.priority > t.priority]
        blocking = max(lower, default=0)
        hp = [u for u in tasks if u.priority < t.priority]
        hep = [*hp, t]
        if sum(Fraction(u.wcet, u.period) for u in hep) >= 1:
            out.append(None)
            continue
        # Walk: at instant x the work released in [0, x) (plus blocking) is known; the busy
        # period is over at the first x where that work is all done by x.
        x = 1
        while True:
            work = blocking + sum(-(-(x + u.jitter) // u.period) * u.wcet for u in hep)
            if work <= x:
                break
            x = work
        jobs = -(-(x + t.jitter) // t.period)
        worst = 0
        for q in range(jobs):
            s = 0
            while True:
                ns = (
                    blocking
                    + q * t.wcet
                    + sum(((s + u.jitter) // u.period + 1) * u.wcet for u in hp)
                )
                if ns == s:
                    break
                s = ns
            worst = max(worst, s + t.wcet - q * t.period + t.jitter)
        out.append(worst)
    return out


def simulate(tasks: list[Task], offsets: list[int], horizon: int) -> tuple[list[int], list[int]]:
    """A discrete-time scheduler with Tacet's rules (include/tacet/thread.h): a started job
    competes with its threshold, one not yet started with its priority, and a ready job takes
    the CPU only from one whose threshold its priority is below; equal keys go in release
    order. Returns each thread's longest response of a job released before the horizon, and
    its switches in and out."""
    n = len(tasks)
    next_release = list(offsets)
    ready: list[list[int]] = []  # [task, release, remaining, started]
    running: list[int] | None = None
    worst, switches = [0] * n, [0] * n
    now = 0
    while now < horizon or ready:
        for k in range(n):
            while next_release[k] <= now and next_release[k] < horizon:
                ready.append([k, next_release[k], tasks[k].wcet, 0])
                next_release[k] += tasks[k].period
        if not ready:
            if running is not None:
                switches[running[0]] += 1
                running = None
            now = min(next_release)
            continue

        def key(job: list[int]) -> tuple[int, int, int]:
            task = tasks[job[0]]
            if job[3]:
                return (task.threshold, 0, job[1])  # type: ignore[return-value]
            return (task.priority, 1, job[1])  # type: ignore[return-value]

        chosen = min(ready, key=key)
        if chosen is not running:
            if running is not None:
                switches[running[0]] += 1
            switches[chosen[0]] += 1
            running = chosen
        chosen[3] = 1
        until = min([r for r in next_release if r < horizon], default=now + chosen[2])
        step = max(1, min(chosen[2], until - now))
        chosen[2] -= step
        now += step
        if chosen[2] == 0:
            worst[chosen[0]] = max(worst[chosen[0]], now - chosen[1])
            ready.remove(chosen)
    if running is not None:
        switches[running[0]] += 1
    return worst, switches


def unsafe_stopping_rule(tasks: list[Task], i: int) -> int:
    """Wang & Saksena's analysis as first published (RTCSA 1999): examine jobs q = 1, 2, ...
    and stop at the first that finishes before the next release, F(q) <= q*T. Known to be
    unsafe (Regehr, RTSS 2002); kept here to show it on an example."""
    t = tasks[i]
    blocking = max(
        (u.wcet for u in tasks if u.priority > t.priority and u.threshold <= t.priority),
        default=0,
    )
    hp = [u for u in tasks if u.priority < t.priority]
    above = [u for u in tasks if u.priority < t.threshold]
    worst, q = 0, 0
    while True:
        q += 1
        s = 0
        while (
            ns := blocking + (q - 1) * t.wcet + sum((s // u.period + 1) * u.wcet for u in hp)
        ) != s:
            s = ns
        f = s + t.wcet
        while (
            nf := s + t.wcet + sum((-(-f // u.period) - s // u.period - 1) * u.wcet for u in above)
        ) != f:
            f = nf
        worst = max(worst, f - (q - 1) * t.period)
        if f <= q * t.period:
            return worst


# ---- hand-worked task sets -----------------------------------------------------------------


def test_burns_wellings_preemptive_example() -> None:
    # Burns & Wellings, "Real-Time Systems and Programming Languages" (3rd ed., Addison-Wesley
    # 2001), the worked example of response-time analysis: a (T=7, C=3), b (T=12, C=3),
    # c (T=20, C=5), rate-monotonic; published R = 3, 6, 20. By hand for c: w = 5 + 3 + 3 = 11,
    # 5 + 2*3 + 1*3 = 14, 5 + 2*3 + 2*3 = 17, 5 + 3*3 + 2*3 = 20, 5 + 3*3 + 2*3 = 20.
    tasks = [Task("a", 7, 3, 7, 0, 0), Task("b", 12, 3, 12, 1, 1), Task("c", 20, 5, 20, 2, 2)]
    result = analyze(tasks)
    assert responses(tasks) == [3, 6, 20]
    assert result.schedulable
    assert [r.jobs_checked for r in result.tasks] == [1, 1, 1]


def test_lehoczky_arbitrary_deadline_example() -> None:
    # Lehoczky, "Fixed priority scheduling of periodic task sets with arbitrary deadlines",
    # RTSS 1990, example 3: t1 (T=70, C=26), t2 (T=100, C=62), rate-monotonic. t2 misses a
    # deadline equal to its period but meets 118, its worst-case response, which is not its
    # first job's. By hand, t2's jobs finish at 114, 202, 316, 404, 518, 606, 694 (each: the
    # fixed point of w = (q+1)*62 + ceil(w/70)*26), responses 114, 102, 116, 104, 118, 106, 94;
    # the busy period (694 = 7*62 + 10*26) ends before the eighth job arrives at 700.
    tasks = [Task("t1", 70, 26, 70, 0, 0), Task("t2", 100, 62, 118, 1, 1)]
    result = analyze(tasks)
    assert result.tasks[1].response == 118
    assert result.tasks[1].jobs_checked == 7
    assert result.schedulable
    late = analyze([tasks[0], Task("t2", 100, 62, 100, 1, 1)])
    assert not late.schedulable
    assert late.tasks[1].reason == "response 118 > deadline 100 by 18"
    lines = explain(tasks, "t2")
    finishes = [line for line in lines if line.startswith("  R(")]
    assert [int(line.rsplit("= ", 1)[1]) for line in finishes] == [114, 102, 116, 104, 118, 106, 94]


def test_non_preemptive_busy_period_reaches_the_second_job() -> None:
    # The situation of Davis, Burns, Bril & Lukkien, "Controller Area Network (CAN)
    # schedulability analysis: refuted, revisited and revised" (RTS 2007): non-preemptive
    # A, B, C of equal length, C's second job is its worst. Numbers worked here (half-ms):
    # A (T=5, C=2), B (T=7, C=2), C (T=7, C=2), all thresholds 0. C's first job starts at 4,
    # ends at 6 <= 7: the old rule stops with 6. But A's second job (released 5) and B's
    # (released 7) run 6-10, A's third (10) 10-12, and C's second job (released 7) runs
    # 12-14: response 7. The busy period: L = 14, so two jobs of C are examined.
    tasks = [Task("A", 5, 2, 5, 0, 0), Task("B", 7, 2, 7, 1, 0), Task("C", 7, 2, 7, 2, 0)]
    result = analyze(tasks)
    assert result.tasks[2].response == 7
    assert result.tasks[2].jobs_checked == 2
    assert unsafe_stopping_rule(tasks, 2) == 6


def test_unsafe_stopping_rule_with_a_threshold() -> None:
    # Constructed and worked by hand (searched for among random sets; the discrete-time
    # scheduler below agrees): t0 (T=13, C=6, p0), t1 (T=16, C=6, p1, threshold 0: never
    # preempted), t2 (T=20, C=2, p2, threshold 1: t1 may not preempt it, t0 may).
    # From the synchronous release: t0 0-6, t1 6-12, t2 12-13, t0 (13) preempts it 13-19,
    # t2 resumes (t1's job of 16 is below its threshold) 19-20: job 1 ends at 20 <= T, and
    # Wang & Saksena's original rule stops there with R = 20 (the value asserted below).
    # The level-2 busy period goes on: t1 (16) 20-26, t0 (26) 26-32, t1 (32) 32-38, t2's
    # second job (released 20) 38-39, t0 (39) preempts 39-45, t2 45-46: response 46 - 20 = 26.
    # The corrected analysis: S(1) = 2 + 6*(floor(S/13)+1) + 6*(floor(S/16)+1):
    # 14, 20, 26, 32, 38, 38; F(1) = 38 + 2 + 6*(ceil(F/13) - floor(38/13) - 1): 40, 46, 46.
    tasks = [
        Task("t0", 13, 6, 39, 0, 0),
        Task("t1", 16, 6, 48, 1, 0),
        Task("t2", 20, 2, 25, 2, 1),
    ]
    assert unsafe_stopping_rule(tasks, 2) == 20
    result = analyze(tasks)
    assert result.tasks[2].response == 26
    assert not result.tasks[2].schedulable  # D = 25: the unsafe rule would have accepted it
    worst, _ = simulate(tasks, [0, 0, 0], 13 * 16 * 20)
    assert worst[2] == 26
    lines = explain(tasks, "t2")
    assert "  S5 = 0 + 1*2 + 3*6(t0) + 3*6(t1) = 38" in lines
    assert "  F2 = 38 + 2 + 1*6(t0) = 46" in lines


def test_threshold_makes_a_set_schedulable() -> None:
    # Worked by hand: t1 (T=70, C=20, D=50), t2 (T=80, C=20, D=80), t3 (T=200, C=35, D=100),
    # deadline-monotonic. Fully preemptive, t3: 35+20+20 = 75, 35+40+20 = 95,
    # 35+40+40 = 115 > 100. Non-preemptive, t1 is blocked by t3: 35 + 20 = 55 > 50.
    # Thresholds t2 -> 0, t3 -> 1: t1 blocked by t2 only (40); t2 blocked by t3 (S = 35+20,
    # F = 75); t3 starts after t1 and t2 (40), only t1 preempts: F = 40+35+20 = 95.
    def three(t2: int, t3: int) -> list[Task]:
        return [
            Task("t1", 70, 20, 50, 0, 0),
            Task("t2", 80, 20, 80, 1, t2),
            Task("t3", 200, 35, 100, 2, t3),
        ]

    assert responses(three(1, 2)) == [20, 40, 115]
    assert responses(three(0, 0)) == [55, 75, 75]
    assert responses(three(0, 1)) == [40, 75, 95]
    resolved = resolve([Task(t.name, t.period, t.wcet, t.deadline) for t in three(0, 0)])
    assert [(t.priority, t.threshold) for t in resolved] == [(0, 0), (1, 0), (2, 1)]
    result = analyze(resolved)
    assert result.schedulable
    assert result.groups == [["t1", "t2"], ["t3"]]


def test_overheads_are_explicit_terms() -> None:
    # Worked by hand: a (T=10, C=2, p0), b (T=20, C=4, p1); switch 1, release 1.
    # C* = C + 2*switch: a 4, b 6. For b: L = 4+6+2 = 12, then 2*4 + 1*6 + 3 releases = 17,
    # stable. S = 1*4 + 2 releases = 6; F = 6 + 6 = 12, then 6 + 6 + 1*4 (a at 10) + 1 release
    # (a's at 10) = 17, stable: R = 17. Without overheads R = 6.
    tasks = [Task("a", 10, 2, 10, 0, 0), Task("b", 20, 4, 20, 1, 1)]
    assert responses(tasks) == [2, 6]
    with_costs = Overheads(switch=1, release=1, source="test")
    assert responses(tasks, with_costs) == [6, 17]
    result = analyze(tasks, with_costs)
    assert result.overheads == with_costs
    assert any(
        "2 releases" in line or "2*1(releases)" in line for line in explain(tasks, "b", with_costs)
    )


def test_release_overhead_reaches_a_non_preemptive_thread() -> None:
    # A release runs at interrupt level: it delays even a thread no other thread may preempt.
    # lo (T=100, C=10, threshold 0) under hi (T=7, C=1): without overheads lo's response is
    # hi's job (1) + 10 + nothing = 11; with a release cost of 2 every release of hi
    # (and lo's own) costs 2 more cycles, preemptions or not: S = 1 + 2*2 (hi, lo at 0) = 5,
    # F = 5 + 10 + 2*2 (hi at 7, 14) = 19 (F0 = 15, F1 = 15 + 2*1 = 17, F2 = 15 + 2*2 = 19).
    tasks = [Task("hi", 7, 1, 7, 0, 0), Task("lo", 100, 10, 100, 1, 0)]
    assert responses(tasks) == [11, 11]
    assert responses(tasks, Overheads(release=2))[1] == 19


def test_default_overheads_come_from_cm_switch() -> None:
    # bench/cm_switch case (b): 163.02 (qemu-m3) and 170.02 (qemu-m4) instructions per switch,
    # 1.25 instructions per 25 MHz cycle under -icount shift=5, rounded up.
    m3, m4, sim = (
        default_overheads("qemu-m3"),
        default_overheads("qemu-m4"),
        default_overheads("sim"),
    )
    assert (m3.switch, m3.release) == (131, 0)
    assert (m4.switch, m4.release) == (137, 0)
    assert (sim.switch, sim.release) == (0, 0)
    assert "163.02" in m3.source and "cm_switch" in m3.source
    assert "170.02" in m4.source
    assert "tc_sim_set_switch_cost" in sim.source
    with pytest.raises(AnalysisError, match="no default overheads for target 'qemu-m7'"):
        default_overheads("qemu-m7")
    # In the cycles of the clock a description counts in: 163.02 instructions of 32 ns are
    # 5,216.64 ns, 260.8 cycles at 50 MHz, 0.0052 at 1 kHz (a whole cycle, rounded up).
    assert default_overheads("qemu-m3", 50_000_000).switch == 261
    assert default_overheads("qemu-m3", 1_000).switch == 1
    assert "1,000 Hz" in default_overheads("qemu-m3", 1_000).source
    for bad in (0, -5, 2.5, True):
        with pytest.raises(AnalysisError, match="clock must be a positive integer"):
            default_overheads("qemu-m4", bad)  # type: ignore[arg-type]


def test_switch_bound_and_hyperperiod() -> None:
    # Burns & Wellings' set: hyperperiod lcm(7, 12, 20) = 420. c's jobs: 420/20 = 21; within
    # its response 20, a is released ceil(20/7) = 3 times and b ceil(20/12) = 2 times: at most
    # 5 preemptions; switches 21 * 2 * (1 + 5) = 252. a: 60 jobs, never preempted: 120.
    tasks = [Task("a", 7, 3, 7, 0, 0), Task("b", 12, 3, 12, 1, 1), Task("c", 20, 5, 20, 2, 2)]
    result = analyze(tasks)
    assert result.hyperperiod == 420 and not result.hyperperiod_capped
    assert [r.preemptions for r in result.tasks] == [0, 1, 5]
    assert [r.switches_per_hyperperiod for r in result.tasks] == [120, 140, 252]
    # c non-preemptive: no preemption, 21 * 2 switches.
    np_c = analyze([*tasks[:2], Task("c", 20, 5, 20, 2, 0)])
    assert np_c.tasks[2].preemptions == 0
    assert np_c.tasks[2].switches_per_hyperperiod == 42


def test_huge_hyperperiod_is_capped() -> None:
    primes = [1009, 1013, 1019, 1021, 1031]
    tasks = [Task(f"p{k}", p, 1, p, k, k) for k, p in enumerate(primes)]
    result = analyze(tasks)
    assert result.hyperperiod_capped
    assert result.hyperperiod == HYPERPERIOD_CAP_PERIODS * 1031
    assert result.tasks[0].switches_per_hyperperiod == 2 * math.ceil(result.hyperperiod / 1009)


def test_groups_and_stacks() -> None:
    tasks = [
        Task("t1", 70, 20, 50, 0, 0, stack=100),
        Task("t2", 80, 20, 80, 1, 0, stack=200),
        Task("t3", 200, 35, 100, 2, 1, stack=300),
        Task("t4", 400, 10, 400, 3, 3, stack=50),
    ]
    result = analyze(tasks)
    assert result.groups == [["t1", "t2"], ["t3"], ["t4"]]
    assert result.stack_separate == 650
    assert result.stack_shared == 200 + 300 + 50
    # All non-preemptive: one group, one stack.
    np_all = analyze(
        [Task(t.name, t.period, t.wcet, 1000, t.priority, 0, stack=t.stack) for t in tasks]
    )
    assert np_all.groups == [["t1", "t2", "t3", "t4"]]
    assert np_all.stack_shared == 300


def test_divergence_is_reported_not_looped() -> None:
    over = [Task("a", 10, 6, 10, 0, 0), Task("b", 10, 5, 100, 1, 1)]
    result = analyze(over)
    assert result.tasks[0].response == 6
    assert result.tasks[1].response is None
    assert not result.schedulable
    assert result.tasks[1].reason.startswith("diverges: utilisation at priority <= 1")
    assert result.tasks[1].switches_per_hyperperiod == 0


def test_horizon_stops_a_long_busy_period(monkeypatch: pytest.MonkeyPatch) -> None:
    # Lehoczky's set has a level-2 busy period of 694 cycles; with the horizon at one longest
    # period (118) it is not followed: response None, not a loop.
    monkeypatch.setattr(analysis, "HORIZON_FACTOR", 1)
    result = analyze([Task("t1", 70, 26, 70, 0, 0), Task("t2", 100, 62, 118, 1, 1)])
    assert result.tasks[1].response is None
    assert result.tasks[1].reason == "diverges: busy period beyond the horizon (118 cycles)"


def test_mutex_blocking_with_inheritance() -> None:
    # Priority inheritance: in a busy period at most one section per lower-priority thread
    # (test_a_busy_period_is_blocked_once_per_lower_thread says why not once per mutex). H uses
    # m1 and m2; L1 holds m1 for 3, L2 holds m2 for 4: B = 3 + 4 = 7. M (between, no mutex)
    # is blocked too (push-through): 7.
    h = Task(
        "H",
        100,
        5,
        100,
        0,
        0,
        critical_sections=(CriticalSection("m1", 1), CriticalSection("m2", 1)),
    )
    m = Task("M", 200, 10, 200, 1, 1)
    l1 = Task("L1", 400, 10, 400, 2, 2, critical_sections=(CriticalSection("m1", 3),))
    l2 = Task("L2", 800, 10, 800, 3, 3, critical_sections=(CriticalSection("m2", 4),))
    result = analyze([h, m, l1, l2])
    assert [r.blocking for r in result.tasks] == [7, 7, 4, 0]
    assert result.tasks[0].response == 12
    # One lower thread holding both: once per thread, its longer section, 6.
    l1b = Task(
        "L1",
        400,
        10,
        400,
        2,
        2,
        critical_sections=(CriticalSection("m1", 3), CriticalSection("m2", 6)),
    )
    assert analyze([h, m, l1b]).tasks[0].blocking == 6


def test_a_busy_period_is_blocked_once_per_lower_thread() -> None:
    # Priority inheritance blocks one job at most once per mutex (Sha, Rajkumar & Lehoczky,
    # IEEE ToC 1990), but a busy period of several jobs may meet one mutex twice: L2 (C 5)
    # locks m at 0; L1 (C 7, released at 1) waits for it from 2; H (T 3, C 2, released at 3)
    # waits too, gets it when L2 unlocks at 5 and completes at 7. Its unlock at 6 handed m to
    # the waiting L1, so H's next job, pending since 6, waits for L1's section: 7-12, and ends
    # at 14, a response of 8 (the engine runs this schedule: test_simulator.py). Once per
    # mutex would give B = max(5, 4) = 5 and R = 7; once per lower thread, 5 + 4 = 9 and 11.
    h = Task("H", 3, 2, 12, 0, 0, critical_sections=(CriticalSection("m", 1),))
    l1 = Task("L1", 40, 7, 40, 1, 1, critical_sections=(CriticalSection("m", 5),))
    l2 = Task("L2", 40, 5, 40, 2, 2, critical_sections=(CriticalSection("m", 4),))
    result = analyze([h, l1, l2])
    assert result.tasks[0].blocking == 9
    assert result.tasks[0].response == 11


def test_a_section_that_may_wait_costs_two_switches() -> None:
    # H (C 5) and L (C 10) share m; each may wait in its section: away to the holder and back,
    # two switches more per such section. With 2 cycles per switch: C*_H = 5 + 2*2*(1 + 1) =
    # 13, B = L's section, 6: R = 19. (The engine, test_simulator.py: H released at 2 while L
    # holds m from 1 takes 16 = 3 switches + 5 + L's 5 left; two switches per job would give
    # 15.)
    h = Task("H", 100, 5, 100, 0, 0, critical_sections=(CriticalSection("m", 1),))
    lo = Task("L", 100, 10, 100, 1, 1, critical_sections=(CriticalSection("m", 6),))
    plain = Task("P", 100, 10, 100, 2, 2)
    result = analyze([h, lo, plain], Overheads(2, 0))
    assert result.tasks[0].blocking == 6
    assert result.tasks[0].response == 19
    # P waits for nothing: its own two switches; H's and L's jobs with theirs.
    assert result.tasks[2].response == 10 + 4 + 13 + 18
    assert (
        "w = 1 (its sections that may wait) = 13"
        in explain([h, lo, plain], "H", Overheads(2, 0))[1]
    )


def test_a_hand_over_preempts_the_holder_again() -> None:
    # L holds m from 1 to 5 of its work; H, released at 2, preempts it, waits for m, and takes
    # it at L's unlock: a second preemption of L's job by one release of H.
    h = Task("H", 100, 3, 100, 0, 0, critical_sections=(CriticalSection("m", 1),))
    lo = Task("L", 100, 10, 100, 1, 1, critical_sections=(CriticalSection("m", 4),))
    result = analyze([h, lo])
    assert result.tasks[1].preemptions == 2
    # Without the mutex, one.
    assert analyze([h, replace(lo, critical_sections=())]).tasks[1].preemptions == 1


def test_mutex_without_inheritance_and_the_threshold_fix() -> None:
    # Carbone's experiment (docs/priority-inversion.md): High and Low share a mutex without
    # inheritance, Medium does not. Low fully preemptive: Medium may preempt Low while High
    # waits, the inversion is unbounded. Low's threshold at High's priority bounds it.
    def story(low_threshold: int | None) -> list[Task]:
        return [
            Task("High", 150, 20, 150, 0, 0, critical_sections=(CriticalSection("mx", 20, False),)),
            Task("Medium", 100, 30, 100, 1, 1),
            Task(
                "Low",
                220,
                20,
                400,
                2,
                low_threshold,
                critical_sections=(CriticalSection("mx", 20, False),),
            ),
        ]

    plain = analyze(story(2))
    assert plain.tasks[0].response is None
    assert "unbounded priority inversion" in plain.tasks[0].reason
    assert "'Medium'" in plain.tasks[0].reason
    bounded = analyze(story(0))
    assert bounded.tasks[0].response == 40  # its own 20 after Low's whole job (threshold)
    # assign_thresholds finds the fix itself.
    resolved = assign_thresholds(story(None))
    assert resolved[2].threshold == 0
    assert analyze(resolved).schedulable


def test_explain_matches_analyze() -> None:
    tasks = [
        Task("t0", 13, 6, 39, 0, 0),
        Task("t1", 16, 6, 48, 1, 0),
        Task("t2", 20, 2, 25, 2, 1),
    ]
    for t, r in zip(tasks, analyze(tasks).tasks, strict=True):
        lines = explain(tasks, t.name)
        assert lines[0].startswith(f"thread {t.name}: priority {t.priority}")
        assert lines[-1].startswith(
            f"result: R = max over the {r.jobs_checked} job(s) = {r.response} "
        )
    over = [Task("a", 10, 6, 10, 0, 0), Task("b", 10, 5, 100, 1, 1)]
    assert explain(over, "b")[-1].startswith("result: no bound (diverges")


def test_priority_policies() -> None:
    tasks = [Task("slow", 100, 10, 30), Task("fast", 20, 2, 20), Task("mid", 50, 5, 50)]
    assert [t.priority for t in assign_priorities(tasks, "rm")] == [2, 0, 1]
    assert [t.priority for t in assign_priorities(tasks, "dm")] == [1, 0, 2]
    assert all(t.threshold is None for t in assign_priorities(tasks, "dm"))


def test_audsley_beats_deadline_monotonic_with_jitter() -> None:
    # Deadline-monotonic is not optimal once release jitter counts against the deadline;
    # Audsley's assignment is. Worked by hand: a (T=10, C=4, D=9), b (T=20, C=5, D=15, J=9).
    # DM puts a first: b = J + w, w = 5 + ceil(w/10)*4 = 9, so 18 > 15. b first:
    # a: w = 4 + ceil((w + 9)/20)*5 = 9 <= 9, b: 9 + 5 = 14 <= 15.
    a = Task("a", 10, 4, 9)
    b = Task("b", 20, 5, 15, jitter=9)
    dm = resolve([a, b], "dm")
    assert not analyze(dm).schedulable
    opa = resolve([a, b], "audsley")
    assert [t.priority for t in opa] == [1, 0]
    result = analyze(opa)
    assert result.schedulable
    assert [r.response for r in result.tasks] == [9, 14]


def test_mixed_explicit_and_auto_priorities() -> None:
    tasks = [Task("x", 10, 1, 10, priority=5), Task("a", 5, 1, 5), Task("b", 20, 1, 20)]
    assert [t.priority for t in assign_priorities(tasks, "dm")] == [5, 0, 6]
    assert [t.priority for t in assign_priorities(tasks, "audsley")] == [5, 0, 6]
    # An automatic thread between two explicit ones with no free number between them.
    tight = [
        Task("x", 10, 1, 10, priority=1),
        Task("y", 30, 1, 30, priority=2),
        Task("a", 20, 1, 20),
    ]
    with pytest.raises(
        AnalysisError, match=r"no room for automatic priorities of a: 1 needed between 1 and 2"
    ):
        assign_priorities(tight, "dm")
    # Explicit thresholds are kept; an explicit threshold with an auto priority must fit.
    kept = assign_thresholds(
        [Task("a", 10, 1, 10, 0, 0), Task("b", 20, 1, 20, priority=1, threshold=1)]
    )
    assert kept[1].threshold == 1
    with pytest.raises(
        AnalysisError, match="thread 'b': threshold 5 is weaker than the priority 1"
    ):
        assign_priorities([Task("a", 10, 1, 10, priority=0), Task("b", 20, 1, 20, threshold=5)])


# ---- random task sets ----------------------------------------------------------------------


def uunifast(total: Fraction, draws: list[float]) -> list[float]:
    """Bini & Buttazzo (RTS 2005): n utilisations summing to ``total``, uniformly spread."""
    out, left = [], float(total)
    n = len(draws) + 1
    for k, r in enumerate(draws):
        nxt = left * r ** (1 / (n - k - 1))
        out.append(left - nxt)
        left = nxt
    out.append(left)
    return out


@st.composite
def task_sets(
    draw: st.DrawFn,
    n_max: int = 6,
    periods: st.SearchStrategy[int] = ANY_PERIOD,
    jitter: bool = True,
    u_max: int = 95,
) -> list[Task]:
    """Distinct priorities in a random order; deadlines from C to 3T; jitter up to T/4."""
    n = draw(st.integers(2, n_max))
    total = Fraction(draw(st.integers(20, u_max)), 100)
    utils = uunifast(total, [draw(st.floats(0.0, 1.0)) for _ in range(n - 1)])
    order = draw(st.permutations(range(n)))
    tasks = []
    for k, u in enumerate(utils):
        period = draw(periods)
        wcet = max(1, round(u * period))
        deadline = draw(st.integers(wcet, 3 * period))
        jit = draw(st.integers(0, period // 4)) if jitter else 0
        tasks.append(Task(f"t{k}", period, wcet, deadline, priority=order[k], jitter=jit))
    return tasks


def with_thresholds(tasks: list[Task], thresholds: list[int]) -> list[Task]:
    return [
        Task(t.name, t.period, t.wcet, t.deadline, t.priority, th, jitter=t.jitter)
        for t, th in zip(tasks, thresholds, strict=True)
    ]


@prop(1500)
@given(task_sets())
def test_thresholds_at_priorities_is_classic_rta(tasks: list[Task]) -> None:
    preemptive = with_thresholds(tasks, [t.priority for t in tasks])  # type: ignore[misc]
    assert responses(preemptive) == classic_rta(preemptive)


@prop(1500)
@given(task_sets())
def test_thresholds_at_top_is_non_preemptive_rta(tasks: list[Task]) -> None:
    np = with_thresholds(tasks, [0] * len(tasks))
    assert responses(np) == np_rta(np)


@st.composite
def thresholded(draw: st.DrawFn, **kwargs: object) -> list[Task]:
    tasks = draw(task_sets(**kwargs))  # type: ignore[arg-type]
    return with_thresholds(tasks, [draw(st.integers(0, t.priority)) for t in tasks])  # type: ignore[arg-type]


@prop(1000)
@given(thresholded(), st.integers(0, 5), st.integers(1, 50))
def test_longer_wcet_never_shortens_a_response(tasks: list[Task], which: int, more: int) -> None:
    k = which % len(tasks)
    t = tasks[k]
    longer = [
        *tasks[:k],
        Task(
            t.name,
            t.period,
            t.wcet + more,
            max(t.deadline, t.wcet + more),
            t.priority,
            t.threshold,
            jitter=t.jitter,
        ),
        *tasks[k + 1 :],
    ]
    for before, after in zip(responses(tasks), responses(longer), strict=True):
        if before is None:
            assert after is None
        elif after is not None:
            assert after >= before


# Periods dividing 240: every hyperperiod is at most 240, so the scheduler runs it quickly.
SHORT_PERIODS = st.sampled_from([8, 10, 12, 15, 16, 20, 24, 30, 40, 48, 60, 80, 120, 240])


@prop(500)
@given(
    thresholded(periods=SHORT_PERIODS, jitter=False),
    st.lists(st.integers(0, 239), min_size=6, max_size=6),
)
def test_no_schedule_beats_the_analysis(tasks: list[Task], phases: list[int]) -> None:
    """Sound: from the synchronous release and from random offsets, no job of the scheduler
    takes longer than the analysis says, and no thread switches more than predicted."""
    result = analyze(tasks)
    hyper = result.hyperperiod
    event(f"all bounded: {all(r.response is not None for r in result.tasks)}")
    for offsets in ([0] * len(tasks), [p % t.period for p, t in zip(phases, tasks, strict=False)]):
        worst, _ = simulate(tasks, offsets, 2 * hyper)
        for r, seen in zip(result.tasks, worst, strict=True):
            if r.response is not None:
                assert seen <= r.response, (r.name, seen, r.response)
    _, switches = simulate(tasks, [0] * len(tasks), hyper)
    for r, seen in zip(result.tasks, switches, strict=True):
        if r.response is not None and all(x.response is not None for x in result.tasks):
            assert seen <= r.switches_per_hyperperiod, (r.name, seen, r.switches_per_hyperperiod)


@prop(300)
@given(task_sets(periods=SHORT_PERIODS, jitter=False))
def test_preemptive_analysis_is_exact_at_the_critical_instant(tasks: list[Task]) -> None:
    """Fully preemptive, released together, no jitter: the scheduler reaches every bound."""
    preemptive = with_thresholds(tasks, [t.priority for t in tasks])  # type: ignore[misc]
    result = analyze(preemptive)
    worst, _ = simulate(preemptive, [0] * len(tasks), 2 * result.hyperperiod)
    for r, seen in zip(result.tasks, worst, strict=True):
        if r.response is not None:
            assert seen == r.response, (r.name, seen, r.response)


@st.composite
def planted(draw: st.DrawFn, n_max: int = 6, preemptive: bool = False) -> list[Task]:
    """Sets where thresholds matter: a random threshold assignment is planted and every
    deadline set to the response it gives (so that assignment is schedulable), then, in about
    a quarter of the sets, deadlines are shaved by a few cycles (some become infeasible).
    ``preemptive``: the planted assignment is the random priority order, fully preemptive."""
    tasks = draw(task_sets(n_max=n_max))
    star = with_thresholds(
        tasks,
        [t.priority if preemptive else draw(st.integers(0, t.priority)) for t in tasks],  # type: ignore[misc]
    )
    found = responses(star)
    assume(None not in found)
    shave = draw(st.booleans()) and draw(st.booleans())
    return [
        Task(
            t.name,
            t.period,
            t.wcet,
            max(1, r - (draw(st.integers(0, 5)) if shave else 0)),  # type: ignore[operator]
            t.priority,
            jitter=t.jitter,
        )
        for t, r in zip(tasks, found, strict=True)
    ]


@prop(400)
@given(planted())
def test_chosen_thresholds_are_maximal(tasks: list[Task]) -> None:
    resolved = assign_thresholds(tasks)
    result = analyze(resolved)
    event(f"schedulable after resolve: {result.schedulable}")
    if not result.schedulable:
        return
    event(f"non-preemptive pairs: {any(t.threshold < t.priority for t in resolved)}")  # type: ignore[operator]
    priorities = sorted({t.priority for t in resolved})  # type: ignore[type-var]
    for k, t in enumerate(resolved):
        stronger = [p for p in priorities if p < t.threshold]  # type: ignore[operator]
        if not stronger:
            continue  # nothing may preempt it already
        raised = [
            *resolved[:k],
            Task(t.name, t.period, t.wcet, t.deadline, t.priority, stronger[-1], jitter=t.jitter),
            *resolved[k + 1 :],
        ]
        assert not analyze(raised).schedulable, (k, [(x.priority, x.threshold) for x in resolved])


@prop(300)
@given(planted(n_max=4))
def test_thresholds_found_whenever_some_exist(tasks: list[Task]) -> None:
    """Wang & Saksena's feasibility phase against every threshold assignment."""
    by_priority = with_thresholds(tasks, [t.priority for t in tasks])  # type: ignore[misc]
    choices = [range(t.priority + 1) for t in by_priority]  # type: ignore[operator]
    exists = any(
        analyze(with_thresholds(by_priority, list(combo))).schedulable
        for combo in itertools.product(*choices)
    )
    auto = [Task(t.name, t.period, t.wcet, t.deadline, t.priority, jitter=t.jitter) for t in tasks]
    preemptive_ok = analyze(by_priority).schedulable
    event(f"fully preemptive schedulable: {preemptive_ok}; some thresholds schedulable: {exists}")
    assert analyze(assign_thresholds(auto)).schedulable == exists


@prop(300)
@given(planted(n_max=4, preemptive=True))
def test_audsley_finds_an_order_whenever_one_exists(tasks: list[Task]) -> None:
    """OPA against every priority order, fully preemptive; and it never does worse than dm."""
    auto = [Task(t.name, t.period, t.wcet, t.deadline, jitter=t.jitter) for t in tasks]

    def preemptive(order: tuple[int, ...]) -> list[Task]:
        return [
            Task(t.name, t.period, t.wcet, t.deadline, p, p, jitter=t.jitter)
            for t, p in zip(auto, order, strict=True)
        ]

    exists = any(
        analyze(preemptive(o)).schedulable for o in itertools.permutations(range(len(auto)))
    )
    opa = assign_priorities(auto, "audsley")
    assert analyze(preemptive(tuple(t.priority for t in opa))).schedulable == exists  # type: ignore[misc]
    dm = assign_priorities(auto, "dm")
    dm_ok = analyze(preemptive(tuple(t.priority for t in dm))).schedulable  # type: ignore[misc]
    event(f"some order schedulable: {exists}; dm schedulable: {dm_ok}")
    if dm_ok:
        assert exists


def test_resolve_is_deterministic_on_a_seeded_set() -> None:
    rng = random.Random(12)
    tasks = [Task(f"t{k}", rng.randint(100, 1000), rng.randint(1, 20), 1000) for k in range(12)]
    assert resolve(tasks) == resolve(list(tasks))


# ---- bad input -----------------------------------------------------------------------------

GOOD = Task("a", 10, 1, 10, 0, 0)


@pytest.mark.parametrize(
    ("tasks", "message"),
    [
        ("ab", "tasks must be a sequence of Task"),
        (None, "tasks must be a sequence of Task"),
        ([], "no threads to analyse"),
        ([GOOD, 3], r"tasks\[1\] is not a Task \(got int\)"),
        ([Task("", 10, 1, 10, 0, 0)], r"tasks\[0\]: name must be a non-empty string"),
        ([GOOD, Task("a", 20, 1, 20, 1, 1)], "thread 'a': duplicate name"),
        ([Task("a", 0, 1, 10, 0, 0)], r"thread 'a': period must be a positive integer \(got 0\)"),
        ([Task("a", 10, 0, 10, 0, 0)], r"thread 'a': wcet must be a positive integer \(got 0\)"),
        (
            [Task("a", 10, 1, -5, 0, 0)],
            r"thread 'a': deadline must be a positive integer \(got -5\)",
        ),
        (
            [Task("a", 10.5, 1, 10, 0, 0)],
            r"thread 'a': period must be a positive integer \(got 10.5\)",
        ),  # type: ignore[arg-type]
        (
            [Task("a", True, 1, 10, 0, 0)],
            r"thread 'a': period must be a positive integer \(got True\)",
        ),  # type: ignore[arg-type]
        ([Task("a", 10, 1, 10, 0, 0, jitter=-1)], r"thread 'a': jitter must be an integer >= 0"),
        ([Task("a", 10, 1, 10, 0, 0, offset=-1)], r"thread 'a': offset must be an integer >= 0"),
        ([Task("a", 10, 1, 10, 0, 0, stack=-8)], r"thread 'a': stack must be an integer >= 0"),
        ([Task("a", 10, 1, 10, 256, 0)], r"thread 'a': priority 256 out of range 0..255"),
        ([Task("a", 10, 1, 10, -1, 0)], r"thread 'a': priority must be an integer >= 0"),
        ([Task("a", 10, 1, 10, 3, 4)], "thread 'a': threshold 4 is weaker than its priority 3"),
        ([Task("a", 10, 1, 10, 3, -1)], r"thread 'a': threshold must be an integer >= 0"),
        (
            [Task("a", 10, 1, 10, None, 0)],
            r"thread 'a': priority is auto \(None\): resolve\(\) it first",
        ),
        (
            [Task("a", 10, 1, 10, 0, None)],
            r"thread 'a': threshold is auto \(None\): resolve\(\) it first",
        ),
        (
            [Task("a", 10, 1, 10, 0, 0, critical_sections=[CriticalSection("m", 1)])],
            "thread 'a': critical_sections must be a tuple",
        ),  # type: ignore[arg-type]
        (
            [Task("a", 10, 1, 10, 0, 0, critical_sections=("m",))],
            "thread 'a': critical_sections holds a non-CriticalSection",
        ),  # type: ignore[arg-type]
        (
            [Task("a", 10, 1, 10, 0, 0, critical_sections=(CriticalSection("", 1),))],
            "thread 'a': critical section mutex must be a name",
        ),
        (
            [Task("a", 10, 1, 10, 0, 0, critical_sections=(CriticalSection("m", 2),))],
            r"thread 'a': critical section on 'm' must last 0..wcet \(1\) cycles \(got 2\)",
        ),
        (
            [Task("a", 10, 1, 10, 0, 0, critical_sections=(CriticalSection("m", 1, 1),))],
            "thread 'a': critical section inherit must be a bool",
        ),  # type: ignore[arg-type]
        (
            [
                Task("a", 10, 1, 10, 0, 0, critical_sections=(CriticalSection("m", 1),)),
                Task("b", 20, 1, 20, 1, 1, critical_sections=(CriticalSection("m", 1, False),)),
            ],
            "thread 'b': mutex 'm' has inherit=False here but inherit=True in thread 'a'",
        ),
    ],
)
def test_bad_tasks(tasks: object, message: str) -> None:
    with pytest.raises(AnalysisError, match=message) as caught:
        analyze(tasks)  # type: ignore[arg-type]
    assert isinstance(caught.value, TacetError) and caught.value.status == 1


def test_bad_arguments() -> None:
    with pytest.raises(AnalysisError, match=r"priorities must be a positive integer \(got 0\)"):
        analyze([GOOD], priorities=0)
    with pytest.raises(AnalysisError, match=r"overheads must be an Overheads \(got dict\)"):
        analyze([GOOD], {"switch": 1})  # type: ignore[arg-type]
    with pytest.raises(
        AnalysisError, match=r"overheads: switch must be an integer >= 0 \(got -1\)"
    ):
        analyze([GOOD], Overheads(switch=-1))
    with pytest.raises(AnalysisError, match=r"overheads: release must be an integer >= 0"):
        analyze([GOOD], Overheads(release=1.5))  # type: ignore[arg-type]
    with pytest.raises(
        AnalysisError, match="unknown priority policy 'edf' \\(known: rm, dm, audsley\\)"
    ):
        assign_priorities([Task("a", 10, 1, 10)], "edf")
    with pytest.raises(AnalysisError, match="3 threads but only 2 priorities: auto needs one each"):
        assign_priorities([Task(n, 10, 1, 10) for n in "abc"], priorities=2)
    with pytest.raises(
        AnalysisError, match=r"thread 'a': priority is auto \(None\): resolve\(\) it first"
    ):
        assign_thresholds([Task("a", 10, 1, 10)])
    with pytest.raises(AnalysisError, match=r"no thread named 'z' \(threads: a\)"):
        explain([GOOD], "z")
    with pytest.raises(AnalysisError, match=r"thread 'a': threshold is auto"):
        explain([Task("a", 10, 1, 10, 0)], "a")
