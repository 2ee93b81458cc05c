"""Agents and a checker that answer from an Undercover-V log, so a logged game can be played
again through ``games.core.play.play_agents`` (and replayed by ``games.core.replay``, whose
checker this is)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from games.core.log import GameLog
from games.undercover.agent import Description, Observation
from games.undercover.engine import CardCheck
from games.undercover.events import (
    DescriptionEvent,
    UndercoverEvent,
    VoteEvent,
)

_T = TypeVar("_T")


class LogExhausted(ValueError):
    """A logged agent or checker was asked for more than its log holds."""


class LoggedAgent:
    """An agent that gives the descriptions and votes one seat gave in a logged game."""

    def __init__(self, log: GameLog[UndercoverEvent], seat: int) -> None:
        events = log.events
        self.name = log.header.seats[seat].agent
        self.seat = seat
        self._descriptions = [
            Description(e.text, formula_text=e.formula, call=e.call)
            for e in events
            if isinstance(e, DescriptionEvent) and e.seat == seat
        ]
        self._votes = [
            b.target
            for e in events
            if isinstance(e, VoteEvent)
            for b in e.ballots
            if b.voter == seat
        ]

    def describe(self, obs: Observation) -> Description:
        """The seat's next logged description."""
        return self._next(self._descriptions, "description", obs)

    def vote(self, obs: Observation) -> int:
        """The seat's next logged vote."""
        return self._next(self._votes, "vote", obs)

    def _next(self, queue: list[_T], what: str, obs: Observation) -> _T:
        if not queue:
            raise LogExhausted(f"seat {self.seat} has no logged {what} left in round {obs.round}")
        return queue.pop(0)


class LoggedChecker:
    """A description checker that returns the checks (outcome and reading) recorded in a log,
    in order."""

    def __init__(self, events: Sequence[UndercoverEvent]) -> None:
        self._outcomes = [
            CardCheck(e.outcome, e.reading) for e in events if isinstance(e, DescriptionEvent)
        ]

    def check(self, word: str, description: Description) -> CardCheck:
        """The next logged check."""
        if not self._outcomes:
            raise LogExhausted(f"no logged check outcome left for {description.text!r}")
        return self._outcomes.pop(0)
