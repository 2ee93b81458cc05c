"""Hanabi's own log events, written between the common header and end events of a game log.

``deal`` records the opening hands; then one event per move, carrying what the move revealed;
``game_end`` closes the game with its score. An LLM seat's move is preceded by its ``decision``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from games.core.llm_call import LLMCallRef
from games.hanabi.config import Scoring

CardName = Annotated[str, Field(pattern=r"^[RYGWB][1-5]$")]


class HanabiConfig(BaseModel):
    """The settings of one game: the number of players and the scoring mode."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: int = Field(default=2, ge=2, le=5)
    scoring: Scoring = "fireworks"

    @property
    def hand_size(self) -> int:
        """Five cards for 2-3 players, four for 4-5."""
        return 5 if self.players < 4 else 4


class _Event(BaseModel):
    """Fields every Hanabi event carries: its position in the game."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str
    turn: int = Field(ge=0)


class DealEvent(_Event):
    """The opening hands, by seat, oldest card first."""

    type: Literal["deal"] = "deal"
    hands: tuple[tuple[CardName, ...], ...]


class PlayEvent(_Event):
    """A seat played a slot: the card, whether it scored, and the card drawn (if any)."""

    type: Literal["play"] = "play"
    seat: int = Field(ge=0)
    action: int = Field(ge=0)
    slot: int = Field(ge=0)
    card: CardName
    scored: bool
    drawn: CardName | None = None


class DiscardEvent(_Event):
    """A seat discarded a slot: the card and the card drawn (if any)."""

    type: Literal["discard"] = "discard"
    seat: int = Field(ge=0)
    action: int = Field(ge=0)
    slot: int = Field(ge=0)
    card: CardName
    drawn: CardName | None = None


class HintEvent(_Event):
    """A seat named a colour or a rank to a teammate, touching ``slots`` of its hand."""

    type: Literal["hint"] = "hint"
    seat: int = Field(ge=0)
    action: int = Field(ge=0)
    target: int = Field(ge=0)
    color: Annotated[str, Field(pattern=r"^[RYGWB]$")] | None = None
    rank: int | None = Field(default=None, ge=1, le=5)
    slots: tuple[int, ...]


class SlotClaim(BaseModel):
    """A stated deduction about one card: seat ``seat``'s slot ``slot`` has one of ``colors``
    and one of ``ranks`` (all five of either when the claim says nothing of it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int = Field(ge=0)
    slot: int = Field(ge=0)
    colors: Annotated[str, Field(pattern=r"^R?Y?G?W?B?$", min_length=1)]
    ranks: Annotated[str, Field(pattern=r"^1?2?3?4?5?$", min_length=1)]


class DecisionEvent(_Event, LLMCallRef):
    """How an LLM seat chose the move that follows: its prompt, its answer, a rating in [-1, 1]
    of every legal move (listed in ``legal``), the chosen move, whether it fell back to a random
    legal move, the deductions it stated, and the recorded call of its final choice."""

    type: Literal["decision"] = "decision"
    seat: int = Field(ge=0)
    agent: str
    prompt: str
    response: str
    legal: tuple[int, ...]
    ratings: tuple[Annotated[float, Field(ge=-1.0, le=1.0)], ...]
    chosen: int = Field(ge=0)
    fallback: bool
    claims: tuple[SlotClaim, ...] = ()
    reasoning_content: str | None = None
    """The server's separate reasoning text behind the answer used, when it returned one."""


@dataclass(frozen=True)
class HanabiMove:
    """A move number with the decision record of the seat that chose it."""

    action: int
    decision: DecisionEvent


class GameEnd(_Event):
    """The game is over: why, the score in the configured mode, fireworks and lives left."""

    type: Literal["game_end"] = "game_end"
    reason: Literal["fireworks_complete", "out_of_lives", "deck_exhausted"]
    score: int = Field(ge=0, le=25)
    fireworks: tuple[int, ...]
    lives: int = Field(ge=0)


HanabiEvent = Annotated[
    DealEvent | DecisionEvent | PlayEvent | DiscardEvent | HintEvent | GameEnd,
    Field(discriminator="type"),
]
"""Any Hanabi event, told apart by ``type``."""
HANABI_EVENT_TYPES = (DealEvent, DecisionEvent, PlayEvent, DiscardEvent, HintEvent, GameEnd)
"""The classes of Hanabi's own events."""
HANABI_EVENT: TypeAdapter[HanabiEvent] = TypeAdapter(HanabiEvent)
"""Validates one Hanabi event from a dict or JSON."""
