"""Hanabi settings and the game's description for the registry."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Scoring = Literal["fireworks", "hle"]
"""``fireworks``: the fireworks sum, kept at the third lost life; ``hle``: a bomb-out scores 0."""

MAX_SEED = 2**31 - 1
"""Seeds are the reference engine's non-negative ``int`` seeds."""


class HanabiConfig(BaseModel):
    """The settings of one game: the number of players and the scoring mode."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: int = Field(default=2, ge=2, le=5)
    scoring: Scoring = "fireworks"

    @property
    def hand_size(self) -> int:
        """Five cards for 2-3 players, four for 4-5."""
        return 5 if self.players < 4 else 4


class GameInfo(BaseModel):
    """What a game is: its name, the player range, and how it is played."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    min_players: int
    max_players: int
    simultaneous: bool
    imperfect_information: bool


HANABI_INFO = GameInfo(
    name="hanabi", min_players=2, max_players=5, simultaneous=False, imperfect_information=True
)
"""Hanabi: 2-5 players, one seat moves at a time, each seat's own hand hidden from it."""
