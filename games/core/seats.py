"""Seats files (``--seats FILE``), for every game: one entry per seat naming its agent and, for
an LLM seat, its model, endpoint and the environment variable holding its key, so several models
can share a table.

JSON (``{"seats": [{...}, ...]}``) or JSONL (one entry a line, for a file ending ``.jsonl``),
read by ``reasoning.textfile``; agents are checked against the game's registry, and every problem
is one line naming the file, line and field. ``seating`` reads ``--agents`` or ``--seats`` into a
``Seating``: the seat list (``nli@MODEL`` where a seat names a model) and each seat's endpoint.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from games.core.agents import AgentRegistry
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


def _registry(info: ValidationInfo) -> AgentRegistry[Any, Any]:
    agents = (info.context or {}).get("agents")
    if not isinstance(agents, AgentRegistry):
        raise TypeError("a seat entry is validated with the game's agents as context")
    return agents


class SeatEntry(BaseModel):
    """One seat of a seats file: its agent (a name in the game's registry, given as the
    ``agents`` validation context) and, for an LLM agent, the model, the endpoint and the
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
        """The seat's agent spec (``nli@MODEL`` when a model is named)."""
        return self.agent if self.model is None else f"{self.agent}@{self.model}"

    @property
    def endpoint(self) -> SeatEndpoint | None:
        """The seat's own endpoint, None when it uses the command's."""
        if self.base_url is None and self.api_key_env is None:
            return None
        return SeatEndpoint(base_url=self.base_url, api_key_env=self.api_key_env)


class SeatsFile(BaseModel):
    """A JSON seats file: the seats in order."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seats: tuple[SeatEntry, ...] = Field(min_length=1)


def read_seats(
    path: Path, agents: AgentRegistry[Any, Any], min_seats: int, max_seats: int
) -> tuple[SeatEntry, ...]:
    """The seats of ``path`` (JSON, or JSONL when it ends ``.jsonl``) for a game whose agents are
    ``agents`` and whose tables seat ``min_seats`` to ``max_seats``, every key variable set;
    SeatsFileError in one line naming file, line and field otherwise."""
    context = {"agents": agents}
    try:
        text = read_user_text(path, limit=MAX_SEATS_BYTES)
        if path.suffix == ".jsonl":
            lines = parse_user_jsonl(text, path)
            seats = tuple(_entry(path, line, record, context) for line, record in lines)
            where = [line for line, _ in lines]
        else:
            seats = parse_model(text, SeatsFile, str(path), SeatsFileError, context).seats
            where = [line_in(text, ("seats", n, "api_key_env")) for n in range(len(seats))]
    except UserFileError as err:
        raise SeatsFileError(str(err)) from None
    if not min_seats <= len(seats) <= max_seats:
        raise SeatsFileError(f"{path}: {len(seats)} seats; a table has {min_seats} to {max_seats}")
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


class Seating(BaseModel):
    """Who sits where: the seat list (agent specs, comma-separated) and each seat's own
    endpoint, if any (from a seats file)."""

    model_config = ConfigDict(frozen=True)

    agents: str
    endpoints: tuple[SeatEndpoint | None, ...] = ()

    def endpoint_missing(
        self, registry: AgentRegistry[Any, Any], llm: LLMSettings
    ) -> ValueError | None:
        """The one-line error naming the first LLM seat with no endpoint, its own or the
        command's; None when every LLM seat has one."""
        if llm.configured:
            return None
        specs = registry.parse(self.agents)
        own = list(self.endpoints) + [None] * (len(specs) - len(self.endpoints))
        for seat, (spec, end) in enumerate(zip(specs, own, strict=True)):
            if registry.needs_llm([spec]) and (end is None or end.base_url is None):
                return ValueError(
                    f"agent {spec!r} at seat {seat} needs an LLM endpoint: give --base-url (and "
                    "--model), a base_url per seat in --seats, or set GUMSHOE_LLM_BASE_URL / "
                    "OPENAI_API_KEY"
                )
        return None


def seating(
    agents: str | None,
    seats: Path | None,
    registry: AgentRegistry[Any, Any],
    *,
    default: str,
    min_seats: int,
    max_seats: int,
) -> tuple[Seating, int | None]:
    """The seating of ``--agents`` (``default`` when neither option is given) or of a ``--seats``
    file, and the player count the file fixes (None without one); ValueError in one line when
    both are given or the file is bad."""
    if seats is None:
        return Seating(agents=agents or default), None
    if agents is not None:
        raise ValueError("--agents and --seats: give one of them")
    entries = read_seats(seats, registry, min_seats, max_seats)
    chosen = Seating(
        agents=",".join(e.spec for e in entries), endpoints=tuple(e.endpoint for e in entries)
    )
    return chosen, len(entries)
