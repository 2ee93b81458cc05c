"""Playing a game object a test built (its own agents, its own referee) through the one play path
(``games.core.play.play_agents``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.clue.engine import ClueGame, ClueState
from games.clue.entry import ENTRY as CLUE
from games.clue.events import ClueResult
from games.core.log import LogHeader, SeatInfo
from games.core.play import play_agents
from games.core.runlog import EventSink
from games.undercover.engine import DescriptionChecker, UndercoverGame
from games.undercover.entry import ENTRY as UNDERCOVER
from games.undercover.events import UndercoverResult, UndercoverSetup


def play_clue(game: ClueGame, agents: Sequence[Any], log: EventSink | None = None) -> ClueResult:
    """Play the fresh ``game`` with ``agents[i]`` at seat i; its result."""
    play_agents(CLUE, agents, game.seed, game.config, log, state=lambda seats: ClueState(game))
    return game.result()


def play_undercover(
    game: UndercoverGame,
    agents: Sequence[Any],
    checker: DescriptionChecker,
    log: EventSink | None = None,
) -> UndercoverResult:
    """Play the fresh ``game`` with ``agents[i]`` at seat i, ``checker`` judging descriptions."""
    setup = UndercoverSetup(config=game.config, pair=game.pair)
    play_agents(
        UNDERCOVER, agents, game.seed, setup, log, state=UNDERCOVER.judged_by(game, checker)
    )
    assert game.result is not None
    return game.result


def undercover_header(game: UndercoverGame, agents: Sequence[str]) -> LogHeader:
    """The header of ``game``'s log with ``agents[i]`` at seat i."""
    seats = [SeatInfo(name=f"P{seat}", agent=agent) for seat, agent in enumerate(agents)]
    setup = UndercoverSetup(config=game.config, pair=game.pair)
    return UNDERCOVER.header(setup, game.seed, seats)
