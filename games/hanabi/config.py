"""Hanabi's scoring modes, seed range and its description for the registry of games (the game's
config, ``HanabiConfig``, is in ``games.hanabi.events``)."""

from __future__ import annotations

from typing import Literal

from games.core.protocol import GameInfo

Scoring = Literal["fireworks", "hle"]
"""``fireworks``: the fireworks sum, kept at the third lost life; ``hle``: a bomb-out scores 0."""

MAX_SEED = 2**31 - 1
"""Seeds are the reference engine's non-negative ``int`` seeds."""


MAX_DECISIONS = 128
"""A bound on a game's moves: at most 50 plays and discards, and a hint spends one of the 8
tokens that only discards (at most 50) and completed colours (5) give back: 113 in all."""

HANABI_INFO = GameInfo(
    name="hanabi",
    min_players=2,
    max_players=5,
    simultaneous=False,
    imperfect_information=True,
    max_decisions=MAX_DECISIONS,
)
"""Hanabi: 2-5 players, one seat moves at a time, each seat's own hand hidden from it."""
