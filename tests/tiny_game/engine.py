"""Nim-21's rules behind the shared game protocol, and its greedy agent."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.protocol import GameInfo, IllegalAction, SeatResult
from tests.tiny_game.events import GameEnd, NimConfig, NimEvent, Take

INFO = GameInfo(
    name="nim",
    min_players=2,
    max_players=2,
    simultaneous=False,
    imperfect_information=False,
    max_decisions=100,
)


class NimState:
    """A pile and whose turn it is."""

    def __init__(self, config: NimConfig) -> None:
        self.config = config
        self.left = config.pile
        self.turn = 0
        self._events: list[NimEvent] = []

    def current_players(self) -> list[int]:
        """The seat to move, none at the end."""
        return [] if self.is_terminal() else [self.turn]

    def legal_actions(self, seat: int) -> list[int]:
        """How many counters ``seat`` may take now."""
        if seat != self.turn or self.is_terminal():
            return []
        return list(range(1, min(self.config.most, self.left) + 1))

    def apply(self, actions: Mapping[int, Any]) -> None:
        """One seat's take; IllegalAction (state unchanged) when it is not legal."""
        if list(actions) != self.current_players():
            raise IllegalAction(
                f"seats {sorted(actions)} moved; waiting for {self.current_players()}"
            )
        ((seat, count),) = actions.items()
        if count not in self.legal_actions(seat):
            raise IllegalAction(f"seat {seat} cannot take {count!r}")
        self.left -= count
        self._events.append(Take(seat=seat, count=count, left=self.left))
        if self.left == 0:
            self._events.append(GameEnd(winner=seat))
        self.turn = 1 - seat

    def observation(self, seat: int) -> list[int]:
        """The legal takes (all there is to know)."""
        return self.legal_actions(seat)

    def is_terminal(self) -> bool:
        """Whether the pile is empty."""
        return self.left == 0

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the other."""
        if not self.is_terminal():
            return [0.0, 0.0]
        winner = 1 - self.turn
        return [1.0 if s == winner else 0.0 for s in range(2)]

    def result(self) -> SeatResult:
        """Returns, ranks and why."""
        if not self.is_terminal():
            raise ValueError("the game is still running")
        returns = tuple(self.returns())
        ranks = tuple(1 if r else 2 for r in returns)
        return SeatResult(returns=returns, ranks=ranks, reason="took the last counter")

    def events(self) -> Sequence[NimEvent]:
        """Every take so far, and the end."""
        return self._events


class GreedyTaker:
    """Takes as many counters as it may."""

    name = "greedy"

    def act(self, legal: list[int]) -> int:
        """The largest legal take."""
        return max(legal)
