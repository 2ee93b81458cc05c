"""WellPlay-style questions per character, with answer keys a prover checks, and their metrics.

Three categories as in seed 004: objective (who killed each victim, 10 points), reasoning (the
weapon of a crime, where a player was at a crime's time; 5 points) and relations (how a player
stands to a victim, 2 points). A question is kept only when all scripts together entail its key
and rule out every other option. Each is tagged by the least knowledge that settles it: the
character's own script (``own``), that plus the planned answers a game lets it hear
(``said``), or only all scripts together (``all``). So the seed's two no-play baselines, own
script only and all scripts, become exact bounds: the first settles the ``own`` questions, the
second all of them. The Overall score weights each category by the total possible points of the
questions scored in it (seed 004, Appendix C.2): on the seed's whole set (117 / 800 / 565
questions) that is 1170 / 4000 / 1130 over 6300, on any other set its own totals.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from formalize.interrogation.acceptance import answer, plan
from formalize.interrogation.script import Scripts
from formalize.interrogation.testimony import as_heard
from formalize.world import atoms
from formalize.world.facts import fact_formula
from formalize.world.theory import background_theory
from reasoning.formula import Formula, Not, conj
from reasoning.prover import Axiom, Prover
from reasoning.verdict import Verdict

Category = Literal["objective", "reasoning", "relation"]
Needs = Literal["own", "said", "all"]
POINTS: dict[Category, int] = {"objective": 10, "reasoning": 5, "relation": 2}
"""Points per question of each category, as in seed 004."""
OPTIONS = 5
"""Options per question (a to e)."""


@dataclass(frozen=True)
class QuizQuestion:
    """A multiple-choice question for ``person``: options (text, formula or None for a
    relation), the key (option indices), its category and what knowledge settles it."""

    person: str
    category: Category
    text: str
    options: tuple[str, ...]
    formulas: tuple[Formula | None, ...]
    key: frozenset[int]
    needs: Needs

    @property
    def points(self) -> int:
        """The question's points (10 / 5 / 2)."""
        return POINTS[self.category]

    def settled(self) -> Formula:
        """The key's options true and every other option false."""
        return conj(
            f if k in self.key else Not(f) for k, f in enumerate(self.formulas) if f is not None
        )


def _choose(rng: random.Random, truth: Sequence[str], pool: Sequence[str]) -> list[str]:
    others = [p for p in pool if p not in truth]
    picked = [*truth, *rng.sample(others, min(len(others), OPTIONS - len(truth)))]
    rng.shuffle(picked)
    return picked


def _drafts(scripts: Scripts, person: str, rng: random.Random) -> list[QuizQuestion]:
    setting = scripts.world.setting
    name = {p.id: p.name for p in setting.people}
    out: list[QuizQuestion] = []
    for i, crime in enumerate(scripts.world.crimes, start=1):
        victim = name[crime.victim]
        people = _choose(rng, crime.killers, [p for p in scripts.players if p != person])
        out.append(
            QuizQuestion(
                person,
                "objective",
                f"Who killed {victim}?",
                tuple(name[p] for p in people),
                tuple(atoms.culprit(i, p) for p in people),
                frozenset(k for k, p in enumerate(people) if p in crime.killers),
                "all",
            )
        )
        weapons = _choose(rng, [crime.weapon], [w.id for w in setting.weapons])
        out.append(
            QuizQuestion(
                person,
                "reasoning",
                f"What weapon killed {victim}?",
                tuple(setting.item(w).name for w in weapons),
                tuple(atoms.weapon(i, w) for w in weapons),
                frozenset({weapons.index(crime.weapon)}),
                "all",
            )
        )
        other = rng.choice([p for p in scripts.players if p != person])
        where = scripts.world.positions[other][crime.slot]
        places = _choose(rng, [where], [p.id for p in setting.places])
        out.append(
            QuizQuestion(
                person,
                "reasoning",
                f"Where was {name[other]} at {setting.slots[crime.slot]}?",
                tuple(f"the {setting.place(p).name}" for p in places),
                tuple(atoms.at(other, p, crime.slot) for p in places),
                frozenset({places.index(where)}),
                "all",
            )
        )
    kinds = sorted({r.kind for r in setting.relations})
    for rel in setting.relations:
        if rel.a != person or len(kinds) < 2:
            continue
        options = _choose(rng, [rel.kind], kinds)
        out.append(
            QuizQuestion(
                person,
                "relation",
                f"How does {name[rel.a]} stand to {name[rel.b]}?",
                tuple(options),
                (None,) * len(options),
                frozenset({options.index(rel.kind)}),
                "own",
            )
        )
    return out


def quiz(scripts: Scripts, prover: Prover, seed: int = 0) -> list[QuizQuestion]:
    """Every player's questions whose key all scripts settle, tagged by what settles them."""
    setting = scripts.world.setting
    rng = random.Random(f"quiz:{seed}")
    base = [
        *background_theory(setting),
        Axiom("intro", conj(fact_formula(f, setting) for f in scripts.intro)),
    ]

    def script_axiom(person: str) -> Axiom:
        facts = scripts.scripts[person]
        return Axiom(f"script_{person}", conj(fact_formula(f, setting) for f in facts))

    everyone = [script_axiom(p) for p in scripts.players]
    heard = Axiom(
        "heard", conj(as_heard(setting, p, answer(scripts, p, q)) for p, q in plan(scripts))
    )
    out: list[QuizQuestion] = []
    for person in scripts.players:
        own = [*base, script_axiom(person)]
        for question in _drafts(scripts, person, rng):
            if question.category == "relation":
                out.append(question)
                continue
            goal = question.settled()
            if prover.prove([*base, *everyone], goal).verdict is not Verdict.VALID:
                continue
            needs: Needs = "all"
            if prover.prove(own, goal).verdict is Verdict.VALID:
                needs = "own"
            elif prover.prove([*own, heard], goal).verdict is Verdict.VALID:
                needs = "said"
            out.append(
                QuizQuestion(
                    question.person,
                    question.category,
                    question.text,
                    question.options,
                    question.formulas,
                    question.key,
                    needs,
                )
            )
    return out


class Graded(Protocol):
    """Anything graded like a WellPlay question: a category and its points."""

    @property
    def category(self) -> Category:
        """objective, reasoning or relation."""
        ...

    @property
    def points(self) -> int:
        """10, 5 or 2."""
        ...


def category_points(questions: Sequence[Graded]) -> dict[Category, int]:
    """The total possible points of the questions of each category: the Overall's weights."""
    return {cat: sum(q.points for q in questions if q.category == cat) for cat in POINTS}


def accuracy(questions: Sequence[Graded], correct: Sequence[bool]) -> dict[str, float]:
    """Per-category accuracy (0.0 for a category with no question) and the Overall: the
    categories' accuracies weighted by their total possible points (``category_points``)."""
    out: dict[str, float] = {}
    for cat in POINTS:
        marks = [c for q, c in zip(questions, correct, strict=True) if q.category == cat]
        out[cat] = sum(marks) / len(marks) if marks else 0.0
    weights = category_points(questions)
    total = sum(weights.values())
    out["overall"] = sum(weights[c] * out[c] for c in POINTS) / total if total else 0.0
    return out


def bound(questions: Sequence[QuizQuestion], level: Needs) -> list[bool]:
    """Which questions an exact reasoner settles with knowledge ``level`` (own < said < all)."""
    order = {"own": 0, "said": 1, "all": 2}
    return [order[q.needs] <= order[level] for q in questions]
