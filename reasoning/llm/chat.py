"""The chat-client interface every client implements (the OpenAI one, recording, replay, a
harness's), its per-call options, and the call that passes options only to clients that take
them. Importing it loads no client library."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, cast, runtime_checkable

from pydantic import BaseModel

from reasoning.llm.messages import ChatMessage, ChatReply
from reasoning.llm.usage import UsageMeter

Sleep = Callable[[float], None]
"""How a client waits between retries (``time.sleep``; tests pass a recorder)."""


@dataclass(frozen=True, slots=True)
class ChatOptions:
    """Per-call request options: the pydantic model an answer should fill (asked for as
    structured output where the endpoint supports it) and a reply length cap overriding the
    settings' ``max_tokens``."""

    answer: type[BaseModel] | None = None
    max_tokens: int | None = None


@runtime_checkable
class ChatClient(Protocol):
    """Anything that answers a conversation with one reply, counting its usage."""

    @property
    def model(self) -> str:
        """The model requests are made for."""
        ...

    @property
    def meter(self) -> UsageMeter:
        """Where calls, retries, errors and tokens are counted."""
        ...

    def complete(self, messages: Sequence[ChatMessage], *, seed: int | None = None) -> ChatReply:
        """Answer ``messages``; raise ``LLMEndpointError`` when the endpoint cannot.

        Clients may also take ``options: ChatOptions`` (see ``accepts_options``).
        """
        ...


class _OptionsClient(Protocol):
    def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        seed: int | None = None,
        options: ChatOptions | None = None,
    ) -> ChatReply: ...


def complete_with(
    client: ChatClient,
    messages: Sequence[ChatMessage],
    *,
    seed: int | None = None,
    options: ChatOptions | None = None,
) -> ChatReply:
    """``client.complete`` with ``options`` when the client takes them, else without."""
    if options is not None and accepts_options(client):
        return cast(_OptionsClient, client).complete(messages, seed=seed, options=options)
    return client.complete(messages, seed=seed)


def accepts_options(client: ChatClient) -> bool:
    """Whether ``client.complete`` takes per-call ``options``; a client that does not (a wrapper
    written before them) is asked in plain text."""
    try:
        parameters = inspect.signature(client.complete).parameters
    except (TypeError, ValueError):
        return False
    return "options" in parameters
