# SPDX-License-Identifier: MIT
"""``tacet prove``: the scheduler's ACSL contracts proved by Frama-C's WP (docs/proof.md).

WP runs on kernel/sched.c, unchanged, once for each priority count the build allows, with the
proof's port header (proof/include/tacet_port.h) in place of a real port's. Each goal WP reports
is proved or not; a goal not proved must be listed in docs/proof.md's table of goals not proved,
with its reason, for the priority counts where it stays unproved. The comparison fails both ways:
on a goal not proved and not listed, and on a listed goal that now proves (or no longer exists),
so that the table stays true.
"""

import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tacet.core.errors import TacetError

PRIORITY_COUNTS = (32, 64, 256, 1024)  # include/tacet/config.h allows these and no others
SOURCE = "kernel/sched.c"
DOC = "docs/proof.md"
PROVERS = ("z3", "cvc4")
# A goal's budget is a number of prover steps, not a time, so that a goal proves or not
# whatever the machine's load; the time limit only guards against a prover that hangs.
STEPS = 1_000_000
TIMEOUT = 120  # seconds

# The functions whose contracts WP proves: the ready structure and the choice (kernel/sched.c
# and the inline core of kernel/internal.h). A function not named here is not proved; its
# contract, where it has one, is what its callers' proofs assume.
FUNCTIONS = (
    "tc__list_insert",
    "tc__list_remove",
    "preempted_add",
    "ready_insert_at",
    "ready_insert_flagged",
    "tc__ready_insert",
    "tc__set_priority",
    "tc__ready_map_set",
    "tc__ready_map_clear",
    "tc__map_first",
    "tc__sched_highest_ready",
    "tc__sched_any_ready",
    "tc__ready_append",
    "tc__ready_remove",
    "tc__ready_unlink",
    "tc__displace",
    "displace_for",
    "map_first",
    "ready_head",
    "choose_thread",
    "tc__sched_choose",
    "tc__sched_reschedule",
    "tc__sched_chosen_left",
    "tc__sched_made_ready",
    "tc__sched_set_chosen",
)

# The lemmas that need induction, which WP's SMT provers do not do: each theory of this Why3
# file that has lemmas is named after an axiomatic block of AXIOMS_SOURCES, whose axioms are
# lemmas of the same names there. Why3 proves them: induction over the first inductive
# premise (Why3's transformation INDUCTION_TRANSFORM), then Z3 on each case. A block sits in
# kernel/internal.h once a contract the proof reads uses it, and in AXIOMS_SOURCE until then;
# AXIOMS_SOURCE includes kernel/internal.h, and Frama-C parses it, so that the statements of
# both type-check.
INDUCTION = "proof/reach.mlw"
AXIOMS_SOURCE = "proof/lemmas.c"
AXIOMS_SOURCES = ("kernel/internal.h", AXIOMS_SOURCE)
INDUCTION_TRANSFORM = "induction_pr"
INDUCTION_PROVER = "z3"

# "[wp] [Z3 4.8.12] Goal typed_f_ensures : Valid (...)", "[wp] [Failed] Goal typed_f_assert"
GOAL = re.compile(r"^\[wp\] \[([^\]]+)\] Goal (\S+)(?: : (\w+))?")
# A property named by_cases (`ensures by_cases: ...`) is proved case by case: WP splits its
# goal by the conditions on the paths to it (-wp-split) into typed_f_ensures_by_cases_part01,
# ..., each case with its own path's hypotheses only. The goal is proved when each part is.
BY_CASES = "by_cases"
PART = re.compile(rf"(_{BY_CASES})_part\d+$")  # (WP's own parts of a goal stay apart)
SUMMARY = re.compile(r"^\[wp\] Proved goals:\s+(\d+) / (\d+)")
# A prover's steps, the last figure of its goal line: "... : Valid (Qed:3ms) (30ms) (104149)",
# "(cached)" after it when WP's cache answered. Qed's own proofs take none.
STEPS_TAKEN = re.compile(r"\((\d+)\)(?: \(cached\))?\s*$")
# A goal proved within this share of its budget has room for a change to cost it more steps;
# one above it in every run is the likeliest to stop proving after a change elsewhere. The
# steps are the answering prover's: WP keeps the first of Z3's and CVC4's proofs, so a goal
# both prove may show either's from one run to the next (docs/proof.md).
NEAR_BUDGET = 0.8
LISTED_HEADING = "## Goals not proved"
WP_CACHE = "wp-cache"  # a directory beside the Why3 configuration, in the build tree


@dataclass(frozen=True)
class Listed:
    """A row of docs/proof.md's table: a goal that WP does not prove, where and why."""

    goal: str
    counts: frozenset[int]
    reason: str
    line: int


@dataclass(frozen=True)
class Run:
    """One WP run: each goal and whether it was proved, how long the run took, and the listed
    goals it left out (skip_listed)."""

    priorities: int
    goals: Mapping[str, bool]
    seconds: float
    skipped: frozenset[str] = frozenset()
    steps: Mapping[str, int] = field(default_factory=dict)

    @property
    def proved(self) -> int:
        return sum(self.goals.values())

    def near_budget(self) -> list[tuple[str, int]]:
        """The proved goals whose prover took more than NEAR_BUDGET of the steps allowed, the
        most steps first."""
        near = [
            (g, n) for g, n in self.steps.items() if self.goals.get(g) and n > NEAR_BUDGET * STEPS
        ]
        return sorted(near, key=lambda item: (-item[1], item[0]))

    def most_steps(self) -> tuple[str, int] | None:
        """The proved goal whose prover took the most steps, and how many."""
        proved = [(g, n) for g, n in self.steps.items() if self.goals.get(g)]
        return max(proved, key=lambda item: (item[1], item[0]), default=None)


def parse_wp_output(text: str) -> dict[str, bool]:
    """Each goal WP reported, proved or not (a split goal is proved when each of its parts
    is); fails unless WP's own counts, which count the parts, agree (one summary per pass:
    the functions', then the lemmas')."""
    parts: dict[str, bool] = {}
    summary: tuple[int, int] | None = None
    for line in text.splitlines():
        if m := GOAL.match(line):
            parts[m.group(2)] = m.group(3) == "Valid"
        elif m := SUMMARY.match(line):
            done, scheduled = summary or (0, 0)
            summary = (done + int(m.group(1)), scheduled + int(m.group(2)))
    if summary is None:
        raise TacetError("WP printed no summary (Proved goals: N / M): it did not run to its end")
    if summary != (sum(parts.values()), len(parts)):
        raise TacetError(
            f"WP counted {summary[0]} of {summary[1]} goals proved, but its goal lines say "
            f"{sum(parts.values())} of {len(parts)}"
        )
    goals: dict[str, bool] = {}
    for name, proved in parts.items():
        goal = PART.sub(r"\1", name)
        goals[goal] = goals.get(goal, True) and proved
    return goals


def parse_wp_steps(text: str) -> dict[str, int]:
    """The steps each proved goal's prover took (0 for Qed's own proofs); a goal split case by
    case (BY_CASES) took those of its costliest case."""
    steps: dict[str, int] = {}
    for line in text.splitlines():
        if (m := GOAL.match(line)) and m.group(3) == "Valid":
            taken = STEPS_TAKEN.search(line)
            goal = PART.sub(r"\1", m.group(2))
            steps[goal] = max(steps.get(goal, 0), int(taken.group(1)) if taken else 0)
    return steps


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _counts(cell: str, where: str) -> frozenset[int]:
    """A row's priority counts: "all" or a comma-separated list of PRIORITY_COUNTS."""
    if cell == "all":
        return frozenset(PRIORITY_COUNTS)
    try:
        counts = frozenset(int(c) for c in cell.split(","))
    except ValueError:
        counts = frozenset()
    if not counts or not counts <= set(PRIORITY_COUNTS):
        raise TacetError(
            f"{where}: priorities {cell!r}: 'all' or some of "
            f"{', '.join(map(str, PRIORITY_COUNTS))}, comma-separated"
        )
    return counts


def parse_listed(markdown: str, where: str = DOC) -> dict[str, Listed]:
    """The table of goals not proved, under the heading LISTED_HEADING: goal, priority counts
    ("all" or a comma-separated list), reason. Fails on a row it cannot read, naming its line."""
    listed: dict[str, Listed] = {}
    lines = markdown.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == LISTED_HEADING)
    except StopIteration:
        raise TacetError(f"{where}: no '{LISTED_HEADING}' section") from None
    for number, line in enumerate(lines[start + 1 :], start + 2):
        if line.startswith("## "):
            break
        if not line.startswith("|"):
            continue
        cells = _cells(line)
        if cells[0] in ("goal", "") or set(cells[0]) <= set("-: "):
            continue  # the header and its rule
        if len(cells) != 3:
            raise TacetError(f"{where}:{number}: expected | goal | priorities | reason |")
        goal, counts_cell, reason = cells
        if not re.fullmatch(r"`typed_\w+`", goal):
            raise TacetError(f"{where}:{number}: {goal!r} is not a WP goal name in backquotes")
        goal = goal.strip("`")
        counts = _counts(counts_cell, f"{where}:{number}")
        if not reason:
            raise TacetError(f"{where}:{number}: {goal} is listed without its reason")
        if goal in listed:
            raise TacetError(f"{where}:{number}: {goal} is listed twice (line {listed[goal].line})")
        listed[goal] = Listed(goal, counts, reason, number)
    return listed


def compare(runs: Iterable[Run], listed: Mapping[str, Listed]) -> list[str]:
    """What disagrees between the runs and the table: unproved goals not listed, and listed
    goals that proved or were not there, for each priority count that ran."""
    problems = []
    for run in runs:
        at = f"TC_PRIORITIES={run.priorities}"
        for goal, proved in sorted(run.goals.items()):
            entry = listed.get(goal)
            is_listed = entry is not None and run.priorities in entry.counts
            if not proved and not is_listed:
                problems.append(f"{at}: {goal} is not proved and not listed in {DOC}")
            elif proved and is_listed:
                problems.append(f"{at}: {goal} is proved but listed in {DOC}: remove it")
        for entry in listed.values():
            if entry.goal in run.skipped:
                continue
            if run.priorities in entry.counts and entry.goal not in run.goals:
                problems.append(f"{at}: {entry.goal}, listed in {DOC}, is no goal of the proof")
    return problems


def why3_config(frama_dir: Path) -> Path:
    """A Why3 configuration of this machine's provers, made in the build tree (the user's own
    ~/.why3.conf is left alone)."""
    frama_dir.mkdir(parents=True, exist_ok=True)
    conf = frama_dir / "why3.conf"
    result = subprocess.run(
        ["why3", "--config", str(conf), "config", "detect"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise TacetError(
            f"why3 config detect failed: {(result.stderr or result.stdout).strip()[:200]}"
        )
    return conf


def prover_versions(conf: Path) -> list[str]:
    """'Z3 4.8.12' ... for the provers of PROVERS that the configuration holds."""
    text = conf.read_text()
    found = re.findall(r'name = "([^"]+)"\s*\npath = "[^"]*"\s*\nversion = "([^"]+)"', text)
    versions = {name.lower(): f"{name} {version}" for name, version in found}
    missing = [p for p in PROVERS if p not in versions]
    if missing:
        raise TacetError(
            f"why3 finds no {', '.join(missing)} (make deps installs the provers: z3, cvc4)"
        )
    return [versions[p] for p in PROVERS]


def frama_c_args(repo: Path, priorities: int) -> list[str]:
    """Frama-C's front end on the kernel's sources with the proof's port header."""
    includes = " ".join(f"-I{repo / d}" for d in ("proof/include", "include", "kernel"))
    return ["frama-c", "-c11", f"-cpp-extra-args={includes} -DTC_PRIORITIES={priorities}"]


def _collapse(name: str) -> str:
    return re.sub("_+", "_", name)


# What follows a goal's function in its name: the kind of property, then its ACSL label (a
# call's precondition: the callee's names, then `requires` and the label).
LABELLED = re.compile(r"(?:ensures|assert|check|requires|call_\w+?_requires)_(\w+)")


def skipped_properties(
    goals: Iterable[str], functions: Sequence[str] = FUNCTIONS
) -> dict[str, frozenset[str]]:
    """For each function, the -wp-prop selectors that leave out the properties the goals
    belong to: a property's label, or @assigns for an assigns clause, which has none (then
    each part of that function's assigns clauses goes). WP spells a function's double
    underscores now single, now double; the name is matched both ways."""
    by_function: dict[str, set[str]] = {}
    for goal in goals:
        name = _collapse(goal)
        owners = [f for f in functions if name.startswith(f"typed_{_collapse(f)}_")]
        if not owners:
            raise TacetError(f"{goal}: names none of the functions tacet prove runs WP on")
        function = max(owners, key=len)
        rest = name[len(f"typed_{_collapse(function)}_") :]
        if rest.startswith("assigns"):
            selector = "@assigns"
        elif m := LABELLED.fullmatch(rest):
            selector = m.group(1)
        else:
            raise TacetError(
                f"{goal}: its property has no label to leave it out by (label the clause in "
                "the kernel's ACSL)"
            )
        by_function.setdefault(function, set()).add(selector)
    return {function: frozenset(s) for function, s in by_function.items()}


def wp_command(
    repo: Path,
    priorities: int,
    jobs: int,
    functions: Sequence[str] = FUNCTIONS,
    *,
    skip: Mapping[str, frozenset[str]] | None = None,
    cache: Path | None = None,
) -> list[str]:
    """The Frama-C command line of one run, in passes (-then): the functions' goals; those of
    each function in `skip`, less the properties it names (skipped_properties); the properties
    named BY_CASES, split; the lemmas, which a selection of functions leaves out (a lemma the
    proof uses is a goal like any other). With `cache`, WP's cache directory (run_wp)."""
    skip = skip or {}
    apart = [f for f in functions if skip.get(f, frozenset()) - {BY_CASES}]
    whole = [f for f in functions if f not in apart]
    split = [f for f in functions if BY_CASES not in skip.get(f, ())]
    passes: list[str] = []
    for function in apart:
        selectors = ",".join(f"-{s}" for s in sorted(skip[function] | {BY_CASES}))
        passes += ["-then", "-wp-fct", function, f"-wp-prop={selectors}"]
    return [
        *frama_c_args(repo, priorities),
        *(["-wp-cache", "update", "-wp-cache-dir", str(cache)] if cache else []),
        str(repo / SOURCE),
        "-wp",
        "-wp-rte",
        "-wp-prover",
        ",".join(("qed", *PROVERS)),
        "-wp-par",
        str(jobs),
        "-wp-steps",
        str(STEPS),
        "-wp-timeout",
        str(TIMEOUT),
        "-wp-fct",
        ",".join(whole),
        f"-wp-prop=-{BY_CASES}",
        *passes,
        "-then",
        "-wp-split",
        "-wp-fct",
        ",".join(split),
        f"-wp-prop={BY_CASES}",
        "-then",
        "-wp-no-split",
        "-wp-fct=",
        "-wp-prop=@lemma",
    ]


def _run_tool(
    command: Sequence[str], repo: Path, hint: str, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """One of the proof's tools (frama-c, why3) in the repository, its output captured; a tool
    that cannot be started is a TacetError naming it and how to install it."""
    try:
        return subprocess.run(
            command,
            cwd=repo,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            env=env,
            check=False,
        )
    except OSError as error:
        raise TacetError(f"cannot run {command[0]}: {error.strerror} ({hint})") from None


def run_wp(repo: Path, priorities: int, conf: Path, jobs: int, skipped: Iterable[str] = ()) -> Run:
    """WP on the scheduler at one priority count, less the properties of the goals `skipped`.

    WP's cache (WP_CACHE beside `conf`) keeps each prover's answer under the hash of the task
    it was given and of its limits, so that a goal whose task is the same at another priority
    count is answered once per tacet prove: the caller empties it at the start
    (clear_wp_cache), and every answer comes from the run that prints it."""
    env = {**os.environ, "WHY3CONFIG": str(conf)}
    skipped = frozenset(skipped)
    skip = skipped_properties(skipped)
    command = wp_command(repo, priorities, jobs, skip=skip, cache=conf.parent / WP_CACHE)
    start = time.monotonic()
    result = _run_tool(command, repo, "make deps installs frama-c-base", env)
    seconds = time.monotonic() - start
    output = result.stdout + result.stderr
    # Each goal's prover, time and steps, for whoever looks into a goal (docs/proof.md).
    (conf.parent / f"wp-{priorities}.log").write_text(output)
    if result.returncode != 0 or "User Error" in output:
        errors = [line for line in output.splitlines() if "Error" in line or "error" in line]
        raise TacetError(
            f"frama-c at TC_PRIORITIES={priorities} failed (exit status {result.returncode}): "
            + (errors[0].strip() if errors else output.strip()[-300:])
        )
    return Run(priorities, parse_wp_output(output), seconds, skipped, parse_wp_steps(output))


def clear_wp_cache(conf: Path) -> None:
    """An empty WP cache beside the Why3 configuration `conf` (run_wp)."""
    cache = conf.parent / WP_CACHE
    shutil.rmtree(cache, ignore_errors=True)
    cache.mkdir(parents=True)


def frama_c_version() -> str:
    try:
        result = subprocess.run(
            ["frama-c", "-version"], capture_output=True, text=True, check=False
        )
    except OSError:
        raise TacetError(
            "tacet prove needs frama-c, which is not on PATH (make deps installs it)"
        ) from None
    return result.stdout.strip()


@dataclass(frozen=True)
class Induction:
    """The Why3 run on INDUCTION: each lemma, proved or not (every case of its induction), the
    axioms of each axiomatic block that a theory of the file names, and how long it took."""

    lemmas: Mapping[str, bool]
    theories: Mapping[str, tuple[str, ...]]
    axiomatics: Mapping[str, tuple[str, ...]]
    seconds: float
    homes: Mapping[str, str] = field(default_factory=dict)  # block -> the file it is in


def _block(text: str, start: int) -> str:
    """The text between the brace at or after `start` and the brace that closes it."""
    opening = text.index("{", start)
    depth = 0
    for i in range(opening, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[opening + 1 : i]
    raise ValueError("unclosed brace")


def parse_axiomatics(text: str, where: str = AXIOMS_SOURCE) -> dict[str, tuple[str, ...]]:
    """The ACSL axiomatic blocks of a source and the names of their axioms."""
    blocks: dict[str, tuple[str, ...]] = {}
    for m in re.finditer(r"\baxiomatic\s+(\w+)\s*\{", text):
        try:
            body = _block(text, m.end() - 1)
        except ValueError:
            line = text.count("\n", 0, m.start()) + 1
            raise TacetError(f"{where}:{line}: axiomatic {m.group(1)} is not closed") from None
        blocks[m.group(1)] = tuple(re.findall(r"\baxiom\s+(\w+)", body))
    return blocks


def parse_theories(text: str, where: str = INDUCTION) -> dict[str, tuple[str, ...]]:
    """The theories of a Why3 file and the names of their lemmas (unique in the file, as Why3's
    report names a goal without its theory)."""
    theories: dict[str, tuple[str, ...]] = {}
    seen: set[str] = set()
    text = re.sub(r"\(\*.*?\*\)", "", text, flags=re.S)  # comments (not nested here)
    for m in re.finditer(r"\btheory\s+(\w+)(.*?)\bend\b", text, re.S):
        lemmas = tuple(re.findall(r"\blemma\s+(\w+)", m.group(2)))
        for lemma in lemmas:
            if lemma in seen:
                raise TacetError(f"{where}: lemma {lemma} is declared twice")
            seen.add(lemma)
        theories[m.group(1)] = lemmas
    if not theories:
        raise TacetError(f"{where}: no theory")
    return theories


# "Goal reach_remove_old." then "Prover result is: Valid (0.01s, 4849 steps)."
WHY3_GOAL = re.compile(r"^Goal (\w+)\.$")
WHY3_RESULT = re.compile(r"^Prover result is: (\w+)")


def parse_why3_output(text: str) -> dict[str, bool]:
    """Each goal why3 prove reported, proved when every task of it (each case of an induction)
    is Valid."""
    goals: dict[str, bool] = {}
    goal = None
    for line in text.splitlines():
        if m := WHY3_GOAL.match(line.strip()):
            goal = m.group(1)
        elif (m := WHY3_RESULT.match(line.strip())) and goal is not None:
            goals[goal] = goals.get(goal, True) and m.group(1) == "Valid"
            goal = None
    return goals


def induction_command(repo: Path) -> list[str]:
    return [
        "why3",
        "prove",
        "-P",
        INDUCTION_PROVER,
        "-s",
        str(STEPS),
        "-t",
        str(TIMEOUT),
        "-a",
        INDUCTION_TRANSFORM,
        str(repo / INDUCTION),
    ]


def run_induction(repo: Path, conf: Path) -> Induction:
    """Why3 on the lemmas proved by induction, and the axiomatic blocks they stand behind."""
    axiomatics: dict[str, tuple[str, ...]] = {}
    homes: dict[str, str] = {}
    try:
        theories = parse_theories((repo / INDUCTION).read_text())
        for source in AXIOMS_SOURCES:
            for block, axioms in parse_axiomatics((repo / source).read_text(), source).items():
                if block in homes:
                    raise TacetError(f"{source}: axiomatic {block} is also in {homes[block]}")
                axiomatics[block], homes[block] = axioms, source
    except OSError as error:
        raise TacetError(f"{error.filename}: {error.strerror}") from None
    start = time.monotonic()
    env = {**os.environ, "WHY3CONFIG": str(conf)}
    result = _run_tool(induction_command(repo), repo, "make deps installs it", env)
    goals = parse_why3_output(result.stdout)
    if result.returncode != 0 and not goals:  # (a goal not proved makes the status 2 too)
        raise TacetError(
            f"why3 prove {INDUCTION} failed (exit status {result.returncode}): "
            + (result.stderr or result.stdout).strip()[:300]
        )
    lemmas = {lemma: goals.get(lemma, False) for names in theories.values() for lemma in names}
    unreported = [lemma for names in theories.values() for lemma in names if lemma not in goals]
    if unreported:
        raise TacetError(f"why3 prove reported nothing for {', '.join(unreported)} of {INDUCTION}")
    blocks: dict[str, tuple[str, ...]] = {}
    for theory, names in theories.items():
        if not names:
            continue  # definitions only (the walk), which the others use
        if theory not in axiomatics:
            raise TacetError(
                f"{INDUCTION}: theory {theory} names no axiomatic block of "
                + " or ".join(AXIOMS_SOURCES)
            )
        blocks[theory] = axiomatics[theory]
    homes = {block: homes[block] for block in blocks}
    return Induction(lemmas, theories, blocks, time.monotonic() - start, homes)


def induction_problems(run: Induction) -> list[str]:
    """Lemmas not proved, and axioms that no proved lemma of the same name stands behind."""
    problems = [
        f"{INDUCTION}: lemma {lemma} is not proved ({INDUCTION_TRANSFORM}, then "
        f"{INDUCTION_PROVER} at {STEPS:,} steps)"
        for lemma, proved in run.lemmas.items()
        if not proved
    ]
    for block, axioms in run.axiomatics.items():
        problems += [
            f"{run.homes.get(block, AXIOMS_SOURCE)}: axiom {axiom} of axiomatic {block} is no "
            f"lemma of theory {block} in {INDUCTION}"
            for axiom in axioms
            if axiom not in run.theories.get(block, ())
        ]
    return problems


def check_axioms_parse(repo: Path) -> None:
    """Frama-C parses AXIOMS_SOURCE (with the kernel's predicates it names): an axiom that does
    not type-check fails here, before any prover runs."""
    command = [*frama_c_args(repo, PRIORITY_COUNTS[0]), str(repo / AXIOMS_SOURCE)]
    result = _run_tool(command, repo, "make deps installs it")
    output = result.stdout + result.stderr
    if result.returncode != 0 or "User Error" in output:
        errors = [line.strip() for line in output.splitlines() if "rror" in line]
        raise TacetError(
            f"frama-c does not parse {AXIOMS_SOURCE}: "
            + (errors[0] if errors else output.strip()[-300:])
        )
