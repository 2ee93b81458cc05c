"""Play one Hanabi game with one agent per seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from games.hanabi.config import HanabiConfig
from games.hanabi.engine import HanabiGame, HanabiObservation
from games.hanabi.events import HanabiMove


class HanabiAgent(Protocol):
    """Anything that picks a legal move from a seat's observation: a move number, or a
    ``HanabiMove`` carrying the decision behind it."""

    @property
    def name(self) -> str:
        """The agent's name."""
        ...

    def act(self, obs: HanabiObservation) -> int | HanabiMove:
        """The move to make."""
        ...


def play_game(config: HanabiConfig, seed: int, agents: Sequence[HanabiAgent]) -> HanabiGame:
    """Play a seeded game to its end and return the finished game."""
    if len(agents) != config.players:
        raise ValueError(f"agents: {config.players} needed, got {len(agents)}")
    game = HanabiGame(config, seed)
    while not game.is_terminal():
        seat = game.current
        move = agents[seat].act(game.observation(seat))
        game.apply({seat: move.action if isinstance(move, HanabiMove) else move})
    return game
