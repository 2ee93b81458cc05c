"""Student's t distribution without SciPy: its distribution function and quantiles.

The distribution function is the regularized incomplete beta function, I_x(df/2, 1/2) at
x = df / (df + t^2), evaluated by its continued fraction (modified Lentz); a quantile is found
by bisection on it. Both agree with ``scipy.stats.t`` to about twelve digits, enough for the
t intervals the viewer and the benchmarks print.
"""

from __future__ import annotations

import math

_TINY = 1e-300
_EPS = 1e-15


def _continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (converges for x < (a+1)/(a+b+2))."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    fraction = d
    for m in range(1, 1000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            fraction *= c * d
        if abs(c * d - 1.0) < _EPS:
            break
    return fraction


def regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1 and a, b > 0."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _continued_fraction(a, b, x) / a
    return 1.0 - front * _continued_fraction(b, a, 1.0 - x) / b


def t_cdf(value: float, df: float) -> float:
    """P(T <= value) for Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError(f"df: must be positive, got {df}")
    tail = 0.5 * regularized_beta(df / (df + value * value), df / 2.0, 0.5)
    return 1.0 - tail if value > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (``scipy.stats.t.ppf``)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p: must lie strictly between 0 and 1, got {p}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if p == 0.5:
        return 0.0
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, high * 2.0
    for _ in range(200):
        middle = (low + high) / 2.0
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
        if high - low <= _EPS * high:
            break
    return (low + high) / 2.0
