"""One percentile definition for every figure: the usage tables' p95 and the timing tables'."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from reasoning.llm.messages import ChatReply
from reasoning.llm.usage import UsageMeter
from reasoning.percentiles import percentile


@given(st.lists(st.floats(0, 1e3), min_size=1, max_size=40), st.floats(0, 100))
def test_percentile_is_numpys_linear_definition(values: list[float], q: float) -> None:
    assert math.isclose(percentile(values, q), float(np.percentile(values, q)), abs_tol=1e-9)


def test_the_usage_p95_is_the_same_percentile() -> None:
    latencies = [0.1, 0.2, 0.3, 0.4, 10.0]
    meter = UsageMeter()
    for latency in latencies:
        meter.record_reply(
            ChatReply(
                content="x",
                model="m",
                prompt_tokens=1,
                completion_tokens=1,
                latency_s=latency,
                finish_reason="stop",
            )
        )
    assert meter.snapshot().latency_p95_s == percentile(latencies, 95)
    assert percentile([], 95) != percentile([], 95)  # NaN for no values


@given(
    st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=40),
    st.sampled_from([0.0, 100.0, 50.0, 95.0]),
)
def test_percentile_matches_numpy_at_the_ends_and_on_signed_values(
    values: list[float], q: float
) -> None:
    assert math.isclose(percentile(values, q), float(np.percentile(values, q)), abs_tol=1e-6)
