"""The one percentile definition every figure gumshoe prints uses (latency p95s of the LLM usage
tables, the timing tables of the benchmarks): numpy's linear interpolation between order
statistics, the default of numpy, R (type 7) and pandas."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values`` by linear interpolation; NaN for none."""
    if not values:
        return math.nan
    return float(np.percentile(np.asarray(values, dtype=float), q, method="linear"))
