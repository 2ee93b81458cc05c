"""The viewer's intervals against published values and scipy."""

from __future__ import annotations

import pytest
from scipy.stats import binomtest, t

from benchmarks.viewer.estimates import mean, paired_difference, share, share_difference


def test_a_share_has_the_wilson_interval_and_none_without_observations() -> None:
    expected = binomtest(3, 10).proportion_ci(method="wilson")
    found = share(3, 10)
    assert found.value == pytest.approx(0.3)
    assert (found.low, found.high) == pytest.approx((expected.low, expected.high))
    assert share(0, 0).value is None and share(0, 0).low is None
    assert share(5, 5).high == 1.0


def test_a_mean_has_the_t_interval_and_no_interval_from_one_value() -> None:
    values = [1.0, 2.0, 4.0, 7.0]
    m = sum(values) / 4
    sd = (sum((v - m) ** 2 for v in values) / 3) ** 0.5
    half = float(t.ppf(0.975, 3)) * sd / 2
    found = mean(values)
    assert (found.value, found.low, found.high) == pytest.approx((m, m - half, m + half))
    assert mean([2.0]).low is None and mean([]).value is None
    assert paired_difference([(1.0, 2.0), (3.0, 5.0)]).value == pytest.approx(1.5)


def test_a_difference_of_shares_has_newcombes_interval() -> None:
    # Newcombe (1998), Statistics in Medicine 17, table II, example (a): 56/70 against 48/80.
    found = share_difference(48, 80, 56, 70)
    assert found.value == pytest.approx(0.2)
    assert (found.low, found.high) == pytest.approx((0.0524, 0.3339), abs=1e-4)
    assert share_difference(0, 0, 1, 2).value is None
