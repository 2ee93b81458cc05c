"""The Hanabi answer models: their JSON-schema bounds for an observation, what they accept and
reject through ``parse_answer``, and games whose seats fill them through the scripted server."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from benchmarks.runner import MemoryLog
from games.core.log import SeatInfo
from games.core.loop import play
from games.hanabi.agents import AGENTS, HanabiAgentSettings
from games.hanabi.engine import HanabiGame, HanabiObservation
from games.hanabi.entry import ENTRY
from games.hanabi.events import DecisionEvent, HanabiConfig, HanabiMove
from games.hanabi.llm_agents import RolePrompter
from games.hanabi.llm_prompts import Memory, MycroftAnswer, RatedAnswer
from games.hanabi.llm_schemas import RATINGS, mycroft_answer_model, rated_answer_model
from reasoning.llm import LLMSettings, MalformedAnswer, parse_answer
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer


def observation(players: int = 3, seed: int = 5) -> HanabiObservation:
    """Seat 1's observation after seat 0 moved once."""
    game = HanabiGame(HanabiConfig(players=players), seed)
    game.apply({0: game.legal_actions(0)[0]})
    return game.observation(1)


def reply(obs: HanabiObservation, **changes: object) -> str:
    """A well-formed rated answer for ``obs`` (choosing the last move), with ``changes``."""
    n = len(obs.legal_actions)
    answer: dict[str, object] = {"reasoning": "r", "ratings": [0.5] * n, "chosen": n - 1}
    return json.dumps(answer | changes)


def test_the_rated_model_bounds_ratings_and_the_chosen_index_by_the_legal_moves() -> None:
    obs = observation()
    n = len(obs.legal_actions)
    schema = rated_answer_model(obs).model_json_schema()
    props = schema["properties"]
    assert list(props) == ["reasoning", "ratings", "chosen"]
    assert props["reasoning"] == {"title": "Reasoning", "type": "string"}  # no length bound
    assert props["ratings"]["minItems"] == props["ratings"]["maxItems"] == n
    rating = props["ratings"]["items"]
    assert rating["type"] == "number" and min(rating["enum"]) == -1.0 and max(rating["enum"]) == 1.0
    assert len(rating["enum"]) == 21 and 0.3 in rating["enum"]
    assert props["chosen"]["enum"] == list(range(n))
    assert set(schema["required"]) == set(props) and schema["additionalProperties"] is False
    assert rated_answer_model(observation(seed=5)) is rated_answer_model(obs)


def test_the_mycroft_model_claims_with_enums_at_most_one_per_card() -> None:
    obs = observation()
    schema = mycroft_answer_model(obs).model_json_schema()
    props = schema["properties"]
    assert list(props) == ["reasoning", "deductions", "ratings", "chosen"]
    assert props["deductions"]["maxItems"] == sum(len(hand) for hand in obs.hands) == 15
    claim = schema["$defs"]["HanabiSlotClaim"]["properties"]
    assert claim["seat"]["enum"] == [0, 1, 2] and claim["slot"]["enum"] == [0, 1, 2, 3, 4]
    colors, ranks = claim["colors"]["enum"], claim["ranks"]["enum"]
    assert len(colors) == len(ranks) == 31 and "RYGWB" in colors and "12345" in ranks
    assert "YR" not in colors and "" not in ranks


def test_a_filled_answer_becomes_the_schema_and_names_the_legal_move() -> None:
    obs = observation()
    prompter = RolePrompter("watson", "hints", Memory())
    answer = parse_answer(reply(obs, chosen=2), RatedAnswer, answer=prompter.answer_model(obs))
    assert type(answer) is RatedAnswer and answer.ratings == [0.5] * len(obs.legal_actions)
    assert prompter.action(answer, obs) == obs.legal_actions[2]


def test_a_filled_mycroft_answer_keeps_its_claims() -> None:
    obs = observation()
    claims = [{"seat": 0, "slot": 4, "colors": "RB", "ranks": "15"}]
    text = reply(obs, deductions=claims)
    answer = parse_answer(text, MycroftAnswer, answer=mycroft_answer_model(obs))
    assert isinstance(answer, MycroftAnswer)
    assert [c.model_dump() for c in answer.deductions] == claims


@pytest.mark.parametrize(
    "bad",
    [
        lambda n: {"chosen": n},
        lambda n: {"chosen": -1},
        lambda n: {"ratings": [1.5] + [0.0] * (n - 1)},
        lambda n: {"ratings": [0.0] * (n - 1) + [-1.01]},
        lambda n: {"extra": 1},
    ],
)
def test_an_answer_out_of_bounds_is_malformed(bad: Callable[[int], dict[str, object]]) -> None:
    obs = observation()
    changes = bad(len(obs.legal_actions))
    with pytest.raises(MalformedAnswer):
        parse_answer(reply(obs, **changes), RatedAnswer, answer=rated_answer_model(obs))


@pytest.mark.parametrize("claim", [{"colors": "YR"}, {"ranks": "6"}, {"ranks": ""}])
def test_a_claim_in_no_card_is_malformed(claim: dict[str, object]) -> None:
    obs = observation()
    claims = [{"seat": 0, "slot": 0, "colors": "R", "ranks": "1"} | claim]
    with pytest.raises(MalformedAnswer):
        parse_answer(reply(obs, deductions=claims), MycroftAnswer, answer=mycroft_answer_model(obs))


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"reasoning": " "}, "it is empty"),
        ({"deductions": [{"seat": 3, "slot": 0, "colors": "R", "ranks": "1"}]}, "0, 1 or 2"),
        ({"deductions": [{"seat": 0, "slot": 5, "colors": "R", "ranks": "1"}]}, "4"),
        ({"deductions": [{"seat": 0, "slot": 0, "colors": "R", "ranks": "1"}] * 16}, "at most 15"),
    ],
)
def test_what_only_the_observation_bounds_fails_the_answer_model(
    changes: dict[str, object], problem: str
) -> None:
    obs = observation()
    text = reply(obs, **({"deductions": []} | changes))
    with pytest.raises(ValidationError, match=problem):
        mycroft_answer_model(obs).model_validate_json(text)


def test_a_rating_off_the_grid_fails_the_model_but_is_still_a_rating() -> None:
    obs = observation()
    text = reply(obs, ratings=[0.75] * len(obs.legal_actions))
    with pytest.raises(ValidationError, match=r"-0\.9, -0\.8"):
        rated_answer_model(obs).model_validate_json(text)
    answer = parse_answer(text, RatedAnswer, answer=rated_answer_model(obs))
    assert answer.ratings[0] == 0.75 and 0.75 not in RATINGS


def test_wrong_length_ratings_fail_the_model_and_the_decision_schema() -> None:
    obs = observation()
    text = reply(obs, ratings=[0.0, 0.0], chosen=1)
    with pytest.raises(ValidationError, match="at least"):
        rated_answer_model(obs).model_validate_json(text)
    prompter = RolePrompter("watson", "hints", Memory())
    prompter.prompt(obs)
    with pytest.raises(MalformedAnswer, match="at least"):
        parse_answer(text, prompter.schema, answer=rated_answer_model(obs))
    good = reply(obs, ratings=[0.0] * len(obs.legal_actions), chosen=1)
    answer = parse_answer(good, prompter.schema, answer=rated_answer_model(obs))
    assert prompter.action(answer, obs) == obs.legal_actions[1]


def test_a_choice_beyond_the_ratings_is_malformed_without_an_answer_model() -> None:
    with pytest.raises(MalformedAnswer, match="only 2 moves are rated"):
        parse_answer('{"reasoning": "r", "ratings": [0, 1], "chosen": 2}', RatedAnswer)


def fill(request: ChatRequest) -> str:
    """A stand-in model that fills the requested answer model: a rating per legal move (as many
    as it allows), the last legal index and, where asked, the most claims allowed."""
    response_format = request.response_format
    assert response_format is not None and response_format["type"] == "json_schema"
    schema = response_format["json_schema"]["schema"]
    props = schema["properties"]
    n = props["ratings"]["minItems"]
    answer: dict[str, Any] = {"reasoning": "filled", "ratings": [-1.0] * n, "chosen": n - 1}
    if "deductions" in props:
        claim = schema["$defs"]["HanabiSlotClaim"]["properties"]
        every = [(s, j) for s in claim["seat"]["enum"] for j in claim["slot"]["enum"]]
        answer["deductions"] = [
            {"seat": s, "slot": j, "colors": "RYGWB", "ranks": "12345"}
            for s, j in every[: props["deductions"]["maxItems"]]
        ]
    return json.dumps(answer)


@pytest.mark.parametrize("role", ["watson", "sherlock", "mycroft"])
def test_a_game_of_filled_answers_has_no_fallback_and_no_reprompt(
    role: str, tmp_path: Path
) -> None:
    with ScriptedChatServer(fill) as server:
        llm = LLMSettings(base_url=server.base_url, model="scripted", max_retries=0)
        agents = [AGENTS.make(role, seat, 4, HanabiAgentSettings(llm=llm)) for seat in range(2)]
        seats = [SeatInfo(name=f"P{i}", agent=role) for i in range(2)]
        config = HanabiConfig(players=2)
        log = MemoryLog()
        state = ENTRY.new_state(config, 4, seats)
        play(state, agents, ENTRY.header(config, 4, seats), log, max_decisions=128)
        requests = list(server.requests)
    path = tmp_path / "game.jsonl"
    path.write_text("".join(line + "\n" for line in log.lines))
    decisions = [e for e in ENTRY.read_log(path).events if isinstance(e, DecisionEvent)]
    asked = [d for d in decisions if len(d.legal) > 1]
    assert asked and len(requests) == len(asked)
    assert all(not d.fallback and d.chosen == d.legal[-1] for d in decisions)
    for request, decision in zip(requests, asked, strict=True):
        schema = request.response_format["json_schema"]["schema"]  # type: ignore[index]
        assert schema["properties"]["chosen"]["enum"] == list(range(len(decision.legal)))
    if role == "mycroft":
        assert all(d.claims for d in asked)


@pytest.mark.parametrize(("options", "calls"), [({"best_of": 3}, 4), ({"mixture": True}, 5)])
def test_proposals_and_the_final_choice_fill_the_same_answer_model(
    options: dict[str, object], calls: int
) -> None:
    with ScriptedChatServer(fill) as server:
        llm = LLMSettings(base_url=server.base_url, model="scripted", max_retries=0)
        settings = HanabiAgentSettings.model_validate({"llm": llm, **options})
        agent = AGENTS.make("mycroft", 1, 2, settings)
        obs = observation(players=2, seed=2)
        move = agent.act(obs)
        formats = [r.response_format for r in server.requests]
    assert isinstance(move, HanabiMove) and not move.decision.fallback
    assert len(formats) == calls and all(f == formats[0] for f in formats)
    expected = mycroft_answer_model(obs).model_json_schema()
    assert formats[0] is not None and formats[0]["json_schema"]["schema"] == expected
