"""WellPlay-style questions: keys settled by all scripts, tags ordered, the seed's Overall."""

from __future__ import annotations

from formalize.interrogation.quiz import SEED_TOTALS, accuracy, bound, quiz
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


def test_overall_weights_the_categories_1170_4000_1130_over_6300() -> None:
    assert sum(SEED_TOTALS.values()) == 6300
    prover = SatProver()
    questions = quiz(scripts_for(2, ScriptConfig()), prover, 2)
    only_reasoning = [q.category == "reasoning" for q in questions]
    metrics = accuracy(questions, only_reasoning)
    assert metrics["reasoning"] == 1.0 and metrics["objective"] == 0.0
    assert metrics["overall"] == 4000 / 6300
    assert accuracy(questions, [True] * len(questions))["overall"] == 1.0
