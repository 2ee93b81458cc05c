"""The numpy percentile bootstrap, the trimmed mean and Student's t give SciPy's figures (where
SciPy is installed to compare), so the benchmarks' and the viewer's intervals did not move when
SciPy left the core."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasoning.bootstrap import percentile_interval, trimmed_mean
from reasoning.student_t import t_cdf, t_quantile

stats = pytest.importorskip("scipy.stats", reason="SciPy (installed with the embeddings extra)")

values = st.lists(st.integers(0, 25).map(float), min_size=2, max_size=30)


def _mean(sample: Any, axis: int) -> Any:
    return np.mean(sample, axis=axis)


def _iqm(sample: Any, axis: int) -> Any:
    return trimmed_mean(sample, 0.25, axis=axis)


@settings(max_examples=30, deadline=None)
@given(values, st.sampled_from([_mean, _iqm]), st.integers(0, 5), st.sampled_from([0.9, 0.95]))
def test_one_sample_intervals_are_scipys(
    data: list[float], statistic: Any, seed: int, level: float
) -> None:
    if len(set(data)) == 1:
        data = [*data, data[0] + 1.0]
    ours = percentile_interval([np.asarray(data)], statistic, resamples=300, level=level, seed=seed)
    theirs = stats.bootstrap(
        (np.asarray(data),),
        statistic,
        n_resamples=300,
        vectorized=True,
        confidence_level=level,
        method="percentile",
        rng=np.random.default_rng(seed),
    ).confidence_interval
    assert ours == pytest.approx((theirs.low, theirs.high), rel=1e-12, abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(values, st.sampled_from([0.0, 0.1, 0.25, 0.4]))
def test_the_trimmed_mean_is_scipys(data: list[float], cut: float) -> None:
    assert float(trimmed_mean(data, cut)) == pytest.approx(float(stats.trim_mean(data, cut)))


def test_two_samples_are_resampled_independently_as_scipy_does() -> None:
    table = np.arange(12, dtype=float).reshape(3, 4) ** 1.5

    def mean_of(rows: Any, cols: Any, axis: int = -1) -> Any:
        return table[rows[..., :, None], cols[..., None, :]].mean(axis=(-2, -1))

    samples = [np.arange(3), np.arange(4)]
    ours = percentile_interval(samples, mean_of, resamples=400, seed=7)
    theirs = stats.bootstrap(
        tuple(samples),
        mean_of,
        n_resamples=400,
        vectorized=True,
        method="percentile",
        rng=np.random.default_rng(7),
    ).confidence_interval
    assert ours == pytest.approx((theirs.low, theirs.high), rel=1e-12)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="level"):
        percentile_interval([np.arange(3)], _mean, resamples=10, level=1.0)
    with pytest.raises(ValueError, match="resamples"):
        percentile_interval([np.arange(3)], _mean, resamples=0)
    with pytest.raises(ValueError, match="1-D"):
        percentile_interval([np.zeros((2, 2))], _mean, resamples=10)
    with pytest.raises(ValueError, match="cut"):
        trimmed_mean([1.0, 2.0], 0.5)


@settings(max_examples=60, deadline=None)
@given(st.floats(0.5, 300.0), st.floats(0.001, 0.999))
def test_student_t_quantiles_and_distribution_are_scipys(df: float, p: float) -> None:
    assert t_quantile(p, df) == pytest.approx(float(stats.t.ppf(p, df)), rel=1e-9, abs=1e-9)
    value = float(stats.t.ppf(p, df))
    assert t_cdf(value, df) == pytest.approx(p, abs=1e-10)


def test_student_t_refuses_impossible_arguments() -> None:
    with pytest.raises(ValueError, match="p"):
        t_quantile(1.0, 3)
    with pytest.raises(ValueError, match="df"):
        t_cdf(1.0, 0)
