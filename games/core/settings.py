"""What every game shares in settings: the defaults of its referees (prover time limit, re-prompts,
solver) and the base of its agents' settings (the LLM endpoint, per-game recordings)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Annotated, Any, Self, TypeAlias

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

from games.core.seats import SeatEndpoint
from provers.sat_solver import DEFAULT_SOLVER
from reasoning.llm.fallback import DEFAULT_MAX_REPROMPTS

DEFAULT_PROVER_TIMEOUT_S = 10.0
"""Seconds per prover call when a command does not say otherwise."""


class GameSettings(BaseModel):
    """Settings the agents and referees of every game read; a bad value names its field."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    prover_timeout_s: float = Field(default=DEFAULT_PROVER_TIMEOUT_S, gt=0.0, le=86400.0)
    max_reprompts: int = Field(default=DEFAULT_MAX_REPROMPTS, ge=0, le=10)
    sat_solver: str = DEFAULT_SOLVER

    @field_validator("prover_timeout_s")
    @classmethod
    def _finite(cls, value: float) -> float:
        if not math.isfinite(value):
            raise ValueError("must be a finite number of seconds")
        return value


def _llm_settings(value: object) -> object:
    """An ``LLMSettings`` (or None) from what a settings object is given, importing the class
    only now: the LLM settings' loader is not loaded by a command that plays no LLM."""
    from reasoning.llm.settings import LLMSettings

    if value is None or isinstance(value, LLMSettings):
        return value
    return LLMSettings.model_validate(value)


if TYPE_CHECKING:
    from reasoning.llm.settings import LLMSettings

    LLMField: TypeAlias = LLMSettings | None
else:
    LLMField = Annotated[Any, BeforeValidator(_llm_settings)]
"""The type of an ``llm`` field: ``LLMSettings | None``, its class imported on first use."""


class AgentSettings(BaseModel):
    """The settings every game's agent factories read, the LLM endpoint of its LLM agents first
    (None: the environment's ``GUMSHOE_LLM_*``); a game's own settings subclass it with fields of
    their own (a SAT solver, Hanabi's knowledge view, ...)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    llm: LLMField = Field(default=None, description="None: read from the environment.")
    endpoints: tuple[SeatEndpoint | None, ...] = ()
    """Seat by seat, an endpoint of its own (a seats file's), None for ``llm``'s."""

    def llm_settings(self) -> LLMSettings:
        """The LLM settings given, or those the environment describes."""
        from reasoning.llm.settings import LLMSettings

        return self.llm if self.llm is not None else LLMSettings()

    def seat_llm(self, seat: int) -> LLMSettings:
        """The LLM settings of ``seat``: ``llm_settings`` with the seat's own endpoint, if any."""
        llm = self.llm_settings()
        endpoint = self.endpoints[seat] if seat < len(self.endpoints) else None
        return llm if endpoint is None else endpoint.applied(llm)

    def for_game(self, game_id: str, seats: int) -> Self:
        """The settings to play game ``game_id`` with: record/replay run directories become that
        game's per-seat recordings (``games.core.recordings.game_llm_settings``)."""
        from games.core.recordings import game_llm_settings

        llm = self.llm_settings()
        if llm.record_path is None and llm.replay_path is None:
            return self
        return self.model_copy(update={"llm": game_llm_settings(llm, game_id, seats)})
