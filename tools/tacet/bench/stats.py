# SPDX-License-Identifier: MIT
"""The statistics of ``tacet bench``: a summary and a histogram per distribution of samples.

- mean: the arithmetic mean;
- stdev: the sample standard deviation (divisor n - 1; 0 for a single sample);
- p99: the 99th percentile by the nearest-rank definition: the smallest sample such that at
  least 99 % of the samples are at or below it, i.e. the ceil(0.99 n)-th smallest;
- median: the nearest-rank 50th percentile (the ceil(n/2)-th smallest), a sample, not an average;
- histogram: ``bins`` equal bins of whole raw units (the programs' samples are integers) from
  the minimum to the maximum, each bin [lo, lo + width).

Samples arrive in raw units (timer or virtual cycles, host ns) and are shown in a display
unit by ``Scale``: ``value * factor - offset`` (e.g. timer cycles to QEMU instructions, less
what a time stamp adds).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Scale:
    """raw value -> display value: ``raw * factor - offset``."""

    unit: str  # the display unit, e.g. "instructions"
    factor: float = 1.0
    offset: float = 0.0

    def __call__(self, raw: float) -> float:
        return raw * self.factor - self.offset


@dataclass(frozen=True)
class Summary:
    n: int
    mean: float
    stdev: float
    min: float
    max: float
    median: float
    p99: float

    def as_dict(self) -> dict[str, float | int]:
        return {
            "n": self.n,
            "mean": self.mean,
            "stdev": self.stdev,
            "min": self.min,
            "max": self.max,
            "median": self.median,
            "p99": self.p99,
        }


def nearest_rank(ordered: Sequence[float], percent: float) -> float:
    """The ``percent``-th percentile of the sorted ``ordered`` by nearest rank."""
    if not ordered:
        raise ValueError("no samples")
    if not 0 < percent <= 100:
        raise ValueError(f"percentile {percent}: must be in (0, 100]")
    rank = math.ceil(percent / 100 * len(ordered))
    return ordered[max(rank, 1) - 1]


def summarize(values: Sequence[float]) -> Summary:
    """The summary of ``values`` (at least one)."""
    if not values:
        raise ValueError("no samples")
    ordered = sorted(values)
    n = len(ordered)
    mean = math.fsum(ordered) / n
    var = math.fsum((v - mean) ** 2 for v in ordered) / (n - 1) if n > 1 else 0.0
    return Summary(
        n=n,
        mean=mean,
        stdev=math.sqrt(var),
        min=ordered[0],
        max=ordered[-1],
        median=nearest_rank(ordered, 50),
        p99=nearest_rank(ordered, 99),
    )


@dataclass(frozen=True)
class Histogram:
    edges: tuple[float, ...]  # len(counts) + 1 edges
    counts: tuple[int, ...]

    def as_dict(self) -> dict[str, list[float] | list[int]]:
        return {"edges": list(self.edges), "counts": list(self.counts)}


def histogram(raw: Sequence[int], bins: int = 20) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Edges (in raw units) and counts of at most ``bins`` equal bins of whole units from
    min(raw) to max(raw): narrow distributions get one bin per unit."""
    if not raw:
        raise ValueError("no samples")
    if bins < 1:
        raise ValueError("bins must be >= 1")
    lo, hi = min(raw), max(raw)
    width = max(1, math.ceil((hi - lo + 1) / bins))
    n = (hi - lo) // width + 1
    counts = [0] * n
    for v in raw:
        counts[(v - lo) // width] += 1
    return tuple(lo + i * width for i in range(n + 1)), tuple(counts)


def scaled_histogram(raw: Sequence[int], scale: Scale, bins: int = 20) -> Histogram:
    edges, counts = histogram(raw, bins)
    return Histogram(tuple(scale(e) for e in edges), counts)
