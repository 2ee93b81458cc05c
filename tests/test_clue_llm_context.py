"""The Clue LLM agent on a small context and with structured output: a whole 30-round game on a
4,096-token server, and answers asked for as JSON in the models built from the observation."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from games.clue import ClueConfig, ClueGame
from games.clue.agent import Agent, Phase, Suggest
from games.clue.agents import random_agent
from games.clue.llm_agent import LLMClueAgent
from games.clue.llm_prompts import (
    RECENT_EVENTS,
    deduction_prompt,
    derive_info,
    history_lines,
    history_messages,
)
from games.clue.llm_schemas import deduction_answer_model, move_answer_model, show_answer_model
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer, Step
from tests.support.played import play_clue
from tests.test_clue_llm_agent import client_for, phase_prompt, phase_script

CONTEXT = 4096
SIX = ClueConfig(players=6, max_rounds=30)


def test_a_30_round_six_player_game_fits_a_4096_token_context() -> None:
    game = ClueGame(SIX, 11)
    with ScriptedChatServer(phase_script(), context_tokens=CONTEXT, n_ctx=CONTEXT) as srv:
        client = client_for(srv, max_tokens=256)
        llm = LLMClueAgent(client, seed=0)
        agents: list[Agent] = [llm, *(random_agent(seed) for seed in range(1, 6))]
        result = play_clue(game, agents)
        rejected = [r for r in srv.requests if r.prompt_words >= CONTEXT]
        longest = max(r.prompt_words for r in srv.requests)
    assert result.reason == "round_limit" and result.rounds == 30
    assert rejected == [] and longest < CONTEXT
    assert llm.usage.errors == 0 and llm.usage.fallbacks == 1  # the final "Scarlet" accusation
    assert llm.usage.trimmed == client.meter.snapshot().trimmed > 0  # early rounds dropped


def test_history_before_the_last_moves_goes_in_trimmable_messages_by_round() -> None:
    game = ClueGame(ClueConfig(players=6, max_rounds=3), 3)
    play_clue(game, [random_agent(seed) for seed in range(6)])
    obs = game.observation(0)
    messages = history_messages(obs)
    assert [m.content.splitlines()[0] for m in messages][:2] == [
        "Earlier game history, round 1:",
        "Earlier game history, round 2:",
    ]
    assert all(m.trimmable and m.role == "user" for m in messages)
    older = sum(len(m.content.splitlines()) - 1 for m in messages)
    assert older + RECENT_EVENTS == len(history_lines(obs))
    prompt = deduction_prompt(obs, derive_info(obs))
    assert f"the last {RECENT_EVENTS} moves" in prompt
    assert history_lines(obs)[-1] in prompt and history_lines(obs)[0] not in prompt


def json_script(request: ChatRequest) -> Step:
    """JSON answers filling the requested model, as a grammar-constrained server gives them."""
    assert request.response_format is not None
    prompt = phase_prompt(request)
    if prompt.startswith("DEDUCTION PHASE"):
        return json.dumps({"analysis": "Nothing yet.", "deductions": []})
    return json.dumps(
        {
            "summary": "Early.",
            "reasoning": "Test the rope.",
            "suggestion": "Mrs. White, Rope, Hall",
            "accusation": "NONE",
        }
    )


def test_answers_are_asked_for_as_json_in_the_observation_model() -> None:
    game = ClueGame(ClueConfig(players=3, max_rounds=2), 7)
    with ScriptedChatServer(json_script) as srv:
        agent = LLMClueAgent(client_for(srv, structured="json_object"), seed=0)
        action = agent.act(game.observation(0))
        formats = [r.response_format for r in srv.requests]
    assert action == Suggest(suspect="Mrs. White", weapon="Rope", room="Hall")
    assert len(formats) == 2 and agent.usage.reprompts == 0
    schemas = [json.dumps(f) for f in formats]
    assert '"NONE"' in schemas[1] and "Mrs. White, Rope, Hall" in schemas[1]
    assert "P2 does not hold Rope" in schemas[0]


@pytest.mark.parametrize("final", [False, True])
def test_answer_models_enumerate_what_is_legal(final: bool) -> None:
    game = ClueGame(ClueConfig(players=3, max_rounds=1), 5)
    obs = game.observation(0).model_copy(
        update={"phase": Phase.FINAL_ACCUSATION if final else Phase.TURN}
    )
    model = move_answer_model(obs)
    triple = f"{obs.suspects[0]}, {obs.weapons[0]}, {obs.rooms[0]}"
    good = {"summary": "s", "reasoning": "r", "accusation": triple}
    if not final:
        good["suggestion"] = triple
        model.model_validate({**good, "accusation": "NONE"})
    model.model_validate(good)
    with pytest.raises(ValidationError):
        model.model_validate({**good, "accusation": "Nobody, Nothing, Nowhere"})
    with pytest.raises(ValidationError):
        model.model_validate({**good, "reasoning": ""})
    if final:
        with pytest.raises(ValidationError):
            model.model_validate({**good, "accusation": "NONE"})
    cards = obs.deck().cards[:2]
    show = show_answer_model(obs.model_copy(update={"matching": cards}))
    show.model_validate({"reasoning": "r", "show": cards[1].name})
    with pytest.raises(ValidationError):
        show.model_validate({"reasoning": "r", "show": obs.deck().cards[2].name})
    deductions = deduction_answer_model(obs)
    deductions.model_validate({"analysis": "a", "deductions": ["P1 holds Rope"]})
    with pytest.raises(ValidationError):
        deductions.model_validate({"analysis": "a", "deductions": ["P9 holds Rope"]})
