"""Z3, its SMT-LIB export, cvc5 and E never disagree on decisive verdicts on event problems."""

from __future__ import annotations

import pytest
import z3
from hypothesis import event, given, settings
from hypothesis import strategies as st

from provers.cvc5_prover import Cvc5Prover
from provers.eprover import EProver, eprover_available
from provers.model_eval import evaluate
from provers.smtlib import to_smtlib
from provers.z3_prover import Z3Prover
from reasoning.formula import (
    BOTTOM,
    And,
    Atom,
    Card,
    CardOp,
    Const,
    Exists,
    Forall,
    Formula,
    Implies,
    Not,
    Term,
    Var,
)
from reasoning.prover import Axiom
from reasoning.verdict import Verdict

needs_e = pytest.mark.skipif(not eprover_available(), reason="E prover (eprover) not installed")

X = Var("x", "entity")
Y = Var("y", "entity")
E = Var("e", "event")
ENTITY_PREDS = ("Tea", "Bergamot", "Hot", "Person")
EVENT_PREDS = ("Infuse", "Drink")
ROLES = ("Agent", "Patient")
CONSTS = (Const("earl", "entity"), Const("lady", "entity"))
AGENTS: tuple[Term, ...] = (X, *CONSTS)
CARD_OPS: tuple[CardOp, ...] = ("exactly", "atmost", "atleast")

entity_pred = st.sampled_from(ENTITY_PREDS)
event_pred = st.sampled_from(EVENT_PREDS)
role = st.sampled_from(ROLES)


def a(pred: str, *args: Term) -> Atom:
    return Atom(pred, args)


@st.composite
def maybe_not(draw: st.DrawFn, f: Formula) -> Formula:
    return Not(f) if draw(st.booleans()) else f


@st.composite
def event_fact(draw: st.DrawFn) -> Formula:
    """Someone (or a named individual) does something to something."""
    agent = draw(st.sampled_from(AGENTS))
    bound = (X, Y, E) if agent == X else (Y, E)
    body = [
        a(draw(entity_pred), agent),
        a(draw(entity_pred), Y),
        a(draw(event_pred), E),
        a("Agent", E, agent),
        a("Patient", E, Y),
    ]
    return Exists(bound, And(tuple(body)))


@st.composite
def event_rule(draw: st.DrawFn) -> Formula:
    """Whoever does such a thing to such a thing has (or lacks) a property."""
    body = And(
        (
            a(draw(entity_pred), X),
            a(draw(event_pred), E),
            a(draw(role), E, X),
            a(draw(role), E, Y),
        )
    )
    return Forall((X, Y, E), Implies(body, draw(maybe_not(a(draw(entity_pred), Y)))))


@st.composite
def taxonomy(draw: st.DrawFn) -> Formula:
    """Every P is (not) Q."""
    return Forall((X,), Implies(a(draw(entity_pred), X), draw(maybe_not(a(draw(entity_pred), X)))))


@st.composite
def event_has_agent(draw: st.DrawFn) -> Formula:
    """Every event of a kind has an agent with a property."""
    return Forall(
        (E,),
        Implies(
            a(draw(event_pred), E), Exists((X,), And((a("Agent", E, X), a(draw(entity_pred), X))))
        ),
    )


@st.composite
def ground_fact(draw: st.DrawFn) -> Formula:
    return draw(maybe_not(a(draw(entity_pred), draw(st.sampled_from(CONSTS)))))


axiom_formula = st.one_of(event_fact(), event_rule(), taxonomy(), event_has_agent(), ground_fact())


@st.composite
def goal_formula(draw: st.DrawFn) -> Formula:
    kind = draw(st.sampled_from(["exists", "taxonomy", "ground", "event", "bottom"]))
    if kind == "exists":
        return Exists((X,), draw(maybe_not(a(draw(entity_pred), X))))
    if kind == "taxonomy":
        return draw(taxonomy())
    if kind == "ground":
        return draw(ground_fact())
    if kind == "event":
        return Exists(
            (E, X), And((a(draw(event_pred), E), a(draw(role), E, X), a(draw(entity_pred), X)))
        )
    return BOTTOM


@st.composite
def problems(draw: st.DrawFn) -> tuple[list[Axiom], Formula]:
    formulas = draw(st.lists(axiom_formula, min_size=2, max_size=5))
    return [Axiom(f"ax{i}", f) for i, f in enumerate(formulas)], draw(goal_formula())


def smtlib_verdict(axioms: list[Axiom], goal: Formula) -> Verdict:
    """Run the exported SMT-LIB script through z3's own front end."""
    ctx = z3.Context()
    script = "(set-option :timeout 5000)\n" + to_smtlib(axioms, goal)
    answer = z3.Z3_eval_smtlib2_string(ctx.ref(), script).strip()
    return {"unsat": Verdict.VALID, "sat": Verdict.INVALID}.get(answer, Verdict.UNKNOWN)


Z3 = Z3Prover(timeout=5.0)
CVC5 = Cvc5Prover(timeout=5.0)


@settings(max_examples=60, deadline=None)
@given(problems())
def test_z3_countermodels_and_smtlib_export_agree(problem: tuple[list[Axiom], Formula]) -> None:
    axioms, goal = problem
    result = Z3.prove(axioms, goal)
    exported = smtlib_verdict(axioms, goal)
    event(f"z3 {result.verdict.value}, SMT-LIB {exported.value}")
    if result.verdict.decisive and exported.decisive:
        assert result.verdict is exported
    if result.verdict is Verdict.INVALID:
        assert result.countermodel is not None
        assert all(evaluate(ax.formula, result.countermodel) for ax in axioms)
        assert not evaluate(goal, result.countermodel)


@needs_e
@settings(max_examples=60, deadline=None)
@given(problems())
def test_z3_and_e_never_disagree(problem: tuple[list[Axiom], Formula]) -> None:
    axioms, goal = problem
    z3_verdict = Z3.prove(axioms, goal, timeout=3.0).verdict
    e_result = EProver(timeout=3.0).prove(axioms, goal)
    event(f"z3 {z3_verdict.value}, E {e_result.verdict.value}")
    if z3_verdict.decisive and e_result.verdict.decisive:
        assert z3_verdict is e_result.verdict, e_result.raw_log


@needs_e
def test_both_backends_decide_a_known_mix() -> None:
    """Fixed problems where both must be decisive, so agreement is not vacuous."""
    tea, person = a("Tea", X), a("Person", X)
    fact = Exists(
        (X, Y, E), And((person, a("Tea", Y), a("Drink", E), a("Agent", E, X), a("Patient", E, Y)))
    )
    rule = Forall(
        (X, Y, E), Implies(And((a("Drink", E), a("Agent", E, X), a("Patient", E, Y))), a("Hot", Y))
    )
    axioms = [Axiom("fact", fact), Axiom("rule", rule)]
    cases: dict[Formula, Verdict] = {
        Exists((X,), And((tea, a("Hot", X)))): Verdict.VALID,
        Exists((X,), And((person, a("Hot", X)))): Verdict.INVALID,
        Forall((X,), Implies(tea, a("Hot", X))): Verdict.INVALID,
        BOTTOM: Verdict.INVALID,
    }
    eprover = EProver(timeout=5.0)
    for goal, expected in cases.items():
        assert Z3.prove(axioms, goal).verdict is expected
        assert eprover.prove(axioms, goal).verdict is expected


literal: st.SearchStrategy[Formula] = st.builds(
    lambda name, negated: Not(Atom(name)) if negated else Atom(name),
    st.sampled_from("pqrst"),
    st.booleans(),
)
card: st.SearchStrategy[Formula] = st.builds(
    Card,
    st.sampled_from(CARD_OPS),
    st.integers(0, 4),
    st.lists(literal, min_size=0, max_size=5).map(tuple),
)


@needs_e
@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(card, literal), min_size=1, max_size=4), st.one_of(card, literal))
def test_cardinality_encodings_agree(formulas: list[Formula], goal: Formula) -> None:
    axioms = [Axiom(f"ax{i}", f) for i, f in enumerate(formulas)]
    z3_verdict = Z3.prove(axioms, goal).verdict
    e_verdict = EProver(timeout=3.0).prove(axioms, goal).verdict
    event(f"z3 {z3_verdict.value}, E {e_verdict.value}")
    assert z3_verdict.decisive
    assert e_verdict is z3_verdict


@settings(max_examples=60, deadline=None)
@given(problems())
def test_cvc5_agrees_with_z3_and_its_countermodels_hold(
    problem: tuple[list[Axiom], Formula],
) -> None:
    axioms, goal = problem
    z3_verdict = Z3.prove(axioms, goal).verdict
    result = CVC5.prove(axioms, goal)
    event(f"z3 {z3_verdict.value}, cvc5 {result.verdict.value}")
    if z3_verdict.decisive and result.verdict.decisive:
        assert result.verdict is z3_verdict, result.raw_log
    if result.verdict is Verdict.INVALID:
        assert result.countermodel is not None
        assert all(evaluate(ax.formula, result.countermodel) for ax in axioms)
        assert not evaluate(goal, result.countermodel)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(card, literal), min_size=1, max_size=4), st.one_of(card, literal))
def test_cvc5_cardinalities_agree_with_z3(formulas: list[Formula], goal: Formula) -> None:
    axioms = [Axiom(f"ax{i}", f) for i, f in enumerate(formulas)]
    z3_verdict = Z3.prove(axioms, goal).verdict
    assert z3_verdict.decisive
    assert CVC5.prove(axioms, goal).verdict is z3_verdict


def test_cvc5_decides_the_known_mix() -> None:
    tea, person = a("Tea", X), a("Person", X)
    fact = Exists(
        (X, Y, E), And((person, a("Tea", Y), a("Drink", E), a("Agent", E, X), a("Patient", E, Y)))
    )
    rule = Forall(
        (X, Y, E), Implies(And((a("Drink", E), a("Agent", E, X), a("Patient", E, Y))), a("Hot", Y))
    )
    axioms = [Axiom("fact", fact), Axiom("rule", rule)]
    cases: dict[Formula, Verdict] = {
        Exists((X,), And((tea, a("Hot", X)))): Verdict.VALID,
        Exists((X,), And((person, a("Hot", X)))): Verdict.INVALID,
        Forall((X,), Implies(tea, a("Hot", X))): Verdict.INVALID,
        BOTTOM: Verdict.INVALID,
    }
    for goal, expected in cases.items():
        assert CVC5.prove(axioms, goal).verdict is expected
