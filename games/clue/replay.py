"""Replay a Clue game from its log: rebuild the game from the seed and check every event."""

from __future__ import annotations

from collections.abc import Sequence

from games.clue.agent import Accuse, ClueAction, Show, Suggest
from games.clue.engine import ClueGame, IllegalActionError
from games.clue.events import (
    AccusationEvent,
    ClueEvent,
    Deduction,
    DeductionEvent,
    DeductionReview,
    DeductionReviewEvent,
    GameStart,
    RefuteEvent,
    SuggestionEvent,
)


class ReplayError(ValueError):
    """The log and the engine disagree; ``seq`` is the first event where they part."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(f"seq {seq}: {message}")
        self.seq = seq


def replay(events: Sequence[ClueEvent]) -> ClueGame:
    """Re-apply the logged actions to a game dealt from the logged seed and config.

    Every logged event must equal the one the engine produces, or ReplayError names its seq. A log
    cut short replays as far as it goes; the returned game is in the state it reached.
    """
    if not events or not isinstance(events[0], GameStart):
        raise ReplayError(events[0].seq if events else 0, "a log must open with game_start")
    start = events[0]
    if start.seed is None or start.deal is None:
        raise ReplayError(start.seq, "game_start needs the seed and the deal to replay")
    game = ClueGame(start.config, start.seed)
    if game.deal != start.deal:
        raise ReplayError(start.seq, f"the logged deal is not the one seed {start.seed} gives")
    produced = 0
    index = 1
    while index < len(events):
        event = events[index]
        if produced < len(game.events):
            expected = game.events[produced]
            if event != expected:
                raise ReplayError(event.seq, f"logged {event!r}, the engine gives {expected!r}")
            produced += 1
            index += 1
            continue
        action, review = _logged_action(events, index)
        try:
            game.apply(action, review)
        except IllegalActionError as err:
            raise ReplayError(event.seq, f"the logged action is illegal: {err}") from err
    return game


def _logged_action(
    events: Sequence[ClueEvent], index: int
) -> tuple[ClueAction, DeductionReview | None]:
    """The action behind the event at ``index``, with the deduction review and the deductions
    logged just before it (either may be absent)."""
    event = events[index]
    review: DeductionReview | None = None
    if isinstance(event, DeductionReviewEvent):
        review = event.review()
        index += 1
        event = _next_event(events, index, event)
    deductions: tuple[Deduction, ...] = ()
    if isinstance(event, DeductionEvent):
        deductions = event.deductions
        index += 1
        event = _next_event(events, index, event)
    return _action(event, deductions), review


def _next_event(events: Sequence[ClueEvent], index: int, before: ClueEvent) -> ClueEvent:
    """The event at ``index``, or ReplayError when the log ends after ``before``."""
    if index >= len(events):
        raise ReplayError(before.seq, f"the log ends after a {before.type}, before its action")
    return events[index]


def _action(event: ClueEvent, deductions: tuple[Deduction, ...]) -> ClueAction:
    """The action an action event records, stating ``deductions``."""
    if isinstance(event, SuggestionEvent):
        return Suggest(
            suspect=event.suspect, weapon=event.weapon, room=event.room, deductions=deductions
        )
    if isinstance(event, AccusationEvent):
        return Accuse(
            suspect=event.suspect, weapon=event.weapon, room=event.room, deductions=deductions
        )
    if isinstance(event, RefuteEvent):
        if event.card is None:
            raise ReplayError(event.seq, "the shown card is not in the log")
        return Show(card=event.card, deductions=deductions)
    raise ReplayError(event.seq, f"a {event.type} event where the engine waits for an action")
