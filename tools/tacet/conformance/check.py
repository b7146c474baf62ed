# SPDX-License-Identifier: MIT
"""``tacet conformance``: random scenarios run on the kernel and on the reference model.

Scenarios (tacet.conformance.scenario) are generated from a seed, run by the kernel's scenario
interpreter (tests/conformance.c) on a target -- the sim port, or Cortex-M under QEMU -- and
predicted by the model (tacet.conformance.model); every outcome must be identical: the order
in which calls return and their statuses, every thread's and object's final state, the context
switch and preemption counts, and no invariant reported by tc_check(). On a divergence the
scenario is shrunk to a minimal one that still diverges, which is printed with both
outcomes, and the command fails.

The scenarios of one seed are the same on every machine, so a failure is reproduced by the
seed and the scenario number it prints.
"""

from __future__ import annotations

import random
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from tacet.conformance.model import predict
from tacet.conformance.scenario import (
    CALLS,
    EVENT_ALL,
    EVENT_ANY,
    EVENT_CLEAR,
    Call,
    Outcome,
    Scenario,
    ScenarioError,
    ThreadSpec,
    parse_outcomes,
)
from tacet.core.errors import TacetError
from tacet.core.targets import Target
from tacet.project.cmake import build, configure, executables

INTERPRETER = "conformance"  # the CMake target of tests/conformance.c

# ---- generating scenarios ---------------------------------------------------------------


@dataclass(frozen=True)
class Profile:
    """What the generated scenarios may use."""

    interrupts: bool = True  # isr calls
    hisr: bool = True  # HISR lists, activated from interrupts
    sched_lock: bool = True  # slock / sunlock
    max_threads: int = 6
    max_calls: int = 8  # per thread


def _pick(rng: random.Random, weights: dict[str, int]) -> str:
    names = list(weights)
    return rng.choices(names, weights=[weights[n] for n in names])[0]


# Event flags of calls: few distinct ones, so that waiters and sets meet.
FLAGS = (1, 1, 2, 3, 3, 5, 7, 15)


def _weights(sc: dict, context: str) -> dict[str, int]:
    """How often each call is drawn, in a thread, an interrupt handler or the HISR."""
    weights = {"resume": 6, "suspend": 4, "prio": 4, "thr": 5, "abort": 1}
    if context != "isr":
        weights |= {"term": 2}
    if context == "thread":
        weights |= {"yield": 3, "sleep": 1}
        if sc["sched_lock"]:
            weights |= {"slock": 2, "sunlock": 2}
        if sc["interrupts"]:
            weights |= {"isr": 4}
    if sc["sems"]:
        weights |= {"take": 6, "give": 6}
    if sc["queues"]:
        weights |= {"send": 4, "sendf": 1, "recv": 4, "flush": 1}
    if sc["events"]:
        weights |= {"set": 4, "clear": 1, "wait": 7}
    if sc["mutexes"]:
        weights |= {"lock": 3, "unlock": 2} if context == "thread" else {"lock": 1}
    if context == "isr" and sc["hisr_lists"]:
        weights |= {"hisr": 4}
    return weights


def _call(rng: random.Random, sc: dict, context: str) -> Call:
    """One random call for a thread, an interrupt handler or the HISR."""
    weights = _weights(sc, context)
    name = _pick(rng, weights)
    if name == "isr":
        return Call(name, (), tuple(_call(rng, sc, "isr") for _ in range(rng.randint(1, 3))))
    wait = int(context == "thread" and rng.random() < 0.7)
    mode = rng.choice((EVENT_ANY, EVENT_ALL)) | (EVENT_CLEAR if rng.random() < 0.5 else 0)
    # One argument of each kind (tacet.conformance.scenario.CALLS), drawn only when the call
    # takes it.
    draw = {
        "s": lambda: rng.randrange(sc["sems"]),
        "q": lambda: rng.randrange(sc["queues"]),
        "e": lambda: rng.randrange(sc["events"]),
        "m": lambda: rng.randrange(sc["mutexes"]),
        "t": lambda: rng.randrange(sc["threads"]),
        "h": lambda: rng.randrange(sc["hisr_lists"]),
        "p": lambda: rng.randint(0, 9),
        "w": lambda: wait,
    }
    args = []
    for kind in CALLS[name]:
        if kind == "v":  # a message, event flags, or (the second v of wait) the mode
            kind_value = rng.randint(1, 99) if name in ("send", "sendf") else rng.choice(FLAGS)
            args.append(mode if name == "wait" and len(args) == 2 else kind_value)
        else:
            args.append(draw[kind]())
    return Call(name, tuple(args))


def generate(rng: random.Random, ident: int, profile: Profile = Profile()) -> Scenario:
    """A random scenario: 2 to 6 threads of priorities 1 to 8 with random thresholds."""
    n = rng.randint(2, profile.max_threads)
    specs = []
    for _ in range(n):
        p = rng.randint(1, 8)
        t = p if rng.random() < 0.4 else rng.randint(0, p)
        specs.append((p, t, rng.random() < 0.7))
    if not any(s for _, _, s in specs):
        specs[0] = (specs[0][0], specs[0][1], True)
    initial = [rng.randint(0, 2) for _ in range(rng.randint(0, 2))]
    sems = tuple((i, rng.randint(max(i, 1), 3)) for i in initial)
    queues = tuple(rng.randint(1, 3) for _ in range(rng.randint(0, 2)))
    events = rng.randint(0, 1)
    mutexes = tuple(rng.random() < 0.6 for _ in range(rng.randint(0, 2)))
    sc = {
        "threads": n,
        "sems": len(sems),
        "queues": len(queues),
        "events": events,
        "mutexes": len(mutexes),
        "hisr_lists": 0,
        "interrupts": profile.interrupts,
        "sched_lock": profile.sched_lock,
    }
    hisr_lists: list[tuple[Call, ...]] = []
    if profile.interrupts and profile.hisr and rng.random() < 0.3:
        hisr_lists = [
            tuple(_call(rng, sc, "hisr") for _ in range(rng.randint(1, 3)))
            for _ in range(rng.randint(1, 2))
        ]
        sc["hisr_lists"] = len(hisr_lists)
    threads = tuple(ThreadSpec(p, t, s, _script(rng, sc, profile.max_calls)) for p, t, s in specs)
    return Scenario(ident, threads, sems, queues, events, mutexes, tuple(hisr_lists))


def _script(rng: random.Random, sc: dict, max_calls: int) -> tuple[Call, ...]:
    """A thread's calls: single calls, and critical sections as code writes them (lock a
    mutex, wake or signal someone, unlock), so that owners hold mutexes while higher threads
    contend for them (inheritance, hand-over, chains)."""
    calls: list[Call] = []
    n = rng.randint(0, max_calls)
    while len(calls) < n:
        if sc["mutexes"] and rng.random() < 0.3:
            m = rng.randrange(sc["mutexes"])
            calls.append(Call("lock", (m, 1)))
            for _ in range(rng.randint(0, 2)):
                calls.append(
                    _call(rng, sc, "thread")
                    if rng.random() < 0.5
                    else Call("resume", (rng.randrange(sc["threads"]),))
                )
            if rng.random() < 0.9:
                calls.append(Call("unlock", (m,)))
        else:
            calls.append(_call(rng, sc, "thread"))
    return tuple(calls[:16])


def scenarios(
    seed: int, first: int, count: int, profile: Profile = Profile()
) -> Iterator[Scenario]:
    """Scenarios first .. first+count-1 of `seed`: each from its own generator, so any one
    can be made again alone."""
    for ident in range(first, first + count):
        yield generate(random.Random(f"{seed}:{ident}"), ident, profile)


# ---- running the interpreter --------------------------------------------------------------


def interpreter_program(target: Target, repo: Path, build_dir: Path) -> Path:
    """Build the scenario interpreter for `target` (configuring its tree if needed)."""
    reply = build_dir / ".cmake" / "api" / "v1" / "reply"
    if not any(reply.glob("index-*.json")):  # not configured, or not by tacet
        configure(target, repo, build_dir, output="on-failure")
    build(build_dir, "the scenario interpreter", INTERPRETER, output="on-failure")
    programs = executables(build_dir)
    if INTERPRETER not in programs:  # configured before the interpreter existed
        configure(target, repo, build_dir, output="on-failure")
        programs = executables(build_dir)
    if INTERPRETER not in programs:
        raise TacetError(f"no '{INTERPRETER}' program in {build_dir}")
    return programs[INTERPRETER]


def interpreter_command(target: Target, program: Path, scenario_file: Path) -> list[str]:
    """The command line that runs the interpreter on `scenario_file`."""
    if not target.emulated:
        return [str(program), str(scenario_file)]

    # Semihosting passes the arguments to main(); a comma in an argument is doubled.
    def arg(a: Path) -> str:
        return "arg=" + str(a).replace(",", ",,")

    command = target.run_command(program)
    i = command.index("-semihosting-config")
    command[i + 1] += f",{arg(program)},{arg(scenario_file)}"
    command[command.index("-icount") + 1] += ",sleep=off"
    return command


def run_batch(
    command: Callable[[Path], list[str]], batch: Sequence[Scenario], timeout: float
) -> list[Outcome]:
    """Run `batch` in one run of the interpreter; its outcomes, in order."""
    with tempfile.TemporaryDirectory(prefix="tacet-conformance-") as tmp:
        path = Path(tmp) / "scenarios.txt"
        path.write_text("".join(sc.text() for sc in batch), encoding="utf-8")
        try:
            done = subprocess.run(
                command(path), capture_output=True, text=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired:
            raise TacetError(
                f"the scenario interpreter ran longer than {timeout:g} s on "
                f"{len(batch)} scenarios (from {batch[0].ident})"
            ) from None
    try:
        outcomes = parse_outcomes(done.stdout, "the interpreter's output")
    except ScenarioError as error:
        raise TacetError(
            f"{error}; exit status {done.returncode}; stderr: {done.stderr.strip()[-500:]}"
        ) from None
    if done.returncode != 0 or len(outcomes) != len(batch):
        raise TacetError(
            f"the scenario interpreter stopped after {len(outcomes)} of "
            f"{len(batch)} scenarios (exit status {done.returncode}): "
            f"{done.stderr.strip()[-500:]}"
        )
    return outcomes


class Interpreter:
    """A running interpreter fed one scenario at a time through a pipe (sim port only):
    for Hypothesis, which asks for one outcome at a time."""

    def __init__(self, program: Path) -> None:
        self.proc = subprocess.Popen(
            [str(program)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def run(self, sc: Scenario) -> Outcome:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(sc.text())
        self.proc.stdin.flush()
        lines = []
        while not lines or lines[-1] != "end":
            line = self.proc.stdout.readline()
            if not line:
                err = self.proc.stderr.read() if self.proc.stderr else ""
                raise TacetError(f"the scenario interpreter ended on scenario {sc.ident}: {err}")
            lines.append(line.strip())
        return parse_outcomes("\n".join(lines), "the interpreter's output")[0]

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=10)


# ---- comparing and shrinking -------------------------------------------------------------


def difference(expected: Outcome, got: Outcome) -> str | None:
    """How `got` differs from `expected`, or None when they agree."""
    if expected.text() == got.text():
        return None
    parts = []
    for i, (e, g) in enumerate(zip(expected.log, got.log, strict=False)):
        if e != g:
            parts.append(f"log entry {i}: model {e}, kernel {g}")
            break
    else:
        if len(expected.log) != len(got.log):
            parts.append(f"log length: model {len(expected.log)}, kernel {len(got.log)}")
    for e in expected.lines:
        if e not in got.lines:
            parts.append(f"model: {e}")
    for g in got.lines:
        if g not in expected.lines:
            parts.append(f"kernel: {g}")
    return "; ".join(parts)


def _with_thread(sc: Scenario, i: int, t: ThreadSpec) -> Scenario:
    return replace(sc, threads=(*sc.threads[:i], t, *sc.threads[i + 1 :]))


def _without_call(sc: Scenario) -> Iterator[Scenario]:
    for i, t in enumerate(sc.threads):
        for k, c in enumerate(t.script):
            yield _with_thread(sc, i, replace(t, script=t.script[:k] + t.script[k + 1 :]))
            for j in range(len(c.calls)):
                if len(c.calls) > 1:
                    inner = replace(c, calls=c.calls[:j] + c.calls[j + 1 :])
                    script = (*t.script[:k], inner, *t.script[k + 1 :])
                    yield _with_thread(sc, i, replace(t, script=script))
    for h, calls in enumerate(sc.hisr_lists):
        for j in range(len(calls)):
            if len(calls) > 1:
                lists = list(sc.hisr_lists)
                lists[h] = calls[:j] + calls[j + 1 :]
                yield replace(sc, hisr_lists=tuple(lists))


THREAD_CALLS = ("resume", "suspend", "term", "abort", "prio", "thr")


def _refs_thread(c: Call, i: int) -> bool:
    return (c.name in THREAD_CALLS and c.args[0] == i) or any(_refs_thread(s, i) for s in c.calls)


def _renumber(c: Call, i: int) -> Call:
    args = c.args
    if c.name in THREAD_CALLS and args[0] > i:
        args = (args[0] - 1, *args[1:])
    return replace(c, args=args, calls=tuple(_renumber(s, i) for s in c.calls))


def _without_thread(sc: Scenario) -> Iterator[Scenario]:
    for i in range(len(sc.threads)):
        if len(sc.threads) <= 1:
            return
        calls = [c for t in sc.threads for c in t.script] + [c for h in sc.hisr_lists for c in h]
        if any(_refs_thread(c, i) for c in calls):
            continue
        threads = tuple(
            replace(t, script=tuple(_renumber(c, i) for c in t.script))
            for k, t in enumerate(sc.threads)
            if k != i
        )
        lists = tuple(tuple(_renumber(c, i) for c in h) for h in sc.hisr_lists)
        yield replace(sc, threads=threads, hisr_lists=lists)


def _without_hisr_list(sc: Scenario) -> Iterator[Scenario]:
    """The last HISR list, when no call activates it."""

    def uses(c: Call) -> bool:
        return (c.name == "hisr" and c.args[0] == len(sc.hisr_lists) - 1) or any(map(uses, c.calls))

    if sc.hisr_lists and not any(uses(c) for t in sc.threads for c in t.script):
        yield replace(sc, hisr_lists=sc.hisr_lists[:-1])


def _simpler_threads(sc: Scenario) -> Iterator[Scenario]:
    for i, t in enumerate(sc.threads):
        options = []
        if t.threshold != t.priority:
            options.append(replace(t, threshold=t.priority))
        if t.priority > 1:
            p = t.priority - 1
            options.append(replace(t, priority=p, threshold=min(t.threshold, p)))
        for o in options:
            yield _with_thread(sc, i, o)


def shrink(sc: Scenario, fails: Callable[[Scenario], bool]) -> Scenario:
    """A smaller scenario that still `fails`: calls, threads and priorities taken away one at a
    time while the failure stays (greedy, to a fixed point)."""
    progress = True
    while progress:
        progress = False
        for smaller in (
            *_without_thread(sc),
            *_without_hisr_list(sc),
            *_without_call(sc),
            *_simpler_threads(sc),
        ):
            if fails(smaller):
                sc, progress = smaller, True
                break
    return sc


# ---- the whole run ------------------------------------------------------------------------


@dataclass
class Tally:
    """What a set of scenarios exercised: enough to see that the comparison was not idle."""

    scenarios: int = 0
    statuses: Counter[str] = field(default_factory=Counter)  # calls returned, by status
    rules: Counter[str] = field(default_factory=Counter)  # the model's notes
    switches: int = 0
    preemptions: int = 0

    def add(self, outcome: Outcome, notes: Counter[str]) -> None:
        self.scenarios += 1
        for entry in outcome.log:
            self.statuses[entry.split("=")[1].split("/")[0]] += 1
        self.rules.update(notes)
        for line in outcome.lines:
            if line.startswith("stats "):
                _, s, p = line.split()
                self.switches += int(s)
                self.preemptions += int(p)

    def merge(self, other: Tally) -> None:
        self.scenarios += other.scenarios
        self.statuses.update(other.statuses)
        self.rules.update(other.rules)
        self.switches += other.switches
        self.preemptions += other.preemptions


@dataclass(frozen=True)
class Job:
    command: list[str]  # with "{file}" where the scenario file goes
    seed: int
    first: int
    count: int
    profile: Profile
    timeout: float


def command_of(job_command: list[str]) -> Callable[[Path], list[str]]:
    return lambda path: [a.replace("{file}", str(path)) for a in job_command]


def verdict(sc: Scenario, got: Outcome, expected: Outcome | None = None) -> str | None:
    """How the kernel's outcome `got` of `sc` departs from the model's (`expected`, computed
    when not given); None when it does not. The model failing is a departure too."""
    if expected is None:
        try:
            expected = predict(sc)
        except Exception as error:
            return f"the model failed: {type(error).__name__}: {error}"
    return difference(expected, got)


def run_job(job: Job) -> tuple[Tally, Scenario | None]:
    """Run scenarios first .. first+count-1; the tally and the first diverging scenario."""
    batch = list(scenarios(job.seed, job.first, job.count, job.profile))
    tally = Tally()
    for sc, got in zip(batch, run_batch(command_of(job.command), batch, job.timeout), strict=True):
        try:
            expected = predict(sc)
        except Exception:
            return tally, sc
        if verdict(sc, got, expected) is not None:
            return tally, sc
        tally.add(got, expected.notes)
    return tally, None


STATUS_NAMES = (
    "OK",
    "TIMEOUT",
    "NO_INSTANCE",
    "FULL",
    "DELETED",
    "WAIT_ABORTED",
    "INVALID",
    "PRIORITY_ERROR",
    "CALLER_ERROR",
    "NOT_OWNER",
    "STATE_ERROR",
)
