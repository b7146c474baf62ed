# SPDX-License-Identifier: MIT
"""A switch cost model for the simulator from what `tacet bench` measured on a target.

`tacet bench --target qemu-m3 --out DIR` keeps every sample of every measurement in
``DIR/results.json``; a measurement in instructions under QEMU's ``-icount`` (the Rhealstone
preemption between empty threads, by default) becomes the simulator's switch cost: each
sample turned into time (``2**icount_shift`` ns per instruction) and into cycles of the clock
the task set is counted in, rounded up, one drawn per switch by the engine
(``engine.MeasuredCost``). The analysis it is compared with charges the largest.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

from tacet.bench import results as bench_results
from tacet.core.errors import TacetError
from tacet.sim.engine import MeasuredCost

DEFAULT_MEASUREMENT = "rhealstone/preemption/empty"


def _icount_shift(doc: dict[str, Any], path: str, m: dict[str, Any]) -> int:
    """The -icount shift of the run that took ``m`` (every program of a run has the same)."""
    for p in doc["programs"]:
        config = p["config"]
        if p["build"] == m["build"] and config.get("clock") == "qemu-icount":
            try:
                return int(config["icount_shift"])
            except (KeyError, ValueError):
                break
    raise TacetError(f"{path}: no icount_shift in the configuration of {m['id']}'s program")


def from_results(doc: dict[str, Any], path: str, measurement: str, clock_hz: int) -> MeasuredCost:
    """The samples of ``measurement`` in ``doc`` (a results.json, checked) as cycles of a
    ``clock_hz`` clock."""
    if not isinstance(clock_hz, int) or isinstance(clock_hz, bool) or clock_hz < 1:
        raise TacetError(f"the clock must be a positive integer of Hz (got {clock_hz!r})")
    found = next((m for m in doc["measurements"] if m["id"] == measurement), None)
    if found is None:
        # The ones a switch cost is usually taken from: between empty threads, in instructions.
        known = sorted(
            m["id"]
            for m in doc["measurements"]
            if m["unit"] == "instructions" and m["case"] == "empty" and "message" not in m["id"]
        )
        hint = f" (between empty threads there: {', '.join(known[:8])})"
        raise TacetError(f"{path}: no measurement {measurement!r}" + (hint if known else ""))
    if found["unit"] != "instructions":
        raise TacetError(
            f"{path}: {measurement} is in {found['unit']}, not instructions: a switch cost is "
            "taken from a QEMU run (tacet bench --target qemu-m3 or qemu-m4)"
        )
    ns_per_instruction = 2 ** _icount_shift(doc, path, found)
    factor, offset = Fraction(found["factor"]), Fraction(found["offset"])
    costs = []
    for series in found["series"]:
        for raw in series["samples"]:
            instructions = max(Fraction(0), raw * factor - offset)
            costs.append(math.ceil(instructions * ns_per_instruction * clock_hz / 10**9))
    if not costs:
        raise TacetError(f"{path}: {measurement} has no samples")
    target = doc["meta"].get("target", "?")
    return MeasuredCost(
        tuple(costs),
        f"{measurement} of {path} ({target}, {len(costs):,} samples of {found['value']:g} "
        f"instructions on average): {min(costs):,} to {max(costs):,} cycles of a "
        f"{clock_hz:,} Hz clock, one drawn per switch",
    )


def from_bench(path: Path, measurement: str, clock_hz: int) -> MeasuredCost:
    """``from_results`` of the results file at ``path`` (read and checked against its
    schema: a clear error, never a partial model)."""
    doc = bench_results.load(path)
    return from_results(doc, str(path), measurement, clock_hz)
