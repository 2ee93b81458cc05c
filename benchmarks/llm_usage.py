"""LLM usage of the seats of many games, kept per game and pooled per agent and per run.

A game's worker sends each LLM seat's usage snapshot with the latency of every call, so a
summary can pool seats over games with the latency median and p95 taken over all their calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from benchmarks.runner import GameOutcome
from reasoning.llm import UsageMeter, UsageReport, UsageSnapshot
from reasoning.llm.usage import combined, pool


class SeatUsage(BaseModel):
    """One seat's LLM usage in one game, with the latency of each call in seconds."""

    model_config = ConfigDict(frozen=True)

    usage: UsageSnapshot
    latencies: list[float]

    @classmethod
    def of(cls, *meters: UsageMeter) -> SeatUsage:
        """What ``meters`` (one seat's) counted together."""
        return cls(
            usage=combined(meters), latencies=[s for meter in meters for s in meter.latencies()]
        )


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


def game_usage(seats: Iterable[tuple[str, Sequence[UsageMeter]]]) -> dict[str, list[Any]]:
    """What a game's worker sends back of its seats (agent name, the seat's meters): the usage of
    each seat that asked a chat model, as JSON by agent name (a game outcome's ``usage``)."""
    usage: dict[str, list[Any]] = {}
    for name, meters in seats:
        if meters:
            usage.setdefault(name, []).append(SeatUsage.of(*meters).model_dump(mode="json"))
    return usage


def played_usage(games: Iterable[GameOutcome]) -> UsageReport | None:
    """The usage per agent and in total of the games played (their ``usage`` from
    ``game_usage``); None when no seat asked a chat model."""
    groups: dict[str, list[SeatUsage]] = {}
    for game in games:
        for name, parts in game.extra.get("usage", {}).items():
            groups.setdefault(name, []).extend(SeatUsage.model_validate(p) for p in parts)
    return usage_report(groups)


def usage_lines(report: UsageReport | None, scope: str = "games played in this run") -> list[str]:
    """The usage table under a bench's table, saying which games it covers (no lines when no
    seat asked a chat model)."""
    if report is None:
        return []
    return [
        "",
        f"LLM usage per agent, in the seat column ({scope}; latency in seconds):",
        report.table(),
    ]
