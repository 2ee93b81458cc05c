"""Per-element audit of an answer: justified, lucky or unsupported, by what had been read.

Each element given is a claim; the Verifier classifies it against the theory, the introduction
and the locations read so far (ENTAILED / CONTRADICTED / UNDETERMINED) and against the solution
(TRUE / FALSE). A justified element is sound (entailed and true), a lucky one is true but not
entailed, and an unsupported one is false (the Verifier's wrong): nothing read could justify it.
A value outside the slot's choices states no fact, so it is not audited (grading counts it wrong).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from pydantic import BaseModel, ConfigDict

from games.detective.case import Case
from games.detective.verify import card_formulas, slot_formula, theory_formulas
from reasoning.formula import Card, Formula
from reasoning.prover import Axiom
from reasoning.verifier import ClaimCheck, Verifier

KIND_NAMES: dict[str, str] = {"sound": "justified", "lucky": "lucky", "wrong": "unsupported"}
"""How the Verifier's kinds are named for answer elements."""


class ElementAudit(BaseModel):
    """One given element: the question and slot, the value, and its claim check."""

    model_config = ConfigDict(frozen=True)

    question: str
    slot: str
    value: str
    check: ClaimCheck

    @property
    def kind(self) -> str:
        """justified, lucky or unsupported (or unjudged when the prover could not tell)."""
        return KIND_NAMES.get(self.check.kind, self.check.kind)


def _truth(case: Case) -> list[Formula]:
    """The solution: per slot, exactly one value, and it is the reference one."""
    out: list[Formula] = []
    for q in case.questions:
        for slot in q.slots:
            values = tuple(slot_formula(slot, c.value) for c in slot.choices)
            out += [Card("exactly", 1, values), slot_formula(slot, slot.answer)]
    return out


def audit_answers(
    case: Case,
    read: Collection[str],
    answers: Mapping[str, Mapping[str, str | None]],
    verifier: Verifier,
) -> list[ElementAudit]:
    """Classify every element given in ``answers`` after reading the locations ``read``."""
    intro, cards = card_formulas(case)
    knowledge = [Axiom(f"theory_{i}", f) for i, f in enumerate(theory_formulas(case))]
    knowledge += [Axiom(f"intro_{i}", f) for i, f in enumerate(intro)]
    for loc, facts in zip(case.locations, cards, strict=True):
        if loc.id in read:
            knowledge += [Axiom(f"{loc.id}_{i}", f) for i, f in enumerate(facts)]
    given = [
        (q.id, slot, value)
        for q in case.questions
        for slot in q.slots
        if (value := answers.get(q.id, {}).get(slot.name)) is not None
        and value in {c.value for c in slot.choices}
    ]
    if not given:
        return []
    report = verifier.audit(
        knowledge, [slot_formula(slot, value) for _, slot, value in given], _truth(case)
    )
    return [
        ElementAudit(question=qid, slot=slot.name, value=value, check=check)
        for (qid, slot, value), check in zip(given, report.checks, strict=True)
    ]
