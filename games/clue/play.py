"""Play one seeded Clue game with agents named by the registry, and collect what the log lacks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from games.clue.agents import AgentSettings, fallback_count, make_agent, release, usage_meter
from games.clue.cards import ClueConfig
from games.clue.engine import ClueGame, play_game
from games.clue.events import ClueEvent, ClueResult, PlayerInfo
from games.core.runlog import EventSink
from reasoning.llm import UsageMeter


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished game, the agent name of each seat, each seat's fallback count, and the LLM
    usage of each seat that asked a chat model (by seat label, ``P0 llm``)."""

    game: ClueGame
    result: ClueResult
    agents: tuple[str, ...]
    fallbacks: tuple[int, ...]
    meters: dict[str, UsageMeter] = field(default_factory=dict)

    def events(self) -> list[ClueEvent]:
        """The whole log: ``game_start`` (seats named ``P0``, ``P1``, ...) then every event."""
        players = [PlayerInfo(name=f"P{seat}", agent=a) for seat, a in enumerate(self.agents)]
        return [self.game.start_event(players), *self.game.events]


def play_seated(
    specs: Sequence[str],
    seed: int,
    config: ClueConfig | None = None,
    settings: AgentSettings | None = None,
    log: EventSink | None = None,
) -> PlayedGame:
    """Deal from ``seed`` and play with one registry agent per seat (``specs[i]`` at seat i).

    ``config`` defaults to the standard game for ``len(specs)`` players; its player count must
    match. Errors from the agents (an LLM endpoint that fails for good) propagate.
    """
    config = config if config is not None else ClueConfig(n_players=len(specs))
    if config.n_players != len(specs):
        raise ValueError(f"agents: {len(specs)} given for {config.n_players} players")
    agents = [make_agent(spec, seat, seed, settings) for seat, spec in enumerate(specs)]
    try:
        game = ClueGame(config, seed)
        result = play_game(game, agents, log, [f"P{seat}" for seat in range(len(specs))])
        return PlayedGame(
            game=game,
            result=result,
            agents=tuple(specs),
            fallbacks=tuple(fallback_count(agent) for agent in agents),
            meters={
                f"P{seat} {spec}": meter
                for seat, (spec, agent) in enumerate(zip(specs, agents, strict=True))
                if (meter := usage_meter(agent)) is not None
            },
        )
    finally:
        for agent in agents:
            release(agent)
