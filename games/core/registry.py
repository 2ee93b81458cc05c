"""The registry of games that the CLI, the runner and the conformance tests iterate over.

Each game module exposes ``ENTRY``, a ``GameEntry``: its ``GameInfo``, its event schema, its
agents, and how to start a game and read actions back out of a log. Entries are imported on
first use, so listing the games costs nothing.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, TypeAdapter

from games.core.agents import AgentRegistry
from games.core.audit import AuditRecord
from games.core.decisions import LoggedDecision
from games.core.log import GameLog, LogHeader, SeatInfo, make_header, read_game_log
from games.core.loop import Agent
from games.core.protocol import GameInfo, GameState
from games.core.view import ViewParts

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
    play_command: str | None = None
    """``module:function`` of the game's own ``gumshoe play`` command; None: the console's
    generic one (agents, seed, --out, --record, --replay)."""
    auditor: str | None = None
    """``module:function`` auditing one of the game's logs (``GameLog -> AuditRecord``), imported
    on first use; None when the game has no audit."""
    viewer: str | None = None
    """``module:function`` giving the viewer's step texts and knowledge panels of one of the
    game's logs (``GameLog -> games.core.view.ViewParts``); None shows the logged events."""
    decisions: str | None = None
    """``module:function`` giving the LLM decisions one of the game's logs records (``GameLog ->
    list[games.core.decisions.LoggedDecision]``); None when its logs record none."""
    outcome_keys: tuple[str, ...] = ("win", "rank", "return")
    """The figures ``outcome`` gives, headline first: the ones an evaluation leads with."""
    answer_models: str | None = None
    """``module:function`` giving every answer model the game's LLM agents send, each at its
    largest (``() -> list[type[BaseModel]]``), so their schemas are checked against what every
    server takes (conformance rule ``answer-schemas``); None when the game asks for none."""
    reward: str | None = None
    """``module:function`` of the game's exact reward function in TRL's shape (``prompts,
    completions, position=..., **columns -> list[float | None]``, see ``games.core.reward``);
    None when the game has none."""

    @abstractmethod
    def default_config(self, players: int) -> BaseModel:
        """The standard settings for ``players`` seats (ValueError naming the allowed range)."""

    def default_settings(self) -> Any:
        """The agent settings a game is played under when a command gives none."""
        return self.agents.default_settings()

    @abstractmethod
    def config_players(self, config: BaseModel) -> int:
        """How many seats ``config`` is for."""

    def make_agent(self, spec: str, seat: int, seed: int, settings: Any) -> Any:
        """A fresh agent named ``spec`` for ``seat`` of the game dealt from ``seed``
        (AgentSpecError names the known agents when ``spec`` is not one)."""
        return self.agents.make(spec, seat, seed, settings)

    def seat(self, agent: Agent) -> Agent:
        """``agent`` as a seat of the shared play loop (the agent itself unless the game's agents
        answer in a shape of their own)."""
        return agent

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

    def logged_config(self, log: GameLog[E]) -> BaseModel:
        """The config a log's header names, validated (ValueError naming the field)."""
        return self.config_type.model_validate(log.header.config)

    def replay_state(self, log: GameLog[E]) -> GameState:
        """The game a log starts from: its header's config, seed and seats."""
        return self.new_state(self.logged_config(log), log.seed, log.header.seats)

    def check_events(self, header: LogHeader, events: Sequence[E]) -> tuple[int, str] | None:
        """The game's own consistency rules over a log's header and events: (index, why) or
        None."""
        return None

    def migrate_record(self, record: dict[str, Any], version: int) -> dict[str, Any]:
        """One record of a log written at schema ``version``, in the current schema (the
        game's own changes; the core's are made by ``read_game_log``)."""
        return record

    def header_of_start(self, record: dict[str, Any]) -> dict[str, Any] | None:
        """The header (seed, config, seats) of a log written before headers existed (schema
        version 0), from its first record; None for games that never wrote such logs."""
        return None

    def read_log(self, path: str | Path) -> GameLog[E]:
        """Read and validate one of this game's logs (LogError with file and line), migrated
        to the current schema."""
        return read_game_log(
            path,
            self.event_adapter,
            game=self.info.name,
            terminal_type=self.terminal_type,
            check=self.check_events,
            migrate=self.migrate_record,
            header_of_start=self.header_of_start,
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

    def logged_decisions(self, log: GameLog[E]) -> list[LoggedDecision]:
        """The LLM decisions one of this game's logs records (none when the game logs none)."""
        if self.decisions is None:
            return []
        module, name = self.decisions.split(":")
        found = getattr(importlib.import_module(module), name)(log)
        if not all(isinstance(d, LoggedDecision) for d in found):
            raise TypeError(f"{self.decisions} returned other records than LoggedDecision")
        return list(found)

    def outcome(self, log: GameLog[E], seats: Sequence[int]) -> dict[str, float]:
        """How a finished game ended for ``seats`` (those an evaluation scores), keyed by
        ``outcome_keys``: won (rank 1 for any of them), their best rank and mean return; empty
        while the log holds no finished end. A cooperative game, whose seats share one result,
        gives its own figures instead."""
        end = log.end
        if end is None or end.status != "finished" or not seats:
            return {}
        rank = min(end.ranks[i] for i in seats)
        return {
            "win": float(rank == 1),
            "rank": float(rank),
            "return": sum(end.returns[i] for i in seats) / len(seats),
        }

    def largest_answer_models(self) -> list[type[BaseModel]]:
        """Every answer model the game's LLM agents send, at its largest (none without
        ``answer_models``)."""
        if self.answer_models is None:
            return []
        module, name = self.answer_models.split(":")
        found = getattr(importlib.import_module(module), name)()
        if not all(isinstance(m, type) and issubclass(m, BaseModel) for m in found):
            raise TypeError(f"{self.answer_models} returned other things than pydantic models")
        return list(found)

    def reward_function(self) -> Callable[..., list[float | None]]:
        """The game's reward function (ValueError when it has none)."""
        if self.reward is None:
            raise ValueError(f"{self.info.name}: the game has no reward function")
        module, name = self.reward.split(":")
        found = getattr(importlib.import_module(module), name)
        if not callable(found):
            raise TypeError(f"{self.reward} is not callable")
        return found  # type: ignore[no-any-return]

    def view(self, log: GameLog[E]) -> ViewParts | None:
        """What the game's own viewer adds to the page of one of its logs (None without one)."""
        if self.viewer is None:
            return None
        module, name = self.viewer.split(":")
        parts = getattr(importlib.import_module(module), name)(log)
        if not isinstance(parts, ViewParts):
            raise TypeError(f"{self.viewer} returned {type(parts).__name__}, not ViewParts")
        return parts

    def header(self, config: BaseModel, seed: int, seats: Sequence[SeatInfo]) -> LogHeader:
        """The common header of a game's log."""
        return make_header(self.info.name, config, seed, seats)


def game_names() -> tuple[str, ...]:
    """Every registered game's name."""
    return tuple(GAME_MODULES)


def register_game(name: str, module: str) -> None:
    """Add game ``name``, whose ``ENTRY`` lives in ``module``, to the registry (as a line of
    ``GAME_MODULES`` does); ValueError when another module already holds the name."""
    held = GAME_MODULES.get(name)
    if held is not None and held != module:
        raise ValueError(f"game {name!r} is already registered by {held}")
    GAME_MODULES[name] = module


def unregister_game(name: str) -> None:
    """Remove game ``name`` from the registry (a no-op when it is not there)."""
    GAME_MODULES.pop(name, None)


def get_game(name: str) -> GameEntry[Any]:
    """The entry of game ``name``; ValueError names the registered games otherwise."""
    module = GAME_MODULES.get(name)
    if module is None:
        raise ValueError(f"unknown game {name!r}; choose one of: {', '.join(GAME_MODULES)}")
    entry = importlib.import_module(module).ENTRY
    if not isinstance(entry, GameEntry):
        raise TypeError(f"{module}.ENTRY is not a GameEntry")
    return entry
