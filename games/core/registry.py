"""The registry of games that the CLI, the runner and the conformance tests iterate over.

Each game module exposes ``ENTRY``, a ``GameEntry``: its ``GameInfo``, its event schema, its
agents, and how to start a game and read actions back out of a log. Entries are imported on
first use, so listing the games costs nothing.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter

from games.core.log import GameLog, LogHeader, SeatInfo, make_header, read_game_log
from games.core.loop import Agent, LegalChooser
from games.core.printer import Echo, GamePrinter
from games.core.protocol import GameInfo, GameState
from games.core.runlog import game_id

if TYPE_CHECKING:
    from games.core.agents import AgentRegistry
    from games.core.audit import AuditRecord
    from games.core.decisions import LoggedDecision
    from games.core.view import ViewParts
    from reasoning.llm.usage import UsageMeter

E = TypeVar("E", bound=BaseModel)
C = TypeVar("C", bound=BaseModel)
S = TypeVar("S")
P = TypeVar("P", bound=BaseModel)

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


class NoOptions(BaseModel):
    """The play options of a game that has none of its own."""

    model_config = ConfigDict(frozen=True, extra="forbid")


@dataclass(frozen=True)
class PlaySetup(Generic[C, S]):
    """What ``gumshoe play`` plays: the config, the agents' settings and one agent per seat."""

    config: C
    settings: S
    specs: tuple[str, ...]


class GameEntry(ABC, Generic[E, C, S, P]):
    """Everything the shared machinery needs to know about one game: its events ``E``, its
    config ``C`` (the header's), the settings ``S`` its agents are built under and the options
    ``P`` of its ``gumshoe play`` command.

    Hooks are methods a game overrides when it has them: ``audit`` (a read log to its
    ``AuditRecord``), ``view`` (the viewer's step texts and knowledge panels),
    ``logged_decisions`` (the LLM decisions a log records), ``reward_function`` (its reward in
    TRL's shape), ``answer_models`` (the answer models its LLM agents send), ``outcome`` (the
    figures an evaluation scores), and for ``gumshoe play`` ``play_setup``, ``printer`` and the
    rest below. A hook's module is best imported inside the
    method, so listing the games imports no audit.
    """

    info: GameInfo
    config_type: type[C]
    event_adapter: TypeAdapter[E]
    agents: AgentRegistry[S, Any]
    play_options: type[P]
    """The game's own options of ``gumshoe play``: each field an option (``--`` and its name,
    or the ``option`` its ``json_schema_extra`` names), its description the help."""
    default_agents: str | None = None
    """The seat list ``gumshoe play`` plays without ``--agents`` (None: the first offline agent
    at the smallest table)."""
    max_seed: int = 2**63 - 1
    """The largest seed the game deals from."""
    model_agents: str | None = None
    """The seat list an evaluation of a model plays (the model's seats its LLM agents), as
    ``gumshoe/<game>`` of inspect_ai does by default; None: ``model_seats`` makes one."""
    terminal_type: str = "game_end"
    """The ``type`` of the game's own last event."""
    outcome_keys: tuple[str, ...] = ("win", "rank", "return")
    """The figures ``outcome`` gives, headline first: the ones an evaluation leads with."""

    @abstractmethod
    def default_config(self, players: int) -> C:
        """The standard settings for ``players`` seats (ValueError naming the allowed range)."""

    def default_settings(self) -> S:
        """The agent settings a game is played under when a command gives none."""
        return self.agents.default_settings()

    @abstractmethod
    def config_players(self, config: C) -> int:
        """How many seats ``config`` is for."""

    def make_agent(self, spec: str, seat: int, seed: int, settings: S) -> Any:
        """A fresh agent named ``spec`` for ``seat`` of the game dealt from ``seed``
        (AgentSpecError names the known agents when ``spec`` is not one)."""
        return self.agents.make(spec, seat, seed, settings)

    def seat(self, agent: Any) -> Agent | LegalChooser:
        """``agent`` as a seat of the shared play loop: a chooser among legal actions (the random
        agent) as it is, any other through the game's ``adapt``."""
        return agent if isinstance(agent, LegalChooser) else self.adapt(agent)

    def adapt(self, agent: Any) -> Agent:
        """An agent of the game as a seat of the loop (the agent itself unless the game's agents
        answer in a shape of their own, as Undercover-V's describe or vote)."""
        return agent  # type: ignore[no-any-return]

    def bare_action(self, action: Any) -> Any:
        """``action`` as ``legal_actions`` lists it (without stated deductions or reviews)."""
        return action

    @abstractmethod
    def new_state(self, config: C, seed: int, seats: Sequence[SeatInfo]) -> GameState:
        """A fresh game of ``config`` dealt from ``seed``, with ``seats`` named in its log."""

    @abstractmethod
    def logged_actions(self, events: Sequence[E]) -> Iterator[tuple[int, Mapping[int, Any]]]:
        """Every joint action a log records, with the index of the event that records it;
        LoggedActionError where the events break off or make no sense as an action."""

    def logged_config(self, log: GameLog[E]) -> C:
        """The config a log's header names, validated (ValueError naming the field)."""
        return self.config_type.model_validate(log.header.config)

    def config_logged_into(self, config: C, folder: Path) -> C:
        """``config`` as a game played into a log in ``folder`` logs it (a game naming a file,
        such as the detective's case, names it relative to the log's folder); as it is here."""
        return config

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

    def read_log(self, path: str | Path, *, inside: Path | None = None) -> GameLog[E]:
        """Read and validate one of this game's logs (LogError with file and line), migrated
        to the current schema; ``inside``: the run folder it was found in (no link below it is
        followed)."""
        return read_game_log(
            path,
            self.event_adapter,
            inside=inside,
            game=self.info.name,
            terminal_type=self.terminal_type,
            check=self.check_events,
            migrate=self.migrate_record,
            header_of_start=self.header_of_start,
            config_type=self.config_type,
        )

    @property
    def has_audit(self) -> bool:
        """Whether the game audits its logs (overrides ``audit``)."""
        return type(self).audit is not GameEntry.audit

    def audit(self, log: GameLog[E]) -> AuditRecord:
        """The audit record of one of this game's logs (ValueError, or LogError naming the
        line, when the log cannot be audited)."""
        raise ValueError(f"{self.info.name}: the game has no audit")

    def logged_decisions(self, log: GameLog[E]) -> list[LoggedDecision]:
        """The LLM decisions one of this game's logs records (none when the game logs none)."""
        return []

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

    def answer_models(self) -> list[type[BaseModel]]:
        """Every answer model the game's LLM agents send, each at its largest, so their schemas
        are checked against what every server takes (conformance rule ``answer-schemas``); none
        when the game asks for none."""
        return []

    def reward_function(self) -> Callable[..., list[float | None]]:
        """The game's exact reward function in TRL's shape (``prompts, completions,
        position=..., **columns -> list[float | None]``, see ``games.core.reward``); ValueError
        when the game has none."""
        raise ValueError(f"{self.info.name}: the game has no reward function")

    def view(self, log: GameLog[E]) -> ViewParts | None:
        """What the game's own viewer adds to the page of one of its logs (None without one)."""
        return None

    def header(self, config: C, seed: int, seats: Sequence[SeatInfo]) -> LogHeader:
        """The common header of a game's log."""
        return make_header(self.info.name, config, seed, seats)

    def seat_list(self) -> str:
        """The seat list ``gumshoe play`` plays when none is given (``default_agents``)."""
        if self.default_agents is not None:
            return self.default_agents
        offline = [n for n, t in self.agents.types.items() if not t.needs_llm]
        return f"{offline[0]}*{self.info.min_players}"

    def model_seats(self) -> str:
        """The seats a model is evaluated at: ``model_agents``, else the first LLM agent at seat
        0 and the first offline agent at the others of the smallest table; ValueError when the
        game has no LLM agent."""
        if self.model_agents is not None:
            return self.model_agents
        kinds = self.agents.types.values()
        llm = next((t.name for t in kinds if t.needs_llm), None)
        if llm is None:
            raise ValueError(f"{self.info.name}: no LLM agent for a model to play")
        offline = next(t.name for t in kinds if not t.needs_llm)
        return ",".join([llm, *[offline] * (self.info.min_players - 1)])

    def seat_count(self, options: P) -> int | None:
        """How many seats one agent name fills under ``options`` (None: as many as the default
        seat list has)."""
        return None

    def play_setup(
        self, options: P, specs: tuple[str, ...], seed: int, settings: S, recorded: C | None
    ) -> PlaySetup[C, S]:
        """The game ``gumshoe play`` deals from ``seed`` with ``specs`` at its seats under
        ``options`` (or ``recorded``, the config of a recorded game played again), its agents
        built from ``settings`` (the command's LLM settings in them); ValueError naming the
        option when they cannot be played."""
        config = recorded if recorded is not None else self.default_config(len(specs))
        return PlaySetup(config, settings, specs)

    def game_id(self, config: C, seed: int) -> str:
        """The id of the game of ``config`` dealt from ``seed`` (its log's and recordings' name)."""
        return game_id(self.info.name, seed)

    def play_state(self, config: C, seed: int, seats: Sequence[SeatInfo], settings: S) -> GameState:
        """The game to play under ``settings`` (``new_state``, unless the settings choose a
        referee, such as Undercover-V's prover)."""
        return self.new_state(config, seed, seats)

    def game_meters(self, state: GameState) -> dict[str, tuple[UsageMeter, ...]]:
        """The usage meters of a played game's LLM calls made by no seat (a reader the referee
        asks, say), by the label the usage table gives them; none here."""
        return {}

    def printer(self, options: P, settings: S, echo: Echo) -> GamePrinter:
        """How ``gumshoe play`` shows a game of this entry under ``options``."""
        return GamePrinter(echo)


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


def get_game(name: str) -> GameEntry[Any, Any, Any, Any]:
    """The entry of game ``name``; ValueError names the registered games otherwise."""
    module = GAME_MODULES.get(name)
    if module is None:
        raise ValueError(f"unknown game {name!r}; choose one of: {', '.join(GAME_MODULES)}")
    entry = importlib.import_module(module).ENTRY
    if not isinstance(entry, GameEntry):
        raise TypeError(f"{module}.ENTRY is not a GameEntry")
    return entry
