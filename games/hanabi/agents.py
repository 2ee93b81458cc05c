"""Hanabi agents by name (``AGENTS``): ``random``, ``symbolic``, ``hat`` and ``strong``, and the
LLM agents.

A factory takes the seat, a seed of its own and the shared ``HanabiAgentSettings`` and returns a
fresh agent for one game; ``AGENTS.parse`` reads seat lists such as ``symbolic*3`` or
``symbolic,watson``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from pydantic import Field

from games.core.agents import AgentRegistry, AgentType
from games.core.llm_player import seat_client
from games.core.random_agent import RandomAgent
from games.core.settings import AgentSettings
from games.hanabi.config import Scoring
from games.hanabi.engine import HanabiObservation
from games.hanabi.events import HanabiMove
from games.hanabi.hat import HatAgent
from games.hanabi.knowledge import KnowledgeView
from games.hanabi.llm_agents import REPROMPT_BOUND, HanabiLLMAgent, InvalidPolicy, Role
from games.hanabi.search import SearchAgent
from games.hanabi.symbolic import SymbolicAgent
from reasoning.llm import LLMSettings
from reasoning.llm.fallback import DEFAULT_MAX_REPROMPTS


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


class HanabiAgentSettings(AgentSettings):
    """What the factories read: the scoring mode the symbolic agent plays for; for LLM agents
    the endpoint (None: from the environment), Sherlock's knowledge view, best-of-K, the
    mixture of agents, the re-prompts and what an answer that stays invalid leads to
    (``fallback``: a counted random legal move; ``reprompt``: re-prompt up to
    ``REPROMPT_BOUND`` times, then the game errors; never a random move)."""

    scoring: Scoring = "fireworks"
    view: KnowledgeView = "hints"
    best_of: int = Field(default=1, ge=1, le=16)
    mixture: bool = False
    max_reprompts: int = Field(default=DEFAULT_MAX_REPROMPTS, ge=0, le=10)
    invalid: InvalidPolicy = "fallback"
    seat_model: str | None = None
    """The model a seat spec named (``sherlock@MODEL``): the seat's name in the log keeps it."""


def _random(seat: int, seed: int, settings: HanabiAgentSettings) -> RandomAgent:
    return RandomAgent(seed)


def _symbolic(seat: int, seed: int, settings: HanabiAgentSettings) -> HanabiAgent:
    return SymbolicAgent(seat, settings.scoring)


def _hat(seat: int, seed: int, settings: HanabiAgentSettings) -> HanabiAgent:
    return HatAgent(seat, scoring=settings.scoring)


def _hat_search(seat: int, seed: int, settings: HanabiAgentSettings) -> HanabiAgent:
    return SearchAgent(seat, seed, settings.scoring)


class StrongAgent:
    """The strongest in-house agent for the table's player count, chosen at the first move
    (``bench hanabi``, games/hanabi/README.md): ``hat-search`` at 2 players, where the hat
    protocol alone carries too little per hint, ``hat`` at 3-5."""

    name = "strong"

    def __init__(self, seat: int, seed: int, settings: HanabiAgentSettings) -> None:
        self._seat = seat
        self._seed = seed
        self._settings = settings
        self._agent: HanabiAgent | None = None

    @property
    def chosen(self) -> HanabiAgent | None:
        """The agent chosen for the table (None before the first move)."""
        return self._agent

    def act(self, obs: HanabiObservation) -> int | HanabiMove:
        """The chosen agent's move."""
        if self._agent is None:
            scoring = self._settings.scoring
            self._agent = (
                SearchAgent(self._seat, self._seed, scoring)
                if obs.players == 2
                else HatAgent(self._seat, scoring=scoring)
            )
        return self._agent.act(obs)


def _strong(seat: int, seed: int, settings: HanabiAgentSettings) -> HanabiAgent:
    return StrongAgent(seat, seed, settings)


def _llm(role: Role) -> Callable[[int, int, HanabiAgentSettings], HanabiAgent]:
    def factory(seat: int, seed: int, settings: HanabiAgentSettings) -> HanabiAgent:
        return HanabiLLMAgent(
            role,
            seat_client(settings.seat_llm(seat), seat),
            seat=seat,
            seed=seed,
            view=settings.view,
            best_of=settings.best_of,
            mixture=settings.mixture,
            max_reprompts=REPROMPT_BOUND
            if settings.invalid == "reprompt"
            else settings.max_reprompts,
            invalid=settings.invalid,
            label=None if settings.seat_model is None else f"{role}@{settings.seat_model}",
        )

    return factory


def _with_model(settings: HanabiAgentSettings, model: str) -> HanabiAgentSettings:
    llm = settings.llm if settings.llm is not None else LLMSettings()
    update = {"llm": llm.model_copy(update={"model": model}), "seat_model": model}
    return settings.model_copy(update=update)


AGENTS: AgentRegistry[HanabiAgentSettings, HanabiAgent | RandomAgent] = AgentRegistry(
    [
        AgentType("random", "a uniformly random legal move", False, _random),
        AgentType(
            "symbolic",
            "exact card knowledge and shared conventions (games/hanabi/README.md)",
            False,
            _symbolic,
        ),
        AgentType(
            "hat",
            "the information (hat) strategy: hints as sums of answers about every hand",
            False,
            _hat,
        ),
        AgentType(
            "hat-search",
            "hat, with rollouts of its own play where it is unsure (slow: seconds a game)",
            False,
            _hat_search,
        ),
        AgentType(
            "strong",
            "the strongest in-house agent for the table's player count",
            False,
            _strong,
        ),
        AgentType(
            "watson",
            "LLM: the table, teammates' cards, the clued colours and ranks only, priorities",
            True,
            _llm("watson"),
        ),
        AgentType(
            "sherlock",
            "LLM: each card's possibilities from hints, the starting deck, think-aloud",
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
    with_model=_with_model,
)
"""Every Hanabi agent by name; LLM seats may name a model each (``sherlock@MODEL``)."""

AGENT_NAMES = AGENTS.names
"""The agents :func:`make_agent` knows."""


make_agent = AGENTS.make
"""``make_agent(spec, seat, seed, settings=None)``: the agent called ``spec`` for ``seat`` of the
game dealt from ``seed``, with a seed of its own (``seat_seed``); AgentSpecError if unknown."""
