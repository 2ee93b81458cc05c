"""Hanabi agents by name (``AGENTS``): ``random`` and ``symbolic``, and the LLM agents.

A factory takes the seat, a seed of its own and the shared ``HanabiAgentSettings`` and returns a
fresh agent for one game; ``AGENTS.parse`` reads seat lists such as ``symbolic*3`` or
``symbolic,watson``.
"""

from __future__ import annotations

import random

from pydantic import BaseModel, ConfigDict

from games.core.agents import AgentRegistry, AgentType
from games.hanabi.config import Scoring
from games.hanabi.engine import HanabiObservation
from games.hanabi.play import HanabiAgent
from games.hanabi.symbolic import SymbolicAgent


class HanabiAgentSettings(BaseModel):
    """What the factories read: the scoring mode the symbolic agent plays for."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    scoring: Scoring = "fireworks"


class RandomAgent:
    """Picks a legal move uniformly at random from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def act(self, obs: HanabiObservation) -> int:
        """A uniformly random legal move."""
        return self._rng.choice(obs.legal_actions)


def _random(seat: int, seed: int, settings: HanabiAgentSettings) -> HanabiAgent:
    return RandomAgent(seed * 8 + seat)


def _symbolic(seat: int, seed: int, settings: HanabiAgentSettings) -> HanabiAgent:
    return SymbolicAgent(seat, settings.scoring)


AGENTS: AgentRegistry[HanabiAgentSettings, HanabiAgent] = AgentRegistry(
    [
        AgentType("random", "a uniformly random legal move", False, _random),
        AgentType(
            "symbolic",
            "exact card knowledge and shared conventions (games/hanabi/README.md)",
            False,
            _symbolic,
        ),
    ]
)
"""Every Hanabi agent by name."""

AGENT_NAMES = AGENTS.names
"""The agents :func:`make_agent` knows."""


def make_agent(name: str, seat: int, seed: int, scoring: Scoring = "fireworks") -> HanabiAgent:
    """The agent called ``name`` for ``seat`` of the game with ``seed``; ValueError if unknown."""
    return AGENTS.make(name, seat, seed, HanabiAgentSettings(scoring=scoring))
