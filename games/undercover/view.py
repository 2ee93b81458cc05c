"""Undercover-V in the viewer: each seat's descriptions with their consistency checks, and the
votes it cast and received, as the game goes."""

from __future__ import annotations

from typing import Any

from games.core.log import GameLog
from games.core.view import KnowledgePanel, ViewParts
from games.undercover.events import DescriptionEvent, EliminationEvent, ViolationEvent, VoteEvent


def undercover_view(log: GameLog[Any]) -> ViewParts:
    """A panel per seat, renewed at every event that concerns it."""
    seats = len(log.header.seats)
    lines: list[list[str]] = [[] for _ in range(seats)]
    panels: list[KnowledgePanel] = []

    def renew(seat: int, step: int) -> None:
        panels.append(
            KnowledgePanel(
                step=step,
                seat=seat,
                title=f"{log.header.seats[seat].name}: descriptions",
                lines=list(lines[seat]),
            )
        )

    for step, event in enumerate(log.events):
        if isinstance(event, DescriptionEvent):
            lines[event.seat].append(f"says {event.text!r}: {event.outcome}")
            renew(event.seat, step)
        elif isinstance(event, ViolationEvent):
            lines[event.seat].append(f"violation ({event.kind}): {event.message}")
            renew(event.seat, step)
        elif isinstance(event, VoteEvent):
            for ballot in event.ballots:
                lines[ballot.voter].append(f"votes for P{ballot.target}")
                renew(ballot.voter, step)
        elif isinstance(event, EliminationEvent):
            role = "the spy" if event.was_spy else "a citizen"
            lines[event.seat].append(f"eliminated with {event.votes} votes: was {role}")
            renew(event.seat, step)
    return ViewParts(panels=panels)
