"""The records a chat call exchanges: the messages sent and the reply received."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["system", "user", "assistant"]


class ChatMessage(BaseModel):
    """One turn of a conversation, as the chat-completions API takes it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Role
    content: str


class ChatReply(BaseModel):
    """The model's answer to one chat call, with its token counts and wall-clock latency."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    content: str
    model: str
    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)
    latency_s: float = Field(default=0.0, ge=0.0)


def system(content: str) -> ChatMessage:
    """A system message."""
    return ChatMessage(role="system", content=content)


def user(content: str) -> ChatMessage:
    """A user message."""
    return ChatMessage(role="user", content=content)


def assistant(content: str) -> ChatMessage:
    """An assistant message."""
    return ChatMessage(role="assistant", content=content)
