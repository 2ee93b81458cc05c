"""Minimal unlock sets: the minimal sets of cards from which a formula follows.

Entailment only grows as cards are added, so the sets that unlock a formula are closed upward
and are described by their minimal members. They are enumerated as MARCO enumerates minimal
unsatisfiable subsets: a second session (the map) proposes a set of cards not yet explained; if
it unlocks, it is shrunk to a minimal unlock set and its supersets are blocked; if not, it is
grown to a maximal set that does not unlock and its subsets are blocked. The map running out of
proposals means every minimal set has been found.
"""

from __future__ import annotations

from collections.abc import Callable

from games.detective.case import Case
from games.detective.knowledge import CaseKnowledge
from games.detective.verify import case_knowledge, slot_formula
from reasoning.constraints import ConstraintSessionFactory
from reasoning.formula import Atom, Formula, Not, Or, conj, disj


class TooManyUnlockSets(ValueError):
    """A formula has more minimal unlock sets than the caller allowed."""


def _pick(index: int) -> Atom:
    return Atom(f"pick_{index}")


def shrink(knowledge: CaseKnowledge, cards: set[int], goal: Formula) -> set[int]:
    """A minimal subset of ``cards`` (which must unlock ``goal``) that still unlocks it."""
    kept = set(cards)
    for card in sorted(cards):
        if knowledge.entails(kept - {card}, goal):
            kept.discard(card)
    return kept


def minimal_unlock_sets(
    knowledge: CaseKnowledge,
    goal: Formula,
    factory: ConstraintSessionFactory,
    limit: int = 64,
    tick: Callable[[], None] | None = None,
) -> list[frozenset[int]]:
    """Every minimal set of cards that (with the theory and introduction) entails ``goal``.

    Sorted by size, then by card numbers; at most ``limit`` of them (TooManyUnlockSets beyond,
    since a case with that many ways to an answer is not what a generator should accept).
    ``tick`` is called before every proposal (a deadline raises from it).
    """
    cards = range(knowledge.cards)
    found: list[frozenset[int]] = []
    map_session = factory()
    try:
        map_session.add(disj([*(_pick(i) for i in cards), *(Not(_pick(i)) for i in cards)]))
        while True:
            if tick is not None:
                tick()
            model = map_session.model()
            if model is None:
                break
            seed = {i for i in cards if model.get(_pick(i).pred, False)}
            if knowledge.entails(seed, goal):
                minimal = frozenset(shrink(knowledge, seed, goal))
                found.append(minimal)
                if len(found) > limit:
                    raise TooManyUnlockSets(f"more than {limit} minimal unlock sets")
                map_session.add(disj(Not(_pick(i)) for i in sorted(minimal)))
            else:
                for card in cards:
                    if card not in seed and not knowledge.entails(seed | {card}, goal):
                        seed.add(card)
                rest = [_pick(i) for i in cards if i not in seed]
                if not rest:
                    break
                map_session.add(rest[0] if len(rest) == 1 else Or(tuple(rest)))
    finally:
        map_session.close()
    return sorted(found, key=lambda s: (len(s), sorted(s)))


UnlockKey = tuple[str, str | None]
"""A question's id with one of its slot's names, or with None for the whole answer."""


def computed_unlock_sets(
    case: Case, factory: ConstraintSessionFactory, tick: Callable[[], None] | None = None
) -> dict[UnlockKey, list[frozenset[int]]]:
    """Every question's and slot's minimal unlock sets (as location indices), computed; the
    case needs its logic. ``tick`` is called often (a deadline raises from it)."""
    out: dict[UnlockKey, list[frozenset[int]]] = {}
    with case_knowledge(case, factory) as kb:
        for q in case.questions:
            goal = conj(slot_formula(s, s.answer) for s in q.slots)
            out[q.id, None] = minimal_unlock_sets(kb, goal, factory, tick=tick)
            for slot in q.slots:
                goal = slot_formula(slot, slot.answer)
                out[q.id, slot.name] = minimal_unlock_sets(kb, goal, factory, tick=tick)
    return out


def with_unlock_sets(
    case: Case,
    factory: ConstraintSessionFactory,
    computed: dict[UnlockKey, list[frozenset[int]]] | None = None,
) -> Case:
    """The case with every question's and slot's minimal unlock sets (over its locations) and
    its red herrings (locations in none of them) filled in, from ``computed`` or computed now;
    the case needs its logic."""
    sets = computed if computed is not None else computed_unlock_sets(case, factory)
    ids = [loc.id for loc in case.locations]

    def named(key: UnlockKey) -> list[list[str]]:
        return [[ids[i] for i in sorted(s)] for s in sets[key]]

    questions = [
        q.model_copy(
            update={
                "slots": [
                    slot.model_copy(update={"unlock_sets": named((q.id, slot.name))})
                    for slot in q.slots
                ],
                "unlock_sets": named((q.id, None)),
            }
        )
        for q in case.questions
    ]
    used = {i for found in sets.values() for s in found for i in s}
    locations = [
        loc.model_copy(update={"red_herring": i not in used})
        for i, loc in enumerate(case.locations)
    ]
    return case.model_copy(update={"questions": questions, "locations": locations})
