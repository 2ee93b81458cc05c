"""Seats files (``--seats FILE``): one entry per seat naming its agent and, for an LLM seat, its
model, endpoint and the environment variable holding its key, so two models can share a table.

JSON (``{"seats": [{...}, ...]}``) or JSONL (one entry a line, for a file ending ``.jsonl``),
read by ``reasoning.textfile``; every problem is one line naming the file, line and field. The
agents are checked against the game's registry and the count against its player range.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from games.core.agents import AgentRegistry
from games.core.protocol import GameInfo
from games.core.runlog import field_errors
from reasoning.jsonpos import line_in, parse_model
from reasoning.textfile import UserFileError, parse_user_jsonl, read_user_text

if TYPE_CHECKING:
    from reasoning.llm.settings import LLMSettings

MAX_SEATS_BYTES = 1024 * 1024
"""The largest seats file read."""


class SeatsFileError(ValueError):
    """A seats file that cannot be used; the message names the file, line and field."""


class SeatEndpoint(BaseModel):
    """Where one seat's chat calls go: an endpoint and the name of the environment variable that
    holds its key (never the key itself, so run configs can be shared)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    base_url: str | None = None
    api_key_env: str | None = None

    def key(self) -> str | None:
        """The key in ``api_key_env``; ValueError naming the variable when it is unset."""
        if self.api_key_env is None:
            return None
        value = os.environ.get(self.api_key_env)
        if not value:
            raise ValueError(f"environment variable {self.api_key_env} is not set")
        return value

    def applied(self, llm: LLMSettings) -> LLMSettings:
        """``llm`` with this seat's endpoint and key in place of the command's."""
        from reasoning.llm.settings import LLMSettings

        update: dict[str, object] = {}
        if self.base_url is not None:
            update["base_url"] = self.base_url
        key = self.key()
        if key is not None:
            update["api_key"] = key
        return LLMSettings.model_validate({**llm.model_dump(), **update})


class SeatEntry(BaseModel):
    """One seat of a seats file: its agent (a name of the game's registry, which the validation
    context gives as ``agents``) and, for an LLM agent, the model, the endpoint and the
    environment variable holding the endpoint's key."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent: str
    model: str | None = Field(default=None, min_length=1, pattern=r"^[^,@*\s]+$")
    base_url: str | None = Field(default=None, min_length=1)
    api_key_env: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")

    @field_validator("agent")
    @classmethod
    def _known(cls, agent: str, info: ValidationInfo) -> str:
        if any(mark in agent for mark in "@*,"):
            raise ValueError(
                f"one agent name, without @, * or commas (the model goes in 'model'): {agent!r}"
            )
        return _registry(info).get(agent).name

    @field_validator("model", "base_url", "api_key_env")
    @classmethod
    def _llm_only(cls, value: str | None, info: ValidationInfo) -> str | None:
        agent = info.data.get("agent")
        if value is not None and agent is not None and not _registry(info).get(agent).needs_llm:
            raise ValueError(f"agent {agent!r} asks no LLM")
        if value is not None and info.field_name == "base_url":
            from reasoning.llm.settings import LLMSettings

            try:
                LLMSettings.model_validate({"base_url": value})
            except ValidationError as err:
                raise ValueError(err.errors(include_url=False)[0]["msg"]) from None
        return value

    @property
    def spec(self) -> str:
        """The seat's agent spec (``sherlock@MODEL`` when a model is named)."""
        return self.agent if self.model is None else f"{self.agent}@{self.model}"

    @property
    def endpoint(self) -> SeatEndpoint | None:
        """The seat's own endpoint, None when it uses the command's."""
        if self.base_url is None and self.api_key_env is None:
            return None
        return SeatEndpoint(base_url=self.base_url, api_key_env=self.api_key_env)


class SeatsFile(BaseModel):
    """A JSON seats file: the seats in order, as many as the game (the context's ``info``)
    takes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seats: tuple[SeatEntry, ...]

    @field_validator("seats")
    @classmethod
    def _count(cls, seats: tuple[SeatEntry, ...], info: ValidationInfo) -> tuple[SeatEntry, ...]:
        game: GameInfo = (info.context or {})["info"]
        if not game.min_players <= len(seats) <= game.max_players:
            raise ValueError(_count_message(len(seats), game))
        return seats


def _registry(info: ValidationInfo) -> AgentRegistry[Any, Any]:
    agents: AgentRegistry[Any, Any] = (info.context or {})["agents"]
    return agents


def _count_message(count: int, game: GameInfo) -> str:
    return f"{count} seats; a table has {game.min_players} to {game.max_players}"


def read_seats(
    path: Path, agents: AgentRegistry[Any, Any], info: GameInfo
) -> tuple[SeatEntry, ...]:
    """The seats of ``path`` (JSON, or JSONL when it ends ``.jsonl``) for a game of ``info``
    whose agents ``agents`` lists, every key variable set; SeatsFileError in one line naming
    file, line and field otherwise."""
    context = {"agents": agents, "info": info}
    try:
        text = read_user_text(path, limit=MAX_SEATS_BYTES)
        if path.suffix == ".jsonl":
            lines = parse_user_jsonl(text, path)
            seats = tuple(_entry(path, line, record, context) for line, record in lines)
            where = [line for line, _ in lines]
            if not info.min_players <= len(seats) <= info.max_players:
                raise SeatsFileError(f"{path}: {_count_message(len(seats), info)}")
        else:
            seats = parse_model(text, SeatsFile, str(path), SeatsFileError, context).seats
            where = [line_in(text, ("seats", n, "api_key_env")) for n in range(len(seats))]
    except UserFileError as err:
        raise SeatsFileError(str(err)) from None
    for seat, line in zip(seats, where, strict=True):
        try:
            if seat.endpoint is not None:
                seat.endpoint.key()
        except ValueError as err:
            raise SeatsFileError(f"{path}:{line}: field 'api_key_env': {err}") from None
    return seats


def _entry(path: Path, line: int, record: dict[str, object], context: dict[str, Any]) -> SeatEntry:
    try:
        return SeatEntry.model_validate(record, context=context)
    except ValidationError as err:
        raise SeatsFileError(f"{path}:{line}: {field_errors(err)}") from None
