"""The context budget: token counts, trimming history, context errors, probing the endpoint,
and cut-off answers."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from games.clue.agents import random_agent
from games.clue.engine import ClueGame
from games.clue.events import ClueConfig
from games.clue.llm_agent import LLMClueAgent
from reasoning.llm import (
    ChatMessage,
    ContextLengthError,
    ContextOverflow,
    EndpointProbe,
    LLMEndpointError,
    LLMSettings,
    OpenAIChatClient,
    ask_structured,
    context_from_error,
    conversation_tokens,
    estimate_tokens,
    fit_messages,
    history,
    is_context_error,
    system,
    user,
)
from reasoning.llm.endpoint import facts_for
from reasoning.llm.scripted_server import ChatRequest, Reply, ScriptedChatServer, Step
from tests.support.played import play_clue


class Pick(BaseModel):
    """A tiny JSON answer."""

    room: str


def words(text: str) -> int:
    return len(text.split())


def client_for(server: ScriptedChatServer, **overrides: object) -> OpenAIChatClient:
    options: dict[str, object] = {"base_url": server.base_url, "model": "scripted-model"}
    options.update(overrides)
    return OpenAIChatClient(
        LLMSettings.model_validate(options), sleep=lambda _: None, rng=random.Random(0)
    )


def game_prompt(rounds: int) -> list[ChatMessage]:
    """A system prompt, one trimmable history message per round, and the question."""
    rounds_text = [history(f"round {r}: " + "word " * 40) for r in range(rounds)]
    return [system("You play."), *rounds_text, user("Pick a room as JSON.")]


messages_strategy = st.lists(
    st.builds(
        ChatMessage,
        role=st.sampled_from(["system", "user", "assistant"]),
        content=st.text(alphabet="ab ", max_size=40),
        trimmable=st.booleans(),
    ),
    max_size=8,
)


@given(messages_strategy, st.integers(min_value=0, max_value=200))
def test_fit_keeps_fixed_messages_in_order_and_fits_or_says_it_cannot(
    drawn: list[ChatMessage], budget: int
) -> None:
    # numbered, so equal messages stay apart
    messages = [m.model_copy(update={"content": f"{i} {m.content}"}) for i, m in enumerate(drawn)]
    try:
        kept = fit_messages(messages, budget, words)
    except ContextOverflow as overflow:
        fixed = [m for m in messages if not m.trimmable]
        assert overflow.needed == conversation_tokens(fixed, words) > budget
        return
    assert conversation_tokens(kept, words) <= budget
    assert [m for m in messages if not m.trimmable] == [m for m in kept if not m.trimmable]
    dropped = [m for m in messages if m not in kept]
    assert all(m.trimmable for m in dropped)
    kept_history = [i for i, m in enumerate(messages) if m.trimmable and m in kept]
    dropped_history = [i for i, m in enumerate(messages) if m.trimmable and m not in kept]
    assert not kept_history or not dropped_history or max(dropped_history) < min(kept_history)


def test_estimate_overcounts_english_and_errors_are_recognised() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("The knife is in the hall.") >= len("The knife is in the hall.") // 4
    llama_cpp_python = (
        "This model's maximum context length is 2048 tokens. However, you requested 2100 tokens"
    )
    assert is_context_error(400, "context_length_exceeded", llama_cpp_python)
    assert context_from_error(llama_cpp_python) == 2048
    llama_cpp = "the request exceeds the available context size, try increasing it"
    assert is_context_error(400, "exceed_context_size_error", llama_cpp)
    assert is_context_error(400, None, llama_cpp) and context_from_error(llama_cpp) is None
    assert context_from_error("Requested tokens (5000) exceed context window of 4096") == 4096
    assert not is_context_error(400, "invalid_request_error", "temperature must be at most 2")
    assert not is_context_error(500, None, "internal error")


def test_history_is_trimmed_to_the_set_context_with_the_server_tokenizer() -> None:
    prompt = game_prompt(10)  # about 420 words of history
    with ScriptedChatServer(['{"room": "Hall"}'], tokenizer="extras") as srv:
        client = client_for(srv, context_tokens=300, max_tokens=100)
        reply = client.complete(prompt)
    sent = srv.requests[0]
    assert reply.content == '{"room": "Hall"}'
    assert sent.messages[0]["content"] == "You play." and sent.messages[-1]["role"] == "user"
    kept_rounds = [m["content"] for m in sent.messages[1:-1]]
    assert kept_rounds and all(text.startswith("round") for text in kept_rounds)
    assert kept_rounds[-1].startswith("round 9")  # the newest history stays
    assert sent.prompt_words + 100 <= 300
    assert client.meter.snapshot().trimmed == 10 - len(kept_rounds)
    assert "POST /extras/tokenize/count" in srv.probes


def test_a_context_error_learns_the_length_trims_and_retries() -> None:
    prompt = game_prompt(8)
    with ScriptedChatServer([Reply('{"room": "Study"}')], context_tokens=200) as srv:
        client = client_for(srv, max_tokens=50)
        outcome = ask_structured(client, prompt, Pick, answer=Pick, seed=1)
    assert outcome.value == Pick(room="Study")
    first, last = srv.requests[0], srv.requests[-1]
    assert first.prompt_words >= 200 and last.prompt_words < 200
    assert client.context_tokens() == 200
    usage = client.meter.snapshot()
    assert (usage.errors, usage.retries, usage.calls) == (0, 0, 1)


def test_a_prompt_that_cannot_fit_ends_the_ask_not_the_game() -> None:
    prompt = [system("rules " * 300), user("Pick.")]
    with ScriptedChatServer(["unused"]) as srv:
        client = client_for(srv, context_tokens=256)
        with pytest.raises(ContextLengthError):
            client.complete(prompt)
        outcome = ask_structured(client, prompt, Pick, answer=Pick)
    assert outcome.value is None and outcome.attempts == 0
    assert "does not fit the model's context" in outcome.errors[0]
    assert srv.requests == []


def test_context_and_model_are_taken_from_the_server_when_not_set() -> None:
    listed = ScriptedChatServer(["a"], models=["SmolLM2-135M", "other"], max_model_len=4096)
    with listed as srv:
        client = client_for(srv, model="")
        assert client.model == "SmolLM2-135M"
        assert client.context_tokens() == 4096
        reply = client.complete([user("hi")])
    assert srv.requests[0].model == "SmolLM2-135M" and reply.model == "SmolLM2-135M"
    with ScriptedChatServer(["a"], n_ctx=2048) as srv:
        assert client_for(srv).context_tokens() == 2048
    with ScriptedChatServer(["a"], models=[]) as srv:
        with pytest.raises(LLMEndpointError, match="no model name given"):
            client_for(srv, model="").complete([user("hi")])
        assert srv.requests == []


def test_a_cut_off_answer_is_asked_again_larger_then_shorter_with_its_length() -> None:
    cut = '{"room": "Hall, because first of all'
    script = [
        Reply(cut, completion_tokens=64, finish_reason="length"),
        Reply(cut + " the rooms", completion_tokens=128, finish_reason="length"),
        Reply('{"room": "Hall"}'),
    ]
    with ScriptedChatServer(script) as srv:
        client = client_for(srv, max_tokens=64)
        outcome = ask_structured(client, [user("Pick.")], Pick, seed=2)
    assert outcome.value == Pick(room="Hall")
    assert outcome.finish_reasons == ("length", "length", "stop")
    assert [r.body["max_tokens"] for r in srv.requests] == [64, 128, 128]
    assert srv.requests[1].last_user == "Pick."  # asked again as it was, with twice the cap
    follow_up = srv.requests[2].last_user
    assert "cut off at 128 tokens" in follow_up and "Answer shorter" in follow_up
    assert [r.body["seed"] for r in srv.requests] == [2, 3, 4]
    usage = client.meter.snapshot()
    assert (usage.cut_off, usage.reprompts) == (2, 1)


def test_a_server_that_does_not_answer_is_asked_again_later() -> None:
    with ScriptedChatServer(["a"], models=["late-model"]) as srv:
        url = srv.base_url
    # An earlier test's server may have listened on this port and left what it learned.
    facts_for(url).models = None
    probe = EndpointProbe(url, None, timeout_s=2.0)  # the server is gone: nothing learned
    assert probe.models() == () and probe.facts.models is None
    assert probe.count("one two three") == estimate_tokens("one two three")
    assert probe.facts.tokenizer is None
    with pytest.raises(LLMEndpointError, match="did not answer at /models in time"):
        settings = LLMSettings(base_url=url, model="")
        OpenAIChatClient(settings, sleep=lambda _: None).complete([user("hi")])


def clue_answer(request: ChatRequest) -> Step:
    """A legal-looking answer to each Clue phase, as labelled lines."""
    prompt = request.last_user
    if "DEDUCTIONS:" in prompt:
        return "ANALYSIS: nothing certain\nDEDUCTIONS: NONE"
    if "SHOW:" in prompt:
        return "REASONING: any\nSHOW: Rope"
    move = "SUGGESTION: Miss Scarlet, Rope, Kitchen\n" if "SUGGESTION:" in prompt else ""
    return f"REASONING: try\n{move}ACCUSATION: Miss Scarlet, Rope, Kitchen"


def test_a_30_round_clue_game_outgrowing_the_context_still_finishes() -> None:
    config = ClueConfig(players=3, max_rounds=30)
    server = ScriptedChatServer(clue_answer, context_tokens=600, tokenizer="extras")
    with server as srv:
        agent = LLMClueAgent(client_for(srv, max_tokens=64), seed=3)
        game = ClueGame(config, 3)
        result = play_clue(game, [agent, random_agent(1), random_agent(2)])
    # the game ran to its end: asks that could not fit fell back instead of raising
    assert result.winner is not None or result.rounds == config.max_rounds
    overflowed = [r for r in srv.requests if r.prompt_words >= 600]
    assert overflowed, "the prompt never outgrew the context"
    assert agent.fallbacks.total >= 1
