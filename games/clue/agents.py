"""Clue agents by name: ``random``, ``prover``, ``llm``, ``llm-verified`` (``AGENTS``).

A factory takes the seat, a seed of its own and the shared ``ClueAgentSettings``, and returns a
fresh agent for one game (importing the agent's module then, so that listing the agents, as a
command's help does, loads no prover or LLM machinery). ``AGENTS.parse`` reads a seat list such
as ``prover,prover,random`` or ``prover*6``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from random import Random

from games.clue.agent import (
    Accuse,
    Agent,
    ClueAction,
    ClueObservation,
    Phase,
    Show,
    Suggest,
)
from games.core.agents import AgentRegistry, AgentType
from games.core.random_agent import RandomAgent
from games.core.settings import AgentSettings
from provers.sat_solver import DEFAULT_SOLVER


class ClueAgentSettings(AgentSettings):
    """Settings the factories read: the LLM endpoint for LLM agents (the base's), the SAT solver
    for prover-backed ones."""

    sat_solver: str = DEFAULT_SOLVER


def draw_clue_action(obs: ClueObservation, legal: Sequence[ClueAction], rng: Random) -> ClueAction:
    """Clue's random baseline, as its logs were recorded: suggest three random cards, show a
    random matching card, and accuse only when it must, picking per category a random card
    outside its own hand."""
    if obs.phase is Phase.REFUTE:
        return Show(card=rng.choice(obs.matching))
    if obs.phase is Phase.FINAL_ACCUSATION:
        own = {card.name for card in obs.hand}

        def pick(names: tuple[str, ...]) -> str:
            return rng.choice([n for n in names if n not in own])

        return Accuse(suspect=pick(obs.suspects), weapon=pick(obs.weapons), room=pick(obs.rooms))
    if obs.phase is Phase.TURN:
        return Suggest(
            suspect=rng.choice(obs.suspects),
            weapon=rng.choice(obs.weapons),
            room=rng.choice(obs.rooms),
        )
    raise ValueError(f"no decision to make in phase {obs.phase.value}")


def random_agent(seed: int, name: str = "random") -> RandomAgent:
    """Clue's random player: the core's random agent drawing as ``draw_clue_action``."""
    return RandomAgent(seed, draw_clue_action, name)


def _random(seat: int, seed: int, settings: ClueAgentSettings) -> RandomAgent:
    return random_agent(seed)


def _prover(seat: int, seed: int, settings: ClueAgentSettings) -> Agent:
    from games.clue.prover_agent import ProverAgent
    from provers.sat_session import SatSession

    return ProverAgent(seed, partial(SatSession, settings.sat_solver), name="prover")


def _llm(seat: int, seed: int, settings: ClueAgentSettings) -> Agent:
    from games.clue.llm_agent import make_llm_agent

    return make_llm_agent(settings.seat_llm(seat), seat, seed, name="llm")


def _llm_verified(seat: int, seed: int, settings: ClueAgentSettings) -> Agent:
    from games.clue.verified_agent import make_verified_agent
    from provers.sat_session import SatSession

    factory = partial(SatSession, settings.sat_solver)
    return make_verified_agent(settings.seat_llm(seat), seat, seed, factory=factory)


AGENTS: AgentRegistry[ClueAgentSettings, Agent | RandomAgent] = AgentRegistry(
    [
        AgentType("random", "a uniformly random legal action", False, _random),
        AgentType(
            "prover",
            "SAT-backed knowledge grid; accuses when the envelope is known",
            False,
            _prover,
        ),
        AgentType(
            "llm", "seed 000's LLM agent: deduction, action and show-card phases", True, _llm
        ),
        AgentType(
            "llm-verified",
            "the LLM agent whose deductions the SAT grid checks before it acts",
            True,
            _llm_verified,
        ),
    ],
    game="clue",
    settings=ClueAgentSettings,
)
"""Every Clue agent, by name."""


make_agent = AGENTS.make
"""``make_agent(spec, seat, seed, settings=None)``: a fresh agent named ``spec`` for ``seat`` of a
game dealt from ``seed``, with a seed of its own (``seat_seed``)."""
