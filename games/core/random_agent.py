"""The one random agent, for every game: a seeded uniform choice among the legal actions the
loop lists (OpenSpiel's ``uniform_random``), unless the game says how to draw.

A game draws its own way where the uniform choice does not fit: an open decision with no list of
actions (an Undercover-V description is a sentence), or a baseline its logs were recorded with
(Clue's random player suggests until it must accuse, and never accuses a card it holds).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

Draw = Callable[[Any, Sequence[Any], random.Random], Any]
"""How a random action is drawn: from the observation, the legal actions and the agent's own
generator."""


def uniform(obs: Any, legal: Sequence[Any], rng: random.Random) -> Any:
    """One of ``legal``, uniformly; ValueError when there is none to choose from."""
    if not legal:
        raise ValueError("no legal action to choose from")
    return rng.choice(legal)


class RandomAgent:
    """Plays a random action drawn by ``draw`` (default: uniformly among the legal ones) from a
    generator seeded with ``seed``: the same seed and observations give the same actions."""

    def __init__(self, seed: int, draw: Draw = uniform, name: str = "random") -> None:
        self._rng = random.Random(seed)
        self._draw = draw
        self._name = name

    @property
    def name(self) -> str:
        """The agent's name, recorded in the log."""
        return self._name

    def choose(self, obs: Any, legal: Sequence[Any]) -> Any:
        """A random action for ``obs`` among ``legal``."""
        return self._draw(obs, legal, self._rng)
