"""The Undercover-V LLM agents on a small context: earlier rounds go in trimmable messages, and a
whole game against a server that rejects long prompts finishes with no context error."""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.undercover.agent import Agent, Description, Observation
from games.undercover.agents import UndercoverAgentSettings, make_agent
from games.undercover.checker import ProverChecker
from games.undercover.engine import UndercoverGame
from games.undercover.events import EndReason, UndercoverConfig
from games.undercover.prompts import RECENT_ROUNDS, conversation, describe_prompt, history_messages
from games.undercover.words import builtin_pairs
from reasoning.llm import LLMSettings, OpenAIChatClient
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer
from tests.support.played import play_undercover

CONTEXT = 1300
PLAYERS = 10


def long_game() -> UndercoverGame:
    pair = builtin_pairs()[0]
    return UndercoverGame(UndercoverConfig.model_validate({"players": PLAYERS}), pair, 5)


@dataclass
class Stalling:
    """A citizen that never suspects the spy: it describes plainly and votes out a citizen each
    round, so the game runs until two players are left."""

    seat: int
    spy: int
    name: str = "stalling"

    def describe(self, obs: Observation) -> Description:
        """A fresh sentence naming the seat and round."""
        return Description(f"Player {self.seat} has seen it in round {obs.round}.")

    def vote(self, obs: Observation) -> int:
        """The lowest seat it may vote for other than the spy's and seat 0 (the LLM's, which
        votes for the lowest seat it may), so every vote has a majority."""
        targets = obs.vote_targets()
        return min([s for s in targets if s not in (self.spy, 0)] or targets)


def stalling(game: UndercoverGame) -> list[Agent]:
    """A stalling citizen in every seat."""
    return [Stalling(seat, game.spy_seat) for seat in range(PLAYERS)]


def script(request: ChatRequest) -> str:
    """A fresh description for each ask, or a vote for the first allowed seat."""
    prompt = str(request.messages[-1]["content"])
    allowed = re.search(r"You may vote for: player (\d+)", prompt)
    if allowed is not None:
        return f"VOTE: player {allowed.group(1)}"
    return f"DESCRIPTION: It is something I noticed on occasion number {len(prompt)}."


def test_a_long_game_fits_a_small_context_by_dropping_early_rounds() -> None:
    game = long_game()
    with ScriptedChatServer(script, context_tokens=CONTEXT, n_ctx=CONTEXT) as srv:
        settings = LLMSettings(
            base_url=srv.base_url, model="scripted", max_retries=0, max_tokens=64
        )
        client = OpenAIChatClient(settings, sleep=lambda _: None)
        agent_settings = UndercoverAgentSettings.create(client=client)
        llm = make_agent("nli", 0, game.seed, agent_settings)
        agents: list[Agent] = [llm, *stalling(game)[1:]]
        result = play_undercover(game, agents, ProverChecker(agent_settings.test))
        longest = max(r.prompt_words for r in srv.requests)
    assert result.reason == EndReason.TWO_PLAYERS_LEFT and result.rounds == PLAYERS - 2
    assert longest < CONTEXT
    usage = client.meter.snapshot()
    assert usage.errors == 0 and usage.trimmed > 0


def final_observation(game: UndercoverGame) -> Observation:
    settings = UndercoverAgentSettings.create()
    play_undercover(game, stalling(game), ProverChecker(settings.test))
    return game.observation(0)


def test_rounds_before_the_recent_ones_are_trimmable_messages() -> None:
    obs = final_observation(long_game())
    assert obs.round > RECENT_ROUNDS + 1
    older = history_messages(obs)
    assert [m.content.splitlines()[0] for m in older] == [
        f"Earlier game history, round {r}:" for r in range(1, obs.round - RECENT_ROUNDS + 1)
    ]
    assert all(m.trimmable and m.role == "user" for m in older)
    first = next(d for d in obs.descriptions_in(1) if d.seat != obs.seat)
    prompt = describe_prompt(obs, "TASK")
    assert first.text in older[0].content and f'round 1: "{first.text}"' not in prompt
    assert f"the last {RECENT_ROUNDS} rounds" in prompt
    messages = conversation(obs, prompt)
    assert messages[0].role == "system" and messages[-1].content == prompt
    assert messages[1:-1] == older
