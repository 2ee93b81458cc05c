"""Clue agents by name: ``random``, ``prover``, ``llm``, ``llm-verified`` and any agent added to
``AGENT_FACTORIES``.

A factory takes the seat, a seed of its own and the shared ``AgentSettings``, and returns a fresh
agent for one game. ``parse_agents`` reads a seat list such as ``prover,prover,random`` or
``prover*6`` (also ``prover x6``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import partial

from pydantic import BaseModel, ConfigDict, Field

from games.clue.agent import Agent
from games.clue.llm_agent import make_llm_agent
from games.clue.prover_agent import ProverAgent
from games.clue.random_agent import RandomAgent
from games.clue.verified_agent import make_verified_agent
from provers.sat_session import SatSession
from provers.sat_solver import DEFAULT_SOLVER
from reasoning.llm import FallbackCounter, FallbackSnapshot, LLMSettings


class AgentSettings(BaseModel):
    """Settings the factories read: the LLM endpoint for LLM agents, the SAT solver for
    prover-backed ones."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    llm: LLMSettings | None = Field(default=None, description="None: read from the environment.")
    sat_solver: str = DEFAULT_SOLVER

    def llm_settings(self) -> LLMSettings:
        """The LLM settings given, or those the environment describes."""
        return self.llm if self.llm is not None else LLMSettings()


AgentFactory = Callable[[int, int, AgentSettings], Agent]
"""(seat, seed, settings) -> a fresh agent for one game."""


def _random(seat: int, seed: int, settings: AgentSettings) -> Agent:
    return RandomAgent(seed, name="random")


def _prover(seat: int, seed: int, settings: AgentSettings) -> Agent:
    return ProverAgent(seed, partial(SatSession, settings.sat_solver), name="prover")


def _llm(seat: int, seed: int, settings: AgentSettings) -> Agent:
    return make_llm_agent(settings.llm_settings(), seat, seed, name="llm")


def _llm_verified(seat: int, seed: int, settings: AgentSettings) -> Agent:
    factory = partial(SatSession, settings.sat_solver)
    return make_verified_agent(settings.llm_settings(), seat, seed, factory=factory)


AGENT_FACTORIES: dict[str, AgentFactory] = {
    "random": _random,
    "prover": _prover,
    "llm": _llm,
    "llm-verified": _llm_verified,
}
"""Every agent name the registry knows, with its factory."""

_REPEAT = re.compile(r"^(?P<name>[A-Za-z][\w-]*)\s*(?:\*|\s+x)\s*(?P<count>\d+)$")


def seat_seed(seed: int, seat: int) -> int:
    """A seat's own seed, derived from the game's seed, so no two seats share a random stream."""
    return random.Random(f"clue-agent/{seed}/{seat}").getrandbits(63)


def make_agent(spec: str, seat: int, seed: int, settings: AgentSettings | None = None) -> Agent:
    """A fresh agent named ``spec`` for ``seat`` of a game dealt from ``seed``.

    Raises ValueError naming the known agents when ``spec`` is not one of them.
    """
    name = spec.strip()
    factory = AGENT_FACTORIES.get(name)
    if factory is None:
        raise ValueError(f"unknown agent {spec!r}; choose one of: {', '.join(AGENT_FACTORIES)}")
    return factory(seat, seat_seed(seed, seat), settings or AgentSettings())


def parse_agents(text: str) -> list[str]:
    """The seat list ``text`` as one agent name per seat; ValueError names a bad entry."""
    seats: list[str] = []
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            raise ValueError(f"agents {text!r}: empty entry")
        match = _REPEAT.match(item)
        name, count = (match["name"], int(match["count"])) if match else (item, 1)
        if name not in AGENT_FACTORIES:
            raise ValueError(
                f"agents: unknown agent {name!r}; choose one of: {', '.join(AGENT_FACTORIES)}"
            )
        seats.extend([name] * count)
    return seats


def fallback_count(agent: Agent) -> int:
    """How many times ``agent`` fell back to a random action (0 for agents that never do)."""
    fallbacks = getattr(agent, "fallbacks", None)
    if isinstance(fallbacks, FallbackSnapshot):
        return fallbacks.total
    if isinstance(fallbacks, FallbackCounter):
        return fallbacks.count()
    if isinstance(fallbacks, int):
        return fallbacks
    return 0


def release(agent: Agent) -> None:
    """Let an agent free what it holds for a game (solver sessions), when it has a ``close``."""
    close = getattr(agent, "close", None)
    if callable(close):
        close()
