"""``chat_clients_from``: within the block ``make_client`` takes the endpoint's client from the
provider (recording still wraps it, replay still wins), and outside it builds its own."""

from __future__ import annotations

import threading
from contextvars import copy_context
from pathlib import Path

import pytest

from reasoning.llm import (
    LLMSettings,
    OpenAIChatClient,
    RecordingClient,
    ReplayClient,
    UsageMeter,
    chat_clients_from,
    make_client,
    user,
)
from tests.test_llm_recording import EchoClient


def echo(settings: LLMSettings, meter: UsageMeter) -> EchoClient:
    return EchoClient()


def test_make_client_asks_the_provider_inside_the_block_only(tmp_path: Path) -> None:
    settings = LLMSettings(base_url="http://127.0.0.1:9/v1", model="echo")
    with chat_clients_from(echo):
        client = make_client(settings)
        assert isinstance(client, EchoClient)
        assert client.complete([user("hello")]).content == "olleh"
        assert client.meter.snapshot().calls == 1
        recorded = make_client(settings.model_copy(update={"record_path": tmp_path / "r.jsonl"}))
        assert isinstance(recorded, RecordingClient)
        recorded.complete([user("kept")])
        replayed = make_client(settings.model_copy(update={"replay_path": tmp_path / "r.jsonl"}))
        assert isinstance(replayed, ReplayClient)
        assert replayed.complete([user("kept")]).content == "tpek"
    assert isinstance(make_client(settings), OpenAIChatClient)


def test_the_provider_reaches_threads_started_with_a_copy_of_the_context() -> None:
    settings = LLMSettings(base_url="http://127.0.0.1:9/v1", model="echo")
    built: dict[str, object] = {}

    def build(name: str) -> None:
        built[name] = make_client(settings)

    with chat_clients_from(echo):
        copied = threading.Thread(target=copy_context().run, args=(build, "copied"))
        bare = threading.Thread(target=build, args=("bare",))
        for thread in (copied, bare):
            thread.start()
            thread.join()
    assert isinstance(built["copied"], EchoClient)
    assert isinstance(built["bare"], OpenAIChatClient)


def test_a_provider_error_propagates_and_the_block_still_ends() -> None:
    def broken(settings: LLMSettings, meter: UsageMeter) -> EchoClient:
        raise ValueError("no model")

    settings = LLMSettings(base_url="http://127.0.0.1:9/v1", model="echo")
    with pytest.raises(ValueError, match="no model"), chat_clients_from(broken):
        make_client(settings)
    assert isinstance(make_client(settings), OpenAIChatClient)
