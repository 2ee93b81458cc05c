"""Falling back to a random legal action when a model's answer is unusable, and counting it."""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from reasoning.llm.usage import UsageMeter

A = TypeVar("A")

DEFAULT_MAX_REPROMPTS = 3
"""Re-prompts after a malformed answer before a caller falls back (seed 002: three)."""


class FallbackReason(StrEnum):
    """Why the model's action was replaced: no usable answer, or an answer the rules forbid."""

    UNPARSED = "unparsed"
    ILLEGAL = "illegal"


class FallbackSnapshot(BaseModel):
    """Fallback counts at one moment: phase -> reason -> count, and the total."""

    model_config = ConfigDict(frozen=True)

    counts: dict[str, dict[str, int]]
    total: int


class FallbackCounter:
    """Thread-safe tally of fallbacks per game phase (deduction, action, show-card, ...) and
    reason, the parse-failure metric games report."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[str, dict[str, int]] = {}

    def record(self, phase: str, reason: str) -> None:
        """Count one fallback in ``phase`` for ``reason``."""
        with self._lock:
            by_reason = self._counts.setdefault(phase, {})
            by_reason[reason] = by_reason.get(reason, 0) + 1

    def count(self, phase: str | None = None) -> int:
        """Fallbacks in ``phase``, or in all phases when it is None."""
        with self._lock:
            if phase is not None:
                return sum(self._counts.get(phase, {}).values())
            return sum(sum(by_reason.values()) for by_reason in self._counts.values())

    def snapshot(self) -> FallbackSnapshot:
        """The counts so far."""
        with self._lock:
            counts = {phase: dict(by_reason) for phase, by_reason in self._counts.items()}
        return FallbackSnapshot(
            counts=counts, total=sum(sum(by_reason.values()) for by_reason in counts.values())
        )


def choose_with_fallback(
    proposed: A | None,
    legal_actions: Sequence[A],
    rng: random.Random,
    *,
    counter: FallbackCounter | None = None,
    phase: str = "action",
    meter: UsageMeter | None = None,
) -> tuple[A, bool]:
    """Play ``proposed`` if it is legal; otherwise a uniformly random legal action.

    Returns the action and whether it was a fallback; each fallback is recorded in ``counter``
    under ``phase`` with reason ``unparsed`` (no proposal) or ``illegal``, and in ``meter``.
    """
    if not legal_actions:
        raise ValueError(f"no legal actions to choose from in phase {phase!r}")
    if proposed is not None and proposed in legal_actions:
        return proposed, False
    if counter is not None:
        reason = FallbackReason.UNPARSED if proposed is None else FallbackReason.ILLEGAL
        counter.record(phase, reason.value)
    if meter is not None:
        meter.record_fallback()
    return rng.choice(legal_actions), True
