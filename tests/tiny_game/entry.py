"""Nim-21's one registry entry: all the shared machinery needs to play, log and replay it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from games.core.agents import AgentRegistry, AgentType
from games.core.log import SeatInfo
from games.core.random_agent import RandomAgent
from games.core.registry import GameEntry, NoOptions
from games.core.settings import AgentSettings
from tests.tiny_game.engine import INFO, GreedyTaker, NimState
from tests.tiny_game.events import NIM_EVENT, NimConfig, NimEvent, Take

AGENTS: AgentRegistry[AgentSettings, Any] = AgentRegistry(
    [
        AgentType("random", "a random legal take", False, lambda seat, seed, _: RandomAgent(seed)),
        AgentType("greedy", "the largest legal take", False, lambda seat, seed, _: GreedyTaker()),
    ],
    game="nim",
    settings=AgentSettings,
)


class NimEntry(GameEntry[NimEvent, NimConfig, AgentSettings, NoOptions]):
    """Nim-21 in the registry of games (no play command of its own: the console's generic one)."""

    info = INFO
    config_type = NimConfig
    event_adapter = NIM_EVENT
    agents = AGENTS
    play_options = NoOptions

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


ENTRY = NimEntry()
"""Nim-21's entry: ``register_game("nim", "tests.tiny_game.entry")`` adds it."""
