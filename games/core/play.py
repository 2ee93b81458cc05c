"""The one way to play a registered game: seat the agents, play the shared loop, release them.

Every ``play`` command, bench player, the demo and the runner play through ``play_game``; a
game's own code only says how to start a game and build its agents (its ``GameEntry``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from games.core.agents import agent_fallbacks, agent_meters, close_agent
from games.core.log import SeatInfo
from games.core.loop import Watcher, play
from games.core.played import PlayedGame
from games.core.protocol import GameState
from games.core.registry import GameEntry
from games.core.runlog import EventSink

Starter = Callable[[Sequence[Any], GameState], None]
"""Called with the seated agents and the game before the first decision (a printer's start)."""


def check_seats(
    entry: GameEntry[Any, Any, Any, Any],
    count: int,
    config: BaseModel | None = None,
    option: str = "agents",
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
    entry: GameEntry[Any, Any, Any, Any],
    specs: Sequence[str],
    seed: int,
    settings: Any = None,
    config: BaseModel | None = None,
    log: EventSink | None = None,
    watch: Watcher | None = None,
    start: Starter | None = None,
) -> PlayedGame:
    """Deal ``entry``'s game from ``seed`` under ``config`` (default: the standard game for
    ``len(specs)`` seats) and play it with the registry agent ``specs[i]`` at seat i, built
    under ``settings`` (default: the game's), logging every event to ``log``; the game is the
    one ``entry.play_state`` deals under those settings.

    The agents are closed when the game ends or fails; errors from the agents (an LLM endpoint
    that fails for good) propagate. ``watch`` sees each observation before its seat decides,
    ``start`` the agents and the game before the first decision.

    Examples:
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
        chosen = settings

        def dealt(seats: Sequence[SeatInfo]) -> GameState:
            return entry.play_state(config, seed, seats, chosen)

        return play_agents(entry, agents, seed, config, log, dealt, watch, start)
    finally:
        for agent in agents:
            close_agent(agent)


def play_agents(
    entry: GameEntry[Any, Any, Any, Any],
    agents: Sequence[Any],
    seed: int,
    config: BaseModel | None = None,
    log: EventSink | None = None,
    state: Callable[[Sequence[SeatInfo]], GameState] | None = None,
    watch: Watcher | None = None,
    start: Starter | None = None,
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
    if start is not None:
        start(agents, game)
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
