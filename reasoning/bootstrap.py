"""Percentile-bootstrap confidence intervals with numpy alone.

The interval of a statistic is read off its values over resamples drawn with replacement: each
sample is resampled on its own (``generator.integers(0, n, (resamples, n))``, in the order the
samples are given), the statistic is computed over the last axis of every resample at once, and
the interval's ends are numpy's linear percentiles at (1 - level) / 2 and (1 + level) / 2. The
draws and the percentiles are those of ``scipy.stats.bootstrap(..., method="percentile",
vectorized=True)`` with the same generator, so its figures are kept without installing SciPy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

Statistic = Callable[..., Any]
"""A statistic over the last axis of each resampled sample (``statistic(*samples, axis=-1)``)."""


def trimmed_mean(values: Any, cut: float, axis: int = -1) -> Any:
    """The mean of ``values`` along ``axis`` after cutting ``int(cut * n)`` of the lowest and of
    the highest from each end (``scipy.stats.trim_mean``); ``cut`` = 0.25 gives the IQM."""
    data = np.sort(np.asarray(values, dtype=float), axis=axis)
    n = data.shape[axis]
    low = int(cut * n)
    if low >= n - low:
        raise ValueError(f"cut: {cut} leaves nothing of {n} values")
    kept = np.take(data, range(low, n - low), axis=axis)
    return np.mean(kept, axis=axis)


def percentile_interval(
    samples: Sequence[Any],
    statistic: Statistic,
    *,
    resamples: int,
    level: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """The percentile-bootstrap interval at ``level`` of ``statistic`` over ``samples`` (each a
    1-D array), resampled ``resamples`` times by a generator seeded with ``seed``."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"level: must lie strictly between 0 and 1, got {level}")
    if resamples < 1:
        raise ValueError(f"resamples: at least one is needed, got {resamples}")
    generator = np.random.default_rng(seed)
    drawn = []
    for sample in samples:
        data = np.asarray(sample)
        if data.ndim != 1 or data.size == 0:
            raise ValueError("samples: each must be a non-empty 1-D array")
        drawn.append(data[generator.integers(0, data.size, (resamples, data.size))])
    values = np.asarray(statistic(*drawn, axis=-1), dtype=float)
    alpha = (1.0 - level) / 2.0
    low, high = np.percentile(values, [alpha * 100.0, (1.0 - alpha) * 100.0], axis=-1)
    return float(low), float(high)
