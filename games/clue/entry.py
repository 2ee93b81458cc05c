"""Clue on the shared game core: the protocol state, the seat adapter, the log rules, ``ENTRY``.

A Clue decision is one seat's (the current player's); its action may come with the deduction
review a verifier-assisted agent made before acting (``ClueMove``), which the engine logs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from games.clue.agent import Accuse, ClueAction, Show
from games.clue.agent import Suggest as SuggestAction
from games.clue.agents import AGENTS, ClueAgentSettings
from games.clue.engine import INFO, ClueGame, ClueMove, ClueSeat, ClueState
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
from games.clue.playing import DEFAULT_CLUE_AGENTS, ClueOptions, CluePrinter
from games.core.log import GameLog, LogHeader, SeatInfo
from games.core.loop import Agent
from games.core.printer import Echo
from games.core.registry import GameEntry, LoggedActionError, PlaySetup
from games.core.replay import replay as replay_log
from games.core.runlog import field_errors

if TYPE_CHECKING:
    from pydantic import BaseModel

    from games.core.audit import AuditRecord
    from games.core.view import ViewParts


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
    before: ClueEvent | None = None
    for index, event in enumerate(events):
        if before is not None:
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
        before = event
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


class ClueEntry(GameEntry[ClueEvent, ClueConfig, ClueAgentSettings, ClueOptions]):
    """Clue in the registry of games."""

    info = INFO
    play_options = ClueOptions
    model_agents = "llm,prover,prover"
    default_agents = DEFAULT_CLUE_AGENTS
    config_type = ClueConfig
    event_adapter = CLUE_EVENT
    agents = AGENTS

    def default_config(self, players: int) -> ClueConfig:
        """The standard deck and round limit for ``players`` seats."""
        self.info.check_players(players)
        return ClueConfig(players=players)

    def config_players(self, config: ClueConfig) -> int:
        """The players the deal is for."""
        return config.players

    def adapt(self, agent: Any) -> Agent:
        """The agent with the deduction reviews it keeps (``ClueSeat``)."""
        return ClueSeat(agent)

    def bare_action(self, action: Any) -> Any:
        """The move's action without its stated deductions (and the call they came from)."""
        inner = action.action if isinstance(action, ClueMove) else action
        return inner.model_copy(update={"deductions": (), "call": None})

    def new_state(self, config: ClueConfig, seed: int, seats: Sequence[SeatInfo]) -> ClueState:
        """A fresh Clue game (the seats are named in the log's header)."""
        return ClueState(ClueGame(config, seed))

    def play_setup(
        self,
        options: ClueOptions,
        specs: tuple[str, ...],
        seed: int,
        settings: ClueAgentSettings,
        recorded: ClueConfig | None,
    ) -> PlaySetup[ClueConfig, ClueAgentSettings]:
        """``options.rounds`` rounds at ``len(specs)`` seats (or the recorded game's)."""
        config = recorded or ClueConfig(players=len(specs), max_rounds=options.rounds)
        return PlaySetup(config, settings, specs)

    def printer(self, options: ClueOptions, settings: ClueAgentSettings, echo: Echo) -> CluePrinter:
        """Every turn, the fallbacks and the audit (``games.clue.playing``)."""
        return CluePrinter(echo)

    def reward_function(self) -> Callable[..., list[float | None]]:
        """Clue's reward function in TRL's shape (``games.clue.reward``)."""
        from games.clue.reward import reward

        return reward

    def answer_models(self) -> list[type[BaseModel]]:
        """Clue's answer models at their largest (``games.clue.llm_schemas``)."""
        from games.clue.llm_schemas import largest_answer_models

        return largest_answer_models()

    def audit(self, log: GameLog[ClueEvent]) -> AuditRecord:
        """Clue's audit (``games.clue.audit``)."""
        from games.clue.audit import audit_record

        return audit_record(log)

    def view(self, log: GameLog[ClueEvent]) -> ViewParts:
        """Clue's step texts and knowledge panels (``games.clue.view``)."""
        from games.clue.view import clue_view

        return clue_view(log)

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
    return list(ENTRY.read_log(path).events)


def replay(header: LogHeader, events: Sequence[ClueEvent]) -> ClueGame:
    """Replay Clue events held in memory under their header (event i counts as line i + 2 in
    errors); the game."""
    state = replay_log(ENTRY, GameLog.of_events(header, events))
    assert isinstance(state, ClueState)
    return state.game
