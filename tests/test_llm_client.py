"""The OpenAI-compatible chat client against the scripted server: retries, errors, usage."""

from __future__ import annotations

import random
from pathlib import Path

import httpx2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import SecretStr, ValidationError

from reasoning.llm import (
    LLMEndpointError,
    LLMSettings,
    OpenAIChatClient,
    UsageMeter,
    backoff_delay,
    make_client,
    system,
    user,
)
from reasoning.llm.scripted_server import ChatRequest, Delay, Fail, Reply, ScriptedChatServer, Step
from reasoning.llm.settings import DEFAULT_MAX_TOKENS

PROMPT = [system("You play Clue."), user("Which room?")]


class Sleeps:
    """Records requested sleeps instead of sleeping."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


def client_for(
    server: ScriptedChatServer, sleeps: Sleeps | None = None, **overrides: object
) -> OpenAIChatClient:
    options: dict[str, object] = {"base_url": server.base_url, "model": "scripted-model"}
    options.update(overrides)
    return OpenAIChatClient(
        LLMSettings.model_validate(options), sleep=sleeps or Sleeps(), rng=random.Random(0)
    )


# --- settings ---------------------------------------------------------------------------


def test_settings_read_prefixed_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUMSHOE_LLM_MODEL", "llama-3")
    monkeypatch.setenv("GUMSHOE_LLM_MAX_RETRIES", "2")
    monkeypatch.setenv("GUMSHOE_LLM_PRICE_INPUT_PER_1K", "0.5")
    loaded = LLMSettings()
    assert (loaded.model, loaded.max_retries, loaded.price_input_per_1k) == ("llama-3", 2, 0.5)


def test_settings_defaults_and_configured() -> None:
    bare = LLMSettings()
    assert bare.max_retries == 4
    assert not bare.configured
    assert LLMSettings(base_url="http://localhost:8000/v1").configured
    assert LLMSettings(api_key=SecretStr("sk-x")).configured
    assert not LLMSettings(api_key=SecretStr("")).configured


def test_settings_fall_back_to_openai_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://openai-var/v1")
    loaded = LLMSettings()
    assert loaded.api_key is not None and loaded.api_key.get_secret_value() == "sk-openai"
    assert loaded.endpoint == "http://openai-var/v1"
    monkeypatch.setenv("GUMSHOE_LLM_BASE_URL", "http://gumshoe-var/v1")
    assert LLMSettings().endpoint == "http://gumshoe-var/v1"


def test_settings_key_is_not_shown() -> None:
    assert "sk-secret" not in repr(LLMSettings(api_key=SecretStr("sk-secret")))


def test_settings_errors_name_the_field(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUMSHOE_LLM_MAX_RETRIES", "many")
    with pytest.raises(ValidationError, match="max_retries"):
        LLMSettings()
    monkeypatch.delenv("GUMSHOE_LLM_MAX_RETRIES")
    with pytest.raises(ValidationError, match="temperature"):
        LLMSettings(temperature=-1)
    with pytest.raises(ValidationError, match="record_path and replay_path"):
        LLMSettings(record_path=Path("a.jsonl"), replay_path=Path("b.jsonl"))
    with pytest.raises(ValidationError, match="modle"):
        LLMSettings.model_validate({"modle": "x"})


def test_unconfigured_client_is_refused() -> None:
    with pytest.raises(ValueError, match="GUMSHOE_LLM_BASE_URL"):
        OpenAIChatClient(LLMSettings())
    with pytest.raises(ValueError, match="no LLM endpoint configured"):
        make_client(LLMSettings())


# --- good answers and accounting ---------------------------------------------------------


def test_reply_content_and_token_accounting_from_usage_field() -> None:
    with ScriptedChatServer([Reply("The Hall.", prompt_tokens=42, completion_tokens=3)]) as srv:
        client = client_for(srv, temperature=0.2, max_tokens=64)
        reply = client.complete(PROMPT, seed=11)
    assert reply.content == "The Hall."
    assert reply.model == "scripted-model"
    assert (reply.prompt_tokens, reply.completion_tokens) == (42, 3)
    body = srv.requests[0].body
    assert body["model"] == "scripted-model"
    assert body["messages"] == [m.model_dump() for m in PROMPT]
    assert (body["seed"], body["temperature"], body["max_tokens"]) == (11, 0.2, 64)
    usage = client.meter.snapshot()
    assert (usage.calls, usage.prompt_tokens, usage.completion_tokens) == (1, 42, 3)
    assert (usage.retries, usage.errors, usage.cost) == (0, 0, None)
    assert usage.total_tokens == 45


def test_optional_request_fields_are_left_out_and_max_tokens_has_a_default() -> None:
    with ScriptedChatServer(["ok", "ok"]) as srv:
        client_for(srv).complete(PROMPT)
        client_for(srv, max_tokens=None).complete(PROMPT)
    first, second = (request.body for request in srv.requests)
    assert "seed" not in first
    assert "response_format" not in first
    assert first["max_tokens"] == DEFAULT_MAX_TOKENS
    assert "max_tokens" not in second


def test_api_key_is_sent_as_bearer_and_placeholder_without_key() -> None:
    with ScriptedChatServer(["a", "b"]) as srv:
        client_for(srv, api_key="sk-test").complete(PROMPT)
        client_for(srv).complete(PROMPT)
    assert srv.requests[0].headers["authorization"] == "Bearer sk-test"
    assert srv.requests[1].headers["authorization"].startswith("Bearer ")


def test_cost_from_settings_prices() -> None:
    script = [Reply("x", prompt_tokens=1000, completion_tokens=500)] * 2
    with ScriptedChatServer(script) as srv:
        client = client_for(srv, price_input_per_1k=0.15, price_output_per_1k=0.6)
        client.complete(PROMPT)
        client.complete(PROMPT)
    assert client.meter.snapshot().cost == pytest.approx(2 * (0.15 + 0.3))


def test_cost_with_one_price_counts_the_other_as_free() -> None:
    meter = UsageMeter(price_input_per_1k=None, price_output_per_1k=2.0)
    assert meter.cost_of(prompt_tokens=10_000, completion_tokens=250) == pytest.approx(0.5)
    assert UsageMeter().cost_of(5, 5) is None


# --- retries and errors ------------------------------------------------------------------


def test_rate_limit_then_server_error_then_success_is_retried() -> None:
    sleeps = Sleeps()
    with ScriptedChatServer([Fail(429, "slow down"), Fail(500), "Kitchen"]) as srv:
        client = client_for(srv, sleeps, backoff_base_s=1.0, backoff_cap_s=8.0)
        reply = client.complete(PROMPT)
    assert reply.content == "Kitchen"
    assert len(srv.requests) == 3
    assert srv.requests[0].body == srv.requests[2].body
    usage = client.meter.snapshot()
    assert (usage.calls, usage.retries, usage.errors) == (1, 2, 0)
    assert len(sleeps.calls) == 2
    assert 0.5 <= sleeps.calls[0] <= 1.0
    assert 1.0 <= sleeps.calls[1] <= 2.0


def test_persistent_server_error_raises_after_max_retries() -> None:
    sleeps = Sleeps()
    with ScriptedChatServer([Fail(500, "model overloaded")] * 10) as srv:
        client = client_for(srv, sleeps, max_retries=2)
        with pytest.raises(LLMEndpointError) as caught:
            client.complete(PROMPT)
        endpoint = srv.base_url
    error = caught.value
    assert (error.status, error.attempts, error.endpoint) == (500, 3, endpoint)
    assert endpoint in str(error) and "3 attempts" in str(error)
    assert "model overloaded" in str(error)
    assert len(srv.requests) == 3
    assert len(sleeps.calls) == 2
    usage = client.meter.snapshot()
    assert (usage.calls, usage.retries, usage.errors) == (0, 2, 1)


def test_default_retry_budget_is_four_retries() -> None:
    with ScriptedChatServer([503] * 10) as srv, pytest.raises(LLMEndpointError) as caught:
        client_for(srv).complete(PROMPT)
    assert caught.value.attempts == 5
    assert len(srv.requests) == 5


@pytest.mark.parametrize("status", [400, 401, 404, 422])
def test_client_errors_are_not_retried(status: int) -> None:
    sleeps = Sleeps()
    with ScriptedChatServer([Fail(status, "bad request body"), "never sent"]) as srv:
        client = client_for(srv, sleeps)
        with pytest.raises(LLMEndpointError) as caught:
            client.complete(PROMPT)
    assert (caught.value.status, caught.value.attempts) == (status, 1)
    assert f"HTTP {status}" in str(caught.value)
    assert len(srv.requests) == 1
    assert sleeps.calls == []
    assert srv.pending == 1
    assert client.meter.snapshot().errors == 1


def test_retry_after_header_is_honoured_up_to_the_cap() -> None:
    sleeps = Sleeps()
    script: list[Step] = [Fail(429, retry_after_s=7), Fail(429, retry_after_s=100), "ok"]
    with ScriptedChatServer(script) as srv:
        client_for(srv, sleeps, backoff_base_s=0.01, backoff_cap_s=20.0).complete(PROMPT)
    assert sleeps.calls[0] == pytest.approx(7.0)
    assert sleeps.calls[1] == pytest.approx(20.0)


def test_timeout_is_retried() -> None:
    sleeps = Sleeps()
    with ScriptedChatServer([Delay(2.0, "too late"), "in time"]) as srv:
        client = client_for(srv, sleeps, request_timeout_s=0.3)
        assert client.complete(PROMPT).content == "in time"
    assert client.meter.snapshot().retries == 1
    assert len(sleeps.calls) == 1


def test_timeouts_exhausting_retries_say_so() -> None:
    with ScriptedChatServer([Delay(2.0, "late")] * 2) as srv:
        client = client_for(srv, request_timeout_s=0.2, max_retries=1)
        with pytest.raises(LLMEndpointError, match=r"no reply within 0\.2 s") as caught:
            client.complete(PROMPT)
    assert caught.value.status is None


def test_connection_refused_is_retried_then_reported() -> None:
    sleeps = Sleeps()
    server = ScriptedChatServer(["unused"]).start()
    client = client_for(server, sleeps, max_retries=1)
    server.stop()
    with pytest.raises(LLMEndpointError, match="connection failed") as caught:
        client.complete(PROMPT)
    assert caught.value.attempts == 2
    assert len(sleeps.calls) == 1


@settings(max_examples=60, deadline=None)
@given(
    retry=st.integers(min_value=0, max_value=200),
    base=st.floats(min_value=0.0, max_value=10.0),
    extra=st.floats(min_value=0.0, max_value=100.0),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_backoff_is_jittered_between_half_and_full_capped_delay(
    retry: int, base: float, extra: float, seed: int
) -> None:
    cap = base + extra
    ceiling = min(cap, base * 2.0 ** min(retry, 60))
    delay = backoff_delay(retry, base, cap, random.Random(seed))
    assert ceiling / 2 <= delay <= ceiling
    assert delay <= cap


# --- the scripted server itself ------------------------------------------------------------


def test_server_callable_script_answers_by_content() -> None:
    def answer(request: ChatRequest) -> str:
        return "Hall" if "room" in request.last_user else "Rope"

    with ScriptedChatServer(answer) as srv:
        client = client_for(srv)
        assert client.complete([user("Which room?")]).content == "Hall"
        assert client.complete([user("Which weapon?")]).content == "Rope"
    assert [r.last_user for r in srv.requests] == ["Which room?", "Which weapon?"]


def test_server_reports_exhausted_script_and_script_errors() -> None:
    with ScriptedChatServer(["only one"]) as srv:
        client = client_for(srv)
        client.complete(PROMPT)
        with pytest.raises(LLMEndpointError, match="script exhausted"):
            client.complete(PROMPT)
    assert srv.errors and "request 2" in srv.errors[0]
    assert len(srv.requests) == 2

    def broken(request: ChatRequest) -> str:
        raise KeyError("no such card")

    broken_server = ScriptedChatServer(broken)
    with broken_server as srv, pytest.raises(LLMEndpointError, match="no such card"):
        client_for(srv).complete(PROMPT)
    assert len(broken_server.errors) == 1


def test_server_rejects_wrong_route_and_invalid_body() -> None:
    with ScriptedChatServer(["unused"]) as srv:
        missing = httpx2.post(srv.base_url + "/completions", json={})
        invalid = httpx2.post(srv.base_url + "/chat/completions", json={"model": "m"})
    assert missing.status_code == 404
    assert invalid.status_code == 400
    assert "messages" in invalid.json()["error"]["message"]
    assert srv.requests == []
    assert srv.pending == 1


def test_server_base_url_needs_a_running_server() -> None:
    with pytest.raises(RuntimeError, match="not running"):
        _ = ScriptedChatServer([]).base_url
