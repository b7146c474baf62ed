# SPDX-License-Identifier: MIT
"""Random task sets for the simulator: utilisations and periods as the literature draws them.

- ``uunifast_discard``: n utilisations summing to a total, uniformly distributed over the
  simplex (UUniFast, Bini & Buttazzo, "Measuring the performance of schedulability tests",
  Real-Time Systems, 2005), drawn again while one exceeds 1 (the "Discard" variant of Davis &
  Burns for totals above 1, as Emberson, Stafford & Davis use it, WATERS 2010);
- ``log_uniform_periods``: periods whose logarithm is uniform between two bounds (Emberson,
  Stafford & Davis 2010), rounded to a granularity.

The cross-check (tacet.sim.crosscheck) draws its sets from these; the sweeps will too.
"""

from __future__ import annotations

import math
import random

DISCARD_LIMIT = 10_000


def uunifast_discard(rng: random.Random, n: int, total: float) -> list[float]:
    """n utilisations summing to ``total`` (0 < total <= n), none above 1."""
    if n < 1 or not 0 < total <= n:
        raise ValueError(f"uunifast_discard: need n >= 1 and 0 < total <= n (n {n}, total {total})")
    for _ in range(DISCARD_LIMIT):
        out, left = [], total
        for k in range(1, n):
            nxt = left * rng.random() ** (1 / (n - k))
            out.append(left - nxt)
            left = nxt
        out.append(left)
        if max(out) <= 1:
            return out
    raise ValueError(f"uunifast_discard: no draw of {n} utilisations <= 1 summing to {total}")


def log_uniform_periods(
    rng: random.Random, n: int, low: int, high: int, granularity: int = 1
) -> list[int]:
    """n periods in [low, high] with a uniform logarithm, multiples of ``granularity``."""
    if not 0 < low <= high or granularity < 1:
        raise ValueError(f"log_uniform_periods: need 0 < low <= high (low {low}, high {high})")
    out = []
    for _ in range(n):
        value = math.exp(rng.uniform(math.log(low), math.log(high + granularity)))
        period = max(low, min(high, int(value // granularity) * granularity))
        out.append(period)
    return out
