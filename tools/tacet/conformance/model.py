# SPDX-License-Identifier: MIT
"""The executable reference model of Tacet's scheduling and object semantics.

This is the specification that docs/kernel.md states in words: given a scenario
(tacet.conformance.scenario), it computes what the kernel must do -- the order in which calls
return, with their statuses, the final state of every thread and object, and the number of context
switches and preemptions. `tacet conformance` runs the same scenarios on the kernel (sim port
and Cortex-M) and compares. It is written to be read; speed is secondary.

The rules, in the order the code below applies them:

Ready set.  One FIFO list per priority (0 is the highest). A thread made ready (resumed,
released from a wait, created started) goes to the back of its list.

The chosen thread.  The scheduler has at most one chosen thread: the one holding the CPU by
the rules (the switch to it may wait for the end of an interrupt handler, for the
scheduler lock, or for an HISR). Its preemption threshold is in force from the moment it is
chosen.

Decisions.  Every change -- a thread made ready, blocked, suspended or ended, a priority or
threshold changed -- is followed at once by a decision, in the order a service makes its
changes (a set that releases three waiters decides three times):
  1. If the chosen thread is still ready, it keeps the CPU unless a ready thread has a
     priority numerically below its threshold; then the head of the highest ready list is
     chosen and the old one is displaced: it moves to the front of its list and, when its
     threshold was in force (threshold < priority), becomes a *preempted* thread.
  2. If the chosen thread gave its turn away (yield), the head of the highest ready list is
     chosen -- itself, when nothing of its priority or above is ready.
  3. If the chosen thread left the ready set, the innermost preempted thread (the one with
     the strictest threshold; among equal ones the most recently preempted) resumes if no
     ready thread is above its threshold; otherwise the head of the highest ready list.
Preempted threads sit at the front of their lists and keep their claim when their priority
changes. A threshold change moves nobody; a priority change moves a ready thread to the
back of its new list, except the chosen thread and a preempted one, which go to the front.

Waiting.  A wait queue serves the highest priority first and, among equal priorities, the
thread that began to wait first. A waiter whose priority changes keeps its turn among the
waiters of its new priority.

Interrupts.  A handler's calls change the ready set at once; the switch happens when the
handler returns. An HISR runs after the handler, before any thread, and changes no thread's
claim to the CPU; its calls may not block.

Mutexes with TC_INHERIT.  An owner's effective priority is the best of its own and of the
first waiter of each inheritance mutex it owns; its effective threshold is the better of its
own threshold and that priority. Recomputed whenever the inputs change (a waiter arrives,
leaves, or changes priority), transitively along a chain of owners.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from tacet.conformance.scenario import (
    CALLER_ERROR,
    EVENT_ALL,
    EVENT_ANY,
    EVENT_CLEAR,
    FULL,
    INVALID,
    NO_INSTANCE,
    NOT_OWNER,
    OK,
    PRIORITY_ERROR,
    STATE_ERROR,
    WAIT_ABORTED,
    Call,
    Outcome,
    Scenario,
)

READY, SUSPENDED, SLEEPING, PENDING, COMPLETED, TERMINATED = (
    "ready",
    "suspended",
    "sleeping",
    "pending",
    "completed",
    "terminated",
)

PRIORITIES = 256  # TC_PRIORITIES of the default build

Result = tuple[int, int | None]  # a call's status, and the value it reports (if any)


@dataclass(eq=False)
class Thread:
    index: int
    user_priority: int
    user_threshold: int
    script: tuple[Call, ...]
    priority: int = 0  # effective: inheritance included
    threshold: int = 0
    state: str = SUSPENDED
    preempted: bool = False  # preempted while its threshold was in force
    suspend_after: bool = False  # suspended while waiting: suspend when the wait ends
    wait_queue: WaitQueue | None = None
    wait_seq: int = 0  # when its current wait began
    wait_data: dict = field(default_factory=dict)  # what the object needs to serve it
    pc: int = 0  # the call it makes next, or is making
    entered: bool = False  # has run at least once
    result: Result | None = None  # of the call in progress, once decided
    owned: list[Mutex] = field(default_factory=list)


class Hisr:
    """The context of the scenario's HISR (there is one): not a thread."""


@dataclass(eq=False)
class WaitQueue:
    threads: list[Thread] = field(default_factory=list)
    # Told when a waiter leaves other than by being served, or changes priority (mutex.c).
    changed: Callable[[], None] | None = None

    def insert(self, t: Thread) -> None:
        """Behind every waiter served before it: higher priority, or equal and earlier."""
        i = 0
        while i < len(self.threads) and (
            self.threads[i].priority < t.priority
            or (self.threads[i].priority == t.priority and self.threads[i].wait_seq < t.wait_seq)
        ):
            i += 1
        self.threads.insert(i, t)


@dataclass(eq=False)
class Sem:
    count: int
    maximum: int
    waiters: WaitQueue = field(default_factory=WaitQueue)


@dataclass(eq=False)
class Queue:
    depth: int
    messages: deque[int] = field(default_factory=deque)
    waiters: WaitQueue = field(default_factory=WaitQueue)  # receivers, or senders


@dataclass(eq=False)
class Event:
    flags: int = 0
    waiters: WaitQueue = field(default_factory=WaitQueue)


@dataclass(eq=False)
class Mutex:
    inherit: bool
    owner: Thread | None = None
    count: int = 0
    waiters: WaitQueue = field(default_factory=WaitQueue)


THREAD, ISR, HISR = "thread", "isr", "hisr"


class Kernel:
    """One run of one scenario."""

    def __init__(self, sc: Scenario) -> None:
        self.sc = sc
        self.threads = [
            Thread(i, t.priority, t.threshold, t.script, t.priority, t.threshold)
            for i, t in enumerate(sc.threads)
        ]
        self.sems = [Sem(i, m) for i, m in sc.sems]
        self.queues = [Queue(d) for d in sc.queues]
        self.events = [Event() for _ in range(sc.events)]
        self.mutexes = [Mutex(inherit) for inherit in sc.mutexes]
        for m in self.mutexes:
            if m.inherit:
                m.waiters.changed = lambda m=m: self.update_effective(m.owner)
        self.ready: dict[int, list[Thread]] = {}
        self.preempted: list[Thread] = []  # innermost (strictest threshold) first
        self.chosen: Thread | None = None
        self.next: Thread | Hisr | None = None  # the context to run: the HISR or chosen
        self.current: Thread | Hisr | None = None  # the context on the CPU
        self.last_ran: Thread | Hisr | None = None
        self.started = False
        self.lock_nesting = 0
        self.isr_nesting = 0
        self.wait_seq = 0
        self.chain_active = False  # a mutex chain walk is under way
        self.chain_next: Thread | None = None
        self.hisr = Hisr()
        self.hisr_activations: deque[int] = deque()  # HISR lists to run, oldest first
        self.hisr_runs = 0
        self.switches = 0
        self.preemptions = 0
        self.log: list[str] = []
        self.notes: Counter[str] = Counter()  # which rules a run exercised (not compared)
        self.services = self.make_services()

    # ---- the ready set -------------------------------------------------------------------

    def highest_ready(self) -> int | None:
        return min(self.ready) if self.ready else None

    def ready_insert(self, t: Thread, at_front: bool) -> None:
        lst = self.ready.setdefault(t.priority, [])
        if t.preempted:
            lst.insert(0, t)
            self.preempted_add(t)
        elif at_front:  # right behind the preempted threads of its priority
            i = 0
            while i < len(lst) and lst[i].preempted:
                i += 1
            lst.insert(i, t)
        else:
            lst.append(t)

    def ready_remove(self, t: Thread) -> None:
        lst = self.ready[t.priority]
        lst.remove(t)
        if not lst:
            del self.ready[t.priority]
        if t.preempted:
            t.preempted = False
            self.preempted.remove(t)

    def preempted_add(self, t: Thread) -> None:
        """Before every preempted thread whose threshold is not stricter."""
        i = 0
        while i < len(self.preempted) and self.preempted[i].threshold < t.threshold:
            i += 1
        self.preempted.insert(i, t)

    def unflag(self, t: Thread) -> None:
        """A preempted thread chosen again: its threshold is in force again."""
        t.preempted = False
        self.preempted.remove(t)
        lst = self.ready[t.priority]
        lst.remove(t)
        i = 0
        while i < len(lst) and lst[i].preempted:
            i += 1
        lst.insert(i, t)

    def displace(self, t: Thread) -> None:
        """The chosen thread loses the CPU while still ready (rule 1)."""
        self.notes[
            "preempted with its threshold in force"
            if t.threshold < t.priority
            else "preempted, fully preemptive"
        ] += 1
        lst = self.ready[t.priority]
        if lst[0] is not t:
            self.ready_remove(t)
            t.preempted = t.threshold < t.priority
            self.ready_insert(t, at_front=True)
        elif t.threshold < t.priority:
            t.preempted = True
            self.preempted_add(t)

    # ---- decisions -----------------------------------------------------------------------

    def choose(self, keep_running: bool) -> Thread | None:
        h = self.highest_ready()
        if h is None:
            return None
        r = self.chosen
        if r is not None and r.state == READY:  # rules 1 and 2
            if keep_running and r.threshold <= h < r.priority:
                self.notes["a higher thread held off by a threshold"] += 1
            return r if keep_running and h >= r.threshold else self.ready[h][0]
        if self.preempted and h >= self.preempted[0].threshold:  # rule 3
            return self.preempted[0]
        return self.ready[h][0]

    def reschedule(self, keep_running: bool = True) -> None:
        if not self.started:  # threads made ready before the start compete at the start
            return
        old = self.chosen
        n = self.choose(keep_running)
        if n is not old:
            if keep_running and old is not None and old.state == READY:
                self.displace(old)
            self.chosen = n
            if n is not None and n.preempted:
                self.notes["a preempted thread resumed with its threshold"] += 1
                self.unflag(n)
        self.next = self.hisr if self.hisr_activations else n

    def dispatch(self) -> None:
        """Switch now, if the context allows: not in a handler, scheduler unlocked."""
        if (
            self.next is not self.current
            and self.lock_nesting == 0
            and self.isr_nesting == 0
            and self.started
        ):
            self.switch()
        elif self.next is not self.current and self.lock_nesting and self.started:
            self.notes["a switch deferred by the scheduler lock"] += 1

    def switch(self) -> None:
        frm, to = self.current, self.next
        if to is not None and to is not self.last_ran and isinstance(to, Thread):
            self.switches += 1
        if isinstance(frm, Thread) and frm.state == READY:
            self.preemptions += 1
        if to is not None:
            self.last_ran = to
        self.current = to

    def set_effective(self, t: Thread, priority: int, threshold: int) -> None:
        if priority == t.priority:
            self.set_threshold(t, threshold)
        elif t.state == READY:
            was_preempted = t.preempted
            self.ready_remove(t)
            t.priority, t.threshold = priority, threshold
            t.preempted = was_preempted and threshold < priority
            self.ready_insert(t, at_front=was_preempted or t is self.chosen)
        else:
            t.priority, t.threshold = priority, threshold
            q = t.wait_queue
            if q is not None:
                q.threads.remove(t)
                q.insert(t)
                if q.changed:
                    q.changed()
        self.reschedule()

    def set_threshold(self, t: Thread, threshold: int) -> None:
        if not t.preempted:
            t.threshold = threshold
        elif threshold < t.priority:
            self.preempted.remove(t)
            t.threshold = threshold
            self.preempted_add(t)
        else:
            self.unflag(t)
            t.threshold = threshold

    # ---- waiting -------------------------------------------------------------------------

    def block(self, t: Thread, q: WaitQueue | None, state: str, **data: object) -> None:
        """`t`, the calling thread, waits; its call's result is decided by whoever wakes it."""
        self.ready_remove(t)
        t.state = state
        t.wait_queue = q
        t.wait_seq = self.wait_seq
        self.wait_seq += 1
        t.wait_data = data
        t.result = None
        if q is not None:
            q.insert(t)
        self.reschedule()
        self.dispatch()

    def wake(self, t: Thread, status: int, value: int | None = None) -> None:
        """End the wait of `t`; if it is still queued the object is told (timeout, abort)."""
        q = t.wait_queue
        if q is not None:
            q.threads.remove(t)
            t.wait_queue = None
            if q.changed:
                q.changed()
        t.result = (status, value)
        if t.suspend_after:
            self.notes["delayed suspension took effect"] += 1
            t.suspend_after = False
            t.state = SUSPENDED
            return
        t.state = READY
        self.ready_insert(t, at_front=False)
        self.reschedule()

    def serve(self, q: WaitQueue, t: Thread, status: int, value: int | None = None) -> None:
        """An object hands what `t` waited for over: off the queue first, no one told."""
        q.threads.remove(t)
        t.wait_queue = None
        self.wake(t, status, value)

    # ---- calling context -----------------------------------------------------------------

    def in_thread(self) -> bool:
        return self.started and self.isr_nesting == 0 and isinstance(self.current, Thread)

    def may_block(self) -> bool:
        return self.in_thread() and self.lock_nesting == 0

    # ---- thread services -----------------------------------------------------------------

    def make_ready(self, t: Thread) -> None:
        t.state = READY
        self.ready_insert(t, at_front=False)
        self.reschedule()

    def finish(self, t: Thread, final_state: str) -> None:
        """`t` completes or is terminated: out of every list, its mutexes handed over."""
        if t.state == READY:
            self.ready_remove(t)
        elif t.state in (SLEEPING, PENDING) and t.wait_queue is not None:
            q = t.wait_queue
            q.threads.remove(t)
            t.wait_queue = None
            if q.changed:
                q.changed()
        t.preempted = t.suspend_after = False
        t.state = final_state
        while t.owned:
            self.mutex_release(t.owned[0])
        t.priority, t.threshold = t.user_priority, t.user_threshold
        self.reschedule()

    def resume(self, t: Thread) -> int:
        if t.state == SUSPENDED:
            self.make_ready(t)
            self.dispatch()
            return OK
        if t.state in (SLEEPING, PENDING) and t.suspend_after:
            t.suspend_after = False
            return OK
        return STATE_ERROR

    def suspend(self, t: Thread) -> int:
        if t.state in (COMPLETED, TERMINATED):
            return STATE_ERROR
        if t.state in (SLEEPING, PENDING):
            t.suspend_after = True
            return OK
        if t.state == READY:
            if t is self.current and self.isr_nesting == 0 and self.lock_nesting != 0:
                return CALLER_ERROR
            self.ready_remove(t)
            t.state = SUSPENDED
            if t is self.current:
                t.result = (OK, None)
            self.reschedule()
            self.dispatch()
        return OK

    def terminate(self, t: Thread) -> int:
        if self.isr_nesting:
            return CALLER_ERROR
        if t.state in (COMPLETED, TERMINATED):
            return OK
        if t is self.current and self.lock_nesting != 0:
            return CALLER_ERROR
        self.finish(t, TERMINATED)
        self.dispatch()
        return OK

    def change(self, t: Thread, priority: int, threshold: int) -> int:
        """The tail of tc_thread_priority_change / tc_thread_threshold_change."""
        if t.state in (COMPLETED, TERMINATED):
            return STATE_ERROR
        if threshold > priority:
            return PRIORITY_ERROR
        t.user_priority, t.user_threshold = priority, threshold
        p, th = self.mutex_effective(t)
        self.set_effective(t, p, th)
        self.dispatch()
        return OK

    def priority_change(self, t: Thread, priority: int) -> int:
        if priority >= PRIORITIES:
            return PRIORITY_ERROR
        if self.isr_nesting:
            return CALLER_ERROR
        # A fully preemptive thread stays so; a chosen threshold stays unless above the priority.
        threshold = t.user_threshold
        if threshold == t.user_priority or threshold > priority:
            threshold = priority
        return self.change(t, priority, threshold)

    def threshold_change(self, t: Thread, threshold: int) -> int:
        if threshold >= PRIORITIES:
            return PRIORITY_ERROR
        if self.isr_nesting:
            return CALLER_ERROR
        return self.change(t, t.user_priority, threshold)

    def wait_abort(self, t: Thread) -> int:
        if t.state not in (SLEEPING, PENDING):
            return STATE_ERROR
        self.wake(t, WAIT_ABORTED)
        self.dispatch()
        return OK

    def yield_(self) -> None:
        r = self.current
        if not self.in_thread() or r.state != READY or self.lock_nesting:
            return
        self.ready_remove(r)  # to the back of its list
        self.ready_insert(r, at_front=False)
        self.reschedule(keep_running=False)
        self.dispatch()

    # ---- semaphores ----------------------------------------------------------------------

    def sem_take(self, s: Sem, wait: bool) -> Result | None:
        if wait and not self.may_block():
            return CALLER_ERROR, None
        if s.count:
            s.count -= 1
            return OK, None
        if not wait:
            return NO_INSTANCE, None
        self.block(self.current, s.waiters, PENDING)
        return None

    def sem_give(self, s: Sem) -> int:
        if s.waiters.threads:
            self.wake(s.waiters.threads[0], OK)  # the unit goes to the waiter, not the count
            self.dispatch()
        elif s.count < s.maximum:
            s.count += 1
        else:
            return FULL
        return OK

    # ---- queues --------------------------------------------------------------------------

    def admit_sender(self, q: Queue) -> None:
        """Room was made: the first waiting sender's message enters the ring."""
        s = q.waiters.threads[0]
        if s.wait_data["front"]:
            q.messages.appendleft(s.wait_data["value"])
        else:
            q.messages.append(s.wait_data["value"])
        self.wake(s, OK)

    def queue_send(self, q: Queue, value: int, front: bool, wait: bool) -> Result | None:
        if wait and not self.may_block():
            return CALLER_ERROR, None
        if not q.messages and q.waiters.threads:  # a receiver waits: straight to it
            self.wake(q.waiters.threads[0], OK, value)
            self.dispatch()
            return OK, None
        if len(q.messages) < q.depth:
            if front:
                q.messages.appendleft(value)
            else:
                q.messages.append(value)
            return OK, None
        if not wait:
            return FULL, None
        self.block(self.current, q.waiters, PENDING, value=value, front=front)
        return None

    def queue_receive(self, q: Queue, wait: bool) -> Result | None:
        if wait and not self.may_block():
            return CALLER_ERROR, None
        if q.messages:
            value = q.messages.popleft()
            if q.waiters.threads:  # senders wait only on a full ring: the slot is theirs
                self.admit_sender(q)
                self.dispatch()
            return OK, value
        if not wait:
            return NO_INSTANCE, None
        self.block(self.current, q.waiters, PENDING)
        return None

    def queue_flush(self, q: Queue) -> int:
        if q.messages:
            q.messages.clear()
            while len(q.messages) < q.depth and q.waiters.threads:
                self.admit_sender(q)
            self.dispatch()
        return OK

    # ---- event flags ---------------------------------------------------------------------

    @staticmethod
    def satisfied(flags: int, requested: int, mode: int) -> bool:
        if mode & EVENT_ALL:
            return flags & requested == requested
        return flags & requested != 0

    def event_set(self, e: Event, flags: int) -> int:
        e.flags |= flags
        seen, consumed, woke = e.flags, 0, 0
        for t in list(e.waiters.threads):  # all tested against the same flags
            if self.satisfied(seen, t.wait_data["flags"], t.wait_data["mode"]):
                if t.wait_data["mode"] & EVENT_CLEAR:
                    consumed |= t.wait_data["flags"]
                self.wake(t, OK, seen)
                woke += 1
        e.flags &= ~consumed
        if woke > 1:
            self.notes["one event set released several waiters"] += 1
        if woke:
            self.dispatch()
        return OK

    def event_wait(self, e: Event, flags: int, mode: int, wait: bool) -> Result | None:
        if flags == 0 or (mode & ~EVENT_CLEAR) not in (EVENT_ANY, EVENT_ALL):
            return INVALID, None
        if wait and not self.may_block():
            return CALLER_ERROR, None
        if self.satisfied(e.flags, flags, mode):
            actual = e.flags
            if mode & EVENT_CLEAR:
                e.flags &= ~flags
            return OK, actual
        if not wait:
            return NO_INSTANCE, None
        self.block(self.current, e.waiters, PENDING, flags=flags, mode=mode)
        return None

    # ---- mutexes -------------------------------------------------------------------------

    def mutex_effective(self, t: Thread) -> tuple[int, int]:
        p, th = t.user_priority, t.user_threshold
        for m in t.owned:
            if m.inherit and m.waiters.threads:
                p = min(p, m.waiters.threads[0].priority)
        return p, min(th, p)

    def update_effective(self, t: Thread | None) -> None:
        """Give `t` the pair the inheritance rule says, then each owner down the chain."""
        if self.chain_active:  # a nested call from the wait-queue hook: the loop goes on
            self.chain_next = t
            return
        self.chain_active = True
        while t is not None:
            p, th = self.mutex_effective(t)
            self.chain_next = None
            if (p, th) != (t.priority, t.threshold):
                self.set_effective(t, p, th)
            t = self.chain_next
        self.chain_active = False

    def mutex_take(self, m: Mutex, t: Thread) -> None:
        m.owner, m.count = t, 1
        t.owned.append(m)

    def mutex_release(self, m: Mutex) -> None:
        """The owner lets go: the mutex passes to the first waiter."""
        m.owner.owned.remove(m)
        m.owner, m.count = None, 0
        if m.waiters.threads:
            w = m.waiters.threads[0]
            self.mutex_take(m, w)
            self.serve(m.waiters, w, OK)

    def mutex_lock(self, m: Mutex, wait: bool) -> Result | None:
        if not self.in_thread() or (wait and self.lock_nesting):
            return CALLER_ERROR, None
        me = self.current
        if m.owner is None:
            self.mutex_take(m, me)
            return OK, None
        if m.owner is me:
            m.count += 1
            return OK, None
        if not wait:
            return NO_INSTANCE, None
        owner = m.owner
        if m.inherit and me.priority < owner.priority:  # lift the owner before queueing
            self.notes["priority inherited"] += 1
            self.set_effective(owner, me.priority, min(owner.threshold, me.priority))
        self.block(me, m.waiters, PENDING)
        return None

    def mutex_unlock(self, m: Mutex) -> int:
        if not self.in_thread():
            return CALLER_ERROR
        me = self.current
        if m.owner is not me:
            return NOT_OWNER
        m.count -= 1
        if m.count == 0:
            self.mutex_release(m)
            self.update_effective(me)
            self.dispatch()
        return OK

    # ---- scheduler lock, interrupts, HISR ------------------------------------------------

    def sched_lock(self) -> None:
        if self.in_thread():
            self.lock_nesting += 1

    def sched_unlock(self) -> None:
        if self.in_thread() and self.lock_nesting:
            self.lock_nesting -= 1
            if self.lock_nesting == 0:
                self.dispatch()

    def hisr_activate(self, index: int) -> int:
        self.hisr_activations.append(index)
        self.reschedule()  # the HISR runs next; the chosen thread keeps its claim
        self.dispatch()
        return OK

    def run_hisr(self) -> None:
        """One activation: the HISR's calls, then the threads (or the next activation)."""
        run = self.hisr_runs
        self.hisr_runs += 1
        self.notes["HISR runs"] += 1
        for j, call in enumerate(self.sc.hisr_lists[self.hisr_activations[0]]):
            self.record(f"h{run}.{j}", self.call(call))
        self.hisr_activations.popleft()
        if not self.hisr_activations:
            self.reschedule()
            self.dispatch()

    def interrupt(self, tag: str, calls: tuple[Call, ...]) -> None:
        self.isr_nesting += 1
        for j, call in enumerate(calls):
            self.record(f"{tag}.{j}", self.call(call))
        self.isr_nesting -= 1
        self.dispatch()

    # ---- one call, from whichever context ------------------------------------------------

    def call(self, c: Call) -> Result | None:
        """Make call `c`; its result, or None when the calling thread blocked (or ended)."""
        a = c.args
        me = self.current if self.in_thread() else None  # the calling thread, if any
        if c.name == "suspend":  # of itself: it returns OK when resumed
            t = self.threads[a[0]]
            was_ready = t.state == READY
            st = self.suspend(t)
            return None if t is me and was_ready and st == OK else (st, None)
        if c.name == "term":  # of itself: it never returns
            t = self.threads[a[0]]
            st = self.terminate(t)
            return None if t is me and t.state == TERMINATED else (st, None)
        return self.services[c.name](*a)

    def make_services(self) -> dict[str, Callable[..., Result | None]]:
        """Every other call, by name: a function of the call's arguments."""

        def status(st: int | None) -> Result:
            return (OK if st is None else st), None

        def sleep() -> Result | None:
            if not self.may_block():
                return CALLER_ERROR, None
            self.block(self.current, None, SLEEPING)
            return None

        def clear(e: int, flags: int) -> Result:
            self.events[e].flags &= ~flags
            return OK, None

        th = self.threads
        return {
            "take": lambda s, w: self.sem_take(self.sems[s], bool(w)),
            "give": lambda s: status(self.sem_give(self.sems[s])),
            "send": lambda q, v, w: self.queue_send(self.queues[q], v, False, bool(w)),
            "sendf": lambda q, v, w: self.queue_send(self.queues[q], v, True, bool(w)),
            "recv": lambda q, w: self.queue_receive(self.queues[q], bool(w)),
            "flush": lambda q: status(self.queue_flush(self.queues[q])),
            "set": lambda e, f: status(self.event_set(self.events[e], f)),
            "clear": clear,
            "wait": lambda e, f, m, w: self.event_wait(self.events[e], f, m, bool(w)),
            "lock": lambda m, w: self.mutex_lock(self.mutexes[m], bool(w)),
            "unlock": lambda m: status(self.mutex_unlock(self.mutexes[m])),
            "resume": lambda t: status(self.resume(th[t])),
            "abort": lambda t: status(self.wait_abort(th[t])),
            "prio": lambda t, p: status(self.priority_change(th[t], p)),
            "thr": lambda t, p: status(self.threshold_change(th[t], p)),
            "yield": lambda: status(self.yield_()),
            "sleep": sleep,
            "slock": lambda: status(self.sched_lock()),
            "sunlock": lambda: status(self.sched_unlock()),
            "hisr": lambda h: status(self.hisr_activate(h)),
        }

    def record(self, tag: str, result: Result) -> None:
        status, value = result
        self.log.append(
            f"{tag}={status}" + (f"/{value}" if status == OK and value is not None else "")
        )

    # ---- the run -------------------------------------------------------------------------

    def run(self) -> Outcome:
        for t in self.threads:
            if self.sc.threads[t.index].started:
                self.make_ready(t)
        self.started = True
        self.reschedule(keep_running=False)
        self.dispatch()
        while self.current is not None:
            if self.current is self.hisr:
                self.run_hisr()
                continue
            t = self.current
            if t.entered:  # back from its call: it returns
                assert t.result is not None, f"thread {t.index} resumed with no result"
                self.record(f"t{t.index}.{t.pc}", t.result)
                t.result = None
                t.pc += 1
            t.entered = True
            if t.pc == len(t.script):  # its entry function returns
                self.lock_nesting = 0
                self.finish(t, COMPLETED)
                self.dispatch()
                continue
            c = t.script[t.pc]
            if c.name == "isr":
                t.result = (OK, None)
                self.interrupt(f"i{t.index}.{t.pc}", c.calls)
                continue
            result = self.call(c)
            if result is not None:
                t.result = result
        return self.outcome()

    def outcome(self) -> Outcome:
        def waiters(q: WaitQueue) -> str:
            return " ".join(["w", *(str(w.index) for w in q.threads)])

        lines = [
            f"thread {t.index} {t.state} {t.priority} {t.threshold} {t.user_priority} "
            f"{t.user_threshold}"
            for t in self.threads
        ]
        lines += [f"sem {i} {s.count} {waiters(s.waiters)}" for i, s in enumerate(self.sems)]
        lines += [
            " ".join([f"queue {i} m", *map(str, q.messages), waiters(q.waiters)])
            for i, q in enumerate(self.queues)
        ]
        lines += [f"event {i} {e.flags} {waiters(e.waiters)}" for i, e in enumerate(self.events)]
        lines += [
            f"mutex {i} {'-' if m.owner is None else m.owner.index} {m.count} {waiters(m.waiters)}"
            for i, m in enumerate(self.mutexes)
        ]
        lines.append(f"stats {self.switches} {self.preemptions}")
        out = Outcome(self.sc.ident, self.log, lines)
        out.notes = self.notes
        return out


def predict(sc: Scenario) -> Outcome:
    """What the kernel must do with scenario `sc`."""
    return Kernel(sc).run()
