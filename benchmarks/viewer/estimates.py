"""Estimates with 95% intervals for the viewer's tables: shares, means and their differences.

A share of ``n`` (a win rate, the sound share of the claims) gets the Wilson score interval; a
mean gets Student's t interval; the difference of two shares gets Newcombe's interval (method
10: the two Wilson intervals combined), and a difference of means over the same games the t
interval of the paired differences. Too few observations give the point value with no interval
(None bounds), never a made-up one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from reasoning.student_t import t_quantile

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


class Estimate(BaseModel):
    """A value with its 95% interval (None bounds: too few observations), over ``n``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    value: float | None
    low: float | None = None
    high: float | None = None
    n: int = 0


def wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a share of ``k`` in ``n`` (n > 0)."""
    p = k / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def share(k: int, n: int) -> Estimate:
    """``k`` of ``n`` as a share with its Wilson interval (no value when ``n`` is 0)."""
    if n <= 0:
        return Estimate(value=None)
    low, high = wilson(k, n)
    return Estimate(value=k / n, low=low, high=high, n=n)


def _t(df: int) -> float:
    return t_quantile(0.975, df)


def mean(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` with its t interval (no interval under two values)."""
    n = len(values)
    if n == 0:
        return Estimate(value=None)
    m = sum(values) / n
    if n < 2:
        return Estimate(value=m, n=n)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    half = _t(n - 1) * sd / math.sqrt(n)
    return Estimate(value=m, low=m - half, high=m + half, n=n)


def share_difference(k1: int, n1: int, k2: int, n2: int) -> Estimate:
    """The second share less the first (``k2/n2 - k1/n1``) with Newcombe's interval."""
    if n1 <= 0 or n2 <= 0:
        return Estimate(value=None)
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    low = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return Estimate(value=d, low=low, high=high, n=min(n1, n2))


def paired_difference(pairs: Sequence[tuple[float, float]]) -> Estimate:
    """The mean of ``b - a`` over ``pairs`` (the same games in two runs) with its t interval."""
    return mean([b - a for a, b in pairs])
