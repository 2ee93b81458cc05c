"""Each seat's objectives scored at the end of a game, from the game's facts.

- ``objective`` about a crime: a civilian meets it when its own ballot on that victim named a
  killer; a murderer when the vote on that victim did not accuse it.
- ``reasoning`` about a crime (the weapon): met when what the seat knew at the end (the theory,
  the introduction, its script and every answer heard as testimony) entails the crime's weapon.
- ``relation`` about a person: met when an answer during the game made a relation of that person
  public.

An objective naming neither a crime nor a person, or of another kind, is not scored (``met`` is
None) and counts towards no total.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from formalize.interrogation.script import Objective, Scripts
from formalize.world import atoms
from games.mystery.events import Answered, Asked, MysteryEvent, Voted
from games.mystery.exchanges import Exchange
from games.mystery.knowledge import Knowledge
from provers.sat_session import SatSession

NONE_KNOWN = "none known"
"""The public answer of a relation question about two people with no relation."""


@dataclass(frozen=True)
class ObjectiveScore:
    """One objective of one seat and whether the game's facts meet it (None: not scored)."""

    seat: int
    objective: Objective
    met: bool | None


def _revealed(events: Sequence[MysteryEvent]) -> set[str]:
    """The people a relation answer made a relation public of."""
    out: set[str] = set()
    pending: Asked | None = None
    for event in events:
        if isinstance(event, Asked):
            pending = event
        elif isinstance(event, Answered) and pending is not None:
            if pending.question.kind == "related" and event.relation not in (None, NONE_KNOWN):
                out |= {pending.question.a, pending.question.b or ""}
            pending = None
    return out


def score_objectives(
    scripts: Scripts, events: Sequence[MysteryEvent], said: Sequence[Exchange]
) -> dict[int, list[ObjectiveScore]]:
    """Every seat's objectives with whether they are met (see the module docstring); ``said``:
    the log's answered questions."""
    votes = {e.crime: e for e in events if isinstance(e, Voted)}
    revealed = _revealed(events)
    setting = scripts.world.setting
    crimes = scripts.world.crimes
    out: dict[int, list[ObjectiveScore]] = {}
    for seat, person in enumerate(scripts.players):
        murderer = person in scripts.murderers
        scores: list[ObjectiveScore] = []
        known = [*scripts.intro, *scripts.scripts[person]]
        with Knowledge(setting, scripts.players, person, known, SatSession) as know:
            for exchange in said:
                know.hear(scripts.players[exchange.answerer], exchange.facts)
            for goal in scripts.objectives.get(person, ()):
                met: bool | None = None
                if goal.crime is not None and goal.kind == "objective" and goal.crime in votes:
                    vote = votes[goal.crime]
                    if murderer:
                        met = vote.accused != seat
                    else:
                        ballot = next((b.target for b in vote.ballots if b.voter == seat), None)
                        met = ballot is not None and (
                            scripts.players[ballot] in crimes[goal.crime - 1].killers
                        )
                elif goal.crime is not None and goal.kind == "reasoning":
                    weapon = crimes[goal.crime - 1].weapon
                    met = know.entails(atoms.weapon(goal.crime, weapon))
                elif goal.about is not None and goal.kind == "relation":
                    met = goal.about in revealed
                scores.append(ObjectiveScore(seat, goal, met))
        out[seat] = scores
    return out


def points_met(scores: Sequence[ObjectiveScore]) -> tuple[int, int]:
    """The points of the scored objectives met, and of all scored objectives."""
    scored = [s for s in scores if s.met is not None]
    return sum(s.objective.points for s in scored if s.met), sum(s.objective.points for s in scored)
