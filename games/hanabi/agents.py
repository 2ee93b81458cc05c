"""Hanabi agents by name: ``random`` and ``symbolic``."""

from __future__ import annotations

import random

from games.hanabi.config import Scoring
from games.hanabi.engine import HanabiObservation
from games.hanabi.play import HanabiAgent
from games.hanabi.symbolic import SymbolicAgent

AGENT_NAMES = ("random", "symbolic")
"""The agents :func:`make_agent` knows."""


class RandomAgent:
    """Picks a legal move uniformly at random from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def act(self, obs: HanabiObservation) -> int:
        """A uniformly random legal move."""
        return self._rng.choice(obs.legal_actions)


def make_agent(name: str, seat: int, seed: int, scoring: Scoring = "fireworks") -> HanabiAgent:
    """The agent called ``name`` for ``seat`` of the game with ``seed``; ValueError if unknown."""
    if name == "random":
        return RandomAgent(seed * 8 + seat)
    if name == "symbolic":
        return SymbolicAgent(seat, scoring)
    raise ValueError(f"agent: unknown Hanabi agent {name!r} (known: {', '.join(AGENT_NAMES)})")
