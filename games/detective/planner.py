"""The best achievable score of a case, and the prover-backed player's decisions.

An ideal reader answers exactly the elements its reading entails, so after reading a set S of
locations a slot is answered correctly iff S contains one of the slot's minimal unlock sets, and
nothing is ever wrong. The best visiting order maximises the summed grades over the stages; it
is found by dynamic programming over the subsets of the locations some unlock set mentions
(the others never help, so they go last). The prover-backed player follows such an order: it
visits next the location that starts a best completion of what it has read, preferring, among
equally good ones, the location that unlocks most answer elements at once (the plain "most
unlocked next" rule alone can miss two locations that only unlock something together). It
answers a slot only when its reading entails the value.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache

from pydantic import BaseModel, ConfigDict

from games.detective.case import MAX_CLUE_LOCATIONS, Case
from games.detective.grading import CaseScore, element_grade, score_case
from games.detective.knowledge import CaseKnowledge
from games.detective.verify import case_knowledge, slot_formula
from reasoning.closing import Closing
from reasoning.constraints import ConstraintSessionFactory
from reasoning.formula import Atom, Formula

MAX_RELEVANT = MAX_CLUE_LOCATIONS
"""The most locations the exact planner searches over (2^16 subsets)."""


class _Plan:
    """Unlock sets as bit masks over the relevant locations, with the stage value of a mask."""

    def __init__(self, case: Case) -> None:
        ids = [loc.id for loc in case.locations]
        relevant = sorted(
            {lid for q in case.questions for s in q.slots for u in s.unlock_sets for lid in u},
            key=ids.index,
        )
        if len(relevant) > MAX_RELEVANT:
            raise ValueError(
                f"{len(relevant)} relevant locations; the planner takes {MAX_RELEVANT}"
            )
        self.relevant = relevant
        self.bit = {lid: 1 << i for i, lid in enumerate(relevant)}
        self.questions = [
            [[self.mask(u) for u in slot.unlock_sets] for slot in q.slots] for q in case.questions
        ]
        self.full = (1 << len(relevant)) - 1
        self.value = lru_cache(maxsize=None)(self._value)
        self.best = lru_cache(maxsize=None)(self._best)

    def mask(self, lids: Collection[str]) -> int:
        """The bit mask of the relevant locations among ``lids``."""
        out = 0
        for lid in lids:
            out |= self.bit.get(lid, 0)
        return out

    def unlocked(self, mask: int) -> int:
        """How many answer elements the locations in ``mask`` unlock."""
        return sum(any(u & mask == u for u in sets) for slots in self.questions for sets in slots)

    def _value(self, mask: int) -> int:
        """The summed grades of an ideal reader who has read the locations in ``mask``."""
        total = 0
        for slots in self.questions:
            correct = sum(any(u & mask == u for u in sets) for sets in slots)
            total += element_grade(len(slots), correct, 0)
        return total

    def _best(self, mask: int) -> int:
        """The most the stages after ``mask`` can add while the relevant locations run out."""
        rest = [b for b in self.bit.values() if not b & mask]
        return max((self.value(mask | b) + self.best(mask | b) for b in rest), default=0)

    def next_location(self, read: Collection[str]) -> str | None:
        """The relevant unread location that starts a best completion, or None if none is left."""
        mask = self.mask(read)
        options = [lid for lid in self.relevant if not self.bit[lid] & mask]
        if not options:
            return None
        return max(
            options,
            key=lambda lid: (
                self.value(mask | self.bit[lid]) + self.best(mask | self.bit[lid]),
                self.unlocked(mask | self.bit[lid]),
            ),
        )


def _ideal_stage(
    case: Case, plan: _Plan, read: Collection[str]
) -> dict[str, dict[str, str | None]]:
    mask = plan.mask(read)
    return {
        q.id: {
            slot.name: slot.answer if any(u & mask == u for u in sets) else None
            for slot, sets in zip(q.slots, slots, strict=True)
        }
        for q, slots in zip(case.questions, plan.questions, strict=True)
    }


class BestScore(BaseModel):
    """The best visiting order of a case and the scores an ideal reader gets along it."""

    model_config = ConfigDict(frozen=True)

    order: list[str]
    score: CaseScore


def best_order(case: Case) -> list[str]:
    """A visiting order with the highest summed grades: relevant locations first, by the plan."""
    plan = _Plan(case)
    order: list[str] = []
    while (lid := plan.next_location(order)) is not None:
        order.append(lid)
    return order + [loc.id for loc in case.locations if loc.id not in order]


def best_achievable(case: Case) -> BestScore:
    """The best achievable scores of ``case``, from its unlock sets, and an order reaching them."""
    plan = _Plan(case)
    order = best_order(case)
    stages = [_ideal_stage(case, plan, order[:t]) for t in range(len(order) + 1)]
    return BestScore(order=order, score=score_case(case, stages))


class ProverPlayer(Closing):
    """The prover-backed player: plans visits from the unlock sets, answers what it can prove."""

    def __init__(self, case: Case, factory: ConstraintSessionFactory) -> None:
        self.case = case
        self._plan = _Plan(case)
        self._knowledge: CaseKnowledge = case_knowledge(case, factory)
        self._index = {loc.id: i for i, loc in enumerate(case.locations)}

    def choose(self, read: Sequence[str]) -> str:
        """The location to visit next after reading ``read`` (some location must be left)."""
        lid = self._plan.next_location(read)
        if lid is not None:
            return lid
        return next(loc.id for loc in self.case.locations if loc.id not in read)

    def answer(self, read: Collection[str]) -> dict[str, dict[str, str | None]]:
        """Per question and slot, the value its reading entails, or None when none is.

        One model of the reading is found first: a value stated by an atom false in it is not
        entailed, so only the others are put to the prover.
        """
        cards = {self._index[lid] for lid in read}
        model = self._knowledge.model(cards) or {}

        def entailed(formula: Formula) -> bool:
            if isinstance(formula, Atom) and not formula.args and not model.get(formula.pred):
                return False
            return self._knowledge.entails(cards, formula)

        return {
            q.id: {
                slot.name: next(
                    (c.value for c in slot.choices if entailed(slot_formula(slot, c.value))),
                    None,
                )
                for slot in q.slots
            }
            for q in self.case.questions
        }

    def close(self) -> None:
        """Release the knowledge session."""
        self._knowledge.close()
