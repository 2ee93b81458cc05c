"""Recording chat calls and replaying them without the endpoint."""

from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from reasoning.llm import (
    ChatClient,
    ChatMessage,
    ChatReply,
    LLMEndpointError,
    LLMSettings,
    RecordingClient,
    ReplayClient,
    ReplayExhausted,
    ReplayMismatch,
    UsageMeter,
    ask_structured,
    load_recording,
    make_client,
    recording_file,
    system,
    user,
)
from reasoning.llm.scripted_server import Fail, Reply, ScriptedChatServer


class Move(BaseModel):
    """A Hanabi-style move."""

    action: str
    card: int


PROMPT = [system("You play Hanabi."), user("Your move, as JSON with action and card.")]
SCRIPT = [
    Reply("hmm", prompt_tokens=20, completion_tokens=1),
    Reply('{"action": "play", "card": 2}', prompt_tokens=30, completion_tokens=9),
    Reply("I hint red.", prompt_tokens=12, completion_tokens=3),
]


def play(client: ChatClient) -> tuple[object, ...]:
    """A tiny game's LLM traffic: one structured ask (with a re-prompt) and one free call."""
    outcome = ask_structured(client, PROMPT, Move, seed=7)
    hint = client.complete([user("Give a hint.")])
    return outcome.value, outcome.attempts, outcome.replies, hint.content


def record(tmp_path: Path) -> tuple[Path, tuple[object, ...], ChatClient]:
    path = tmp_path / "calls.jsonl"
    with ScriptedChatServer(SCRIPT) as srv:
        client = make_client(
            LLMSettings(base_url=srv.base_url, model="m1", record_path=path, price_input_per_1k=1.0)
        )
        assert isinstance(client, RecordingClient)
        result = play(client)
    return path, result, client


def test_record_then_replay_without_the_server(tmp_path: Path) -> None:
    path, recorded, recording_client = record(tmp_path)
    replay_settings = LLMSettings(model="m1", replay_path=path, price_input_per_1k=1.0)
    assert not replay_settings.configured
    replay = make_client(replay_settings)
    assert isinstance(replay, ReplayClient)
    assert play(replay) == recorded
    assert recorded[0] == Move(action="play", card=2)
    assert replay.remaining == 0
    live, replayed = recording_client.meter.snapshot(), replay.meter.snapshot()
    assert (replayed.calls, replayed.prompt_tokens, replayed.completion_tokens) == (3, 62, 13)
    assert (live.calls, live.prompt_tokens, live.cost) == (3, 62, replayed.cost)


def test_recording_is_one_flushed_json_line_per_call(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "calls.jsonl"
    with ScriptedChatServer(["a", "b"]) as srv:
        client = make_client(LLMSettings(base_url=srv.base_url, model="m1", record_path=path))
        client.complete(PROMPT, seed=3)
        lines = path.read_text().splitlines()
        assert len(lines) == 1
        client.complete([user("again")])
    lines = path.read_text().splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert first["index"] == 0 and first["model"] == "m1" and first["seed"] == 3
    assert first["messages"] == [m.model_dump() for m in PROMPT]
    assert first["reply"]["content"] == "a"
    assert json.loads(lines[1])["index"] == 1


def test_recording_appends_and_continues_numbering(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    for answer in ("first", "second"):
        with ScriptedChatServer([answer]) as srv:
            settings_ = LLMSettings(base_url=srv.base_url, model="m1", record_path=path)
            make_client(settings_).complete(PROMPT)
    calls = load_recording(path)
    contents = [(c.index, c.reply.content if c.reply else None) for c in calls]
    assert contents == [(0, "first"), (1, "second")]


def test_endpoint_failure_is_recorded_and_replayed(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    with ScriptedChatServer([Fail(400, "prompt too long"), "fine"]) as srv:
        client = make_client(LLMSettings(base_url=srv.base_url, model="m1", record_path=path))
        with pytest.raises(LLMEndpointError) as live:
            client.complete(PROMPT)
        client.complete([user("shorter")])
    replay = ReplayClient(path, model="m1")
    with pytest.raises(LLMEndpointError) as replayed:
        replay.complete(PROMPT)
    assert str(replayed.value) == str(live.value)
    assert (replayed.value.status, replayed.value.attempts) == (400, 1)
    assert replay.complete([user("shorter")]).content == "fine"
    usage = replay.meter.snapshot()
    assert (usage.calls, usage.errors) == (1, 1)


def test_changed_prompt_raises_mismatch_naming_call_and_field(tmp_path: Path) -> None:
    path, _, _ = record(tmp_path)
    replay = ReplayClient(path, model="m1")
    replay.complete(PROMPT, seed=7)
    changed = [PROMPT[0], user("Your move, as JSON with action and colour.")]
    with pytest.raises(ReplayMismatch) as caught:
        replay.complete(changed, seed=8)  # the re-prompt was sent with the next seed
    error = caught.value
    assert (error.index, error.field) == (1, "messages[1].content")
    assert str(error).startswith("replay call 1: messages[1].content differs")
    assert "card" in str(error) and "colour" in str(error)


@pytest.mark.parametrize(
    ("model", "seed", "messages", "field"),
    [
        ("m2", 7, PROMPT, "model"),
        ("m1", 8, PROMPT, "seed"),
        ("m1", 7, PROMPT[:1], "len(messages)"),
        ("m1", 7, [user("You play Hanabi."), PROMPT[1]], "messages[0].role"),
    ],
)
def test_mismatch_fields(
    tmp_path: Path, model: str, seed: int, messages: list[ChatMessage], field: str
) -> None:
    path, _, _ = record(tmp_path)
    with pytest.raises(ReplayMismatch, match="replay call 0") as caught:
        ReplayClient(path, model=model).complete(messages, seed=seed)
    assert caught.value.field == field


def test_exhausted_replay(tmp_path: Path) -> None:
    path, _, _ = record(tmp_path)
    replay = ReplayClient(path, model="m1")
    play(replay)
    with pytest.raises(ReplayExhausted, match="holds 3 calls; call 3") as caught:
        replay.complete([user("Give a hint.")])
    assert caught.value.index == 3


def test_bad_recording_line_is_named(tmp_path: Path) -> None:
    path, _, _ = record(tmp_path)
    lines = path.read_text().splitlines()
    lines[1] = '{"index": 1, "model": "m1"}'
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match=r"calls\.jsonl, line 2"):
        ReplayClient(path, model="m1")
    neither = json.loads(lines[0])
    del neither["reply"]
    lines[1] = json.dumps(neither)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match=r"line 2: (.|\n)*exactly one of 'reply' and 'failure'"):
        ReplayClient(path, model="m1")


class EchoClient:
    """A stand-in endpoint: replies with the last message reversed."""

    model = "echo"

    def __init__(self) -> None:
        self.meter = UsageMeter()

    def complete(self, messages: Sequence[ChatMessage], *, seed: int | None = None) -> ChatReply:
        reply = ChatReply(content=messages[-1].content[::-1], model=self.model, latency_s=0.01)
        self.meter.record_reply(reply)
        return reply


conversation = st.lists(
    st.builds(
        ChatMessage,
        role=st.sampled_from(["system", "user", "assistant"]),
        content=st.text(max_size=40),
    ),
    min_size=1,
    max_size=4,
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(calls=st.lists(st.tuples(conversation, st.none() | st.integers()), max_size=5))
def test_any_conversation_replays_exactly(
    tmp_path: Path, calls: list[tuple[list[ChatMessage], int | None]]
) -> None:
    path = tmp_path / f"echo-{len(list(tmp_path.iterdir()))}.jsonl"
    recorder = RecordingClient(EchoClient(), path)
    replies = [recorder.complete(messages, seed=seed) for messages, seed in calls]
    if not calls:
        path.touch()
    replay = ReplayClient(path, model="echo")
    assert [replay.complete(messages, seed=seed) for messages, seed in calls] == replies
    assert replay.remaining == 0


def test_a_compressed_recording_replays_in_its_place(tmp_path: Path) -> None:
    path, recorded, _ = record(tmp_path)
    packed = path.with_name(path.name + ".gz")
    packed.write_bytes(gzip.compress(path.read_bytes()))
    path.unlink()
    assert recording_file(path) == packed
    replay = make_client(LLMSettings(model="m1", replay_path=path, price_input_per_1k=1.0))
    assert play(replay) == recorded
    packed.write_bytes(b"not gzip at all")
    with pytest.raises(ValueError, match=r"calls\.jsonl\.gz: not a readable recording"):
        ReplayClient(path, model="m1")
    packed.unlink()
    assert recording_file(path) is None
