"""Clue on the shared game core: the protocol state, the seat adapter, the log rules, ``ENTRY``.

A Clue decision is one seat's (the current player's); its action may come with the deduction
review a verifier-assisted agent made before acting (``ClueMove``), which the engine logs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from games.clue.agent import Accuse, ClueAction, Show
from games.clue.agent import Suggest as SuggestAction
from games.clue.agents import AGENTS
from games.clue.engine import INFO, ClueGame, ClueMove, ClueSeat, ClueState, IllegalAction
from games.clue.events import (
    CLUE_EVENT,
    AccusationEvent,
    ClueConfig,
    ClueEvent,
    Deduction,
    DeductionEvent,
    DeductionReview,
    DeductionReviewEvent,
    GameEnd,
    GameStart,
    RefuteEvent,
    SuggestionEvent,
    header_of_start,
    migrate_record,
)
from games.core.log import GameLog, LogHeader, SeatInfo
from games.core.loop import Agent
from games.core.registry import GameEntry, LoggedActionError
from games.core.replay import replay as replay_log
from games.core.runlog import field_errors


def check_clue_events(header: LogHeader, events: Sequence[ClueEvent]) -> tuple[int, str] | None:
    """Clue's own log rules: ``game_start`` lists a hand size per seat, ``seq`` increases, rounds
    and turns never go back nor past the round limit, and ``game_end``'s winner agrees with the
    accusations."""
    try:
        config = ClueConfig.model_validate(header.config)
    except ValidationError as err:
        return 0, "header config: " + field_errors(err)
    if len(header.seats) != config.players:
        return 0, f"header seats: {len(header.seats)} listed for {config.players} players"
    first_correct: int | None = None
    for index, event in enumerate(events):
        if index:
            before = events[index - 1]
            if event.seq <= before.seq:
                return index, f"seq {event.seq} does not follow seq {before.seq}"
            if event.round < before.round:
                return index, f"round {event.round} goes back from round {before.round}"
            if event.turn < before.turn:
                return index, f"turn {event.turn} goes back from turn {before.turn}"
        if isinstance(event, GameStart) and len(event.hand_sizes) != config.players:
            return index, f"hand_sizes: {len(event.hand_sizes)} listed for {config.players} seats"
        if event.round > config.max_rounds + 1:
            return index, f"round {event.round} is past the round limit {config.max_rounds}"
        if isinstance(event, AccusationEvent) and event.correct and first_correct is None:
            first_correct = event.seat
        if isinstance(event, GameEnd) and event.winner != first_correct:
            said = "nobody" if first_correct is None else f"player {first_correct}"
            return index, f"winner: {event.winner} contradicts the accusations ({said} accused)"
    return None


def clue_actions(events: Sequence[ClueEvent]) -> Iterator[tuple[int, Mapping[int, ClueMove]]]:
    """Every move a Clue log records: a suggestion, accusation or shown card, with the deduction
    review and the deductions logged just before it, and the recorded call they came from
    (indexed by the first of these events)."""
    index = 0
    while index < len(events):
        event = events[index]
        if not isinstance(event, DeductionReviewEvent | DeductionEvent | _ACTION_EVENTS):
            index += 1
            continue
        first = index
        review: DeductionReview | None = None
        deductions: tuple[Deduction, ...] = ()
        call: int | None = None
        if isinstance(event, DeductionReviewEvent):
            review = event.review()
            index, event = _next(events, index, event)
        if isinstance(event, DeductionEvent):
            deductions, call = event.deductions, event.call
            index, event = _next(events, index, event)
        seat, action = _action(event, index, deductions, call)
        yield first, {seat: ClueMove(action, review)}
        index += 1


_ACTION_EVENTS = SuggestionEvent | AccusationEvent | RefuteEvent


def _next(events: Sequence[ClueEvent], index: int, before: ClueEvent) -> tuple[int, ClueEvent]:
    if index + 1 >= len(events):
        raise LoggedActionError(index, f"the log ends after a {before.type}, before its action")
    return index + 1, events[index + 1]


def _action(
    event: ClueEvent, index: int, deductions: tuple[Deduction, ...], call: int | None
) -> tuple[int, ClueAction]:
    """The seat and action an action event records, stating ``deductions`` from ``call``."""
    if isinstance(event, SuggestionEvent):
        return event.seat, SuggestAction(
            suspect=event.suspect,
            weapon=event.weapon,
            room=event.room,
            deductions=deductions,
            call=call,
        )
    if isinstance(event, AccusationEvent):
        return event.seat, Accuse(
            suspect=event.suspect,
            weapon=event.weapon,
            room=event.room,
            deductions=deductions,
            call=call,
        )
    if isinstance(event, RefuteEvent):
        if event.card is None:
            raise LoggedActionError(index, "the shown card is not in the log")
        return event.refuter_seat, Show(card=event.card, deductions=deductions, call=call)
    raise LoggedActionError(index, f"a {event.type} event where the engine waits for an action")


class ClueEntry(GameEntry[ClueEvent]):
    """Clue in the registry of games."""

    info = INFO
    play_command = "games.clue.cli:play_clue"
    auditor = "games.clue.audit:audit_record"
    viewer = "games.clue.view:clue_view"
    answer_models = "games.clue.llm_schemas:largest_answer_models"
    reward = "games.clue.reward:reward"
    config_type = ClueConfig
    event_adapter = CLUE_EVENT
    agents = AGENTS
    illegal_error = IllegalAction

    def default_config(self, players: int) -> ClueConfig:
        """The standard deck and round limit for ``players`` seats."""
        self.info.check_players(players)
        return ClueConfig(players=players)

    def config_players(self, config: BaseModel) -> int:
        """The players the deal is for."""
        return ClueConfig.model_validate(config).players

    def seat(self, agent: Any) -> Agent:
        """The agent with the deduction reviews it keeps (``ClueSeat``)."""
        return ClueSeat(agent)

    def bare_action(self, action: Any) -> Any:
        """The move's action without its stated deductions (and the call they came from)."""
        inner = action.action if isinstance(action, ClueMove) else action
        return inner.model_copy(update={"deductions": (), "call": None})

    def new_state(self, config: BaseModel, seed: int, seats: Sequence[SeatInfo]) -> ClueState:
        """A fresh Clue game (the seats are named in the log's header)."""
        if not isinstance(config, ClueConfig):
            raise TypeError(f"a Clue game needs a ClueConfig, not {type(config).__name__}")
        return ClueState(ClueGame(config, seed))

    def logged_actions(
        self, events: Sequence[ClueEvent]
    ) -> Iterator[tuple[int, Mapping[int, Any]]]:
        """See ``clue_actions``."""
        return clue_actions(events)

    def replay_state(self, log: GameLog[ClueEvent]) -> ClueState:
        """The game the header deals, checked against the deal ``game_start`` logs."""
        start = log.events[0] if log.events else None
        if not isinstance(start, GameStart):
            raise ValueError("a log must open with game_start")
        seed = log.seed
        if start.deal is None:
            raise ValueError("game_start needs the deal to replay")
        state = self.new_state(self.logged_config(log), seed, log.header.seats)
        if state.game.deal != start.deal:
            raise ValueError(f"the logged deal is not the one seed {seed} gives")
        return state

    def check_events(
        self, header: LogHeader, events: Sequence[ClueEvent]
    ) -> tuple[int, str] | None:
        """See ``check_clue_events``."""
        return check_clue_events(header, events)

    def migrate_record(self, record: dict[str, Any], version: int) -> dict[str, Any]:
        """See ``migrate_record`` in ``games.clue.events``."""
        return migrate_record(record, version)

    def header_of_start(self, record: dict[str, Any]) -> dict[str, Any] | None:
        """See ``header_of_start`` in ``games.clue.events``."""
        return header_of_start(record)


ENTRY = ClueEntry()
"""Clue's entry in ``games.core.registry``."""


def read_clue_log(path: str | Path) -> list[ClueEvent]:
    """Read and validate a Clue log (with or without the common header and end): its game
    events; LogError names the file and line of any problem."""
    return ENTRY.read_log(path).events


def replay(header: LogHeader, events: Sequence[ClueEvent]) -> ClueGame:
    """Replay Clue events held in memory under their header (event i counts as line i + 2 in
    errors); the game."""
    state = replay_log(ENTRY, GameLog.of_events(header, events))
    assert isinstance(state, ClueState)
    return state.game
