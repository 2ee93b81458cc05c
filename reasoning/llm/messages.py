"""The records a chat call exchanges: the messages sent and the reply received."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["system", "user", "assistant"]


class ChatMessage(BaseModel):
    """One turn of a conversation, as the chat-completions API takes it.

    ``trimmable`` marks history a context budget may drop (oldest first) when the conversation
    does not fit; it is not sent to the endpoint.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Role
    content: str
    trimmable: bool = Field(default=False, exclude=True)


class ChatReply(BaseModel):
    """The model's answer to one chat call, with its token counts, wall-clock latency, why it
    ended (``finish_reason``: ``stop``, ``length`` when cut off at the token cap, ...) and the
    structured-output mode it was asked in (None for plain text)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    content: str
    reasoning: str | None = None
    """The server's separate reasoning text (``reasoning_content``), when it returns one."""
    model: str
    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)
    latency_s: float = Field(default=0.0, ge=0.0)
    finish_reason: str | None = None
    response_format: str | None = None
    max_tokens: int | None = Field(default=None, gt=0)

    @property
    def cut_off(self) -> bool:
        """True when the reply stopped at the token cap rather than where the model ended it."""
        return self.finish_reason == "length"


def system(content: str) -> ChatMessage:
    """A system message."""
    return ChatMessage(role="system", content=content)


def user(content: str) -> ChatMessage:
    """A user message."""
    return ChatMessage(role="user", content=content)


def assistant(content: str) -> ChatMessage:
    """An assistant message."""
    return ChatMessage(role="assistant", content=content)


def history(content: str) -> ChatMessage:
    """A user message of game history that a context budget may drop, oldest first."""
    return ChatMessage(role="user", content=content, trimmable=True)
