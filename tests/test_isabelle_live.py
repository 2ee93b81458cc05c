"""The Isabelle backend against a real Isabelle server; skipped when Isabelle is not installed.

One server (and HOL session) is started for the module and closed at its end. The first start
may build the HOL image, which can take a long time.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from provers.identifiers import axiom_id
from provers.isabelle import IsabelleProver, IsabelleServer, check_sketch, render_theory
from provers.isabelle.prover import unique_theory_name
from provers.isabelle.theory_text import isabelle_name
from reasoning.formula import Atom, Exists, Not
from reasoning.prover import Axiom, check_consistency
from reasoning.verdict import Verdict
from tests.support.isabelle_server import card_problem, odd_names_problem, tea_problem

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("isabelle") is None, reason="Isabelle not installed (isabelle not on PATH)"
    ),
]
LIMIT_S = 120.0


@pytest.fixture(scope="module")
def prover() -> Iterator[IsabelleProver]:
    server = IsabelleServer()
    try:
        yield IsabelleProver(server=server, timeout=LIMIT_S)
    finally:
        server.close()


def test_tea_is_proved_and_replayed(prover: IsabelleProver) -> None:
    result = prover.prove(*tea_problem())
    assert result.verdict is Verdict.VALID, result.message
    assert result.used_axioms and set(result.used_axioms) <= {"fact_1", "rule_2"}


def test_goal_not_entailed_has_a_countermodel(prover: IsabelleProver) -> None:
    axioms, goal = tea_problem()
    assert isinstance(goal, Exists)
    other = Exists(goal.vars, Atom("CeylonTea", goal.vars))
    result = prover.prove(axioms, other)
    assert result.verdict is Verdict.INVALID, result.message
    assert "Nitpick found a counterexample" in result.message


def test_consistent_axioms_are_confirmed_by_a_countermodel(prover: IsabelleProver) -> None:
    axioms, _ = tea_problem()
    assert check_consistency(prover, axioms, LIMIT_S).verdict is Verdict.INVALID
    clash = Axiom("clash", Not(axioms[0].formula))
    assert check_consistency(prover, [*axioms, clash], LIMIT_S).verdict is Verdict.VALID


def test_cardinality_constraints_are_proved(prover: IsabelleProver) -> None:
    result = prover.prove(*card_problem())
    assert result.verdict is Verdict.VALID, result.message


def test_odd_names_give_a_theory_isabelle_accepts(prover: IsabelleProver) -> None:
    name = unique_theory_name("Odd")
    proof = f"using {isabelle_name(axiom_id('lemma'))} by blast"
    theory = render_theory(*odd_names_problem(), name, proof=proof)
    check = prover.check_theory(theory, name, LIMIT_S)
    assert check.ok and not check.errors, check.log


def test_sketch_is_completed_by_sledgehammer(prover: IsabelleProver) -> None:
    sketch = 'have "\\<exists>x. p_EarlGrey x" <ATP>\nthen show ?thesis <ATP>'
    result = check_sketch(prover, *tea_problem(), sketch)
    assert result.ok, result.message
    assert all(not step.is_gap for step in result.steps)


def test_sketch_statement_with_a_type_error_is_reported(prover: IsabelleProver) -> None:
    result = check_sketch(
        prover, *tea_problem(), 'have "p_Tea p_Tea" <ATP>\nthen show ?thesis <ATP>'
    )
    assert result.verdict is Verdict.SYNTAX_ERROR and result.failed_step == 0, result.message
