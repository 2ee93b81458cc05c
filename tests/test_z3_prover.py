"""Z3Prover: verdicts with evidence, countermodels that really falsify the goal, bad input."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provers.countermodels import element_prefix
from provers.model_eval import evaluate, ground_atom
from provers.z3_prover import Z3Prover
from reasoning.formula import (
    BOTTOM,
    TOP,
    And,
    Atom,
    Card,
    CardOp,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Var,
    prop,
)
from reasoning.prover import Axiom, Prover, check_consistency
from reasoning.verdict import Countermodel, ProofResult, Verdict
from tests.support.tea import TEA, E, X, Y, atom


@pytest.fixture(scope="module")
def z3p() -> Z3Prover:
    return Z3Prover(timeout=10.0)


def assert_countermodel(result: ProofResult, axioms: Sequence[Axiom], goal: Formula) -> None:
    """The result is INVALID with a model of the axioms in which the goal is false."""
    assert result.verdict is Verdict.INVALID
    model = result.countermodel
    assert model is not None
    for axiom in axioms:
        assert evaluate(axiom.formula, model), axiom.name
    assert not evaluate(goal, model)


def test_z3prover_implements_the_protocol(z3p: Z3Prover) -> None:
    assert isinstance(z3p, Prover)
    assert z3p.name == "z3"
    assert Z3Prover(name="other").name == "other"


def test_tea_goal_is_valid_with_both_axioms_used(z3p: Z3Prover) -> None:
    result = z3p.prove(TEA, Exists((X,), atom("EarlGrey", X)))
    assert result.verdict is Verdict.VALID
    assert result.used_axioms == ["fact_1", "rule_2"]
    assert result.prover == "z3"
    assert result.countermodel is None
    assert "(check-sat-assuming" in result.raw_log
    assert "statistics" in result.raw_log


def test_tea_ceylon_goal_is_invalid_with_a_countermodel(z3p: Z3Prover) -> None:
    goal = Exists((X,), atom("CeylonTea", X))
    result = z3p.prove(TEA, goal)
    assert_countermodel(result, TEA, goal)
    assert result.countermodel is not None
    domains = result.countermodel.domains
    assert set(domains) == {"entity", "event"}
    assert domains["entity"][0] == "e1"
    assert domains["event"][0] == "ev1"
    assert any(a.startswith("Agent(ev") for a in result.countermodel.true_atoms)


def test_unused_axioms_are_not_reported(z3p: Z3Prover) -> None:
    extra = Axiom("noise", Forall((X,), Implies(atom("Hot", X), atom("Drink", X))))
    result = z3p.prove([extra, *TEA], Exists((X,), atom("EarlGrey", X)))
    assert result.verdict is Verdict.VALID
    assert result.used_axioms == ["fact_1", "rule_2"]


def test_consistency_check(z3p: Z3Prover) -> None:
    consistent = check_consistency(z3p, TEA)
    assert_countermodel(consistent, TEA, BOTTOM)
    clash = Axiom("clash", Forall((X,), Not(atom("Tea", X))))
    inconsistent = check_consistency(z3p, [*TEA, clash])
    assert inconsistent.verdict is Verdict.VALID
    assert inconsistent.used_axioms == ["fact_1", "clash"]


def test_constants_equality_and_named_elements(z3p: Z3Prover) -> None:
    earl, grey = Const("earl", "entity"), Const("grey", "entity")
    axioms = [
        Axiom("tea", atom("Tea", earl)),
        Axiom("same", Eq(earl, grey)),
        Axiom("rule", Forall((X,), Implies(atom("Tea", X), atom("Drink", X)))),
    ]
    valid = z3p.prove(axioms, atom("Drink", grey))
    assert valid.verdict is Verdict.VALID
    assert valid.used_axioms == ["tea", "same", "rule"]
    other = Const("other", "entity")
    goal = atom("Drink", other)
    invalid = z3p.prove(axioms, goal)
    assert_countermodel(invalid, axioms, goal)
    assert invalid.countermodel is not None
    constants = invalid.countermodel.constants
    assert constants["earl"] == constants["grey"] != constants["other"]


def test_other_sorts_and_odd_predicate_names(z3p: Z3Prover) -> None:
    card = Var("k", "card")
    holder = Const("envelope", "place")
    axioms = [Axiom("holds", Exists((card,), Atom("in the hand", (card, holder))))]
    goal = Forall((card,), Atom("in the hand", (card, holder)))
    result = z3p.prove(axioms, goal)
    assert_countermodel(result, axioms, goal)
    assert result.countermodel is not None
    assert result.countermodel.constants == {"envelope": "place_1"}
    [true_atom] = result.countermodel.true_atoms
    assert true_atom.startswith('"in the hand"(card_')
    assert true_atom.endswith(", place_1)")


def test_element_names_per_sort() -> None:
    assert [element_prefix("entity"), element_prefix("event")] == ["e", "ev"]
    assert element_prefix("card") == "card_"


def test_nested_quantifiers_with_shadowing(z3p: Z3Prover) -> None:
    inner = Forall((X,), atom("Q", X))
    axioms = [
        Axiom("a", Forall((X,), Implies(atom("P", X), inner))),
        Axiom("b", atom("P", Const("c", "entity"))),
    ]
    assert z3p.prove(axioms, Forall((X,), atom("Q", X))).verdict is Verdict.VALID
    goal = Forall((X,), atom("P", X))
    assert_countermodel(z3p.prove(axioms, goal), axioms, goal)


def test_trivial_goals_and_empty_connectives(z3p: Z3Prover) -> None:
    assert z3p.prove([], TOP).verdict is Verdict.VALID
    assert z3p.prove([], And(())).verdict is Verdict.VALID
    assert_countermodel(z3p.prove([], Or(())), [], Or(()))
    assert z3p.prove([], Exists((), TOP)).verdict is Verdict.VALID


def test_pigeonhole_with_tiny_timeout_is_timeout(z3p: Z3Prover) -> None:
    holes = 12
    pigeons = range(holes + 1)
    axioms = [
        Axiom(f"pigeon{i}", Or(tuple(prop(f"p{i}_{j}") for j in range(holes)))) for i in pigeons
    ] + [
        Axiom(f"hole{j}_{i}_{k}", Or((Not(prop(f"p{i}_{j}")), Not(prop(f"p{k}_{j}")))))
        for j in range(holes)
        for i in pigeons
        for k in pigeons
        if i < k
    ]
    result = z3p.prove(axioms, BOTTOM, timeout=0.05)
    assert result.verdict is Verdict.TIMEOUT
    assert "z3 unknown" in result.message or "time limit" in result.message


def test_problem_with_only_infinite_models_is_never_decided(z3p: Z3Prover) -> None:
    z = Var("z", "entity")
    r = "R"
    axioms = [
        Axiom("serial", Forall((X,), Exists((Y,), atom(r, X, Y)))),
        Axiom("irreflexive", Forall((X,), Not(atom(r, X, X)))),
        Axiom(
            "transitive",
            Forall((X, Y, z), Implies(And((atom(r, X, Y), atom(r, Y, z))), atom(r, X, z))),
        ),
    ]
    result = z3p.prove(axioms, atom("P", Const("c", "entity")), timeout=0.5)
    assert result.verdict in (Verdict.TIMEOUT, Verdict.UNKNOWN)


def test_concurrent_calls_from_threads(z3p: Z3Prover) -> None:
    goals = [Exists((X,), atom("EarlGrey", X)), Exists((X,), atom("CeylonTea", X))] * 6
    with ThreadPoolExecutor(max_workers=4) as pool:
        verdicts = list(pool.map(lambda g: z3p.prove(TEA, g).verdict, goals))
    assert verdicts == [Verdict.VALID, Verdict.INVALID] * 6


@pytest.mark.parametrize(
    ("axioms", "goal", "needle"),
    [
        ([], Atom("P", (Var("x"),)), "variable 'x' has no sort"),
        ([], Atom("P", (Const("c"),)), "constant 'c' has no sort"),
        ([], Atom("P", (X,)), "variable 'x' is not bound"),
        (
            [Axiom("one", atom("P", Const("c", "entity")))],
            atom("P", Const("c", "entity"), Const("d", "entity")),
            "predicate 'P' used with 2 arguments here and 1 elsewhere",
        ),
        (
            [Axiom("one", atom("P", Const("c", "entity")))],
            atom("P", Const("d", "event")),
            "argument 1 of predicate 'P' has sort event here and entity elsewhere",
        ),
        (
            [Axiom("one", atom("P", Const("c", "entity")))],
            atom("Q", Const("c", "event")),
            "constant 'c' has sort event here and entity elsewhere",
        ),
        ([], Eq(Const("c", "entity"), Const("d", "event")), "equality between constant 'c'"),
        ([], Forall((X,), atom("P", Var("x", "event"))), "bound with sort entity but used"),
        ([], Forall((X, X), atom("P", X)), "bound twice"),
        ([], Card("atmost", -1, (prop("p"),)), "cardinality bound -1"),
        ([Axiom("a", TOP), Axiom("a", TOP)], TOP, "axiom name 'a' is used twice"),
        ([Axiom("bad one", Atom("P", (Var("x"),)))], TOP, "in axiom 'bad one'"),
    ],
)
def test_malformed_input_is_a_syntax_error(
    z3p: Z3Prover, axioms: list[Axiom], goal: Formula, needle: str
) -> None:
    result = z3p.prove(axioms, goal)
    assert result.verdict is Verdict.SYNTAX_ERROR
    assert needle in result.message


def test_malformed_goal_message_names_the_goal(z3p: Z3Prover) -> None:
    result = z3p.prove([], Atom("P", (Var("x"),)))
    assert result.message.endswith("(in the goal)")


ATOMS = ("p", "q", "r", "s")
CARD_OPS: tuple[CardOp, ...] = ("exactly", "atmost", "atleast")


@st.composite
def literals(draw: st.DrawFn) -> Formula:
    a = prop(draw(st.sampled_from(ATOMS)))
    return Not(a) if draw(st.booleans()) else a


@st.composite
def propositional(draw: st.DrawFn, depth: int = 2) -> Formula:
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(literals())
    kind = draw(st.sampled_from(["and", "or", "implies", "iff", "card", "not"]))
    sub = propositional(depth - 1)
    if kind == "card":
        op = draw(st.sampled_from(CARD_OPS))
        parts = tuple(draw(st.lists(sub, min_size=0, max_size=4)))
        return Card(op, draw(st.integers(0, 5)), parts)
    if kind == "not":
        return Not(draw(sub))
    if kind in ("and", "or"):
        parts = tuple(draw(st.lists(sub, min_size=2, max_size=3)))
        return And(parts) if kind == "and" else Or(parts)
    left, right = draw(sub), draw(sub)
    return Implies(left, right) if kind == "implies" else Iff(left, right)


def all_assignments() -> list[Countermodel]:
    return [
        Countermodel(true_atoms=[ground_atom(a, ()) for a, v in zip(ATOMS, bits, strict=True) if v])
        for bits in product([False, True], repeat=len(ATOMS))
    ]


@settings(max_examples=60, deadline=None)
@given(st.lists(propositional(), min_size=0, max_size=3), propositional())
def test_propositional_verdicts_match_brute_force(axioms: list[Formula], goal: Formula) -> None:
    named = [Axiom(f"ax{i}", f) for i, f in enumerate(axioms)]
    entailed = all(
        evaluate(goal, m) for m in all_assignments() if all(evaluate(f, m) for f in axioms)
    )
    result = Z3Prover(timeout=5.0).prove(named, goal)
    if entailed:
        assert result.verdict is Verdict.VALID
        assert result.used_axioms is not None
        core = [a for a in named if a.name in set(result.used_axioms)]
        assert all(
            evaluate(goal, m)
            for m in all_assignments()
            if all(evaluate(a.formula, m) for a in core)
        )
    else:
        assert_countermodel(result, named, goal)


def test_evaluate_rejects_what_the_model_cannot_interpret() -> None:
    model = Countermodel(domains={"entity": ["e1"]}, true_atoms=["P(e1)"])
    assert evaluate(Forall((X,), atom("P", X)), model)
    with pytest.raises(ValueError, match="sort 'event'"):
        evaluate(Exists((E,), TOP), model)
    with pytest.raises(ValueError, match="constant 'c'"):
        evaluate(atom("P", Const("c", "entity")), model)
    with pytest.raises(ValueError, match="variable 'x' is free"):
        evaluate(atom("P", X), model)


def test_ground_atoms_quote_names_that_are_not_plain() -> None:
    assert ground_atom("Tea", ["e1"]) == "Tea(e1)"
    assert ground_atom("thé", ()) == "thé"
    assert ground_atom("forall", ()) == '"forall"'
    assert ground_atom('say "hi"\\', ["e1", "ev2"]) == '"say \\"hi\\"\\\\"(e1, ev2)'
    assert ground_atom("P(e1)", ()) != ground_atom("P", ["e1"])
