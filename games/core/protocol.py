"""The game protocol every game implements, in the manner of OpenSpiel's state API.

A state is advanced by joint actions: ``apply({seat: action})`` with one action for each seat of
``current_players()`` (one seat for a sequential move, several for a simultaneous one such as a
vote). ``events()`` is the omniscient record the engine writes to the log between the common
header and end events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, model_validator


class IllegalAction(ValueError):
    """An action the rules do not allow now, in every game; the message says which seat and
    which rule. ``apply`` raises it and leaves the state as it was."""


class GameInfo(BaseModel):
    """What a game is: its name, how many seats it takes, how its moves and information work."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    min_players: int = Field(ge=1)
    max_players: int = Field(ge=1)
    simultaneous: bool
    imperfect_information: bool
    max_decisions: int = Field(ge=1, description="A bound on joint actions before the game ends.")

    @model_validator(mode="after")
    def _range(self) -> GameInfo:
        if self.max_players < self.min_players:
            raise ValueError("max_players: must not be below min_players")
        return self

    def check_players(self, count: int, field: str = "players") -> None:
        """ValueError naming ``field`` and the allowed range when ``count`` is out of it."""
        if not self.min_players <= count <= self.max_players:
            raise ValueError(
                f"{field}: {self.name} takes {self.min_players} to {self.max_players} players, "
                f"got {count}"
            )


class SeatResult(BaseModel):
    """The per-seat outcome every game reports: payoff, finishing rank (1 = best), and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    returns: tuple[float, ...]
    ranks: tuple[int, ...]
    reason: str


@runtime_checkable
class GameState(Protocol):
    """One game in progress; only ``apply`` changes it."""

    def current_players(self) -> Sequence[int]:
        """The seats whose actions the next ``apply`` needs (empty once the game is over)."""
        ...

    def legal_actions(self, seat: int) -> Sequence[Any]:
        """Every action ``seat`` may take now (empty when it has no decision to make)."""
        ...

    def apply(self, actions: Mapping[int, Any]) -> None:
        """Play one action per current seat; the game's illegal-action error when one is not
        allowed, with the state unchanged."""
        ...

    def observation(self, seat: int) -> Any:
        """What ``seat`` knows now (for imperfect-information games, only its own view)."""
        ...

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        ...

    def returns(self) -> Sequence[float]:
        """The payoff of every seat (all 0.0 while the game runs)."""
        ...

    def result(self) -> SeatResult:
        """Returns, ranks and the end reason; ValueError while the game runs."""
        ...

    def events(self) -> Sequence[BaseModel]:
        """The game's own log events so far, in order."""
        ...
