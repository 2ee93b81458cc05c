"""OpenAI's reasoning models through the scripted server's "OpenAI reasoning model"
personality: the reply cap goes as ``max_completion_tokens`` and no temperature is sent (by the
model's name, or after the 400 OpenAI answers, remembered for the endpoint), the reasoning
effort is passed through, a reply the hidden reasoning cut off is asked again once with a
larger budget, and whole Hanabi and Clue games play with no endpoint error."""

from __future__ import annotations

import json
import random

import pytest

from games.clue.agents import ClueAgentSettings as ClueSettings
from games.clue.entry import ENTRY as CLUE
from games.clue.events import ClueConfig
from games.core.play import play_game
from games.hanabi.agents import HanabiAgentSettings
from games.hanabi.entry import ENTRY as HANABI
from games.hanabi.events import HanabiConfig
from reasoning.llm import LLMSettings, OpenAIChatClient, ask_structured, combined, user
from reasoning.llm.request import RequestShape, reasoning_model, refused_parameter
from reasoning.llm.scripted_server import (
    ChatRequest,
    OpenAIReasoningModel,
    Reply,
    ScriptedChatServer,
)
from tests.test_clue_llm_agent import phase_script
from tests.test_hanabi_llm import scripted
from tests.test_llm_budget import Pick

MAX_TOKENS_400 = (
    "Unsupported parameter: 'max_tokens' is not supported with this model. "
    "Use 'max_completion_tokens' instead."
)
TEMPERATURE_400 = (
    "Unsupported value: 'temperature' does not support 0.7 with this model. "
    "Only the default (1) value is supported."
)


def client_for(server: ScriptedChatServer, model: str, **settings: object) -> OpenAIChatClient:
    options: dict[str, object] = {"base_url": server.base_url, "model": model, "max_retries": 0}
    return OpenAIChatClient(
        LLMSettings.model_validate(options | settings), sleep=lambda _: None, rng=random.Random(0)
    )


@pytest.mark.parametrize(
    ("model", "reasoning"),
    [
        ("o1", True),
        ("o3-mini", True),
        ("o4-mini-2025-04-16", True),
        ("openai/o3", True),
        ("gpt-5", True),
        ("gpt-5.1", True),
        ("gpt-5-mini", True),
        ("gpt-4o", False),
        ("gpt-4o-mini", False),
        ("gpt-5-chat-latest", False),
        ("gpt-oss-20b", False),
        ("SmolLM2-135M-Instruct", False),
        ("ollama/o1x", False),
    ],
)
def test_openai_reasoning_models_are_told_by_name(model: str, reasoning: bool) -> None:
    assert reasoning_model(model) is reasoning
    shape = RequestShape.for_model(LLMSettings(base_url="http://h/v1"), model)
    token = "max_completion_tokens" if reasoning else "max_tokens"
    assert (shape.token_parameter, shape.temperature) == (token, not reasoning)


def test_a_named_reasoning_model_is_asked_right_the_first_time() -> None:
    with ScriptedChatServer(
        ['{"room": "Hall"}'], personality=OpenAIReasoningModel(reasoning_tokens=40)
    ) as server:
        client = client_for(server, "o4-mini", reasoning_effort="high")
        outcome = ask_structured(client, [user("Pick a room.")], Pick, answer=Pick, seed=1)
    assert outcome.value == Pick(room="Hall")
    (request,) = server.requests
    assert request.body["max_completion_tokens"] == 512 and "max_tokens" not in request.body
    assert "temperature" not in request.body and request.body["reasoning_effort"] == "high"
    usage = client.meter.snapshot()
    assert (usage.calls, usage.retries, usage.errors) == (1, 0, 0)
    assert usage.completion_tokens == 40 + 2  # reasoning, then the answer's two "words"


def test_an_unknown_reasoning_model_is_learned_from_openais_400s_and_remembered() -> None:
    personality = OpenAIReasoningModel(reasoning_tokens=10)
    with ScriptedChatServer(["first", "second"], personality=personality) as server:
        client = client_for(server, "house-reasoner")
        assert client.complete([user("one")]).content == "first"
        again = client_for(server, "house-reasoner")
        assert again.complete([user("two")]).content == "second"
    sent = [
        ("max_tokens" in r.body, "max_completion_tokens" in r.body, "temperature" in r.body)
        for r in server.requests
    ]
    # max_tokens refused, then the temperature, then answered; the second client asks once
    answered = (False, True, False)
    assert sent == [(True, False, True), (False, True, True), answered, answered]
    usage = client.meter.snapshot()
    assert (usage.calls, usage.retries, usage.errors) == (1, 0, 0)


def test_the_personality_answers_exactly_as_openai_does() -> None:
    import urllib.error
    import urllib.request

    with ScriptedChatServer(["x"], personality=OpenAIReasoningModel()) as server:
        bodies = []
        for extra in ({"max_tokens": 5}, {"max_completion_tokens": 5, "temperature": 0.7}):
            body = {"model": "o3", "messages": [{"role": "user", "content": "hi"}], **extra}
            request = urllib.request.Request(
                f"{server.base_url}/chat/completions",
                data=json.dumps(body).encode(),
                headers={"Content-Type": "application/json"},
            )
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=10)
            assert refused.value.code == 400
            bodies.append(json.loads(refused.value.read()))
        assert server.pending == 1  # refused before any step is used
    assert bodies == [
        {
            "error": {
                "message": MAX_TOKENS_400,
                "type": "invalid_request_error",
                "param": "max_tokens",
                "code": "unsupported_parameter",
            }
        },
        {
            "error": {
                "message": TEMPERATURE_400,
                "type": "invalid_request_error",
                "param": "temperature",
                "code": "unsupported_value",
            }
        },
    ]
    assert refused_parameter("unsupported_value", "temperature", TEMPERATURE_400) == "temperature"
    assert refused_parameter(None, None, MAX_TOKENS_400) == "max_tokens"
    assert refused_parameter("unsupported_parameter", "logprobs", "no") is None


def test_settings_can_name_the_cap_and_leave_the_temperature_out() -> None:
    with ScriptedChatServer(["a"]) as server:
        client = client_for(
            server, "my-model", token_parameter="max_completion_tokens", temperature=None
        )
        client.complete([user("hi")])
    body = server.requests[0].body
    assert body["max_completion_tokens"] == 512
    assert "max_tokens" not in body and "temperature" not in body


def test_env_none_leaves_the_temperature_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUMSHOE_LLM_TEMPERATURE", "none")
    monkeypatch.setenv("GUMSHOE_LLM_TOKEN_PARAMETER", "max_completion_tokens")
    settings = LLMSettings()
    assert settings.temperature is None and settings.token_parameter == "max_completion_tokens"


def test_a_reply_the_reasoning_cut_off_is_asked_again_once_with_twice_the_budget() -> None:
    """400 hidden reasoning tokens leave nothing of a 256-token cap: the empty reply is counted
    cut off and asked again as it was with 512, where the answer fits."""
    personality = OpenAIReasoningModel(reasoning_tokens=400)
    with ScriptedChatServer(lambda r: '{"room": "Hall"}', personality=personality) as server:
        client = client_for(server, "o3", max_tokens=256)
        outcome = ask_structured(client, [user("Pick a room.")], Pick, answer=Pick, seed=1)
    assert outcome.value == Pick(room="Hall") and outcome.replies[0] == ""
    assert outcome.finish_reasons == ("length", "stop")
    caps = [r.body["max_completion_tokens"] for r in server.requests]
    assert caps == [256, 512]
    assert server.requests[0].messages == server.requests[1].messages  # asked as it was
    usage = client.meter.snapshot()
    assert (usage.cut_off, usage.reprompts, usage.calls) == (1, 0, 2)


def test_a_reply_cut_off_twice_is_then_asked_shorter() -> None:
    personality = OpenAIReasoningModel(reasoning_tokens=2000)

    def answer(request: ChatRequest) -> Reply:
        return Reply('{"room": "Hall"}')

    with ScriptedChatServer(answer, personality=personality) as server:
        client = client_for(server, "o3", max_tokens=256)
        outcome = ask_structured(
            client, [user("Pick a room.")], Pick, answer=Pick, seed=1, max_reprompts=1
        )
    assert outcome.value is None
    assert [r.body["max_completion_tokens"] for r in server.requests] == [256, 512, 512]
    assert "Answer shorter" in server.requests[2].last_user
    usage = client.meter.snapshot()
    assert (usage.cut_off, usage.reprompts) == (3, 1)


def test_hanabi_and_clue_games_play_against_a_reasoning_model_without_endpoint_errors() -> None:
    personality = OpenAIReasoningModel(reasoning_tokens=100)
    with ScriptedChatServer(scripted, personality=personality) as server:
        llm = LLMSettings(base_url=server.base_url, model="o4-mini", max_retries=0)
        played = play_game(
            HANABI, ("watson", "watson"), 1, HanabiAgentSettings(llm=llm), HanabiConfig()
        )
    assert played.state.is_terminal()
    hanabi = combined(m for meters in played.meters.values() for m in meters)
    assert hanabi.calls > 0 and hanabi.errors == 0 and hanabi.fallbacks == 0
    assert all(
        "max_completion_tokens" in r.body and "temperature" not in r.body for r in server.requests
    )
    with ScriptedChatServer(phase_script(), personality=personality) as server:
        llm = LLMSettings(base_url=server.base_url, model="clue-reasoner", max_retries=0)
        clue = play_game(
            CLUE,
            ("llm", "prover", "prover"),
            2,
            ClueSettings(llm=llm),
            ClueConfig(players=3, max_rounds=2),
        )
    usage = combined(m for meters in clue.meters.values() for m in meters)
    assert usage.calls > 0 and usage.errors == 0 and usage.retries == 0
    refused = [r for r in server.requests if "max_tokens" in r.body or "temperature" in r.body]
    assert len(refused) == 2  # learned once for the endpoint, then asked right
