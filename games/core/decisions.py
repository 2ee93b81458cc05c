"""The LLM decisions a game's log records, in one shape for every game that logs them.

A game that logs its LLM seats' decisions (Hanabi's ``decision`` events) reads them back through
its entry (``GameEntry.decisions``) as ``LoggedDecision`` records: what the seat was asked, what
it answered, the moves it could make, the one it made, and the exact position it decided in, so
a dataset row can be scored again later (``games.core.reward``).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class LoggedDecision(BaseModel):
    """One logged LLM decision: seat and turn, the agent, its prompt and parsed answer, the
    server's reasoning text (when it returned one), the legal moves with the seat's rating of
    each, the chosen move, whether it fell back to a random legal move, and the position (the
    game's own JSON, enough to rebuild the state it decided in; None where the game gives none)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    turn: int
    agent: str
    prompt: str
    response: str
    reasoning: str | None = None
    legal: tuple[int, ...]
    ratings: tuple[float, ...]
    chosen: int
    fallback: bool
    position: dict[str, Any] | None = None
