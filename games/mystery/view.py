"""The interrogation game in the viewer: each seat's stated suspects per crime, round by round,
the answers it gave (lies marked) and the votes (each drop's verdict is an audit row)."""

from __future__ import annotations

from typing import Any

from games.core.log import GameLog
from games.core.view import KnowledgePanel, ViewParts
from games.mystery.events import Answered, Asked, Voted


def mystery_view(log: GameLog[Any]) -> ViewParts:
    """A panel per seat, renewed whenever it asks (its suspect lists), answers or votes."""
    names = [s.name for s in log.header.seats]
    lines: list[list[str]] = [[] for _ in names]
    panels: list[KnowledgePanel] = []

    def renew(seat: int, step: int) -> None:
        panels.append(
            KnowledgePanel(step=step, seat=seat, title=f"{names[seat]}", lines=list(lines[seat]))
        )

    for step, event in enumerate(log.events):
        if isinstance(event, Asked):
            suspects = "; ".join(
                f"crime {i}: {', '.join(s) or 'none'}" for i, s in enumerate(event.stated, 1)
            )
            asked = f"round {event.round}: asks {names[event.answerer]}"
            lines[event.seat].append(asked + (f" | suspects {suspects}" if suspects else ""))
            renew(event.seat, step)
        elif isinstance(event, Answered):
            told = "declines" if event.declined else f"answers ({len(event.facts)} facts)"
            lines[event.seat].append(f"round {event.round}: {told}" + (" LIE" if event.lie else ""))
            renew(event.seat, step)
        elif isinstance(event, Voted):
            for ballot in event.ballots:
                lines[ballot.voter].append(f"crime {event.crime}: votes for {names[ballot.target]}")
                renew(ballot.voter, step)
    return ViewParts(panels=panels)
