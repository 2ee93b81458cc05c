"""The typed question grammar of an interrogation and how a character's facts answer it.

Four kinds of question: where was x at slot t, did a see b at slot t (were they in one room),
did x hold item o (at any slot), how are a and b related. An answer is a tuple of facts drawn
from the answerer's own script (or, for a murderer, from its cover story); an empty tuple is a
declined answer. Relations are public in the setting, so a relation answer carries no fact.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from formalize.world.facts import Fact, Held, Met, Seen
from formalize.world.setting import Setting


@dataclass(frozen=True, slots=True)
class Where:
    """Where was ``person`` during ``slot``?"""

    person: str
    slot: int


@dataclass(frozen=True, slots=True)
class Saw:
    """Did ``a`` see ``b`` during ``slot`` (were they in one place)?"""

    a: str
    b: str
    slot: int


@dataclass(frozen=True, slots=True)
class HeldItem:
    """Did ``person`` hold ``item`` during the evening?"""

    person: str
    item: str


@dataclass(frozen=True, slots=True)
class Related:
    """How are ``a`` and ``b`` related?"""

    a: str
    b: str


Question = Where | Saw | HeldItem | Related


def all_questions(setting: Setting, about: Iterable[str]) -> list[Question]:
    """Every question about the people ``about`` (and the victims they met), in a fixed order."""
    people = list(about)
    everyone = [p.id for p in setting.people]
    slots = range(len(setting.slots))
    out: list[Question] = [Where(x, t) for x in people for t in slots]
    out += [Saw(a, b, t) for a in people for b in everyone if a != b for t in slots]
    out += [HeldItem(x, w.id) for x in people for w in setting.weapons]
    out += [Related(a, b) for a in people for b in everyone if a != b]
    return out


def _place_of(facts: Iterable[Fact], person: str, slot: int) -> str | None:
    for fact in facts:
        if isinstance(fact, Seen) and fact.present and (fact.person, fact.slot) == (person, slot):
            return fact.place
    return None


def answer_from(facts: tuple[Fact, ...], question: Question) -> tuple[Fact, ...]:
    """What ``facts`` say in answer to ``question``; empty when they do not tell.

    A place answer names the room and who was and was not in it, since whoever knows where x
    was shared that room. Whether a saw b is known to whoever knows where a or b was.
    """
    match question:
        case Where(person, slot):
            place = _place_of(facts, person, slot)
            if place is None:
                return ()
            return tuple(
                f for f in facts if isinstance(f, Seen) and (f.place, f.slot) == (place, slot)
            )
        case Saw(a, b, slot):
            for seen, other in ((a, b), (b, a)):
                place = _place_of(facts, seen, slot)
                if place is None:
                    continue
                for f in facts:
                    if isinstance(f, Seen) and (f.person, f.place, f.slot) == (other, place, slot):
                        return (Met(a, b, slot, f.present),)
            return ()
        case HeldItem(person, item):
            return tuple(
                f for f in facts if isinstance(f, Held) and (f.person, f.item) == (person, item)
            )
        case Related():
            return ()


def relation_answer(setting: Setting, question: Related) -> str:
    """The public relation between the two people of ``question`` (``none known`` if none)."""
    kinds = [
        f"{setting.person(r.a).name} is {setting.person(r.b).name}'s {r.kind}"
        for r in setting.relations
        if {r.a, r.b} == {question.a, question.b}
    ]
    return "; ".join(kinds) if kinds else "none known"


def render_question(setting: Setting, question: Question) -> str:
    """The question in English."""
    match question:
        case Where(person, slot):
            return f"Where was {setting.person(person).name} at {setting.slots[slot]}?"
        case Saw(a, b, slot):
            return (
                f"Did {setting.person(a).name} see {setting.person(b).name} "
                f"at {setting.slots[slot]}?"
            )
        case HeldItem(person, item):
            return f"Did {setting.person(person).name} hold the {setting.item(item).name}?"
        case Related(a, b):
            return f"How are {setting.person(a).name} and {setting.person(b).name} related?"
