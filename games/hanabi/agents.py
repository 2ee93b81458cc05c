"""Hanabi agents by name (``AGENTS``): ``random`` and ``symbolic``, and the LLM agents.

A factory takes the seat, a seed of its own and the shared ``HanabiAgentSettings`` and returns a
fresh agent for one game; ``AGENTS.parse`` reads seat lists such as ``symbolic*3`` or
``symbolic,watson``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from games.core.agents import AgentRegistry, AgentType
from games.core.llm_player import seat_client
from games.hanabi.config import Scoring
from games.hanabi.engine import HanabiObservation
from games.hanabi.events import HanabiMove
from games.hanabi.knowledge import KnowledgeView
from games.hanabi.llm_agents import HanabiLLMAgent, Role
from games.hanabi.symbolic import SymbolicAgent
from reasoning.llm import LLMSettings
from reasoning.llm.settings import DEFAULT_MAX_REPROMPTS


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


class HanabiAgentSettings(BaseModel):
    """What the factories read: the scoring mode the symbolic agent plays for; for LLM agents
    the endpoint (None: from the environment), Sherlock's knowledge view, best-of-K, the
    mixture of agents and the re-prompts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    scoring: Scoring = "fireworks"
    llm: LLMSettings | None = None
    view: KnowledgeView = "hints"
    best_of: int = Field(default=1, ge=1, le=16)
    mixture: bool = False
    max_reprompts: int = Field(default=DEFAULT_MAX_REPROMPTS, ge=0, le=10)


class RandomAgent:
    """Picks a legal move uniformly at random from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def act(self, obs: HanabiObservation) -> int:
        """A uniformly random legal move."""
        return self._rng.choice(obs.legal_actions)


def _random(seat: int, seed: int, settings: HanabiAgentSettings) -> HanabiAgent:
    return RandomAgent(seed)


def _symbolic(seat: int, seed: int, settings: HanabiAgentSettings) -> HanabiAgent:
    return SymbolicAgent(seat, settings.scoring)


def _llm(role: Role) -> Callable[[int, int, HanabiAgentSettings], HanabiAgent]:
    def factory(seat: int, seed: int, settings: HanabiAgentSettings) -> HanabiAgent:
        llm = settings.llm if settings.llm is not None else LLMSettings()
        return HanabiLLMAgent(
            role,
            seat_client(llm, seat),
            seat=seat,
            seed=seed,
            view=settings.view,
            best_of=settings.best_of,
            mixture=settings.mixture,
            max_reprompts=settings.max_reprompts,
        )

    return factory


AGENTS: AgentRegistry[HanabiAgentSettings, HanabiAgent] = AgentRegistry(
    [
        AgentType("random", "a uniformly random legal move", False, _random),
        AgentType(
            "symbolic",
            "exact card knowledge and shared conventions (games/hanabi/README.md)",
            False,
            _symbolic,
        ),
        AgentType(
            "watson",
            "LLM: the table, teammates' cards and hint-only knowledge, priorities",
            True,
            _llm("watson"),
        ),
        AgentType(
            "sherlock",
            "LLM: Watson plus each card's possibilities, think-aloud and probabilities",
            True,
            _llm("sherlock"),
        ),
        AgentType(
            "mycroft",
            "LLM: no engine deductions; its own memory; states per-slot deductions",
            True,
            _llm("mycroft"),
        ),
    ],
    game="hanabi",
    settings=HanabiAgentSettings,
)
"""Every Hanabi agent by name."""

AGENT_NAMES = AGENTS.names
"""The agents :func:`make_agent` knows."""


make_agent = AGENTS.make
"""``make_agent(spec, seat, seed, settings=None)``: the agent called ``spec`` for ``seat`` of the
game dealt from ``seed``, with a seed of its own (``seat_seed``); AgentSpecError if unknown."""
