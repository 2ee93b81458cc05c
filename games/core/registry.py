"""The registry of games that the CLI, the runner and the conformance tests iterate over.

Each game module exposes ``ENTRY``, a ``GameEntry``: its ``GameInfo``, its event schema, its
agents, and how to start a game and read actions back out of a log. Entries are imported on
first use, so listing the games costs nothing.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, TypeAdapter

from games.core.agents import AgentRegistry
from games.core.audit import AuditRecord
from games.core.log import GameLog, LogHeader, SeatInfo, make_header, read_game_log
from games.core.loop import Agent, play
from games.core.protocol import GameInfo, GameState, SeatResult
from games.core.runlog import EventSink

E = TypeVar("E", bound=BaseModel)

GAME_MODULES: dict[str, str] = {
    "clue": "games.clue.entry",
    "detective": "games.detective.entry",
    "hanabi": "games.hanabi.entry",
    "undercover": "games.undercover.entry",
    "mystery": "games.mystery.entry",
}
"""Game name -> the module whose ``ENTRY`` describes it. A new game adds one line here."""


class LoggedActionError(ValueError):
    """A log whose events do not spell out an action where one is due; ``index`` is the event."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index


class GameEntry(ABC, Generic[E]):
    """Everything the shared machinery needs to know about one game."""

    info: GameInfo
    config_type: type[BaseModel]
    event_adapter: TypeAdapter[E]
    agents: AgentRegistry[Any, Any]
    illegal_error: type[Exception]
    """What ``apply`` raises for an action the rules forbid."""
    terminal_type: str = "game_end"
    """The ``type`` of the game's own last event."""
    auditor: str | None = None
    """``module:function`` auditing one of the game's logs (``GameLog -> AuditRecord``), imported
    on first use; None when the game has no audit."""

    @abstractmethod
    def default_config(self, players: int) -> BaseModel:
        """The standard settings for ``players`` seats (ValueError naming the allowed range)."""

    @abstractmethod
    def seat_agents(self, specs: Sequence[str], seed: int) -> list[Agent]:
        """One agent per seat for a game dealt from ``seed``, by registry name, under default
        settings, adapted to the shared play loop."""

    def bare_action(self, action: Any) -> Any:
        """``action`` as ``legal_actions`` lists it (without stated deductions or reviews)."""
        return action

    @abstractmethod
    def new_state(self, config: BaseModel, seed: int, seats: Sequence[SeatInfo]) -> GameState:
        """A fresh game of ``config`` dealt from ``seed``, with ``seats`` named in its log."""

    @abstractmethod
    def logged_actions(self, events: Sequence[E]) -> Iterator[tuple[int, Mapping[int, Any]]]:
        """Every joint action a log records, with the index of the event that records it;
        LoggedActionError where the events break off or make no sense as an action."""

    def replay_state(self, log: GameLog[E]) -> GameState:
        """The game a log starts from (from its header; games with version 0 logs override)."""
        if log.header is None:
            raise ValueError("a version 0 log: this game needs its header to replay")
        config = self.config_type.model_validate(log.header.config)
        return self.new_state(config, log.header.seed, log.header.seats)

    def check_events(self, events: Sequence[E]) -> tuple[int, str] | None:
        """The game's own consistency rules over a log's events: (index, why) or None."""
        return None

    def read_log(self, path: str | Path) -> GameLog[E]:
        """Read and validate one of this game's logs (LogError with file and line)."""
        return read_game_log(
            path,
            self.event_adapter,
            game=self.info.name,
            terminal_type=self.terminal_type,
            check=self.check_events,
        )

    def audit(self, log: GameLog[E]) -> AuditRecord:
        """The audit record of one of this game's logs (ValueError, or LogError naming the
        line, when the log cannot be audited)."""
        if self.auditor is None:
            raise ValueError(f"{self.info.name}: the game has no audit")
        module, name = self.auditor.split(":")
        record = getattr(importlib.import_module(module), name)(log)
        if not isinstance(record, AuditRecord):
            raise TypeError(f"{self.auditor} returned {type(record).__name__}, not AuditRecord")
        return record

    def header(self, config: BaseModel, seed: int, seats: Sequence[SeatInfo]) -> LogHeader:
        """The common header of a game's log."""
        return make_header(self.info.name, config, seed, seats)

    def play(self, specs: Sequence[str], seed: int, log: EventSink | None = None) -> SeatResult:
        """Play one game dealt from ``seed`` with the registry agents ``specs`` (one per seat)
        under default settings, logging it to ``log``."""
        self.info.check_players(len(specs))
        agents = self.seat_agents(specs, seed)
        seats = [SeatInfo(name=f"P{i}", agent=a.name) for i, a in enumerate(agents)]
        config = self.default_config(len(specs))
        state = self.new_state(config, seed, seats)
        header = self.header(config, seed, seats)
        return play(state, agents, header, log, max_decisions=self.info.max_decisions)


def game_names() -> tuple[str, ...]:
    """Every registered game's name."""
    return tuple(GAME_MODULES)


def get_game(name: str) -> GameEntry[Any]:
    """The entry of game ``name``; ValueError names the registered games otherwise."""
    module = GAME_MODULES.get(name)
    if module is None:
        raise ValueError(f"unknown game {name!r}; choose one of: {', '.join(GAME_MODULES)}")
    entry = importlib.import_module(module).ENTRY
    if not isinstance(entry, GameEntry):
        raise TypeError(f"{module}.ENTRY is not a GameEntry")
    return entry
