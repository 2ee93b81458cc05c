"""Undercover-V on the shared game core: its log rules, its logged actions, ``ENTRY``."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from games.core.log import GameLog, LogHeader, SeatInfo
from games.core.loop import Agent
from games.core.registry import GameEntry
from games.core.replay import replay as replay_log
from games.core.runlog import field_errors
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
    header_of_start,
    migrate_record,
)
from games.undercover.logged import LoggedChecker
from games.undercover.words import builtin_pairs


def check_undercover_events(
    header: LogHeader, events: Sequence[UndercoverEvent]
) -> tuple[int, str] | None:
    """Undercover-V's own log rules: ``game_start`` deals the header's word pair to its seats,
    ``seq`` counts up by one from 0, rounds never go back."""
    try:
        setup = UndercoverSetup.model_validate(header.config)
    except ValidationError as err:
        return 0, "header config: " + field_errors(err)
    players = setup.config.players
    if len(header.seats) != players:
        return 0, f"header seats: {len(header.seats)} listed for {players} players"
    start = events[0] if events else None
    if isinstance(start, GameStart):
        if len(start.words) != players:
            return 0, f"field 'words': {len(start.words)} listed for {players} seats"
        if {start.spy_word, start.citizen_word} != set(setup.pair.words):
            return 0, "field 'spy_word': spy and citizen words must be the pair's words"
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
            description = Description(event.text, formula_text=event.formula, call=event.call)
            yield index, {event.seat: description}
        elif isinstance(event, VoteEvent):
            yield index, {b.voter: b.target for b in event.ballots}


class UndercoverEntry(GameEntry[UndercoverEvent]):
    """Undercover-V in the registry of games; the header's config is an ``UndercoverSetup``."""

    info = INFO
    play_command = "games.undercover.cli:play_undercover"
    auditor = "games.undercover.audit:audit_record"
    viewer = "games.undercover.view:undercover_view"
    answer_models = "games.undercover.llm_schemas:largest_answer_models"
    reward = "games.undercover.reward:reward"
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
        return UndercoverState(game, checker)

    def judged_by(
        self, game: UndercoverGame, checker: DescriptionChecker
    ) -> Callable[[Sequence[SeatInfo]], UndercoverState]:
        """The state to play the fresh ``game`` in with ``checker`` as its referee (a chosen
        prover or lexicon), for ``games.core.play.play_agents``."""
        return lambda seats: UndercoverState(game, checker)

    def logged_actions(
        self, events: Sequence[UndercoverEvent]
    ) -> Iterator[tuple[int, Mapping[int, Any]]]:
        """See ``undercover_actions``."""
        return undercover_actions(events)

    def replay_state(self, log: GameLog[UndercoverEvent]) -> UndercoverState:
        """The game the header deals, judged by the checks its log records."""
        setup = UndercoverSetup.model_validate(log.header.config)
        game = UndercoverGame(setup.config, setup.pair, log.seed)
        return UndercoverState(game, LoggedChecker(log.events))

    def migrate_record(self, record: dict[str, Any], version: int) -> dict[str, Any]:
        """See ``migrate_record`` in ``games.undercover.events``."""
        return migrate_record(record, version)

    def header_of_start(self, record: dict[str, Any]) -> dict[str, Any] | None:
        """See ``header_of_start`` in ``games.undercover.events``."""
        return header_of_start(record)

    def check_events(
        self, header: LogHeader, events: Sequence[UndercoverEvent]
    ) -> tuple[int, str] | None:
        """See ``check_undercover_events``."""
        return check_undercover_events(header, events)


ENTRY = UndercoverEntry()
"""Undercover-V's entry in ``games.core.registry``."""


def read_undercover_log(path: str | Path) -> list[UndercoverEvent]:
    """Read and validate an Undercover-V log (with or without the common header and end): its
    game events; LogError names the file and line of any problem."""
    return ENTRY.read_log(path).events


def replay(header: LogHeader, events: Sequence[UndercoverEvent]) -> UndercoverGame:
    """Replay events held in memory under their header (event i counts as line i + 2 in
    errors); the game."""
    state = replay_log(ENTRY, GameLog.of_events(header, events))
    assert isinstance(state, UndercoverState)
    return state.game
