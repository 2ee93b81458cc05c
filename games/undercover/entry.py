"""Undercover-V on the shared game core: its log rules, its logged actions, ``ENTRY``."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from games.core.log import GameLog, LogHeader, SeatInfo
from games.core.loop import Agent
from games.core.registry import GameEntry
from games.core.replay import replay as replay_log
from games.undercover.agent import Description
from games.undercover.agents import AGENTS, make_agent
from games.undercover.engine import (
    INFO,
    DescriptionChecker,
    IllegalAction,
    UndercoverGame,
    UndercoverSeat,
    UndercoverState,
)
from games.undercover.events import (
    UNDERCOVER_EVENT,
    DescriptionEvent,
    GameStart,
    UndercoverConfig,
    UndercoverEvent,
    UndercoverSetup,
    VoteEvent,
)
from games.undercover.logged import LoggedChecker
from games.undercover.words import builtin_pairs


def check_undercover_events(events: Sequence[UndercoverEvent]) -> tuple[int, str] | None:
    """Undercover-V's own log rule: ``seq`` counts up by one from 0, rounds never go back."""
    for index, event in enumerate(events):
        if event.seq != index:
            return index, f"seq {event.seq} where {index} was due"
        if index and event.round < events[index - 1].round:
            return index, f"round {event.round} goes back from round {events[index - 1].round}"
    return None


def undercover_actions(
    events: Sequence[UndercoverEvent],
) -> Iterator[tuple[int, Mapping[int, Any]]]:
    """Every description and every vote a log records, as joint actions."""
    for index, event in enumerate(events):
        if isinstance(event, DescriptionEvent):
            yield index, {event.seat: Description(event.text, formula_text=event.formula)}
        elif isinstance(event, VoteEvent):
            yield index, {b.voter: b.target for b in event.ballots}


class UndercoverEntry(GameEntry[UndercoverEvent]):
    """Undercover-V in the registry of games; the header's config is an ``UndercoverSetup``."""

    info = INFO
    play_command = "games.undercover.cli:play_undercover"
    auditor = "games.undercover.audit:audit_record"
    viewer = "games.undercover.view:undercover_view"
    config_type = UndercoverSetup
    event_adapter = UNDERCOVER_EVENT
    agents = AGENTS
    illegal_error = IllegalAction

    def default_config(self, players: int) -> UndercoverSetup:
        """The standard settings for ``players`` seats and the first shipped word pair."""
        self.info.check_players(players)
        config = UndercoverConfig.model_validate({"players": players})
        return UndercoverSetup(config=config, pair=builtin_pairs()[0])

    def config_players(self, config: BaseModel) -> int:
        """The seats of the setup's game."""
        return UndercoverSetup.model_validate(config).config.players

    def make_agent(self, spec: str, seat: int, seed: int, settings: Any) -> Any:
        """See ``games.undercover.agents.make_agent`` (its factories take the game's seed)."""
        return make_agent(spec, seat, seed, settings)

    def seat(self, agent: Any) -> Agent:
        """The agent describing or voting as the turn asks (``UndercoverSeat``)."""
        return UndercoverSeat(agent)

    def new_state(self, config: BaseModel, seed: int, seats: Sequence[SeatInfo]) -> UndercoverState:
        """A fresh game whose descriptions the prover-backed checker judges (Z3, shipped
        lexicon)."""
        from games.undercover.checker import ConsistencyTest, ProverChecker
        from games.undercover.lexicon import Lexicon

        if not isinstance(config, UndercoverSetup):
            raise TypeError(f"an Undercover-V game needs an UndercoverSetup, not {config!r}")
        game = UndercoverGame(config.config, config.pair, seed)
        checker = ProverChecker(ConsistencyTest(Lexicon.load()))
        return UndercoverState(game, checker, [s.agent for s in seats])

    def judged_by(
        self, game: UndercoverGame, checker: DescriptionChecker
    ) -> Callable[[Sequence[SeatInfo]], UndercoverState]:
        """The state to play the fresh ``game`` in with ``checker`` as its referee (a chosen
        prover or lexicon), for ``games.core.play.play_agents``."""
        return lambda seats: UndercoverState(game, checker, [s.agent for s in seats])

    def logged_actions(
        self, events: Sequence[UndercoverEvent]
    ) -> Iterator[tuple[int, Mapping[int, Any]]]:
        """See ``undercover_actions``."""
        return undercover_actions(events)

    def replay_state(self, log: GameLog[UndercoverEvent]) -> UndercoverState:
        """The game ``game_start`` describes (every log has one), judged by the logged checks."""
        start = log.events[0] if log.events else None
        if not isinstance(start, GameStart):
            raise ValueError("a log must open with game_start")
        game = UndercoverGame(start.config, start.pair, start.seed)
        return UndercoverState(game, LoggedChecker(log.events), start.agents)

    def header_of_start(self, record: dict[str, Any]) -> dict[str, Any] | None:
        """The header of a log written before headers existed: the config, seed and agents its
        ``game_start`` gave (None when the first record is no such event)."""
        agents = record.get("agents")
        if record.get("type") != "game_start" or not isinstance(agents, list):
            return None
        seats = [{"name": f"P{seat}", "agent": agent} for seat, agent in enumerate(agents)]
        return {"seed": record.get("seed"), "config": record.get("config"), "seats": seats}

    def check_events(
        self, header: LogHeader, events: Sequence[UndercoverEvent]
    ) -> tuple[int, str] | None:
        """See ``check_undercover_events``."""
        return check_undercover_events(events)


ENTRY = UndercoverEntry()
"""Undercover-V's entry in ``games.core.registry``."""


def read_undercover_log(path: str | Path) -> list[UndercoverEvent]:
    """Read and validate an Undercover-V log (with or without the common header and end): its
    game events; LogError names the file and line of any problem."""
    return ENTRY.read_log(path).events


def replay(events: Sequence[UndercoverEvent]) -> UndercoverGame:
    """Replay events held in memory, under the header their ``game_start`` gives (event i
    counts as line i + 2 in errors); the game."""
    start = events[0] if events else None
    if not isinstance(start, GameStart):
        raise ValueError("a log must open with game_start")
    seats = [SeatInfo(name=f"P{seat}", agent=agent) for seat, agent in enumerate(start.agents)]
    header = ENTRY.header(start.config, start.seed, seats)
    state = replay_log(ENTRY, GameLog.of_events(header, events))
    assert isinstance(state, UndercoverState)
    return state.game
