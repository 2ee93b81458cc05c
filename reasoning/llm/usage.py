"""Counting what chat calls cost: calls, retries, errors, tokens, latency and money, per seat
and per run, as snapshots games print in transcripts and save in summaries."""

from __future__ import annotations

import statistics
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from reasoning.llm.messages import ChatReply
from reasoning.llm.prices import PriceTable
from reasoning.percentiles import percentile

if TYPE_CHECKING:
    from reasoning.llm.settings import LLMSettings


class UsageSnapshot(BaseModel):
    """The meter's totals at one moment.

    ``cost`` is None when some call's model has no price (and no explicit price is set).
    ``reprompts`` counts answers asked again after a malformed reply, ``fallbacks`` answers
    replaced by a random legal action, ``cut_off`` replies stopped at the token cap,
    ``trimmed`` history messages dropped to fit the context, and ``format_degrades`` requests
    resent in a lower structured-output mode after the endpoint rejected one.
    """

    model_config = ConfigDict(frozen=True)

    calls: int
    retries: int
    errors: int
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    cost: float | None
    latency_median_s: float = 0.0
    latency_p95_s: float = 0.0
    reprompts: int = 0
    fallbacks: int = 0
    cut_off: int = 0
    trimmed: int = 0
    format_degrades: int = 0

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens


class UsageMeter:
    """Thread-safe running totals that every chat client records into.

    Explicit prices are per 1000 tokens and apply to every call (a missing one counts as zero
    when the other is set); without them each reply is priced by its model from ``prices``.
    """

    def __init__(
        self,
        price_input_per_1k: float | None = None,
        price_output_per_1k: float | None = None,
        *,
        prices: PriceTable | None = None,
    ) -> None:
        self.price_input_per_1k = price_input_per_1k
        self.price_output_per_1k = price_output_per_1k
        self.prices = prices if prices is not None else PriceTable()
        self._lock = threading.Lock()
        self.last_reasoning: str | None = None
        """The separate reasoning text of the last reply counted (None if it had none)."""
        self._counts = dict.fromkeys(_COUNTERS, 0)
        self._latencies: list[float] = []
        self._table_cost = 0.0
        self._unpriced = 0

    @classmethod
    def for_settings(cls, settings: LLMSettings) -> UsageMeter:
        """A meter priced from ``settings`` (explicit prices, else the price table)."""
        return cls(
            settings.price_input_per_1k,
            settings.price_output_per_1k,
            prices=PriceTable.load(settings.price_table),
        )

    def record_reply(self, reply: ChatReply) -> None:
        """Count one answered call with its tokens, latency and price."""
        price = self.prices.price(reply.model)
        with self._lock:
            self.last_reasoning = reply.reasoning
            self._bump("calls")
            self._bump("prompt_tokens", reply.prompt_tokens)
            self._bump("completion_tokens", reply.completion_tokens)
            self._bump("cut_off", int(reply.cut_off))
            self._latencies.append(reply.latency_s)
            if price is None:
                self._unpriced += 1
            else:
                self._table_cost += price.cost(reply.prompt_tokens, reply.completion_tokens)

    def record_retry(self) -> None:
        """Count one failed attempt that is about to be retried."""
        with self._lock:
            self._bump("retries")

    def record_error(self) -> None:
        """Count one call that failed for good."""
        with self._lock:
            self._bump("errors")

    def record_reprompt(self) -> None:
        """Count one answer asked for again after a malformed reply."""
        with self._lock:
            self._bump("reprompts")

    def record_fallback(self) -> None:
        """Count one answer replaced by a random legal action."""
        with self._lock:
            self._bump("fallbacks")

    def record_trimmed(self, messages: int) -> None:
        """Count history messages dropped to fit the context."""
        with self._lock:
            self._bump("trimmed", messages)

    def record_format_degrade(self) -> None:
        """Count one request resent in a lower structured-output mode."""
        with self._lock:
            self._bump("format_degrades")

    def cost_of(self, prompt_tokens: int, completion_tokens: int) -> float | None:
        """The explicit price of the given token counts, or None when none is set."""
        if self.price_input_per_1k is None and self.price_output_per_1k is None:
            return None
        return (
            prompt_tokens * (self.price_input_per_1k or 0.0)
            + completion_tokens * (self.price_output_per_1k or 0.0)
        ) / 1000.0

    def latencies(self) -> list[float]:
        """Every answered call's latency in seconds, in order."""
        with self._lock:
            return list(self._latencies)

    def snapshot(self) -> UsageSnapshot:
        """The totals so far."""
        with self._lock:
            counts = dict(self._counts)
            latencies = list(self._latencies)
            cost = self.cost_of(counts["prompt_tokens"], counts["completion_tokens"])
            if cost is None and counts["calls"] > 0 and self._unpriced == 0:
                cost = self._table_cost
        return _snapshot(counts, latencies, cost)

    def _bump(self, name: str, amount: int = 1) -> None:
        self._counts[name] += amount


_COUNTERS = (
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


def _snapshot(
    counts: Mapping[str, int], latencies: list[float], cost: float | None
) -> UsageSnapshot:
    ordered = sorted(latencies)
    return UsageSnapshot(
        **counts,
        latency_s=sum(ordered),
        latency_median_s=statistics.median(ordered) if ordered else 0.0,
        latency_p95_s=percentile(ordered, 95) if ordered else 0.0,
        cost=cost,
    )


def pool(parts: Iterable[tuple[UsageSnapshot, Sequence[float]]]) -> UsageSnapshot:
    """One snapshot of several (snapshot, call latencies) parts together: counts summed, cost
    summed over the parts that made calls (None when one of them is unknown), latency median and
    p95 over all their calls."""
    counts = dict.fromkeys(_COUNTERS, 0)
    latencies: list[float] = []
    cost: float | None = 0.0
    for part, part_latencies in parts:
        for name in _COUNTERS:
            counts[name] += getattr(part, name)
        latencies += part_latencies
        if part.calls:
            cost = None if cost is None or part.cost is None else cost + part.cost
    return _snapshot(counts, latencies, cost if counts["calls"] else None)


def combined(meters: Iterable[UsageMeter]) -> UsageSnapshot:
    """One snapshot of several meters together (a run's seats); percentiles over all calls."""
    return pool((meter.snapshot(), meter.latencies()) for meter in meters)


class UsageReport(BaseModel):
    """Usage per seat and for the whole run, as printed under a transcript and saved in
    ``summary.json``."""

    model_config = ConfigDict(frozen=True)

    seats: dict[str, UsageSnapshot]
    total: UsageSnapshot

    @classmethod
    def from_meters(cls, meters: Mapping[str, UsageMeter]) -> UsageReport:
        """The report of named meters (seat label -> meter)."""
        return cls(
            seats={name: meter.snapshot() for name, meter in meters.items()},
            total=combined(meters.values()),
        )

    @classmethod
    def from_seats(cls, seats: Mapping[str, Sequence[UsageMeter]]) -> UsageReport:
        """The report of seats that count their calls in one or more meters each (seat label ->
        meters), each seat's meters pooled."""
        return cls(
            seats={name: combined(meters) for name, meters in seats.items()},
            total=combined(meter for meters in seats.values() for meter in meters),
        )

    def table(self) -> str:
        """A plain-text table: one row per seat and a total row."""
        header = (
            "seat",
            "calls",
            "prompt tok",
            "compl tok",
            "p50 s",
            "p95 s",
            "retries",
            "reprompts",
            "fallbacks",
            "cut off",
            "trimmed",
            "cost",
        )
        rows = [header] + [
            _row(name, usage) for name, usage in [*self.seats.items(), ("total", self.total)]
        ]
        widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
        lines = [
            "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            )
            for row in rows
        ]
        return "\n".join(lines)


def _row(name: str, usage: UsageSnapshot) -> tuple[str, ...]:
    cost = "n/a" if usage.cost is None else f"{usage.cost:.4f}"
    return (
        name,
        str(usage.calls),
        str(usage.prompt_tokens),
        str(usage.completion_tokens),
        f"{usage.latency_median_s:.2f}",
        f"{usage.latency_p95_s:.2f}",
        str(usage.retries),
        str(usage.reprompts),
        str(usage.fallbacks),
        str(usage.cut_off),
        str(usage.trimmed),
        cost,
    )
