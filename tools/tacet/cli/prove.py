# SPDX-License-Identifier: MIT
"""``tacet prove``: the scheduler's contracts proved by Frama-C's WP (tacet.project.prove)."""

import argparse
import sys
import time
from pathlib import Path

from tacet.core.errors import TacetError
from tacet.core.repo import find_repo
from tacet.project.prove import (
    DOC,
    FUNCTIONS,
    INDUCTION,
    INDUCTION_PROVER,
    INDUCTION_TRANSFORM,
    NEAR_BUDGET,
    PRIORITY_COUNTS,
    SOURCE,
    STEPS,
    TIMEOUT,
    check_axioms_parse,
    clear_wp_cache,
    compare,
    frama_c_version,
    induction_problems,
    parse_listed,
    prover_versions,
    run_induction,
    run_wp,
    why3_config,
)


def _goals(n: int, what: str = "") -> str:
    """'1 goal', '2 listed goals': a count with its noun."""
    return f"{n} {what}goal{'' if n == 1 else 's'}"


def _priorities(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value not in PRIORITY_COUNTS:
        raise argparse.ArgumentTypeError(f"{text}: one of {', '.join(map(str, PRIORITY_COUNTS))}")
    return value


def _jobs(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text}: a number of prover processes, 1 or more")
    return int(text)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "prove",
        help="prove the scheduler's ACSL contracts with Frama-C's WP (docs/proof.md)",
        description=f"Run Frama-C's WP on {SOURCE} for each priority count and compare the goals "
        f"it does not prove with the table in {DOC}: fails on an unproved goal that is not "
        "listed there, and on a listed goal that proves.",
    )
    parser.add_argument("--repo", type=Path, default=None, help="the Tacet source tree")
    parser.add_argument(
        "--priorities",
        type=_priorities,
        action="append",
        default=[],
        metavar="N",
        help="only this priority count (repeatable; default: each of "
        f"{', '.join(map(str, PRIORITY_COUNTS))})",
    )
    parser.add_argument(
        "--jobs", type=_jobs, default=2, help="prover processes at once (default 2)"
    )
    parser.add_argument(
        "--skip-listed",
        action="store_true",
        help=f"leave out the properties of the goals {DOC} lists for each count (a label's "
        "property; a function's assigns clauses for an assigns part): each runs the provers "
        "to their limit, most of a run's time. Fails on an unproved goal not listed, as "
        "without it, but does not check that the listed goals still fail (make test uses "
        "it; make prove does not)",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    repo = find_repo(Path.cwd(), args.repo)
    doc = repo / DOC
    try:
        listed = parse_listed(doc.read_text(), DOC)
    except OSError as error:
        raise TacetError(f"{DOC}: {error.strerror}") from None
    version = frama_c_version()
    conf = why3_config(repo / "build" / "proof")
    provers = prover_versions(conf)
    counts = sorted(set(args.priorities)) or list(PRIORITY_COUNTS)
    print(
        f"Frama-C {version} WP on {SOURCE}, {len(FUNCTIONS)} functions; provers Qed, "
        f"{', '.join(provers)}; {STEPS:,} steps per goal and prover (at most {TIMEOUT} s), "
        f"{args.jobs} at once"
    )
    sys.stdout.flush()
    start = time.monotonic()
    check_axioms_parse(repo)
    induction = run_induction(repo, conf)
    axioms = sum(len(axioms) for axioms in induction.axiomatics.values())
    print(
        f"{INDUCTION}: {len(induction.lemmas)} lemmas, {sum(induction.lemmas.values())} "
        f"proved by Why3 ({INDUCTION_TRANSFORM}, then {INDUCTION_PROVER}), standing behind "
        f"the {axioms} axioms of {', '.join(induction.axiomatics) or 'no axiomatic'}, "
        f"{induction.seconds:.0f} s"
    )
    sys.stdout.flush()
    runs = []
    clear_wp_cache(conf)
    for priorities in counts:
        skipped = (
            [g for g, entry in listed.items() if priorities in entry.counts]
            if args.skip_listed
            else []
        )
        run = run_wp(repo, priorities, conf, args.jobs, skipped)
        runs.append(run)
        unproved = len(run.goals) - run.proved
        left_out = f", {_goals(len(skipped), 'listed ')} left out" if skipped else ""
        print(
            f"TC_PRIORITIES={priorities}: {len(run.goals)} goals, {run.proved} proved, "
            f"{unproved} not proved{left_out}, {run.seconds:.0f} s"
        )
        if most := run.most_steps():
            near = len(run.near_budget())
            print(
                f"  most steps: {most[0]}, {most[1]:,} of {STEPS:,}; {_goals(near)} above "
                f"{NEAR_BUDGET:.0%} of the budget"
            )
        sys.stdout.flush()
    total = sum(len(r.goals) for r in runs)
    proved = sum(r.proved for r in runs)
    problems = induction_problems(induction) + compare(runs, listed)
    unlisted = sum(1 for r in runs for g, ok in r.goals.items() if not ok and g not in listed)
    print(
        f"total: {total} goals, {proved} proved, {total - proved} not proved "
        f"({total - proved - unlisted} listed in {DOC}), "
        f"{time.monotonic() - start:.0f} s"
    )
    if problems:
        for problem in problems:
            print(f"tacet prove: {problem}", file=sys.stderr)
        return 1
    return 0
