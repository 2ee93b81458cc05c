"""Building the chat client that settings ask for: replay, record around a real one, or real."""

from __future__ import annotations

import random

from reasoning.llm.client import ChatClient, OpenAIChatClient, Sleep
from reasoning.llm.recording import RecordingClient, ReplayClient
from reasoning.llm.settings import LLMSettings
from reasoning.llm.usage import UsageMeter


def make_client(
    settings: LLMSettings,
    *,
    meter: UsageMeter | None = None,
    sleep: Sleep | None = None,
    rng: random.Random | None = None,
) -> ChatClient:
    """The client ``settings`` describe.

    With ``replay_path`` the calls are answered from that recording and no endpoint is needed;
    otherwise an ``OpenAIChatClient`` is built (``ValueError`` when no endpoint is configured),
    wrapped in a ``RecordingClient`` when ``record_path`` is set.
    """
    meter = meter if meter is not None else UsageMeter.for_settings(settings)
    if settings.replay_path is not None:
        return ReplayClient(settings.replay_path, model=settings.model, meter=meter)
    real = OpenAIChatClient(settings, meter=meter, sleep=sleep, rng=rng)
    if settings.record_path is not None:
        return RecordingClient(real, settings.record_path)
    return real
