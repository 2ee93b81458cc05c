"""A readable account of a Clue game from its events: one line per turn's happenings."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from games.clue.events import (
    AccusationEvent,
    ClueEvent,
    Deduction,
    DeductionEvent,
    DeductionReviewEvent,
    GameEnd,
    NoRefutationEvent,
    PassEvent,
    RefuteEvent,
    SuggestionEvent,
    TurnStart,
)
from games.core.log import SeatInfo
from reasoning.claims import ClaimStatus


def describe_deduction(deduction: Deduction, names: Sequence[str]) -> str:
    """``P3 holds Rope``, ``Rope is not in the envelope`` and the like."""
    card = deduction.card.name
    who = names[deduction.player] if deduction.player is not None else ""
    return {
        "holds": f"{who} holds {card}",
        "not_holds": f"{who} does not hold {card}",
        "in_envelope": f"{card} is in the envelope",
        "not_in_envelope": f"{card} is not in the envelope",
    }[deduction.kind]


def transcript(
    events: Sequence[ClueEvent], seats: Sequence[SeatInfo] = (), ranks: Sequence[int] = ()
) -> Iterator[str]:
    """Lines describing the game: rounds, suggestions and their answers, stated deductions (and
    those a deduction review sent back), accusations (made or withheld) and the result with the
    finishing ``ranks`` where given. Names come from ``seats`` (else ``P0``, ``P1``, ...)."""
    names = (
        [f"{s.name} ({s.agent})" for s in seats]
        if seats
        else [f"P{i}" for i in range(max(_seats(events), default=-1) + 1)]
    )
    answers: list[str] = []
    current_round = 0

    def flush() -> Iterator[str]:
        if answers:
            yield "      " + "; ".join(answers)
            answers.clear()

    for event in events:
        if isinstance(event, TurnStart):
            yield from flush()
            if event.round != current_round:
                current_round = event.round
                yield f"round {event.round}" + (" (final accusations)" if event.final else "")
        elif isinstance(event, DeductionEvent):
            yield from flush()
            stated = "; ".join(describe_deduction(d, names) for d in event.deductions)
            yield f"  {names[event.seat]} states: {stated}"
        elif isinstance(event, DeductionReviewEvent):
            if event.sent_back:
                yield from flush()
                yield f"  {names[event.seat]} is checked: {_doubted(event, names)}"
            if (withheld := event.withheld_accusation()) is not None:
                yield from flush()
                yield (
                    f"  {names[event.seat]} would accuse {withheld.suspect}, {withheld.weapon}, "
                    f"{withheld.room}: withheld ({_accusation_status(event)})"
                )
        elif isinstance(event, SuggestionEvent):
            yield from flush()
            yield (f"  {names[event.seat]} suggests {event.suspect}, {event.weapon}, {event.room}")
        elif isinstance(event, PassEvent):
            answers.append(f"{names[event.seat]} passes")
        elif isinstance(event, RefuteEvent):
            card = f" [{event.card.name}]" if event.card is not None else ""
            answers.append(f"{names[event.refuter_seat]} shows a card{card}")
        elif isinstance(event, NoRefutationEvent):
            answers.append("nobody can refute")
        elif isinstance(event, AccusationEvent):
            yield from flush()
            outcome = "correct" if event.correct else "wrong"
            if event.eliminated:
                outcome += ", eliminated"
            right = f", {event.accuracy}/3 right" if event.accuracy is not None else ""
            yield (
                f"  {names[event.seat]} accuses {event.suspect}, {event.weapon}, "
                f"{event.room}: {outcome}{right}"
            )
        elif isinstance(event, GameEnd):
            yield from flush()
            winner = names[event.winner] if event.winner is not None else "nobody"
            yield f"game over after {event.rounds} rounds: {winner} wins ({event.reason})"
            if ranks:
                order = sorted(range(len(ranks)), key=lambda seat: ranks[seat])
                yield "ranks: " + ", ".join(f"{ranks[s]}. {names[s]}" for s in order)
    yield from flush()


def _doubted(review: DeductionReviewEvent, names: Sequence[str]) -> str:
    """The deductions a review sent back, with their verdicts, and how the revision went."""
    doubted = "; ".join(
        f"{describe_deduction(c.deduction, names)} ({c.status.value})"
        for c in review.stated
        if c.status is not ClaimStatus.ENTAILED
    )
    if review.revision_failed:
        return f"{doubted}; sent back, the revision did not parse"
    revised = "; ".join(describe_deduction(c.deduction, names) for c in review.revised)
    return f"{doubted}; sent back, revised to: {revised or 'nothing'}"


def _accusation_status(review: DeductionReviewEvent) -> str:
    """The verdicts of a withheld accusation's three cards, e.g. ``Knife undetermined``."""
    return ", ".join(
        f"{c.deduction.card.name} {c.status.value}"
        for c in review.withheld
        if c.status is not ClaimStatus.ENTAILED
    )


def _seats(events: Sequence[ClueEvent]) -> Iterator[int]:
    for event in events:
        for attr in ("seat", "refuter_seat", "suggester_seat"):
            seat = getattr(event, attr, None)
            if isinstance(seat, int):
                yield seat
