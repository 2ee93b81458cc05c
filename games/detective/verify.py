"""The acceptance checks of a case, asked of any ``reasoning.Prover``, and the case's logic.

``verify_case`` states the generator's contract: the theory, the introduction and every
location's facts are consistent (and true of the world, when it is given); with all locations
each answer is entailed and every other value of every slot is ruled out; the introduction alone
entails no answer; each answer's unlock sets need two locations or more, and the first of them
entails it. Minimality and completeness of the unlock sets and the single-location rule are
checked with the incremental session by the generator.
"""

from __future__ import annotations

from collections.abc import Sequence

from formalize.world.theory import background_theory
from formalize.world.world import World
from games.detective.case import AnswerSlot, Case, Question
from games.detective.knowledge import CaseKnowledge
from reasoning.constraints import ConstraintSessionFactory
from reasoning.formula import Atom, Formula, Implies, Not, conj, disj
from reasoning.prover import Axiom, Prover, check_consistency
from reasoning.syntax import parse_formula
from reasoning.verdict import Verdict


def slot_formula(slot: AnswerSlot, value: str) -> Formula:
    """The fact that ``slot`` has ``value`` (its choice's formula)."""
    text = slot.choice(value).formula
    if text is None:
        raise ValueError(f"slot {slot.name!r}: choice {value!r} has no formula")
    return parse_formula(text)


def answer_formula(question: Question) -> Formula:
    """The reference answer of ``question`` as one formula (the conjunction of its elements)."""
    return conj(slot_formula(slot, slot.answer) for slot in question.slots)


def theory_formulas(case: Case) -> list[Formula]:
    """The background theory of the case's setting (ValueError when the case has none)."""
    if case.setting is None:
        raise ValueError("the case has no setting, so no background theory")
    return [a.formula for a in background_theory(case.setting)]


def card_formulas(case: Case) -> tuple[list[Formula], list[list[Formula]]]:
    """The introduction's facts and each location's facts, parsed."""
    intro = [parse_formula(f) for f in case.intro_facts]
    return intro, [[parse_formula(f) for f in loc.facts] for loc in case.locations]


def case_knowledge(case: Case, factory: ConstraintSessionFactory) -> CaseKnowledge:
    """A session over the case: theory and introduction for good, one card per location."""
    intro, cards = card_formulas(case)
    return CaseKnowledge(theory_formulas(case), intro, cards, factory)


def _axioms(
    theory: Sequence[Axiom],
    case: Case,
    intro: Sequence[Formula],
    cards: Sequence[Sequence[Formula]],
    read: set[str] | None = None,
) -> list[Axiom]:
    """The theory, the introduction and the facts of the locations in ``read`` (all if None)."""
    out = [*theory, Axiom("introduction", conj(intro))]
    out += [
        Axiom(f"location_{loc.id}", conj(facts))
        for loc, facts in zip(case.locations, cards, strict=True)
        if read is None or loc.id in read
    ]
    return out


def _settled(question: Question) -> Formula:
    """The answer's elements and the negation of every other value of every slot."""
    others = [
        Not(slot_formula(slot, c.value))
        for slot in question.slots
        for c in slot.choices
        if c.value != slot.answer
    ]
    return conj([answer_formula(question), *others])


def _guard(question: Question) -> Atom:
    return Atom(f"unlock_guard_{question.id}")


def _unlock_axioms(
    theory: Sequence[Axiom],
    case: Case,
    intro: Sequence[Formula],
    cards: Sequence[Sequence[Formula]],
    questions: Sequence[Question],
) -> list[Axiom]:
    """Theory, introduction, and each location's facts behind the guards of the questions
    whose first unlock set holds it: then "guard -> answer" for every question is entailed
    exactly when every question's first unlock set entails its answer."""
    out = [*theory, Axiom("introduction", conj(intro))]
    for loc, facts in zip(case.locations, cards, strict=True):
        guards = [_guard(q) for q in questions if loc.id in q.unlock_sets[0]]
        if guards and facts:
            out.append(Axiom(f"location_{loc.id}", Implies(disj(guards), conj(facts))))
    return out


def answer_problems(case: Case, prover: Prover) -> list[str]:
    """What breaks the answers' part of the contract, given consistent cards: all locations must
    settle every answer uniquely, and the introduction alone must settle none."""
    if case.setting is None:
        return ["the case has no setting, so it cannot be checked"]
    theory = background_theory(case.setting)
    intro, cards = card_formulas(case)
    everything = _axioms(theory, case, intro, cards)
    problems: list[str] = []
    settled = prover.prove(everything, conj(_settled(q) for q in case.questions))
    if settled.verdict is not Verdict.VALID:
        problems += [
            f"{q.id}: all locations do not settle the answer uniquely"
            for q in case.questions
            if prover.prove(everything, _settled(q)).verdict is not Verdict.VALID
        ] or [f"all locations do not settle the answers ({settled.verdict})"]
    alone = _axioms(theory, case, intro, cards, set())
    answers = disj(answer_formula(q) for q in case.questions)
    if prover.prove(alone, answers).verdict is not Verdict.INVALID:
        problems += [
            f"{q.id}: the introduction alone may settle the answer"
            for q in case.questions
            if prover.prove(alone, answer_formula(q)).verdict is not Verdict.INVALID
        ]
    return problems


def verify_case(case: Case, prover: Prover, world: World | None = None) -> list[str]:
    """Every way the case breaks the contract, as one line each; empty when it holds.

    Four prover calls when all is well: the consistency of everything with the truth (and the
    world, when given); all locations settling every answer uniquely; the introduction alone
    not entailing even the disjunction of the answers (``answer_problems``); and every
    question's first unlock set entailing its answer (one call, through guard atoms). A failed
    combined check is redone per question to say which one fails.
    """
    if case.setting is None:
        return ["the case has no setting, so it cannot be checked"]
    theory = background_theory(case.setting)
    intro, cards = card_formulas(case)
    everything = _axioms(theory, case, intro, cards)
    problems: list[str] = []
    truth: list[Formula] = [answer_formula(q) for q in case.questions]
    if world is not None:
        truth += world.literals()
    model = check_consistency(prover, [*everything, Axiom("truth", conj(truth))])
    if model.verdict is not Verdict.INVALID:
        problems.append(f"theory, cards and truth not shown consistent ({model.verdict})")
    problems += answer_problems(case, prover)
    short = [q for q in case.questions if not q.unlock_sets or min(map(len, q.unlock_sets)) < 2]
    problems += [f"{q.id}: an answer must need at least two locations" for q in short]
    stored = [q for q in case.questions if q.unlock_sets]
    goal = conj(Implies(_guard(q), answer_formula(q)) for q in stored)
    unlock = _unlock_axioms(theory, case, intro, cards, stored)
    if stored and prover.prove(unlock, goal).verdict is not Verdict.VALID:
        problems += [
            f"{q.id}: unlock set {q.unlock_sets[0]} does not unlock the answer"
            for q in stored
            if prover.prove(
                _axioms(theory, case, intro, cards, set(q.unlock_sets[0])), answer_formula(q)
            ).verdict
            is not Verdict.VALID
        ]
    return problems
