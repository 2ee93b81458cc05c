"""Seats files (``--seats FILE``): one entry per seat naming its agent and, for an LLM seat, its
model, endpoint and the environment variable holding its key, so two models can share a table.

JSON (``{"seats": [{...}, ...]}``) or JSONL (one entry a line, for a file ending ``.jsonl``),
read by ``reasoning.textfile``; every problem is one line naming the file, line and field.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from games.core.runlog import field_errors
from games.hanabi.agents import AGENTS, SeatEndpoint
from reasoning.jsonpos import line_in, parse_model
from reasoning.llm import LLMSettings
from reasoning.textfile import UserFileError, parse_user_jsonl, read_user_text

MAX_SEATS_BYTES = 1024 * 1024
"""The largest seats file read."""


class SeatsFileError(ValueError):
    """A seats file that cannot be used; the message names the file, line and field."""


class SeatEntry(BaseModel):
    """One seat of a seats file: its agent (a registry name) and, for an LLM agent, the model,
    the endpoint and the environment variable holding the endpoint's key."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent: str
    model: str | None = Field(default=None, min_length=1, pattern=r"^[^,@*\s]+$")
    base_url: str | None = Field(default=None, min_length=1)
    api_key_env: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")

    @field_validator("agent")
    @classmethod
    def _known(cls, agent: str) -> str:
        if any(mark in agent for mark in "@*,"):
            raise ValueError(
                f"one agent name, without @, * or commas (the model goes in 'model'): {agent!r}"
            )
        return AGENTS.get(agent).name

    @field_validator("model", "base_url", "api_key_env")
    @classmethod
    def _llm_only(cls, value: str | None, info: ValidationInfo) -> str | None:
        agent = info.data.get("agent")
        if value is not None and agent is not None and not AGENTS.get(agent).needs_llm:
            raise ValueError(f"agent {agent!r} asks no LLM")
        if value is not None and info.field_name == "base_url":
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
    """A JSON seats file: the seats in order, two to five."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seats: tuple[SeatEntry, ...] = Field(min_length=2, max_length=5)


def read_seats(path: Path) -> tuple[SeatEntry, ...]:
    """The seats of ``path`` (JSON, or JSONL when it ends ``.jsonl``), every key variable set;
    SeatsFileError in one line naming file, line and field otherwise."""
    try:
        text = read_user_text(path, limit=MAX_SEATS_BYTES)
        if path.suffix == ".jsonl":
            lines = parse_user_jsonl(text, path)
            seats = tuple(_entry(path, line, record) for line, record in lines)
            where = [line for line, _ in lines]
            if not 2 <= len(seats) <= 5:
                raise SeatsFileError(f"{path}: {len(seats)} seats; a table has 2 to 5")
        else:
            seats = parse_model(text, SeatsFile, str(path), SeatsFileError).seats
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


def _entry(path: Path, line: int, record: dict[str, object]) -> SeatEntry:
    try:
        return SeatEntry.model_validate(record)
    except ValidationError as err:
        raise SeatsFileError(f"{path}:{line}: {field_errors(err)}") from None
