"""The answered questions of an interrogation log, which the audit and the objectives both read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from formalize.world.facts import Fact
from games.mystery.events import Answered, Asked, Introduction, MysteryEvent, record_fact


@dataclass(frozen=True, slots=True)
class Exchange:
    """One answered question: who asked whom in which round, and the facts of the answer."""

    round: int
    asker: int
    answerer: int
    facts: tuple[Fact, ...]


def exchanges(events: Sequence[MysteryEvent]) -> list[Exchange]:
    """The answered questions of a log, in order, after the alibis of the introductions (as
    round 0, each seat its own asker)."""
    out: list[Exchange] = []
    pending: Asked | None = None
    for event in events:
        if isinstance(event, Introduction) and event.facts:
            facts = tuple(record_fact(f) for f in event.facts)
            out.append(Exchange(0, event.seat, event.seat, facts))
        elif isinstance(event, Asked):
            pending = event
        elif isinstance(event, Answered) and pending is not None:
            facts = tuple(record_fact(f) for f in event.facts)
            out.append(Exchange(event.round, pending.seat, event.seat, facts))
            pending = None
    return out
