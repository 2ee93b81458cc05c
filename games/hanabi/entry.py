"""Hanabi on the shared game core: the protocol state, its log events, ``ENTRY``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from games.core.log import SeatInfo
from games.core.loop import Agent
from games.core.protocol import SeatResult
from games.core.registry import GameEntry, LoggedActionError
from games.hanabi.agents import AGENTS, HanabiAgentSettings
from games.hanabi.config import HANABI_INFO, HanabiConfig
from games.hanabi.engine import HanabiGame, HanabiObservation, IllegalMoveError
from games.hanabi.events import (
    HANABI_EVENT,
    DealEvent,
    GameEndEvent,
    HanabiEvent,
    deal_event,
    end_event,
    turn_event,
)


class HanabiState:
    """A ``HanabiGame`` as a ``GameState``: the deal event, one event per move, ``game_end``."""

    def __init__(self, game: HanabiGame) -> None:
        self.game = game
        self._events: list[HanabiEvent] = [deal_event(game)]

    def current_players(self) -> list[int]:
        """The seat to move (none once the game is over)."""
        return self.game.current_players()

    def legal_actions(self, seat: int) -> list[int]:
        """The seat's legal move numbers."""
        return self.game.legal_actions(seat)

    def apply(self, actions: Mapping[int, Any]) -> None:
        """Play one seat's move number; IllegalMoveError (state unchanged) when not legal."""
        if len(actions) != 1:
            raise IllegalMoveError(f"expected one seat's move, got {len(actions)}")
        ((seat, action),) = actions.items()
        if not isinstance(action, int) or isinstance(action, bool):
            raise IllegalMoveError(f"move {action!r} is not a move number")
        self.game.apply({seat: action})
        index = len(self.game.history) - 1
        self._events.append(turn_event(self.game, index, self.game.history[index]))
        if self.game.is_terminal():
            self._events.append(end_event(self.game))

    def observation(self, seat: int) -> HanabiObservation:
        """What ``seat`` knows now."""
        return self.game.observation(seat)

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self.game.is_terminal()

    def returns(self) -> list[float]:
        """The shared score for every seat (the configured scoring mode)."""
        return self.game.returns()

    def result(self) -> SeatResult:
        """Every seat's return is the score and every seat ranks first; the end reason."""
        reason = self.game.end_reason()
        if reason is None:
            raise ValueError("the game is still running")
        players = self.game.players
        return SeatResult(returns=tuple(self.returns()), ranks=(1,) * players, reason=reason)

    def events(self) -> list[HanabiEvent]:
        """The deal and every move so far."""
        return self._events


def hanabi_actions(events: Sequence[HanabiEvent]) -> Iterator[tuple[int, Mapping[int, int]]]:
    """Every move a log records, as ``{seat: move number}``."""
    for index, event in enumerate(events):
        if isinstance(event, DealEvent):
            if index:
                raise LoggedActionError(index, "a deal event after the game began")
            continue
        if isinstance(event, GameEndEvent):
            continue
        yield index, {event.seat: event.action}


def check_hanabi_events(events: Sequence[HanabiEvent]) -> tuple[int, str] | None:
    """Hanabi's own log rules: the deal first, then turns numbered 1, 2, ... in order."""
    for index, event in enumerate(events):
        if isinstance(event, GameEndEvent) and index != len(events) - 1:
            return index, "game_end must be the last event"
        if (index == 0) != isinstance(event, DealEvent):
            return index, "the deal must be the first event and only the first"
        if event.turn != index:
            return index, f"turn {event.turn} where {index} was due"
    return None


class HanabiEntry(GameEntry[HanabiEvent]):
    """Hanabi in the registry of games; the header's config is a ``HanabiConfig``."""

    info = HANABI_INFO
    config_type = HanabiConfig
    event_adapter = HANABI_EVENT
    agents = AGENTS
    illegal_error = IllegalMoveError

    def default_config(self, players: int) -> HanabiConfig:
        """``players`` seats, fireworks scoring."""
        self.info.check_players(players)
        return HanabiConfig(players=players)

    def seat_agents(self, specs: Sequence[str], seed: int) -> list[Agent]:
        """Registry agents under default settings, each with a seed of its own."""
        settings = HanabiAgentSettings()
        return [AGENTS.make(spec, seat, seed, settings) for seat, spec in enumerate(specs)]

    def new_state(self, config: BaseModel, seed: int, seats: Sequence[SeatInfo]) -> HanabiState:
        """A fresh game dealt from ``seed`` as the reference engine deals it."""
        if not isinstance(config, HanabiConfig):
            raise TypeError(f"a Hanabi game needs a HanabiConfig, not {config!r}")
        if len(seats) != config.players:
            raise ValueError(f"seats: {config.players} needed, got {len(seats)}")
        return HanabiState(HanabiGame(config, seed))

    def logged_actions(
        self, events: Sequence[HanabiEvent]
    ) -> Iterator[tuple[int, Mapping[int, Any]]]:
        """See ``hanabi_actions``."""
        return hanabi_actions(events)

    def check_events(self, events: Sequence[HanabiEvent]) -> tuple[int, str] | None:
        """See ``check_hanabi_events``."""
        return check_hanabi_events(events)


ENTRY = HanabiEntry()
"""Hanabi's entry in ``games.core.registry``."""
