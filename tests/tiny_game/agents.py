"""Nim-21's agents: a random and a greedy taker, and a model asked how many counters to take
(the core's ``LLMPlayer`` with a prompter of its own)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from games.core.agents import AgentRegistry, AgentType
from games.core.llm_player import LLMPlayer, seat_client
from games.core.random_agent import RandomAgent
from games.core.settings import AgentSettings
from tests.tiny_game.engine import GreedyTaker


class Take(BaseModel):
    """The model's answer: how many counters it takes."""

    model_config = ConfigDict(extra="forbid")

    take: int


class NimPrompter:
    """Asks for a take from the legal ones (the observation is the list of legal takes)."""

    schema = Take

    def phase(self, obs: list[int]) -> str:
        """Every decision is a take."""
        return "take"

    def system_prompt(self, obs: list[int]) -> str:
        """The rules."""
        return 'We play Nim: whoever takes the last counter wins. Answer in JSON: {"take": N}.'

    def prompt(self, obs: list[int]) -> str:
        """The takes allowed now."""
        return f"You may take {', '.join(map(str, obs))} counters. How many do you take?"

    def answer_model(self, obs: list[int]) -> type[BaseModel] | None:
        """The answer as plain JSON text."""
        return None

    def action(self, answer: Take, obs: list[int]) -> int:
        """The take named."""
        return answer.take

    def legal_actions(self, obs: list[int]) -> Sequence[int]:
        """The takes allowed."""
        return obs


def _llm(seat: int, seed: int, settings: AgentSettings) -> Any:
    client = seat_client(settings.seat_llm(seat), seat)
    return LLMPlayer(NimPrompter(), client, seed=seed)


AGENTS: AgentRegistry[AgentSettings, Any] = AgentRegistry(
    [
        AgentType("random", "a random legal take", False, lambda seat, seed, _: RandomAgent(seed)),
        AgentType("greedy", "the largest legal take", False, lambda seat, seed, _: GreedyTaker()),
        AgentType("llm", "a model asked for its take", True, _llm),
    ],
    game="nim",
    settings=AgentSettings,
)
