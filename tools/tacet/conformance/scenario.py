# SPDX-License-Identifier: MIT
"""Scenarios: small multi-thread programs that exercise the scheduling rules, in a text form
that the reference model (tacet.conformance.model), the kernel's scenario interpreter
(tests/conformance.c, on the sim port and on Cortex-M) and anything else that wants to
replay them can read.

A scenario has threads (priority, preemption threshold, started or not), objects
(semaphores, queues of one-word messages, event flag groups, mutexes), an HISR, and for each
thread a script of service calls that it makes in order; an ``isr`` call raises an interrupt
whose handler makes the calls listed with it, and an ``hisr`` call inside a handler
activates the HISR with a list of calls of its own. Nothing waits with a timeout and no time
passes, so the order of events is decided by the scheduling rules alone, and a run ends
when no thread can run any more.

Text form, one directive a line (``#`` starts a comment)::

    scenario 17
    thread 3 2 1            # priority, threshold, started (TC_AUTO_START)
    thread 6 6 0
    sem 0 2                 # initial count, maximum
    queue 2                 # depth (messages are one 32-bit word)
    event
    mutex 1                 # 1 = TC_INHERIT
    hisr give 0 ; resume 1  # HISR call list 0
    do 0 give 0             # thread 0's next call
    do 0 isr give 0 ; hisr 0 ; set 0 3
    do 1 take 0 1
    end

Calls (``W`` is 0 for TC_NO_WAIT, 1 for TC_WAIT_FOREVER; objects and threads by index)::

    take S W | give S                      semaphores
    send Q V W | sendf Q V W | recv Q W | flush Q        queues (sendf: to the front)
    set E F | clear E F | wait E F M W     event flags (M: 1 ANY, 2 ALL, +4 CLEAR)
    lock X W | unlock X                    mutexes
    resume T | suspend T | term T | abort T | prio T P | thr T P
    yield | sleep (forever) | slock | sunlock (scheduler lock)
    isr CALL ; CALL ...                    raise an interrupt (from a thread only)
    hisr H                                 activate the HISR with list H (in an isr only)

The outcome of a run, also text::

    scenario 17
    log t0.0=0 i0.1.0=0 h0.0=0 t1.0=0/5 ...
    thread 0 completed 3 2 3 2             # state, priority, threshold, user ones
    sem 0 1 w                              # count, waiters in queue order
    queue 0 m 5 7 w 1                      # messages front to back, waiters
    event 0 3 w                            # flags, waiters
    mutex 0 - 0 w                          # owner (- when free), lock count, waiters
    stats 5 2                              # context switches, preemptions
    end

Log entries: ``tI.K=S`` thread I's call K returned status S (a tc_status number);
``iI.K.J=S`` call J of the interrupt raised by thread I's call K; ``hA.J=S`` call J of
the A-th run of the HISR. A received message or the flags an event wait reports follow as
``/V`` when the status is TC_OK.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tacet.core.errors import TacetError

# tc_status values (include/tacet/types.h).
OK, TIMEOUT, NO_INSTANCE, FULL, DELETED, WAIT_ABORTED = 0, 1, 2, 3, 4, 5
INVALID, PRIORITY_ERROR, CALLER_ERROR, NOT_OWNER, STATE_ERROR = 6, 7, 8, 9, 10

# Event wait modes (include/tacet/event.h).
EVENT_ANY, EVENT_ALL, EVENT_CLEAR = 1, 2, 4

# Each call: its name and its arguments, by kind: "s" semaphore, "q" queue, "e" event group,
# "m" mutex, "t" thread, "h" HISR list, "w" wait (0/1), "v" a value, "p" a priority.
CALLS: dict[str, str] = {
    "take": "sw",
    "give": "s",
    "send": "qvw",
    "sendf": "qvw",
    "recv": "qw",
    "flush": "q",
    "set": "ev",
    "clear": "ev",
    "wait": "evvw",
    "lock": "mw",
    "unlock": "m",
    "resume": "t",
    "suspend": "t",
    "term": "t",
    "abort": "t",
    "prio": "tp",
    "thr": "tp",
    "yield": "",
    "sleep": "",
    "slock": "",
    "sunlock": "",
    "isr": "",
    "hisr": "h",
}

MAX_THREADS = 8
MAX_CALLS = 16  # per thread, per interrupt, per HISR list
MAX_OBJECTS = 4  # of each type
MAX_PRIORITY = 31


@dataclass(frozen=True)
class Call:
    """One service call: its name, integer arguments and, for ``isr``, the handler's calls."""

    name: str
    args: tuple[int, ...] = ()
    calls: tuple[Call, ...] = ()

    def text(self) -> str:
        if self.name == "isr":
            return "isr " + " ; ".join(c.text() for c in self.calls)
        return " ".join([self.name, *map(str, self.args)])


@dataclass(frozen=True)
class ThreadSpec:
    priority: int
    threshold: int
    started: bool
    script: tuple[Call, ...] = ()


@dataclass(frozen=True)
class Scenario:
    ident: int
    threads: tuple[ThreadSpec, ...]
    sems: tuple[tuple[int, int], ...] = ()  # (initial, maximum)
    queues: tuple[int, ...] = ()  # depth
    events: int = 0  # number of event groups
    mutexes: tuple[bool, ...] = ()  # inherit
    hisr_lists: tuple[tuple[Call, ...], ...] = ()

    def text(self) -> str:
        lines = [f"scenario {self.ident}"]
        lines += [f"thread {t.priority} {t.threshold} {int(t.started)}" for t in self.threads]
        lines += [f"sem {i} {m}" for i, m in self.sems]
        lines += [f"queue {d}" for d in self.queues]
        lines += ["event"] * self.events
        lines += [f"mutex {int(i)}" for i in self.mutexes]
        lines += ["hisr " + " ; ".join(c.text() for c in calls) for calls in self.hisr_lists]
        for i, t in enumerate(self.threads):
            lines += [f"do {i} {c.text()}" for c in t.script]
        lines.append("end")
        return "\n".join(lines) + "\n"


@dataclass
class Outcome:
    """What a run of a scenario produced, in the result text form (see the module doc)."""

    ident: int
    log: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # thread / object / stats lines, in order
    # What the model saw the run exercise (tacet.conformance.model), not part of the text form.
    notes: Counter[str] = field(default_factory=Counter, compare=False)

    def text(self) -> str:
        return (
            "\n".join([f"scenario {self.ident}", "log " + " ".join(self.log), *self.lines, "end"])
            + "\n"
        )


class ScenarioError(TacetError):
    """A scenario text that does not follow the format; the message names the line."""


def _int(tok: str, where: str) -> int:
    try:
        return int(tok, 10)
    except ValueError:
        raise ScenarioError(f"{where}: '{tok}' is not a decimal number") from None


def _check_range(value: int, limit: int, what: str, where: str) -> None:
    if not 0 <= value < limit:
        raise ScenarioError(f"{where}: {what} {value} out of range (0..{limit - 1})")


def _parse_call(tokens: list[str], where: str, in_isr: bool) -> Call:
    if not tokens:
        raise ScenarioError(f"{where}: empty call")
    name, rest = tokens[0], tokens[1:]
    if name not in CALLS:
        raise ScenarioError(f"{where}: unknown call '{name}'")
    if name == "isr":
        if in_isr:
            raise ScenarioError(f"{where}: 'isr' inside an interrupt")
        groups: list[list[str]] = [[]]
        for tok in rest:
            if tok == ";":
                groups.append([])
            else:
                groups[-1].append(tok)
        calls = tuple(_parse_call(g, where, True) for g in groups)
        if len(calls) > MAX_CALLS:
            raise ScenarioError(f"{where}: more than {MAX_CALLS} calls in one interrupt")
        return Call("isr", (), calls)
    if name == "hisr" and not in_isr:
        raise ScenarioError(f"{where}: 'hisr' outside an interrupt")
    kinds = CALLS[name]
    if len(rest) != len(kinds):
        raise ScenarioError(f"{where}: '{name}' takes {len(kinds)} arguments, got {len(rest)}")
    return Call(name, tuple(_int(t, where) for t in rest))


def _check_refs(call: Call, sc: dict[str, int], where: str) -> None:
    limits = {
        "s": ("semaphore", sc["s"]),
        "q": ("queue", sc["q"]),
        "e": ("event group", sc["e"]),
        "m": ("mutex", sc["m"]),
        "t": ("thread", sc["t"]),
        "h": ("HISR list", sc["h"]),
        "w": ("wait", 2),
        "p": ("priority", MAX_PRIORITY + 1),
    }
    for kind, value in zip(CALLS[call.name], call.args, strict=True):
        if kind in limits:
            what, limit = limits[kind]
            _check_range(value, limit, what, where)
        elif value < 0 or value > 0xFFFFFFFF:
            raise ScenarioError(f"{where}: value {value} is not a 32-bit word")
    for c in call.calls:
        _check_refs(c, sc, where)


class _Draft:
    """A scenario being read: one method per directive, each given its arguments."""

    def __init__(self, ident: int) -> None:
        self.ident = ident
        self.threads: list[tuple[int, int, bool]] = []
        self.scripts: list[list[Call]] = []
        self.sems: list[tuple[int, int]] = []
        self.queues: list[int] = []
        self.events = 0
        self.mutexes: list[bool] = []
        self.hisr: list[tuple[Call, ...]] = []
        self.refs: list[tuple[Call, str]] = []  # calls whose references are checked at 'end'

    def thread(self, args: list[str], where: str) -> None:
        if len(args) != 3:
            raise ScenarioError(f"{where}: 'thread' takes priority, threshold, started")
        p, t, s = (_int(a, where) for a in args)
        _check_range(p, MAX_PRIORITY + 1, "priority", where)
        if not 0 <= t <= p:
            raise ScenarioError(f"{where}: threshold {t} not in 0..{p}")
        if s not in (0, 1):
            raise ScenarioError(f"{where}: started must be 0 or 1")
        if len(self.threads) == MAX_THREADS:
            raise ScenarioError(f"{where}: more than {MAX_THREADS} threads")
        self.threads.append((p, t, bool(s)))
        self.scripts.append([])

    def sem(self, args: list[str], where: str) -> None:
        if len(args) != 2:
            raise ScenarioError(f"{where}: 'sem' takes initial count and maximum")
        i, m = (_int(a, where) for a in args)
        if m < 1 or not 0 <= i <= m:
            raise ScenarioError(f"{where}: a semaphore needs 0 <= initial <= maximum, maximum >= 1")
        self.sems.append((i, m))

    def queue(self, args: list[str], where: str) -> None:
        if len(args) != 1 or not 1 <= _int(args[0], where) <= 8:
            raise ScenarioError(f"{where}: 'queue' takes a depth of 1..8")
        self.queues.append(_int(args[0], where))

    def event(self, args: list[str], where: str) -> None:
        if args:
            raise ScenarioError(f"{where}: 'event' takes no arguments")
        self.events += 1

    def mutex(self, args: list[str], where: str) -> None:
        if len(args) != 1 or args[0] not in ("0", "1"):
            raise ScenarioError(f"{where}: 'mutex' takes 0 or 1 (TC_INHERIT)")
        self.mutexes.append(args[0] == "1")

    def hisr_list(self, args: list[str], where: str) -> None:
        call = _parse_call(["isr", *args], where, False)
        if any(c.name == "hisr" for c in call.calls):
            raise ScenarioError(f"{where}: an HISR list cannot activate the HISR")
        self.hisr.append(call.calls)
        self.refs.append((call, where))

    def do(self, args: list[str], where: str) -> None:
        if not args:
            raise ScenarioError(f"{where}: 'do' takes a thread and a call")
        i = _int(args[0], where)
        _check_range(i, len(self.threads), "thread", where)
        call = _parse_call(args[1:], where, False)
        if len(self.scripts[i]) == MAX_CALLS:
            raise ScenarioError(f"{where}: more than {MAX_CALLS} calls for thread {i}")
        self.scripts[i].append(call)
        self.refs.append((call, where))

    def end(self, where: str) -> Scenario:
        counts = {
            "s": len(self.sems),
            "q": len(self.queues),
            "e": self.events,
            "m": len(self.mutexes),
            "t": len(self.threads),
            "h": len(self.hisr),
        }
        if any(n > MAX_OBJECTS for kind, n in counts.items() if kind != "t"):
            raise ScenarioError(f"{where}: more than {MAX_OBJECTS} objects of one type")
        for call, at in self.refs:
            _check_refs(call, counts, at)
        threads = tuple(
            ThreadSpec(p, t, s, tuple(script))
            for (p, t, s), script in zip(self.threads, self.scripts, strict=True)
        )
        return Scenario(
            self.ident,
            threads,
            tuple(self.sems),
            tuple(self.queues),
            self.events,
            tuple(self.mutexes),
            tuple(self.hisr),
        )


_DIRECTIVES = {
    "thread": _Draft.thread,
    "sem": _Draft.sem,
    "queue": _Draft.queue,
    "event": _Draft.event,
    "mutex": _Draft.mutex,
    "hisr": _Draft.hisr_list,
    "do": _Draft.do,
}


def parse_scenarios(text: str, source: str = "<scenarios>") -> list[Scenario]:
    """Every scenario of `text`; ScenarioError names the source and line of a mistake."""
    out: list[Scenario] = []
    draft: _Draft | None = None
    for no, raw in enumerate(text.splitlines(), 1):
        where = f"{source}:{no}"
        line = raw.split("#", 1)[0].split()
        if not line:
            continue
        word, args = line[0], line[1:]
        if word == "scenario":
            if draft is not None:
                raise ScenarioError(f"{where}: 'scenario' before the previous one's 'end'")
            if len(args) != 1:
                raise ScenarioError(f"{where}: 'scenario' takes one number")
            draft = _Draft(_int(args[0], where))
        elif draft is None:
            raise ScenarioError(f"{where}: '{word}' outside a scenario")
        elif word == "end":
            out.append(draft.end(where))
            draft = None
        elif word in _DIRECTIVES:
            _DIRECTIVES[word](draft, args, where)
        else:
            raise ScenarioError(f"{where}: unknown directive '{word}'")
    if draft is not None:
        raise ScenarioError(f"{source}: scenario {draft.ident} has no 'end'")
    return out


def parse_outcomes(text: str, source: str = "<outcomes>") -> list[Outcome]:
    """The outcomes of `text` (the interpreter's output); other lines are not allowed."""
    out: list[Outcome] = []
    cur: Outcome | None = None
    for no, raw in enumerate(text.splitlines(), 1):
        where = f"{source}:{no}"
        words = raw.split()
        if not words:
            continue
        if words[0] == "scenario" and len(words) == 2 and cur is None:
            cur = Outcome(_int(words[1], where))
        elif cur is None:
            raise ScenarioError(f"{where}: '{raw.strip()}' outside an outcome")
        elif words[0] == "log":
            cur.log = words[1:]
        elif words[0] == "end":
            out.append(cur)
            cur = None
        else:
            cur.lines.append(" ".join(words))
    if cur is not None:
        raise ScenarioError(
            f"{source}: the outcome of scenario {cur.ident} has no 'end' (the run was cut short?)"
        )
    return out
