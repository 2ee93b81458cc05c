"""Nim-21's one registry entry: all the shared machinery needs to play, log, replay, audit,
bench, view and export it, and to offer it to inspect_ai."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from games.core.audit import AuditRecord, judged_record
from games.core.log import GameLog, SeatInfo
from games.core.registry import GameEntry, PlaySetup
from games.core.settings import AgentSettings
from tests.tiny_game.agents import AGENTS
from tests.tiny_game.engine import INFO, NimState
from tests.tiny_game.events import NIM_EVENT, GameEnd, NimConfig, NimEvent, Take


class NimOptions(BaseModel):
    """``gumshoe play nim``'s own options."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pile: int = Field(default=21, ge=1, le=100, description="Counters on the pile.")
    most: int = Field(default=3, ge=1, le=10, description="The most counters a take may take.")


class NimEntry(GameEntry[NimEvent, NimConfig, AgentSettings, NimOptions]):
    """Nim-21 in the registry of games."""

    info = INFO
    config_type = NimConfig
    event_adapter = NIM_EVENT
    agents = AGENTS
    play_options = NimOptions

    def default_config(self, players: int) -> NimConfig:
        """A pile of 21 for two."""
        self.info.check_players(players)
        return NimConfig()

    def config_players(self, config: NimConfig) -> int:
        """Two."""
        return config.players

    def new_state(self, config: NimConfig, seed: int, seats: Sequence[SeatInfo]) -> NimState:
        """A full pile."""
        return NimState(config)

    def logged_actions(self, events: Sequence[NimEvent]) -> Iterator[tuple[int, Mapping[int, Any]]]:
        """Every take."""
        for index, event in enumerate(events):
            if isinstance(event, Take):
                yield index, {event.seat: event.count}

    def play_setup(
        self,
        options: NimOptions,
        specs: tuple[str, ...],
        seed: int,
        settings: AgentSettings,
        recorded: NimConfig | None,
    ) -> PlaySetup[NimConfig, AgentSettings]:
        """The pile and the largest take of ``options``."""
        config = recorded or NimConfig(pile=options.pile, most=options.most)
        return PlaySetup(config, settings, specs)

    def audit(self, log: GameLog[NimEvent]) -> AuditRecord:
        """Nim states no claims: the record of its seats, with the takes and the winner."""
        takes = sum(isinstance(e, Take) for e in log.events)
        winner = next((e.winner for e in log.events if isinstance(e, GameEnd)), None)
        figures = {"takes": takes, "winner": winner}
        return judged_record("nim", log, log.seed, log.header.seats, [], figures)


ENTRY = NimEntry()
"""Nim-21's entry: ``register_game("nim", "tests.tiny_game.entry")`` adds it."""
