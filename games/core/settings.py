"""The defaults every game shares, in one validated model: prover time limit, re-prompts, solver."""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field, field_validator

from provers.sat_solver import DEFAULT_SOLVER
from reasoning.llm.settings import DEFAULT_MAX_REPROMPTS

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
