"""Undercover-V in the viewer: each seat's descriptions in words with how they stand against its
card (on demand, the formula its reading asserts, else the seat's own), and the votes it cast
and received, as the game goes."""

from __future__ import annotations

from typing import Any

from games.core.log import GameLog
from games.core.view import KnowledgePanel, Line, Tone, ViewParts
from games.undercover.audit import audit_record
from games.undercover.events import (
    CheckOutcome,
    DescriptionEvent,
    EliminationEvent,
    GameEnd,
    GameStart,
    TieEvent,
    ViolationEvent,
    VoteEvent,
)

CHECK_WORDS: dict[CheckOutcome, tuple[str, Tone]] = {
    CheckOutcome.CONSISTENT: ("fits its card", "sound"),
    CheckOutcome.CONTRADICTS_CARD: ("contradicts its card", "wrong"),
    CheckOutcome.SYNTAX_ERROR: ("its formula could not be checked", "unknown"),
    CheckOutcome.NOT_FORMALISED: ("not formalised", "unknown"),
    CheckOutcome.UNDECIDED: ("undecided against its card", "undetermined"),
    CheckOutcome.NO_CLAIM: ("asserts nothing about its card", "unknown"),
    CheckOutcome.UNREAD: ("not read", "unknown"),
}
"""Each card check in words, and its colour."""


def undercover_view(log: GameLog[Any]) -> ViewParts:
    """A panel per seat, renewed at every event that concerns it; every event in words, with a
    description's formula on demand; each claim as the description that stated it."""
    record = audit_record(log)
    names = [s.name for s in log.header.seats]
    lines: list[list[Line]] = [[] for _ in names]
    panels: list[KnowledgePanel] = []
    texts: list[str] = []
    formulas: list[str | None] = []

    def renew(seat: int, step: int) -> None:
        panels.append(
            KnowledgePanel(
                step=step,
                seat=seat,
                title=f"{names[seat]}: descriptions and votes",
                lines=list(lines[seat]),
            )
        )

    for step, event in enumerate(log.events):
        formula = None
        if isinstance(event, GameStart):
            text = (
                f"Round 1 begins: the citizens hold “{event.citizen_word}”, the spy "
                f"({names[event.spy_seat]}) holds “{event.spy_word}”."
            )
        elif isinstance(event, DescriptionEvent):
            check, tone = CHECK_WORDS[event.outcome]
            text = f"{names[event.seat]} says “{event.text}” ({check})."
            read = event.reading.formula if event.reading is not None else None
            formula = read or event.formula
            lines[event.seat].append(
                Line(
                    text=f"round {event.round}: “{event.text}”, {check}",
                    tone=tone,
                    formula=formula,
                )
            )
            renew(event.seat, step)
        elif isinstance(event, ViolationEvent):
            text = f"{names[event.seat]} breaks a rule ({event.kind.value}): {event.message}"
            lines[event.seat].append(Line(text=f"breaks a rule: {event.message}", tone="wrong"))
            renew(event.seat, step)
        elif isinstance(event, VoteEvent):
            text = "Votes: " + "; ".join(
                f"{names[b.voter]} votes for {names[b.target]}" for b in event.ballots
            )
            for ballot in event.ballots:
                lines[ballot.voter].append(Line(text=f"votes for {names[ballot.target]}"))
                renew(ballot.voter, step)
        elif isinstance(event, EliminationEvent):
            role = "the spy" if event.was_spy else "a citizen"
            text = f"{names[event.seat]} is voted out with {event.votes} votes: was {role}."
            lines[event.seat].append(Line(text=f"voted out with {event.votes} votes: was {role}"))
            renew(event.seat, step)
        elif isinstance(event, TieEvent):
            tied = ", ".join(names[s] for s in event.seats)
            text = f"A tie between {tied} at {event.votes} votes (tie {event.consecutive})."
        elif isinstance(event, GameEnd):
            text = (
                f"The {event.winner.value} win after {event.rounds} rounds: "
                f"{event.reason.value.replace('_', ' ')}."
            )
        else:
            text = str(getattr(event, "type", "event")).replace("_", " ")
        texts.append(text)
        formulas.append(formula)
    return ViewParts(
        texts=texts,
        formulas=formulas,
        panels=panels,
        title=f"Undercover-V, {len(names)} players (seed {log.header.seed})",
        claims=[
            Line(text=f"“{row.detail.get('text', row.claim)}”", formula=row.claim)
            for row in record.rows
        ],
        record=record,
    )
