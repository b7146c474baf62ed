# SPDX-License-Identifier: MIT
"""Schedulability analysis for fixed-priority preemption-threshold scheduling.

This module is the contract between the system description (``tacet.app.description``: YAML in,
tasks out) and the analysis (``tacet analyze``). Everything here is in integer CPU cycles.

Tacet's priorities: 0 is the most urgent. A thread of priority ``p`` and threshold ``t``
(``t <= p``; ``t == p`` is fully preemptive) may be preempted only by a thread whose priority is
numerically below ``t``.

The equations, their sources and how the kernel's overheads are charged are in
docs/analysis.md; in short:

- ``analyze`` computes each thread's worst-case response time over its level-i busy period,
  checking every job in it (Wang & Saksena, RTCSA 1999, with the corrected stopping rule of
  Regehr, RTSS 2002, and Keskin, Bril & Lukkien, ETFA 2010);
- ``assign_priorities`` gives rate- or deadline-monotonic priorities, or Audsley's optimal
  order;
- ``assign_thresholds`` finds a feasible threshold assignment (Wang & Saksena 1999), then
  raises every automatic threshold as far as it goes without making any thread miss its
  deadline (Saksena & Wang, RTSS 2000), until no single threshold can be raised further;
- ``explain`` prints the derivation for one thread.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from tacet.core.errors import TacetError


@dataclass(frozen=True)
class CriticalSection:
    """A task holds ``mutex`` for at most ``cycles`` per job (priority inheritance or not, as
    the mutex is created)."""

    mutex: str
    cycles: int
    inherit: bool = True


@dataclass(frozen=True)
class Task:
    """One periodic or sporadic thread, as the analysis sees it."""

    name: str
    period: int  # cycles; the minimum inter-arrival time of a sporadic thread
    wcet: int  # cycles, worst case per job
    deadline: int  # cycles after release; may be shorter or longer than the period
    priority: int | None = None  # None: assigned by the analysis ("auto")
    threshold: int | None = None  # None: assigned by the analysis ("auto")
    jitter: int = 0  # release jitter, cycles
    offset: int = 0  # first release (the analysis assumes the critical instant: offsets ignored)
    stack: int = 0  # bytes, for the stack-sharing figures
    critical_sections: tuple[CriticalSection, ...] = ()


@dataclass(frozen=True)
class Overheads:
    """The kernel's own costs, charged as explicit terms (cycles): ``switch`` per context
    switch, ``release`` per job release (the timer or interrupt that makes it ready and the
    scheduler's decision). ``source`` says where the figures come from.

    How they are charged (docs/analysis.md, "Overheads"): every job pays two switches (the one
    that starts it and the one that leaves it when it completes), so C* = C + 2 * switch; a
    preemption's two switches are the preempting job's own pair. ``release`` is interrupt-level
    work: every release of every thread interferes with every thread, whatever the thresholds.
    """

    switch: int = 0
    release: int = 0
    source: str = "none"


@dataclass
class TaskResult:
    name: str
    priority: int
    threshold: int
    response: int | None  # worst-case response time, cycles; None: diverges (unschedulable)
    deadline: int
    schedulable: bool
    blocking: int  # B_i, cycles
    jobs_checked: int  # jobs of the level-i busy period examined
    preemptions: int  # upper bound on the times one job is preempted (0 when response is None)
    switches_per_hyperperiod: int  # upper bound, this thread's switches in and out
    reason: str = ""  # why it is unschedulable ("" when schedulable)


@dataclass
class Result:
    tasks: list[TaskResult]
    schedulable: bool
    hyperperiod: int
    groups: list[list[str]] = field(default_factory=list)  # non-preemptive groups
    stack_shared: int = 0  # worst-case total stack, one stack per group
    stack_separate: int = 0  # every thread its own stack
    overheads: Overheads = field(default_factory=Overheads)
    # True when the lcm of the periods exceeded HYPERPERIOD_CAP_PERIODS times the longest
    # period: ``hyperperiod`` is then that window, and the switch counts are for it.
    hyperperiod_capped: bool = False


class AnalysisError(TacetError):
    """Bad input to the analysis: the message names the thread and the field."""


# A response, busy period, start or finish time beyond this many times the longest period (or
# deadline plus jitter) of the set counts as diverging: the thread is reported unschedulable
# with response None instead of iterating for ever.
HORIZON_FACTOR = 1000
# The hyperperiod (lcm of the periods) is used for the switch counts up to this many times the
# longest period; beyond, that window is used instead and Result.hyperperiod_capped says so.
HYPERPERIOD_CAP_PERIODS = 1000
POLICIES = ("rm", "dm", "audsley")

# ---- the figures behind default_overheads --------------------------------------------------

# bench/cm_switch prints instructions counted by QEMU -icount shift=5: 2^5 ns each of virtual
# time (the mps2 boards' tc_cycles() clock runs at 25 MHz, 40 ns: 1.25 instructions per cycle).
_QEMU_NS_PER_INSTRUCTION = 32
_MPS2_CLOCK_HZ = 25_000_000
# Case (b) of bench/cm_switch, in hundredths of an instruction: one switch of a preemption by
# a semaphore give to a higher-priority thread and of its take back (service, decision,
# PendSV). Printed by the command in docs/analysis.md, "Default overheads".
_CM_SWITCH_B = {"qemu-m3": 16302, "qemu-m4": 17002}


def _cycles_from_instructions_x100(x100: int, clock_hz: int) -> int:
    ns = Fraction(x100, 100) * _QEMU_NS_PER_INSTRUCTION
    return math.ceil(ns * clock_hz / 1_000_000_000)


def default_overheads(target: str, clock_hz: int = _MPS2_CLOCK_HZ) -> Overheads:
    """The kernel's overheads on ``target`` ("sim", "qemu-m3", "qemu-m4") when no measurement
    of the target is at hand.

    - qemu-m3 / qemu-m4: ``switch`` is case (b) of bench/cm_switch (163.02 and 170.02
      instructions per switch: the give that makes a higher-priority thread ready or the take
      that blocks it again, the scheduler's choice and PendSV), turned into time as QEMU runs
      them (32 ns per instruction under -icount shift=5) and into cycles of ``clock_hz``, the
      clock the task set's times are counted in, rounded up: at the boards' 25 MHz tc_cycles()
      clock, 131 and 137 cycles. ``release`` is 0: no benchmark in the repository measures
      the tick's wake-up path yet; the thread-level part of a release (making the thread ready,
      the choice) is inside ``switch``.
    - sim: 0 and 0: the sim port charges tc_sim_set_switch_cost() cycles per switch, 0 unless
      the program sets it, and kernel services take no virtual time.
    """
    if target == "sim":
        return Overheads(
            0,
            0,
            "sim port: tc_sim_set_switch_cost() is 0 unless the program sets it; kernel "
            "services take no virtual time",
        )
    if target in _CM_SWITCH_B:
        x100 = _CM_SWITCH_B[target]
        if not _is_int(clock_hz) or clock_hz < 1:
            raise AnalysisError(f"the clock must be a positive integer of Hz (got {clock_hz!r})")
        cycles = _cycles_from_instructions_x100(x100, clock_hz)
        return Overheads(
            cycles,
            0,
            f"bench/cm_switch on {target} (QEMU -icount shift=5): case (b) "
            f"{x100 // 100}.{x100 % 100:02d} instructions per switch = {cycles} cycles of a "
            f"{clock_hz:,} Hz clock; release not measured (0)",
        )
    raise AnalysisError(
        f"no default overheads for target {target!r} (known: sim, qemu-m3, qemu-m4)"
    )


# ---- input checks --------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_int(name: str, what: str, value: object, minimum: int) -> None:
    if not _is_int(value) or value < minimum:  # type: ignore[operator]
        need = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise AnalysisError(f"thread {name!r}: {what} must be {need} (got {value!r})")


def _check_priorities_arg(priorities: object) -> int:
    if not _is_int(priorities) or priorities < 1:  # type: ignore[operator]
        raise AnalysisError(f"priorities must be a positive integer (got {priorities!r})")
    return priorities  # type: ignore[return-value]


def _check_overheads(overheads: object) -> Overheads:
    if not isinstance(overheads, Overheads):
        raise AnalysisError(f"overheads must be an Overheads (got {type(overheads).__name__})")
    for what in ("switch", "release"):
        value = getattr(overheads, what)
        if not _is_int(value) or value < 0:
            raise AnalysisError(f"overheads: {what} must be an integer >= 0 (got {value!r})")
    return overheads


def _check_tasks(
    tasks: object, priorities: int | None, need_priority: bool, need_threshold: bool
) -> list[Task]:
    if isinstance(tasks, (str, bytes)) or not isinstance(tasks, Sequence):
        raise AnalysisError("tasks must be a sequence of Task")
    if not tasks:
        raise AnalysisError("no threads to analyse")
    seen: set[str] = set()
    inherit: dict[str, tuple[bool, str]] = {}
    for index, task in enumerate(tasks):
        if not isinstance(task, Task):
            raise AnalysisError(f"tasks[{index}] is not a Task (got {type(task).__name__})")
        if not isinstance(task.name, str) or not task.name:
            raise AnalysisError(f"tasks[{index}]: name must be a non-empty string")
        if task.name in seen:
            raise AnalysisError(f"thread {task.name!r}: duplicate name")
        seen.add(task.name)
        name = task.name
        _check_int(name, "period", task.period, 1)
        _check_int(name, "wcet", task.wcet, 1)
        _check_int(name, "deadline", task.deadline, 1)
        _check_int(name, "jitter", task.jitter, 0)
        _check_int(name, "offset", task.offset, 0)
        _check_int(name, "stack", task.stack, 0)
        _check_levels(task, priorities, need_priority, need_threshold)
        _check_sections(task, inherit)
    return list(tasks)


def _check_levels(
    task: Task, priorities: int | None, need_priority: bool, need_threshold: bool
) -> None:
    name = task.name
    if task.priority is None:
        if need_priority:
            raise AnalysisError(f"thread {name!r}: priority is auto (None): resolve() it first")
    else:
        _check_int(name, "priority", task.priority, 0)
        if priorities is not None and task.priority >= priorities:
            raise AnalysisError(
                f"thread {name!r}: priority {task.priority} out of range 0..{priorities - 1}"
            )
    if task.threshold is None:
        if need_threshold:
            raise AnalysisError(f"thread {name!r}: threshold is auto (None): resolve() it first")
        return
    _check_int(name, "threshold", task.threshold, 0)
    if task.priority is not None and task.threshold > task.priority:
        raise AnalysisError(
            f"thread {name!r}: threshold {task.threshold} is weaker than its priority "
            f"{task.priority} (a threshold must be <= the priority; 0 is the most urgent)"
        )


def _check_sections(task: Task, inherit: dict[str, tuple[bool, str]]) -> None:
    name = task.name
    if not isinstance(task.critical_sections, tuple):
        raise AnalysisError(f"thread {name!r}: critical_sections must be a tuple")
    for cs in task.critical_sections:
        if not isinstance(cs, CriticalSection):
            raise AnalysisError(f"thread {name!r}: critical_sections holds a non-CriticalSection")
        if not isinstance(cs.mutex, str) or not cs.mutex:
            raise AnalysisError(f"thread {name!r}: critical section mutex must be a name")
        if not _is_int(cs.cycles) or not 0 <= cs.cycles <= task.wcet:
            raise AnalysisError(
                f"thread {name!r}: critical section on {cs.mutex!r} must last 0..wcet "
                f"({task.wcet}) cycles (got {cs.cycles!r})"
            )
        if not isinstance(cs.inherit, bool):
            raise AnalysisError(f"thread {name!r}: critical section inherit must be a bool")
        first = inherit.setdefault(cs.mutex, (cs.inherit, name))
        if first[0] != cs.inherit:
            raise AnalysisError(
                f"thread {name!r}: mutex {cs.mutex!r} has inherit={cs.inherit} here but "
                f"inherit={first[0]} in thread {first[1]!r} (one mutex, one protocol)"
            )


# ---- the response-time analysis ------------------------------------------------------------


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass
class _Outcome:
    response: int | None
    blocking: int
    jobs: int
    reason: str = ""
    worst_job: int = 0


def _shared_sections(tasks: Sequence[Task], j: int) -> int:
    """The critical sections of thread j in which it may have to wait: those on a mutex that
    another thread also holds for some time."""
    others = {
        cs.mutex for k, t in enumerate(tasks) if k != j for cs in t.critical_sections if cs.cycles
    }
    return sum(1 for cs in tasks[j].critical_sections if cs.cycles and cs.mutex in others)


def _pip_bound(sections: list[tuple[str, int, int]]) -> int:
    """The blocking by mutex sections in a level-i busy period: at most one section of each
    lower-priority thread (the sum of their longest). Priority inheritance blocks one *job* at
    most once per mutex too (Sha, Rajkumar & Lehoczky, IEEE ToC 1990), but not one busy period
    of several jobs: a lower thread waiting for the mutex gets it when a job of i unlocks it,
    and blocks i's next job with it (docs/analysis.md). A lower thread runs in the busy period
    only in a section it holds or is handed, at an inherited priority: one section at most."""
    per_thread: dict[int, int] = {}
    for _mutex, j, cycles in sections:
        per_thread[j] = max(per_thread.get(j, 0), cycles)
    return sum(per_thread.values())


class _Model:
    """The task set as the equations see it. ``prio`` and ``thr`` are lists the priority and
    threshold searches change in place; everything else is fixed."""

    def __init__(
        self, tasks: Sequence[Task], overheads: Overheads, prio: list[int], thr: list[int]
    ) -> None:
        self.tasks = list(tasks)
        self.n = len(tasks)
        self.ov = overheads
        self.prio = prio
        self.thr = thr
        self.period = [t.period for t in tasks]
        self.jitter = [t.jitter for t in tasks]
        # A job pays two switches (the one that starts it, the one that leaves it), and two
        # more for each critical section in which it may wait: away to the holder and back.
        self.waits = [_shared_sections(tasks, j) for j in range(len(tasks))]
        self.cost = [
            t.wcet + 2 * overheads.switch * (1 + self.waits[j]) for j, t in enumerate(tasks)
        ]
        self.deadline = [t.deadline for t in tasks]
        self.horizon = HORIZON_FACTOR * max(
            max(t.period, t.deadline + t.jitter) for t in self.tasks
        )
        self.users: dict[str, list[tuple[int, int]]] = {}
        self.inherit: dict[str, bool] = {}
        for j, t in enumerate(tasks):
            for cs in t.critical_sections:
                self.users.setdefault(cs.mutex, []).append((j, cs.cycles))
                self.inherit[cs.mutex] = cs.inherit

    # -- blocking --

    def blocking(self, i: int) -> tuple[int, str, str]:
        """(B_i, how it was found, why unbounded or "").

        Two kinds of lower-priority thread delay i. One whose threshold reaches i's priority
        (threshold <= p_i) and that started before i's release runs its whole job first: C*_j.
        One that holds a mutex that i, or a thread of priority >= i's whose inheritance
        pushes the holder ahead of i, needs: its critical section (mutex_sections). A thread
        that delayed i through its threshold has finished its job, sections included, before
        i starts, and cannot start another until i completes; so
        B = max(mutex bound over all, max over such j of C*_j + mutex bound without j)."""
        sections, unbounded = self.mutex_sections(i)
        if unbounded:
            return 0, "", unbounded
        mutex_all = _pip_bound(sections)
        best, how = mutex_all, f"mutex sections only: {mutex_all}"
        for j in range(self.n):
            if self.prio[j] > self.prio[i] and self.thr[j] <= self.prio[i]:
                rest = [(m, k, c) for m, k, c in sections if k != j]
                value = self.cost[j] + _pip_bound(rest)
                if value > best:
                    best = value
                    how = f"{self.tasks[j].name}'s job (threshold {self.thr[j]}): C* {self.cost[j]}"
                    if rest:
                        how += f" + mutex sections of others {_pip_bound(rest)}"
        if best == 0:
            how = "no lower-priority thread can delay it"
        if sections:
            how += "; sections that may block it: " + ", ".join(
                f"{self.tasks[k].name} on {m} {c}" for m, k, c in sections
            )
        return best, how, ""

    def mutex_sections(self, i: int) -> tuple[list[tuple[str, int, int]], str]:
        """The critical sections of lower-priority threads that may block i: (mutex, thread,
        cycles), longest per thread and mutex; or why the wait is unbounded.

        A mutex counts when a lower-priority thread uses it and so does a thread of priority
        >= i's. Without inheritance the wait is bounded only when no thread of lower priority
        than i may preempt the holder (its threshold keeps them out)."""
        longest: dict[tuple[str, int], int] = {}
        for mutex in sorted(self.users):
            users = self.users[mutex]
            if not any(self.prio[k] <= self.prio[i] for k, _ in users):
                continue
            for j, cycles in users:
                if self.prio[j] <= self.prio[i] or cycles == 0:
                    continue
                if not self.inherit[mutex]:
                    middle = self._middle(i, j)
                    if middle is not None:
                        return [], (
                            f"unbounded priority inversion: mutex {mutex!r} (no inheritance) "
                            f"held by {self.tasks[j].name!r}, which "
                            f"{self.tasks[middle].name!r} (priority {self.prio[middle]}, below "
                            f"{self.tasks[i].name!r}'s) may preempt"
                        )
                longest[(mutex, j)] = max(longest.get((mutex, j), 0), cycles)
        return [(m, j, c) for (m, j), c in sorted(longest.items())], ""

    def waits_mid_job(self, i: int) -> bool:
        """True when i itself may have to wait for a mutex held by a lower-priority thread:
        its threshold is not in force while it waits (include/tacet/thread.h)."""
        for cs in self.tasks[i].critical_sections:
            if cs.cycles and any(
                self.prio[j] > self.prio[i] and c > 0 for j, c in self.users[cs.mutex]
            ):
                return True
        return False

    def unbounded_holders(self, i: int) -> list[int]:
        """The lower-priority threads holding a mutex without inheritance that i may wait for
        and that a thread of lower priority than i may preempt (i's wait is then unbounded)."""
        holders = []
        for mutex, users in sorted(self.users.items()):
            if self.inherit[mutex] or not any(self.prio[k] <= self.prio[i] for k, _ in users):
                continue
            for j, cycles in users:
                if self.prio[j] > self.prio[i] and cycles > 0 and self._middle(i, j) is not None:
                    holders.append(j)
        return holders

    def _middle(self, i: int, holder: int) -> int | None:
        for k in range(self.n):
            if k != holder and self.prio[k] > self.prio[i] and self.prio[k] < self.thr[holder]:
                return k
        return None

    # -- the response time of one thread --

    def response(
        self, i: int, stop_above: int | None = None, log: Callable[[str], None] | None = None
    ) -> _Outcome:
        """Worst-case response time of thread i over every job of its level-i busy period.

        ``stop_above``: stop at the first job whose response exceeds it (the threshold search
        only needs to know); the response returned is then that job's. ``log`` receives the
        derivation line by line (explain)."""
        say = log if log is not None else _quiet
        blocking, start_set, finish_set, unbounded = self._sets(i, log)
        if unbounded:
            return _Outcome(None, blocking, 0, unbounded)
        reason = self._diverges(i, start_set)
        if reason:
            say(reason)
            return _Outcome(None, blocking, 0, reason)
        length = self._busy_period(i, start_set, blocking, say if log is not None else None)
        if length is None:
            reason = f"diverges: busy period beyond the horizon ({self.horizon} cycles)"
            say(reason)
            return _Outcome(None, blocking, 0, reason)
        c_i, t_i, j_i = self.cost[i], self.period[i], self.jitter[i]
        jobs = _ceil_div(length + j_i, t_i)
        say(f"L = {length}; jobs in it: Q = ceil((L + J)/T) = ceil({length + j_i}/{t_i}) = {jobs}")
        worst, worst_job, start = -1, 0, 0
        for q in range(jobs):
            say(f"job q={q} (arrives at {q * t_i - j_i}):")
            first = blocking + q * c_i + sum(self.cost[j] for j in start_set) + self._n_rel()
            start = self._start(
                i,
                q,
                start_set=start_set,
                blocking=blocking,
                start=max(first, start + c_i if q else 0),
                log=log,
            )
            finish = None if start is None else self._finish(i, q, finish_set, start, log)
            if start is None or finish is None:
                reason = f"diverges: job {q} beyond the horizon ({self.horizon} cycles)"
                say(reason)
                return _Outcome(None, blocking, q + 1, reason)
            response = finish - q * t_i + j_i
            say(f"  R({q}) = F - q*T + J = {finish} - {q * t_i} + {j_i} = {response}")
            if response > worst:
                worst, worst_job = response, q
            if stop_above is not None and response > stop_above:
                return _Outcome(worst, blocking, q + 1, "", worst_job)
        return _Outcome(worst, blocking, jobs, "", worst_job)

    def _sets(
        self, i: int, log: Callable[[str], None] | None
    ) -> tuple[int, list[int], list[int], str]:
        """(B, start set, finish set, why unbounded or "") for thread i."""
        blocking, how, unbounded = self.blocking(i)
        start_set = [j for j in range(self.n) if j != i and self.prio[j] <= self.prio[i]]
        mid_job = self.waits_mid_job(i)
        if mid_job:
            # While i waits for a mutex in the middle of a job, every thread of priority >= i's
            # may run: the threshold does not protect a job that has given up the CPU.
            finish_set = start_set
        else:
            finish_set = [j for j in range(self.n) if j != i and self.prio[j] < self.thr[i]]
        if log is None:
            return blocking, start_set, finish_set, unbounded
        if unbounded:
            log(f"B: {unbounded}")
            return blocking, start_set, finish_set, unbounded
        names = [t.name for t in self.tasks]
        log(f"B = {blocking} ({how})")
        if mid_job:
            log("may wait for a mutex mid-job: every thread of priority <= its own may run then")
        log("start-time interference (priority <= its own): " + _names(names, start_set))
        log("finish-time interference (priority < threshold): " + _names(names, finish_set))
        if self.ov.release:
            log(f"release overhead: {self.ov.release} per release of every thread")
        return blocking, start_set, finish_set, unbounded

    def _n_rel(self) -> int:
        return self.ov.release * self.n

    def _releases(self, t: int) -> int:
        """Releases of every thread in [0, t) (the critical instant's pattern)."""
        if not self.ov.release:
            return 0
        return sum(_ceil_div(t + self.jitter[k], self.period[k]) for k in range(self.n))

    def _releases_upto(self, t: int) -> int:
        """Releases of every thread in [0, t]."""
        if not self.ov.release:
            return 0
        return sum((t + self.jitter[k]) // self.period[k] + 1 for k in range(self.n))

    def _diverges(self, i: int, start_set: list[int]) -> str:
        utilisation = Fraction(self.cost[i], self.period[i])
        for j in start_set:
            utilisation += Fraction(self.cost[j], self.period[j])
        if self.ov.release:
            for k in range(self.n):
                utilisation += Fraction(self.ov.release, self.period[k])
        if utilisation < 1:
            return ""
        return (
            f"diverges: utilisation at priority <= {self.prio[i]} (with overheads) is "
            f"{float(utilisation):.4f} >= 1"
        )

    def _busy_period(
        self, i: int, start_set: list[int], blocking: int, say: Callable[[str], None] | None
    ) -> int | None:
        """The level-i busy period: blocking, then every job of priority <= i's released in it
        (and every release's overhead). None beyond the horizon."""
        hep = [i, *start_set]
        rel = self.ov.release
        length = blocking + sum(self.cost[j] for j in hep) + self._n_rel()
        if say is not None:
            say(
                "busy period: L = B + sum over priority <= its own of ceil((L + J_j)/T_j)*C*_j"
                + (" + release * sum over all of ceil((L + J_k)/T_k)" if rel else "")
            )
            say(f"  L0 = {length}")
        step = 0
        while True:
            step += 1
            terms = [(j, _ceil_div(length + self.jitter[j], self.period[j])) for j in hep]
            releases = self._releases(length)
            nxt = blocking + sum(k * self.cost[j] for j, k in terms) + rel * releases
            if say is not None:
                say(f"  L{step} = {blocking} + {self._terms(terms)}{_rel(rel, releases)} = {nxt}")
            if nxt == length:
                return length
            if nxt > self.horizon:
                return None
            length = nxt

    def _start(
        self,
        i: int,
        q: int,
        *,
        start_set: list[int],
        blocking: int,
        start: int,
        log: Callable[[str], None] | None,
    ) -> int | None:
        """S_i(q): blocking, q jobs of i, and every job of priority <= i's released at or
        before S (one released at S goes first). None beyond the horizon."""
        rel, c_i = self.ov.release, self.cost[i]
        if log is not None:
            log(
                "  S = B + q*C* + sum over start set of (floor((S + J_j)/T_j) + 1)*C*_j"
                + (" + release * releases up to S" if rel else "")
                + f"; S0 = {start}"
            )
        step = 0
        while True:
            step += 1
            terms = [(j, (start + self.jitter[j]) // self.period[j] + 1) for j in start_set]
            releases = self._releases_upto(start)
            nxt = blocking + q * c_i + sum(k * self.cost[j] for j, k in terms) + rel * releases
            if log is not None:
                log(
                    f"  S{step} = {blocking} + {q}*{c_i} + {self._terms(terms)}"
                    f"{_rel(rel, releases)} = {nxt}"
                )
            if nxt == start:
                return start
            if nxt > self.horizon:
                return None
            start = nxt

    def _finish(
        self, i: int, q: int, finish_set: list[int], start: int, log: Callable[[str], None] | None
    ) -> int | None:
        """F_i(q): from S, the job's C* and every job of a thread above i's threshold released
        after S and before F. None beyond the horizon."""
        rel, c_i = self.ov.release, self.cost[i]
        finish = start + c_i
        if log is not None:
            log(
                "  F = S + C* + sum over finish set of (ceil((F + J_j)/T_j)"
                " - floor((S + J_j)/T_j) - 1)*C*_j"
                + (" + release * releases in (S, F)" if rel else "")
                + f"; F0 = {finish}"
            )
        before = [(start + self.jitter[j]) // self.period[j] + 1 for j in finish_set]
        releases_before = self._releases_upto(start)
        step = 0
        while True:
            step += 1
            terms = [
                (j, _ceil_div(finish + self.jitter[j], self.period[j]) - b)
                for j, b in zip(finish_set, before, strict=True)
            ]
            late = self._releases(finish) - releases_before if rel else 0
            nxt = start + c_i + sum(k * self.cost[j] for j, k in terms) + rel * late
            if log is not None:
                log(f"  F{step} = {start} + {c_i} + {self._terms(terms)}{_rel(rel, late)} = {nxt}")
            if nxt == finish:
                return finish
            if nxt > self.horizon:
                return None
            finish = nxt

    def _terms(self, terms: list[tuple[int, int]]) -> str:
        if not terms:
            return "0"
        return " + ".join(f"{k}*{self.cost[j]}({self.tasks[j].name})" for j, k in terms)

    def schedulable(self, i: int) -> bool:
        out = self.response(i, stop_above=self.deadline[i])
        return out.response is not None and out.response <= self.deadline[i]


def _quiet(_line: str) -> None:
    return None


def _names(names: list[str], subset: list[int]) -> str:
    return ", ".join(names[j] for j in subset) if subset else "none"


def _rel(rel: int, count: int) -> str:
    return f" + {count}*{rel}(releases)" if rel else ""


# ---- analyze -------------------------------------------------------------------------------


def _hyperperiod(tasks: Sequence[Task]) -> tuple[int, bool]:
    longest = max(t.period for t in tasks)
    cap = HYPERPERIOD_CAP_PERIODS * longest
    value = 1
    for t in tasks:
        value = math.lcm(value, t.period)
        if value > cap:
            return cap, True
    return value, False


def _groups(tasks: Sequence[Task]) -> list[list[int]]:
    """Saksena & Wang (RTSS 2000): take the most urgent thread not yet in a group; every other
    thread left whose threshold reaches its priority joins it. Members can never preempt one
    another (for two members a, b with p_a <= p_b: t_b <= p_top <= p_a), so one stack serves
    them all as long as a job runs to completion without blocking in the middle."""
    order = sorted(range(len(tasks)), key=lambda j: (tasks[j].priority, j))
    left = list(order)
    groups: list[list[int]] = []
    while left:
        top = left[0]
        top_prio = tasks[top].priority
        assert top_prio is not None
        group = [top] + [j for j in left[1:] if tasks[j].threshold <= top_prio]  # type: ignore[operator]
        groups.append(group)
        left = [j for j in left if j not in group]
    return groups


def analyze(
    tasks: Sequence[Task], overheads: Overheads = Overheads(), priorities: int = 256
) -> Result:
    """Worst-case response times under fixed-priority preemption-threshold scheduling.

    Every task must have its priority and threshold set (resolve() fills the automatic ones).
    Each thread's level-i busy period is computed and every job in it checked; a thread whose
    busy period diverges (utilisation >= 1 at its level, or beyond the horizon) gets response
    None. ``Result.tasks`` is in the order given. Raises AnalysisError on bad input."""
    priorities = _check_priorities_arg(priorities)
    overheads = _check_overheads(overheads)
    checked = _check_tasks(tasks, priorities, need_priority=True, need_threshold=True)
    prio = [t.priority for t in checked]
    thr = [t.threshold for t in checked]
    model = _Model(checked, overheads, prio, thr)  # type: ignore[arg-type]
    hyper, capped = _hyperperiod(checked)
    results = []
    for i, task in enumerate(checked):
        out = model.response(i)
        results.append(_task_result(model, i, task, out, hyper))
    groups = _groups(checked)
    return Result(
        tasks=results,
        schedulable=all(r.schedulable for r in results),
        hyperperiod=hyper,
        groups=[[checked[j].name for j in g] for g in groups],
        stack_shared=sum(max(checked[j].stack for j in g) for g in groups),
        stack_separate=sum(t.stack for t in checked),
        overheads=overheads,
        hyperperiod_capped=capped,
    )


def _task_result(model: _Model, i: int, task: Task, out: _Outcome, hyper: int) -> TaskResult:
    assert task.priority is not None and task.threshold is not None
    response = out.response
    ok = response is not None and response <= task.deadline
    reason = out.reason
    if response is not None and not ok:
        reason = f"response {response} > deadline {task.deadline} by {response - task.deadline}"
    preemptions = switches = 0
    if response is not None:
        # Releases of the threads that may preempt a started job, in a window as long as its
        # response time: each preempts at most once. Per job: switched in once, out once, plus
        # out and back in per preemption and per critical section it may block on.
        mid_job_waits = model.waits_mid_job(i)
        may_preempt = [
            j
            for j in range(model.n)
            if j != i
            and (model.prio[j] < model.thr[i] or (mid_job_waits and model.prio[j] <= model.prio[i]))
        ]
        preemptions = sum(
            _ceil_div(response + model.jitter[j], model.period[j]) for j in may_preempt
        )
        # A thread that preempted i and then waits for a mutex i holds takes it when i unlocks
        # and preempts i a second time: at most once per section of i on a mutex that a
        # thread which may preempt it also locks.
        preemptions += sum(
            1
            for cs in task.critical_sections
            if cs.cycles and any(j in may_preempt for j, c in model.users[cs.mutex] if c)
        )
        jobs = _ceil_div(hyper, task.period)
        switches = jobs * 2 * (1 + preemptions + len(task.critical_sections))
    return TaskResult(
        name=task.name,
        priority=task.priority,
        threshold=task.threshold,
        response=response,
        deadline=task.deadline,
        schedulable=ok,
        blocking=out.blocking,
        jobs_checked=out.jobs,
        preemptions=preemptions,
        switches_per_hyperperiod=switches,
        reason="" if ok else reason,
    )


# ---- priorities ----------------------------------------------------------------------------


def _key(policy: str, task: Task, index: int) -> tuple[int, int, int]:
    if policy == "rm":
        return (task.period, task.deadline, index)
    return (task.deadline, task.period, index)


def assign_priorities(
    tasks: Sequence[Task],
    policy: str = "dm",
    overheads: Overheads = Overheads(),
    priorities: int = 256,
) -> list[Task]:
    """Fill the priorities that are None; explicit ones are kept.

    - "rm": shorter period first (ties: shorter deadline, then the order given);
    - "dm": shorter deadline first (ties: shorter period, then the order given);
    - "audsley": Audsley's optimal priority assignment (OPA): from the least urgent level up,
      the level goes to an automatic thread that meets its deadline there with every thread
      not yet placed above it (the least urgent by "dm" among those that do, so that OPA
      gives the "dm" order whenever that order is schedulable). The test is
      run with every threshold equal to its priority (fully preemptive), for which the
      response-time test is OPA-compatible (Davis, Cucu-Grosjean, Bertogna & Burns, J.
      Systems Architecture 2016, review the conditions): OPA then finds a
      schedulable order whenever one exists. Thresholds are chosen afterwards
      (assign_thresholds), which keeps every deadline, so the result stays schedulable. When
      no automatic thread fits a level the remaining ones are placed in "dm" order (the set
      is then unschedulable with any order under this test).

    Mixed explicit and automatic priorities: the threads are first put in one order, most
    urgent first. Explicit threads keep their relative order (by number, then as given); the
    automatic ones are merged among them by the policy's key ("rm"/"dm"), or placed by OPA,
    which may put an automatic thread at any level but never reorders the explicit ones. Each
    run of automatic threads between two explicit ones (or the ends) then takes the lowest
    free numbers between theirs; AnalysisError when there are not enough. With no explicit
    priority the threads get 0, 1, 2, ... in order.

    An explicit threshold with an automatic priority is kept if it is <= the priority given,
    else AnalysisError. Thresholds that are None stay None (assign_thresholds fills them)."""
    priorities = _check_priorities_arg(priorities)
    overheads = _check_overheads(overheads)
    if policy not in POLICIES:
        raise AnalysisError(f"unknown priority policy {policy!r} (known: {', '.join(POLICIES)})")
    checked = _check_tasks(tasks, priorities, need_priority=False, need_threshold=False)
    if len(checked) > priorities:
        raise AnalysisError(
            f"{len(checked)} threads but only {priorities} priorities: auto needs one each"
        )
    if all(t.priority is not None for t in checked):
        return checked
    explicit = sorted(
        (i for i, t in enumerate(checked) if t.priority is not None),
        key=lambda i: (checked[i].priority, i),
    )
    auto = sorted(
        (i for i, t in enumerate(checked) if t.priority is None),
        key=lambda i: _key("dm" if policy == "audsley" else policy, checked[i], i),
    )
    if policy == "audsley":
        order = _audsley_order(checked, explicit, auto, overheads)
    else:
        order = _merge(checked, explicit, auto, policy)
    numbers = _numbers(checked, order, priorities)
    out = []
    for i, task in enumerate(checked):
        if task.priority is not None:
            out.append(task)
            continue
        if task.threshold is not None and task.threshold > numbers[i]:
            raise AnalysisError(
                f"thread {task.name!r}: threshold {task.threshold} is weaker than the "
                f"priority {numbers[i]} it was given (make the threshold auto too)"
            )
        out.append(replace(task, priority=numbers[i]))
    return out


def _merge(tasks: list[Task], explicit: list[int], auto: list[int], policy: str) -> list[int]:
    order: list[int] = []
    e = a = 0
    while e < len(explicit) or a < len(auto):
        if a < len(auto) and (
            e == len(explicit)
            or _key(policy, tasks[auto[a]], auto[a]) < _key(policy, tasks[explicit[e]], explicit[e])
        ):
            order.append(auto[a])
            a += 1
        else:
            order.append(explicit[e])
            e += 1
    return order


def _audsley_order(
    tasks: list[Task], explicit: list[int], auto: list[int], overheads: Overheads
) -> list[int]:
    """OPA from the least urgent level up; returns the order, most urgent first."""
    n = len(tasks)
    prio = list(range(n))
    model = _Model(tasks, overheads, prio, prio)  # thresholds = priorities: fully preemptive
    remaining_auto = list(auto)  # most urgent first by dm
    remaining_explicit = list(explicit)  # most urgent first
    bottom_up: list[int] = []
    while remaining_auto or remaining_explicit:
        unplaced = [*remaining_explicit, *remaining_auto]
        candidates = list(remaining_auto)
        if remaining_explicit:
            candidates.append(remaining_explicit[-1])
        # The least urgent by dm first: when every thread fits, OPA reproduces dm.
        candidates.sort(key=lambda j: _key("dm", tasks[j], j), reverse=True)
        chosen = None
        for c in candidates:
            _positions(prio, unplaced, c, bottom_up)
            if model.schedulable(c):
                chosen = c
                break
        if chosen is None and remaining_explicit:
            # The explicit thread keeps its place among the explicit ones, fits or not.
            chosen = remaining_explicit[-1]
        if chosen is None:
            # No thread fits this level: the set is unschedulable under this test whatever
            # the order; keep dm for the rest so that analyze() shows who fails.
            return _merge(tasks, remaining_explicit, remaining_auto, "dm") + bottom_up[::-1]
        bottom_up.append(chosen)
        if chosen in remaining_auto:
            remaining_auto.remove(chosen)
        else:
            remaining_explicit.remove(chosen)
    return bottom_up[::-1]


def _positions(prio: list[int], unplaced: list[int], c: int, bottom_up: list[int]) -> None:
    """Priorities for testing c at the lowest free level: the threads not placed yet above it
    (in any order: the test depends only on which threads are above), placed ones below."""
    level = 0
    for j in unplaced:
        if j != c:
            prio[j] = level
            level += 1
    prio[c] = level
    for j in reversed(bottom_up):
        level += 1
        prio[j] = level


def _numbers(tasks: list[Task], order: list[int], priorities: int) -> dict[int, int]:
    """Priority numbers for the automatic threads of ``order`` (most urgent first)."""
    used = {t.priority for t in tasks if t.priority is not None}
    numbers: dict[int, int] = {}
    run: list[int] = []
    below = -1  # the number of the explicit thread before the run
    for i in [*order, -1]:
        if i != -1 and tasks[i].priority is None:
            run.append(i)
            continue
        above = priorities if i == -1 else tasks[i].priority
        assert above is not None
        free = [p for p in range(below + 1, above) if p not in used]
        if len(free) < len(run):
            names = ", ".join(tasks[j].name for j in run)
            raise AnalysisError(
                f"no room for automatic priorities of {names}: {len(run)} needed between "
                f"{below} and {above}, {len(free)} free (space the explicit priorities out, "
                "or make them auto)"
            )
        for j, p in zip(run, free, strict=False):
            numbers[j] = p
        run = []
        if i != -1:
            below = max(below, above)
    return numbers


# ---- thresholds ----------------------------------------------------------------------------


def _next_threshold(model: _Model, i: int, current: int) -> int | None:
    """The next stronger threshold for i worth trying: the priority of the least urgent thread
    that may still preempt it (it may no longer then); None when nothing may preempt it."""
    above = [model.prio[j] for j in range(model.n) if j != i and model.prio[j] < current]
    return max(above) if above else None


def assign_thresholds(
    tasks: Sequence[Task], overheads: Overheads = Overheads(), priorities: int = 256
) -> list[Task]:
    """Fill the thresholds that are None with maximal ones; explicit thresholds are kept.

    Every priority must be set. Thresholds take the values of priorities: threshold p_k means
    "thread k and every less urgent one may not preempt". Two phases:

    1. Feasibility (Wang & Saksena, RTCSA 1999): from the least urgent thread up, an
       automatic threshold starts at the thread's priority and is raised one candidate at a
       time until the thread meets its deadline. A thread's response depends only on the
       thresholds of less urgent threads (its blocking) and on its own, and raising its own
       never lengthens it: this finds a schedulable assignment when one exists for these
       priorities (test_analysis checks it against every assignment of small sets). Before
       a thread is checked, the automatic thresholds of the lower-priority holders of a
       mutex without inheritance that it may wait for are raised to its priority when a
       thread of lower priority than it could otherwise preempt them (unbounded inversion).

    2. Maximality (Saksena & Wang, RTSS 2000): from the most urgent thread down, each
       automatic threshold is raised to the next candidate as long as every thread still
       meets its deadline; raising i's threshold to p_k only adds i's C* to the blocking of
       the threads it now also blocks (priority in [p_k, old threshold)), so those are the
       ones re-checked. Passes repeat until none changes anything: then raising any single
       automatic threshold to its next candidate makes some thread miss its deadline
       (test_analysis checks this property).

    When phase 1 cannot make some thread schedulable, its threshold goes back to its priority
    and phase 2 is skipped (no assignment keeps the set schedulable): analyze() shows who
    fails."""
    priorities = _check_priorities_arg(priorities)
    overheads = _check_overheads(overheads)
    checked = _check_tasks(tasks, priorities, need_priority=True, need_threshold=False)
    prio = [t.priority for t in checked]
    auto = [t.threshold is None for t in checked]
    thr = [t.threshold if t.threshold is not None else t.priority for t in checked]
    model = _Model(checked, overheads, prio, thr)  # type: ignore[arg-type]
    least_urgent_first = sorted(range(len(checked)), key=lambda j: (-prio[j], -j))  # type: ignore[operator]
    feasible = True
    for i in least_urgent_first:
        _bound_inversions(model, i, auto)
        if not auto[i]:
            continue
        while not model.schedulable(i):
            nxt = _next_threshold(model, i, thr[i])
            if nxt is None:
                thr[i] = prio[i]  # type: ignore[call-overload]
                feasible = False
                break
            thr[i] = nxt
    if feasible and all(model.schedulable(i) for i in range(len(checked))):
        _maximise(model, auto, list(reversed(least_urgent_first)))
    return [replace(t, threshold=thr[i]) if auto[i] else t for i, t in enumerate(checked)]


def _bound_inversions(model: _Model, i: int, auto: list[bool]) -> None:
    """When i may wait without bound for a mutex without inheritance (its holder preemptible by
    a thread of lower priority than i), raise the holders' automatic thresholds to i's priority:
    nothing below i may then preempt them (Carbone's fix; the threshold analogue of a priority
    ceiling). Explicit thresholds are left alone (the analysis then reports the inversion)."""
    holders = model.unbounded_holders(i)
    if holders and all(auto[j] for j in holders):
        for j in holders:
            model.thr[j] = min(model.thr[j], model.prio[i])


def _maximise(model: _Model, auto: list[bool], most_urgent_first: list[int]) -> None:
    changed = True
    while changed:
        changed = False
        for i in most_urgent_first:
            if not auto[i]:
                continue
            while True:
                old = model.thr[i]
                nxt = _next_threshold(model, i, old)
                if nxt is None:
                    break
                model.thr[i] = nxt
                newly = [
                    j
                    for j in range(model.n)
                    if j != i and nxt <= model.prio[j] < old and model.prio[j] < model.prio[i]
                ]
                # Without inheritance a mutex holder's threshold also decides whether a
                # higher thread's wait is bounded; re-check everyone then (it only helps, but
                # the check stays simple and safe).
                check = range(model.n) if not all(model.inherit.values()) else newly
                if all(model.schedulable(j) for j in check):
                    changed = True
                    continue
                model.thr[i] = old
                break


def resolve(
    tasks: Sequence[Task],
    policy: str = "dm",
    overheads: Overheads = Overheads(),
    priorities: int = 256,
) -> list[Task]:
    """assign_priorities then assign_thresholds: what `tacet config` and `tacet analyze` call
    when the description says `auto`."""
    with_priorities = assign_priorities(tasks, policy, overheads, priorities)
    return assign_thresholds(with_priorities, overheads, priorities)


# ---- explain -------------------------------------------------------------------------------


def explain(tasks: Sequence[Task], name: str, overheads: Overheads = Overheads()) -> list[str]:
    """The busy-period derivation for thread ``name``, step by step, as lines of text: the
    blocking, the busy period's iterations, each job's start- and finish-time iterations and
    the final response, in the terms of docs/analysis.md. Every priority and threshold must be
    set. The numbers are the ones analyze() computes."""
    overheads = _check_overheads(overheads)
    checked = _check_tasks(tasks, None, need_priority=True, need_threshold=True)
    index = next((i for i, t in enumerate(checked) if t.name == name), None)
    if index is None:
        known = ", ".join(t.name for t in checked)
        raise AnalysisError(f"no thread named {name!r} (threads: {known})")
    prio = [t.priority for t in checked]
    thr = [t.threshold for t in checked]
    model = _Model(checked, overheads, prio, thr)  # type: ignore[arg-type]
    task = checked[index]
    lines = [
        f"thread {task.name}: priority {task.priority}, threshold {task.threshold}, "
        f"period T = {task.period}, deadline D = {task.deadline}, WCET C = {task.wcet}, "
        f"jitter J = {task.jitter} (cycles)",
        f"overheads: switch {overheads.switch}, release {overheads.release} "
        f"(source: {overheads.source}); "
        + (
            f"C* = C + 2*switch*(1 + w), w = {model.waits[index]} (its sections that may wait) = "
            if model.waits[index]
            else "C* = C + 2*switch = "
        )
        + f"{model.cost[index]}",
        "other threads: "
        + (
            "; ".join(
                f"{t.name} (priority {t.priority}, threshold {t.threshold}, C* {model.cost[j]}, "
                f"T {t.period}, J {t.jitter})"
                for j, t in enumerate(checked)
                if j != index
            )
            or "none"
        ),
    ]
    out = model.response(index, log=lines.append)
    if out.response is None:
        lines.append(f"result: no bound ({out.reason}): unschedulable")
    else:
        verdict = "schedulable" if out.response <= task.deadline else "UNSCHEDULABLE"
        lines.append(
            f"result: R = max over the {out.jobs} job(s) = {out.response} (job {out.worst_job})"
            f" against D = {task.deadline}: {verdict}"
        )
    return lines
