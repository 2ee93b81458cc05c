"""LLM usage of the seats of many games, kept per game and pooled per agent and per run.

A game's worker sends each LLM seat's usage snapshot with the latency of every call, so a
summary can pool seats over games with the latency median and p95 taken over all their calls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from reasoning.llm import UsageMeter, UsageReport, UsageSnapshot
from reasoning.llm.usage import pool


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
    """The usage of several seat-games together (``reasoning.llm.usage.pool``)."""
    return pool((part.usage, part.latencies) for part in parts)


def usage_report(groups: Mapping[str, Sequence[SeatUsage]]) -> UsageReport | None:
    """Usage per group (an agent) and for the run; None when no group has a seat."""
    groups = {name: parts for name, parts in groups.items() if parts}
    if not groups:
        return None
    return UsageReport(
        seats={name: pooled(parts) for name, parts in groups.items()},
        total=pooled([part for parts in groups.values() for part in parts]),
    )
