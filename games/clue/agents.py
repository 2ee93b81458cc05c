"""Clue agents by name: ``random``, ``prover``, ``llm``, ``llm-verified`` (``AGENTS``).

A factory takes the seat, a seed of its own and the shared ``AgentSettings``, and returns a fresh
agent for one game. ``AGENTS.parse`` reads a seat list such as ``prover,prover,random`` or
``prover*6``.
"""

from __future__ import annotations

from functools import partial

from pydantic import BaseModel, ConfigDict, Field

from games.clue.agent import Agent
from games.clue.llm_agent import make_llm_agent
from games.clue.prover_agent import ProverAgent
from games.clue.random_agent import RandomAgent
from games.clue.verified_agent import make_verified_agent
from games.core.agents import AgentRegistry, AgentType
from games.core.recordings import game_llm_settings
from provers.sat_session import SatSession
from provers.sat_solver import DEFAULT_SOLVER
from reasoning.llm import LLMSettings


class AgentSettings(BaseModel):
    """Settings the factories read: the LLM endpoint for LLM agents, the SAT solver for
    prover-backed ones."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    llm: LLMSettings | None = Field(default=None, description="None: read from the environment.")
    sat_solver: str = DEFAULT_SOLVER

    def llm_settings(self) -> LLMSettings:
        """The LLM settings given, or those the environment describes."""
        return self.llm if self.llm is not None else LLMSettings()

    def for_game(self, game_id: str, seats: int) -> AgentSettings:
        """The settings to play game ``game_id`` with: record/replay run directories become that
        game's per-seat recordings (``games.core.recordings.game_llm_settings``)."""
        llm = self.llm_settings()
        if llm.record_path is None and llm.replay_path is None:
            return self
        return self.model_copy(update={"llm": game_llm_settings(llm, game_id, seats)})


def _random(seat: int, seed: int, settings: AgentSettings) -> Agent:
    return RandomAgent(seed, name="random")


def _prover(seat: int, seed: int, settings: AgentSettings) -> Agent:
    return ProverAgent(seed, partial(SatSession, settings.sat_solver), name="prover")


def _llm(seat: int, seed: int, settings: AgentSettings) -> Agent:
    return make_llm_agent(settings.llm_settings(), seat, seed, name="llm")


def _llm_verified(seat: int, seed: int, settings: AgentSettings) -> Agent:
    factory = partial(SatSession, settings.sat_solver)
    return make_verified_agent(settings.llm_settings(), seat, seed, factory=factory)


AGENTS: AgentRegistry[AgentSettings, Agent] = AgentRegistry(
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
    settings=AgentSettings,
)
"""Every Clue agent, by name."""


make_agent = AGENTS.make
"""``make_agent(spec, seat, seed, settings=None)``: a fresh agent named ``spec`` for ``seat`` of a
game dealt from ``seed``, with a seed of its own (``seat_seed``)."""
