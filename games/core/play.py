"""The one way to play a registered game: seat the agents, play the shared loop, release them.

Every ``play`` command, bench player, the demo and the runner play through ``play_game``; a
game's own code only says how to start a game and build its agents (its ``GameEntry``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from games.core.agents import agent_fallbacks, agent_meters, close_agent
from games.core.log import GameLog, LogHeader, SeatInfo
from games.core.loop import Watcher, finished_end, play
from games.core.protocol import GameState, SeatResult
from games.core.registry import GameEntry
from games.core.runlog import EventSink
from reasoning.llm.fallback import FallbackSnapshot
from reasoning.llm.usage import UsageMeter


@dataclass(frozen=True)
class PlayedGame:
    """A game played to its end: its log's header, its final state and result, who sat where,
    each seat's agent, the chat meters of the seats that asked a model, and every seat's
    fallbacks."""

    header: LogHeader
    state: GameState
    result: SeatResult
    seats: tuple[SeatInfo, ...]
    agents: tuple[Any, ...]
    meters: dict[int, tuple[UsageMeter, ...]]
    fallbacks: tuple[FallbackSnapshot, ...]

    def log(self, source: str = "<events>") -> GameLog[Any]:
        """The game's log held in memory (named ``source`` in errors): its header, events and
        end."""
        return GameLog.of_events(
            self.header, self.state.events(), source, end=finished_end(self.result)
        )

    def seat_meters(self) -> dict[str, tuple[UsageMeter, ...]]:
        """The meters by seat label (``P0 llm``), as the usage table names seats."""
        return {f"{self.seats[s].name} {self.seats[s].agent}": m for s, m in self.meters.items()}


def check_seats(
    entry: GameEntry[Any], count: int, config: BaseModel | None = None, option: str = "agents"
) -> None:
    """ValueError naming ``option`` when ``count`` seats do not fit the game (its registry
    entry's player range) or ``config``: the one seat-count check of the play path, which
    commands call early to refuse a bad option before anything starts."""
    entry.info.check_players(count, option)
    if config is None:
        return
    wanted = entry.config_players(config)
    if wanted != count:
        raise ValueError(f"{option}: {count} given for {wanted} players")


def play_game(
    entry: GameEntry[Any],
    specs: Sequence[str],
    seed: int,
    settings: Any = None,
    config: BaseModel | None = None,
    log: EventSink | None = None,
    watch: Watcher | None = None,
) -> PlayedGame:
    """Deal ``entry``'s game from ``seed`` under ``config`` (default: the standard game for
    ``len(specs)`` seats) and play it with the registry agent ``specs[i]`` at seat i, built
    under ``settings`` (default: the game's), logging every event to ``log``.

    The agents are closed when the game ends or fails; errors from the agents (an LLM endpoint
    that fails for good) propagate. ``watch`` sees each observation before its seat decides.

    >>> from games.core.registry import get_game
    >>> played = play_game(get_game("clue"), ["prover", "prover", "random"], seed=3)
    >>> played.result.reason, played.result.ranks
    ('correct_accusation', (2, 1, 3))
    >>> [seat.agent for seat in played.header.seats]
    ['prover', 'prover', 'random']
    """
    config = config if config is not None else entry.default_config(len(specs))
    check_seats(entry, len(specs), config)
    settings = settings if settings is not None else entry.default_settings()
    agents: list[Any] = []
    try:
        for seat, spec in enumerate(specs):
            agents.append(entry.make_agent(spec, seat, seed, settings))
        return play_agents(entry, agents, seed, config, log, watch=watch)
    finally:
        for agent in agents:
            close_agent(agent)


def play_agents(
    entry: GameEntry[Any],
    agents: Sequence[Any],
    seed: int,
    config: BaseModel | None = None,
    log: EventSink | None = None,
    state: Callable[[Sequence[SeatInfo]], GameState] | None = None,
    watch: Watcher | None = None,
) -> PlayedGame:
    """Play ``entry``'s game dealt from ``seed`` with agents already built (``agents[i]`` at
    seat i; the caller keeps and closes them); ``state`` builds, from the seats, the game to play
    instead of the fresh one ``entry.new_state`` deals (a game with a stand-in referee, say)."""
    config = config if config is not None else entry.default_config(len(agents))
    check_seats(entry, len(agents), config)
    seats = tuple(SeatInfo(name=f"P{i}", agent=a.name) for i, a in enumerate(agents))
    game = entry.new_state(config, seed, seats) if state is None else state(seats)
    header = entry.header(config, seed, seats)
    seated = [entry.seat(agent) for agent in agents]
    result = play(game, seated, header, log, max_decisions=entry.info.max_decisions, watch=watch)
    return PlayedGame(
        header=header,
        state=game,
        result=result,
        seats=seats,
        agents=tuple(agents),
        meters={s: m for s, a in enumerate(agents) if (m := agent_meters(a))},
        fallbacks=tuple(agent_fallbacks(a) for a in agents),
    )
