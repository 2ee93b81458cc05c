"""Nim-21's config and log events."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class NimConfig(BaseModel):
    """Two players, a pile, and how many counters a move may take at most."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: Literal[2] = 2
    pile: int = Field(default=21, ge=1, le=100)
    most: int = Field(default=3, ge=1, le=10)


class Take(BaseModel):
    """A seat took ``count`` counters, leaving ``left``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["take"] = "take"
    seat: int = Field(ge=0, le=1)
    count: int = Field(ge=1)
    left: int = Field(ge=0)


class GameEnd(BaseModel):
    """The seat that took the last counter won."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["game_end"] = "game_end"
    winner: int = Field(ge=0, le=1)


NimEvent = Annotated[Take | GameEnd, Field(discriminator="type")]
NIM_EVENT: TypeAdapter[NimEvent] = TypeAdapter(NimEvent)
