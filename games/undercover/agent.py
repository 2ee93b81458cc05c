"""What an Undercover-V agent sees and does: its observation, its description, its protocol.

An agent is asked for a one-sentence description of its own word when its turn comes, and for a
vote (the seat it suspects of being the spy) in each simultaneous vote. The observation holds the
whole public history, so an agent may keep no state between calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from games.undercover.events import Ballot
from reasoning.formula import Formula
from reasoning.syntax import format_formula


@dataclass(frozen=True, slots=True)
class Description:
    """A description: its sentence, and optionally its formalisation (IR and formula text) and
    the recorded LLM call it came from (``games.core.llm_call``).

    When only ``formula`` is given, ``logged_formula`` prints it in the project's text syntax.
    """

    text: str
    formula: Formula | None = None
    formula_text: str | None = None
    call: int | None = None

    def logged_formula(self) -> str | None:
        """The formula text to log: ``formula_text``, else ``formula`` printed, else None."""
        if self.formula_text is not None:
            return self.formula_text
        return None if self.formula is None else format_formula(self.formula)


class SpokenDescription(BaseModel):
    """A description as everybody heard it: round, seat and sentence (formulas stay private)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int = Field(ge=1)
    seat: int = Field(ge=0)
    text: str


class RoundVote(BaseModel):
    """The public outcome of one vote: the ballots and who left (None after a tie)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int = Field(ge=1)
    ballots: tuple[Ballot, ...]
    eliminated: int | None


class Observation(BaseModel):
    """One seat's view: its own seat and word, the round, who is alive and the public history.

    ``descriptions`` are in speaking order over all rounds (during a vote they include the whole
    current round); ``votes`` are the finished votes; ``eliminated`` the voted-out seats in order.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int = Field(ge=0)
    word: str
    round: int = Field(ge=1)
    players: int
    living: tuple[int, ...]
    descriptions: tuple[SpokenDescription, ...]
    votes: tuple[RoundVote, ...]
    eliminated: tuple[int, ...]
    consecutive_ties: int = Field(ge=0)

    def descriptions_in(self, round: int) -> tuple[SpokenDescription, ...]:
        """The descriptions given in ``round``, in speaking order."""
        return tuple(d for d in self.descriptions if d.round == round)

    def descriptions_by(self, seat: int) -> tuple[SpokenDescription, ...]:
        """Every description ``seat`` gave, round by round."""
        return tuple(d for d in self.descriptions if d.seat == seat)

    def vote_targets(self) -> tuple[int, ...]:
        """The seats this player may vote for: every living seat but its own."""
        return tuple(s for s in self.living if s != self.seat)


@runtime_checkable
class Agent(Protocol):
    """A player of Undercover-V: describes its word, and votes for a suspected spy."""

    name: str

    def describe(self, obs: Observation) -> Description:
        """A one-sentence description of ``obs.word`` that repeats no earlier description."""
        ...

    def vote(self, obs: Observation) -> int:
        """The seat voted out: a living seat other than ``obs.seat``."""
        ...
