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
import subprocess
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
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
    "map_first",
    "ready_head",
    "choose_thread",
    "tc__sched_choose",
    "tc__sched_reschedule",
    "tc__sched_chosen_left",
    "tc__sched_made_ready",
)

# "[wp] [Z3 4.8.12] Goal typed_f_ensures : Valid (...)", "[wp] [Failed] Goal typed_f_assert"
GOAL = re.compile(r"^\[wp\] \[([^\]]+)\] Goal (\S+)(?: : (\w+))?")
# A property named by_cases (`ensures by_cases: ...`) is proved case by case: WP splits its
# goal by the conditions on the paths to it (-wp-split) into typed_f_ensures_by_cases_part01,
# ..., each case with its own path's hypotheses only. The goal is proved when each part is.
BY_CASES = "by_cases"
PART = re.compile(rf"(_{BY_CASES})_part\d+$")  # (WP's own parts of a goal stay apart)
SUMMARY = re.compile(r"^\[wp\] Proved goals:\s+(\d+) / (\d+)")
LISTED_HEADING = "## Goals not proved"


@dataclass(frozen=True)
class Listed:
    """A row of docs/proof.md's table: a goal that WP does not prove, where and why."""

    goal: str
    counts: frozenset[int]
    reason: str
    line: int


@dataclass(frozen=True)
class Run:
    """One WP run: each goal and whether it was proved, and how long the run took."""

    priorities: int
    goals: Mapping[str, bool]
    seconds: float

    @property
    def proved(self) -> int:
        return sum(self.goals.values())


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


def wp_command(
    repo: Path, priorities: int, jobs: int, functions: Sequence[str] = FUNCTIONS
) -> list[str]:
    """The Frama-C command line of one run, in three passes (-then): the functions' goals; the
    properties named BY_CASES, split; the lemmas, which a selection of functions leaves out (a
    lemma the proof uses is a goal like any other)."""
    includes = " ".join(f"-I{repo / d}" for d in ("proof/include", "include", "kernel"))
    return [
        "frama-c",
        "-c11",
        f"-cpp-extra-args={includes} -DTC_PRIORITIES={priorities}",
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
        ",".join(functions),
        f"-wp-prop=-{BY_CASES}",
        "-then",
        "-wp-split",
        f"-wp-prop={BY_CASES}",
        "-then",
        "-wp-no-split",
        "-wp-fct=",
        "-wp-prop=@lemma",
    ]


def run_wp(repo: Path, priorities: int, conf: Path, jobs: int) -> Run:
    """WP on the scheduler at one priority count."""
    env = {**os.environ, "WHY3CONFIG": str(conf)}
    start = time.monotonic()
    try:
        result = subprocess.run(
            wp_command(repo, priorities, jobs),
            cwd=repo,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            env=env,
            check=False,
        )
    except OSError as error:
        raise TacetError(
            f"cannot run frama-c: {error.strerror} (make deps installs frama-c-base)"
        ) from None
    seconds = time.monotonic() - start
    output = result.stdout + result.stderr
    if result.returncode != 0 or "User Error" in output:
        errors = [line for line in output.splitlines() if "Error" in line or "error" in line]
        raise TacetError(
            f"frama-c at TC_PRIORITIES={priorities} failed (exit status {result.returncode}): "
            + (errors[0].strip() if errors else output.strip()[-300:])
        )
    return Run(priorities, parse_wp_output(output), seconds)


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
