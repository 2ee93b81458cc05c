"""Building the chat client that settings ask for: replay, record around a real one, or real."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from reasoning.llm.chat import ChatClient, Sleep
from reasoning.llm.recording import RecordingClient, ReplayClient
from reasoning.llm.settings import LLMSettings
from reasoning.llm.usage import UsageMeter

ClientProvider = Callable[[LLMSettings, UsageMeter], ChatClient]
"""Builds the client that stands for the endpoint, from the settings and the meter to count in."""

_PROVIDER: ContextVar[ClientProvider | None] = ContextVar("chat_client_provider", default=None)


@contextmanager
def chat_clients_from(provider: ClientProvider) -> Iterator[None]:
    """Within the block (this context: its thread, task and the threads it starts with a copy),
    ``make_client`` asks ``provider`` for the endpoint's client instead of building an OpenAI
    one, so a harness that owns the model (an inspect_ai task) plays the games' own agents."""
    token = _PROVIDER.set(provider)
    try:
        yield
    finally:
        _PROVIDER.reset(token)


def make_client(
    settings: LLMSettings,
    *,
    meter: UsageMeter | None = None,
    sleep: Sleep | None = None,
    rng: random.Random | None = None,
) -> ChatClient:
    """The client ``settings`` describe.

    With ``replay_path`` the calls are answered from that recording and no endpoint is needed;
    otherwise the endpoint's client is built (the provider's within ``chat_clients_from``,
    else an ``OpenAIChatClient``: ``ValueError`` when no endpoint is configured), wrapped in a
    ``RecordingClient`` when ``record_path`` is set.
    """
    meter = meter if meter is not None else UsageMeter.for_settings(settings)
    from reasoning.llm.client import OpenAIChatClient

    if settings.replay_path is not None:
        return ReplayClient(settings.replay_path, model=settings.model, meter=meter)
    provider = _PROVIDER.get()
    real = (
        provider(settings, meter)
        if provider is not None
        else OpenAIChatClient(settings, meter=meter, sleep=sleep, rng=rng)
    )
    if settings.record_path is not None:
        return RecordingClient(real, settings.record_path)
    return real
