"""Counting what chat calls cost: calls, retries, errors, tokens, latency and money."""

from __future__ import annotations

import threading

from pydantic import BaseModel, ConfigDict

from reasoning.llm.messages import ChatReply
from reasoning.llm.settings import LLMSettings


class UsageSnapshot(BaseModel):
    """The meter's totals at one moment; ``cost`` is None when no prices are configured."""

    model_config = ConfigDict(frozen=True)

    calls: int
    retries: int
    errors: int
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    cost: float | None

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens


class UsageMeter:
    """Thread-safe running totals that every chat client records into.

    Prices are per 1000 tokens; a missing price counts as zero unless both are missing, in
    which case no cost is reported.
    """

    def __init__(
        self, price_input_per_1k: float | None = None, price_output_per_1k: float | None = None
    ) -> None:
        self.price_input_per_1k = price_input_per_1k
        self.price_output_per_1k = price_output_per_1k
        self._lock = threading.Lock()
        self._calls = 0
        self._retries = 0
        self._errors = 0
        self._prompt_tokens = 0
        self._completion_tokens = 0
        self._latency_s = 0.0

    @classmethod
    def for_settings(cls, settings: LLMSettings) -> UsageMeter:
        """A meter priced from ``settings``."""
        return cls(settings.price_input_per_1k, settings.price_output_per_1k)

    def record_reply(self, reply: ChatReply) -> None:
        """Count one answered call with its tokens and latency."""
        with self._lock:
            self._calls += 1
            self._prompt_tokens += reply.prompt_tokens
            self._completion_tokens += reply.completion_tokens
            self._latency_s += reply.latency_s

    def record_retry(self) -> None:
        """Count one failed attempt that is about to be retried."""
        with self._lock:
            self._retries += 1

    def record_error(self) -> None:
        """Count one call that failed for good."""
        with self._lock:
            self._errors += 1

    def cost_of(self, prompt_tokens: int, completion_tokens: int) -> float | None:
        """The price of the given token counts, or None when no prices are configured."""
        if self.price_input_per_1k is None and self.price_output_per_1k is None:
            return None
        return (
            prompt_tokens * (self.price_input_per_1k or 0.0)
            + completion_tokens * (self.price_output_per_1k or 0.0)
        ) / 1000.0

    def snapshot(self) -> UsageSnapshot:
        """The totals so far."""
        with self._lock:
            return UsageSnapshot(
                calls=self._calls,
                retries=self._retries,
                errors=self._errors,
                prompt_tokens=self._prompt_tokens,
                completion_tokens=self._completion_tokens,
                latency_s=self._latency_s,
                cost=self.cost_of(self._prompt_tokens, self._completion_tokens),
            )
