"""The one percentile definition every figure gumshoe prints uses (latency p95s of the LLM usage
tables, the timing tables of the benchmarks): linear interpolation between order statistics, the
default of numpy, R (type 7) and pandas, written out so that metering a call loads no numpy."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values`` by linear interpolation; NaN for none (or
    when a value is NaN); ValueError for ``q`` outside 0-100."""
    if not 0.0 <= q <= 100.0:
        raise ValueError(f"percentile: q must be 0 to 100, got {q}")
    if not values or any(math.isnan(v) for v in values):
        return math.nan
    ordered = sorted(float(v) for v in values)
    rank = (len(ordered) - 1) * q / 100.0
    below = math.floor(rank)
    above = min(below + 1, len(ordered) - 1)
    low, high = ordered[below], ordered[above]
    return low + (high - low) * (rank - below)
