"""Replay an Undercover-V game from its log: reseat from the seed and re-check every event.

The logged descriptions (with their recorded card checks) and votes are applied again to a game
built from the logged config, pair and seed; every other event (violations, eliminations, ties,
the end) must come out exactly as logged. Also agents and a checker that answer from a log, so a
logged game can be played again through ``play_game``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from games.undercover.agent import Description, Observation
from games.undercover.engine import IllegalAction, UndercoverGame
from games.undercover.events import (
    CheckOutcome,
    DescriptionEvent,
    GameStart,
    UndercoverEvent,
    VoteEvent,
)

_T = TypeVar("_T")


class ReplayError(ValueError):
    """The log and the engine disagree; ``seq`` is the first event where they part."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(f"seq {seq}: {message}")
        self.seq = seq


def replay(events: Sequence[UndercoverEvent]) -> UndercoverGame:
    """Re-apply the logged descriptions and votes to a game seated from the logged seed.

    Every logged event must equal the one the engine produces, or ReplayError names its seq. A log
    cut short replays as far as it goes; the returned game is in the state it reached.
    """
    if not events or not isinstance(events[0], GameStart):
        raise ReplayError(events[0].seq if events else 0, "a log must open with game_start")
    start = events[0]
    game = UndercoverGame(start.config, start.pair, start.seed)
    expected_start = game.start_event(start.agents)
    if start != expected_start:
        raise ReplayError(
            start.seq, f"logged {start!r}, but seed {start.seed} seats {expected_start!r}"
        )
    produced = 0
    for event in events[1:]:
        if produced < len(game.events):
            if event != game.events[produced]:
                raise ReplayError(
                    event.seq, f"logged {event!r}, the engine gives {game.events[produced]!r}"
                )
            produced += 1
            continue
        try:
            if isinstance(event, DescriptionEvent):
                game.describe(event.seat, event.text, event.formula, event.outcome)
            elif isinstance(event, VoteEvent):
                game.vote({b.voter: b.target for b in event.ballots})
            else:
                raise ReplayError(event.seq, f"logged {event!r}, the engine gives no such event")
        except IllegalAction as err:
            raise ReplayError(event.seq, f"the logged action is illegal: {err}") from err
        if event != game.events[produced]:
            raise ReplayError(
                event.seq, f"logged {event!r}, the engine gives {game.events[produced]!r}"
            )
        produced += 1
    return game


class LoggedAgent:
    """An agent that gives the descriptions and votes one seat gave in a logged game."""

    def __init__(self, events: Sequence[UndercoverEvent], seat: int) -> None:
        start = events[0] if events else None
        if not isinstance(start, GameStart):
            raise ValueError("a log must open with game_start")
        self.name = start.agents[seat]
        self.seat = seat
        self._descriptions = [
            Description(e.text, formula_text=e.formula)
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
            raise ReplayError(0, f"seat {self.seat} has no logged {what} left in round {obs.round}")
        return queue.pop(0)


class LoggedChecker:
    """A description checker that returns the outcomes recorded in a log, in order."""

    def __init__(self, events: Sequence[UndercoverEvent]) -> None:
        self._outcomes = [e.outcome for e in events if isinstance(e, DescriptionEvent)]

    def check(self, word: str, description: Description) -> CheckOutcome:
        """The next logged outcome."""
        if not self._outcomes:
            raise ReplayError(0, f"no logged check outcome left for {description.text!r}")
        return self._outcomes.pop(0)
