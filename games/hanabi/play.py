"""Play one Hanabi game with one agent per seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from games.hanabi.config import HanabiConfig
from games.hanabi.engine import HanabiGame, HanabiObservation


class HanabiAgent(Protocol):
    """Anything that picks a legal move number from a seat's observation."""

    name: str

    def act(self, obs: HanabiObservation) -> int:
        """The move to make."""
        ...


def play_game(config: HanabiConfig, seed: int, agents: Sequence[HanabiAgent]) -> HanabiGame:
    """Play a seeded game to its end and return the finished game."""
    if len(agents) != config.players:
        raise ValueError(f"agents: {config.players} needed, got {len(agents)}")
    game = HanabiGame(config, seed)
    while not game.is_terminal():
        seat = game.current
        game.apply({seat: agents[seat].act(game.observation(seat))})
    return game
