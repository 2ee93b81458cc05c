"""WellPlay-style questions: keys settled by all scripts, tags ordered, the Overall weighted by
the points of the questions scored (the seed's 1170 / 4000 / 1130 on its whole set)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pytest

from formalize.interrogation.quiz import POINTS, Category, accuracy, bound, category_points, quiz
from formalize.interrogation.script_generate import ScriptConfig
from formalize.world.facts import fact_formula
from formalize.world.theory import background_theory
from games.mystery.entry import scripts_for
from provers.sat_prover import SatProver
from reasoning.formula import conj
from reasoning.prover import Axiom
from reasoning.verdict import Verdict


def test_questions_have_checked_keys_in_three_categories_and_ordered_bounds() -> None:
    prover = SatProver()
    scripts = scripts_for(1, ScriptConfig())
    questions = quiz(scripts, prover, 1)
    assert {q.category for q in questions} == {"objective", "reasoning", "relation"}
    assert {q.points for q in questions} == {10, 5, 2}
    true = scripts.world.true_atoms()
    for q in questions:
        assert 2 <= len(q.options) <= 5 and q.key and max(q.key) < len(q.options)
        if q.category != "relation":
            assert all((f in true) == (k in q.key) for k, f in enumerate(q.formulas))
    settled = [q for q in questions if q.needs == "own" and q.category != "relation"]
    assert settled
    theory = background_theory(scripts.world.setting)
    for q in settled[:3]:
        known = [*scripts.intro, *scripts.scripts[q.person]]
        formula = conj(fact_formula(f, scripts.world.setting) for f in known)
        assert prover.prove([*theory, Axiom("own", formula)], q.settled()).verdict is Verdict.VALID
    own, said, every = (sum(bound(questions, lvl)) for lvl in ("own", "said", "all"))
    assert own <= said <= every == len(questions)


@dataclass(frozen=True)
class Marked:
    """A graded question with only what the metrics read."""

    category: Category
    points: int


def _questions(counts: dict[Category, int]) -> list[Marked]:
    return [Marked(cat, POINTS[cat]) for cat, n in counts.items() for _ in range(n)]


SEED_SET: dict[Category, int] = {"objective": 117, "reasoning": 800, "relation": 565}
"""Questions per category in seed 004's whole WellPlay set (Table 8: 1482 in all)."""


def test_on_the_seeds_whole_set_overall_weights_1170_4000_1130_over_6300() -> None:
    questions = _questions(SEED_SET)
    assert category_points(questions) == {"objective": 1170, "reasoning": 4000, "relation": 1130}
    right = {"objective": 19, "reasoning": 274, "relation": 240}
    seen: Counter[str] = Counter()
    correct = []
    for q in questions:
        correct.append(seen[q.category] < right[q.category])
        seen[q.category] += 1
    metrics = accuracy(questions, correct)
    fixed = sum(
        total * metrics[cat]
        for cat, total in {"objective": 1170, "reasoning": 4000, "relation": 1130}.items()
    )
    assert metrics["overall"] == pytest.approx(fixed / 6300)
    # Table 2's overall row: .160 / .343 / .425 give .324, as the general rule does.
    assert round(metrics["objective"], 2) == 0.16 and round(metrics["overall"], 3) == 0.324


def test_overall_of_a_generated_quiz_and_a_subset_weights_their_own_points() -> None:
    prover = SatProver()
    questions = quiz(scripts_for(2, ScriptConfig()), prover, 2)
    only_reasoning = [q.category == "reasoning" for q in questions]
    metrics = accuracy(questions, only_reasoning)
    assert metrics["reasoning"] == 1.0 and metrics["objective"] == 0.0
    points = category_points(questions)
    assert metrics["overall"] == pytest.approx(points["reasoning"] / sum(points.values()))
    assert metrics["overall"] != pytest.approx(4000 / 6300)
    assert accuracy(questions, [True] * len(questions))["overall"] == 1.0
    one = [q for q in questions if q.person == questions[0].person and q.category != "relation"]
    subset = accuracy(one, [q.category == "objective" for q in one])
    won = sum(q.points for q in one if q.category == "objective")
    assert subset["overall"] == pytest.approx(won / sum(q.points for q in one))
    assert accuracy([], [])["overall"] == 0.0
