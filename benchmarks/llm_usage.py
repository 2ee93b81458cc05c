"""LLM usage of the seats of many games, kept per game and pooled per agent and per run.

A game's worker sends each LLM seat's usage snapshot with the latency of every call, so a
summary can pool seats over games with the latency median and p95 taken over all their calls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from benchmarks.report import percentile
from reasoning.llm import UsageMeter, UsageReport, UsageSnapshot

_COUNTED = (
    "calls",
    "retries",
    "errors",
    "prompt_tokens",
    "completion_tokens",
    "reprompts",
    "fallbacks",
    "cut_off",
    "trimmed",
    "format_degrades",
)


class SeatUsage(BaseModel):
    """One seat's LLM usage in one game, with the latency of each call in seconds."""

    model_config = ConfigDict(frozen=True)

    usage: UsageSnapshot
    latencies: list[float]

    @classmethod
    def of(cls, meter: UsageMeter) -> SeatUsage:
        """What ``meter`` counted."""
        return cls(usage=meter.snapshot(), latencies=meter.latencies())


def pooled(parts: Sequence[SeatUsage]) -> UsageSnapshot:
    """The usage of several seat-games together: counts and costs summed (the cost is None when
    one is unknown), latency median and p95 over all their calls."""
    latencies = sorted(latency for part in parts for latency in part.latencies)
    costs = [part.usage.cost for part in parts if part.usage.calls]
    return UsageSnapshot(
        **{name: sum(getattr(part.usage, name) for part in parts) for name in _COUNTED},
        latency_s=sum(latencies),
        latency_median_s=percentile(latencies, 50) if latencies else 0.0,
        latency_p95_s=percentile(latencies, 95) if latencies else 0.0,
        cost=None if not costs or None in costs else sum(c for c in costs if c is not None),
    )


def usage_report(groups: Mapping[str, Sequence[SeatUsage]]) -> UsageReport | None:
    """Usage per group (an agent) and for the run; None when no group has a seat."""
    groups = {name: parts for name, parts in groups.items() if parts}
    if not groups:
        return None
    return UsageReport(
        seats={name: pooled(parts) for name, parts in groups.items()},
        total=pooled([part for parts in groups.values() for part in parts]),
    )
