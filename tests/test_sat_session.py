"""SatSession answers every question as brute-force enumeration over all assignments does."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provers.model_eval import evaluate
from provers.sat_session import SatSession
from reasoning.constraints import (
    ConstraintSession,
    Inconsistent,
    NotPropositional,
    assumption_literal,
    require_propositional,
)
from reasoning.formula import (
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
    Truth,
    Var,
    prop,
)
from reasoning.strategies import CARD_OPS, propositional_formulas
from reasoning.verdict import Countermodel

SOLVERS = ("minicard", "cadical195", "glucose4")
"""Native cardinality (minicard), CNF without phases honoured (CaDiCaL), CNF with phases."""

LETTERS = tuple(f"a{i}" for i in range(8))


def _holds(formula: Formula, true: frozenset[str]) -> bool:
    return evaluate(formula, Countermodel(true_atoms=sorted(true)))


def _assignments(names: tuple[str, ...]) -> list[frozenset[str]]:
    return [
        frozenset(n for n, v in zip(names, bits, strict=True) if v)
        for bits in itertools.product((False, True), repeat=len(names))
    ]


def _models(formulas: list[Formula], names: tuple[str, ...]) -> list[frozenset[str]]:
    return [m for m in _assignments(names) if all(_holds(f, m) for f in formulas)]


def _backbone(models: list[frozenset[str]], names: tuple[str, ...]) -> dict[str, bool]:
    return {n: n in models[0] for n in names if len({n in m for m in models}) == 1}


def _literal(name: str, positive: bool) -> Formula:
    return prop(name) if positive else Not(prop(name))


@st.composite
def problems(draw: st.DrawFn) -> tuple[tuple[str, ...], list[Formula]]:
    """A few atoms and a list of clauses, cardinality constraints and general formulas on them."""
    names = LETTERS[: draw(st.integers(4, 8))]
    literal = st.builds(_literal, st.sampled_from(names), st.booleans())
    clause = st.lists(literal, min_size=1, max_size=4).map(lambda ls: Or(tuple(ls)))
    card = st.lists(literal, min_size=0, max_size=len(names)).flatmap(
        lambda parts: st.builds(
            Card, st.sampled_from(CARD_OPS), st.integers(-1, len(parts) + 1), st.just(tuple(parts))
        )
    )
    general = propositional_formulas(names, max_leaves=5)
    formula = st.one_of(clause, clause, card, card, general)
    return names, draw(st.lists(formula, min_size=1, max_size=6))


def _assumptions(names: tuple[str, ...]) -> st.SearchStrategy[list[Formula]]:
    return st.lists(st.builds(_literal, st.sampled_from(names), st.booleans()), max_size=3)


@settings(max_examples=120, deadline=None)
@given(
    problem=problems(),
    assumptions=st.data(),
    solver=st.sampled_from(SOLVERS),
)
def test_queries_match_brute_force(
    problem: tuple[tuple[str, ...], list[Formula]], assumptions: st.DataObject, solver: str
) -> None:
    names, formulas = problem
    assumed = assumptions.draw(_assumptions(names))
    query = assumptions.draw(propositional_formulas(names, max_leaves=4))
    projection = tuple(assumptions.draw(st.lists(st.sampled_from(names), max_size=4)))
    models = _models(formulas, names)
    under = [m for m in models if all(_holds(a, m) for a in assumed)]
    with SatSession(solver) as session:
        for formula in formulas:
            session.add(formula)
        assert session.satisfiable() is bool(models)
        assert session.satisfiable(assumed) is bool(under)
        assert session.entails(query) is all(_holds(query, m) for m in models)
        if models:
            assert session.backbone(names) == _backbone(models, names)
        else:
            with pytest.raises(Inconsistent):
                session.backbone(names)
        distinct = len({frozenset(m & set(projection)) for m in under})
        for bound in (0, 1, 2, 3, 2 ** len(names) + 1):
            assert session.count_models(projection, bound, assumed) == min(distinct, bound)
        found = session.model(assumed)
        if not under:
            assert found is None
        else:
            assert found is not None
            true = frozenset(n for n, v in found.items() if v)
            assert all(_holds(f, true) for f in [*formulas, *assumed])


@settings(max_examples=60, deadline=None)
@given(problem=problems(), solver=st.sampled_from(SOLVERS), data=st.data())
def test_incremental_backbone_and_retracted_entailment(
    problem: tuple[tuple[str, ...], list[Formula]], solver: str, data: st.DataObject
) -> None:
    names, formulas = problem
    added: list[Formula] = []
    known: dict[str, bool] = {}
    with SatSession(solver) as session:
        for formula in formulas:
            session.add(formula)
            added.append(formula)
            models = _models(added, names)
            if not models:
                with pytest.raises(Inconsistent):
                    session.backbone(names)
                break
            expected = _backbone(models, names)
            assert session.backbone(names) == expected
            assert session.backbone(names, known) == expected
            known = expected
            count = session.count_models(names, 2 ** len(names) + 1)
            assert count == len(models)
            query = data.draw(propositional_formulas(names, max_leaves=4))
            session.entails(query)
            session.entails(Not(query))
            assert session.satisfiable() is True
            assert session.count_models(names, 2 ** len(names) + 1) == count
            assert session.backbone(names) == expected


@pytest.mark.parametrize("solver", SOLVERS)
def test_cardinality_constraints_count_subsets(solver: str) -> None:
    names = ("a", "b", "c", "d", "e")
    parts = tuple(prop(n) for n in names)
    for k in range(-1, 7):
        exactly = math.comb(5, k) if 0 <= k <= 5 else 0
        atmost = sum(math.comb(5, j) for j in range(0, k + 1))
        atleast = sum(math.comb(5, j) for j in range(max(k, 0), 6))
        expectations: list[tuple[CardOp, int]] = [
            ("exactly", exactly),
            ("atmost", atmost),
            ("atleast", atleast),
        ]
        for op, expected in expectations:
            with SatSession(solver) as session:
                session.add(Card(op, k, parts))
                assert session.count_models(names, 64) == expected, (op, k)
            with SatSession(solver) as session:
                session.add(Iff(prop("g"), Card(op, k, parts)))
                session.add(prop("g"))
                assert session.count_models(names, 64) == expected, (op, k, "nested")


def test_backbone_makes_far_fewer_calls_than_two_per_atom() -> None:
    names = [f"x{i}" for i in range(20)]
    atoms = [prop(n) for n in names]
    with SatSession() as session:
        session.add(atoms[0])
        for left, right in itertools.pairwise(atoms[:10]):
            session.add(Implies(left, right))
        session.add(Card("exactly", 2, tuple(atoms[10:])))
        session.add(Or((Not(atoms[10]), Not(atoms[11]))))
        before = session.solver_calls
        fixed = session.backbone(names)
        calls = session.solver_calls - before
    assert fixed == {n: True for n in names[:10]}
    assert calls <= len(names) // 2


def test_hint_is_returned_and_spares_work() -> None:
    with SatSession() as session:
        session.add(Card("exactly", 1, (prop("a"), prop("b"), prop("c"))))
        session.add(Not(prop("a")))
        assert session.backbone(["a", "b", "c"]) == {"a": False}
        session.add(Not(prop("b")))
        before = session.solver_calls
        assert session.backbone(["a", "b", "c"], {"a": False}) == {
            "a": False,
            "b": False,
            "c": True,
        }
        assert session.solver_calls - before <= 2
        assert session.backbone(["c"], {"a": False, "c": True}) == {"c": True}


def test_contradicting_hint_is_rejected() -> None:
    with SatSession() as session:
        session.add(prop("a"))
        with pytest.raises(ValueError, match="hint says atom 'a' is fixed to False"):
            session.backbone(["a"], {"a": False})


def test_unsatisfiable_set() -> None:
    with SatSession() as session:
        session.add(Card("atleast", 2, (prop("a"), prop("b"))))
        session.add(Or((Not(prop("a")), Not(prop("b")))))
        assert not session.satisfiable()
        with pytest.raises(Inconsistent, match="no model"):
            session.backbone(["a", "b"])
        assert session.entails(prop("zzz"))
        assert session.model() is None
        assert session.count_models(["a"], 5) == 0


def test_atoms_never_mentioned_are_free() -> None:
    with SatSession() as session:
        session.add(prop("a"))
        assert session.backbone(["a", "fresh"]) == {"a": True}
        assert session.count_models(["a", "fresh"], 10) == 2
        assert session.model([Not(prop("other"))]) == {"a": True, "other": False}
        assert session.model() == {"a": True}


def test_failed_add_leaves_the_session_unchanged() -> None:
    x = Var("x", "entity")
    with SatSession() as session:
        session.add(Or((prop("a"), prop("b"))))
        bad = And((Not(prop("a")), Forall((x,), Atom("P", (x,)))))
        with pytest.raises(NotPropositional, match="universal quantifier over x"):
            session.add(bad)
        assert session.count_models(["a", "b"], 10) == 3


@pytest.mark.parametrize(
    ("formula", "message"),
    [
        (Forall((Var("x"),), prop("p")), "universal quantifier over x"),
        (Exists((Var("x"), Var("y")), prop("p")), "existential quantifier over x, y"),
        (Eq(Const("a"), Const("b")), "equality a = b"),
        (Or((prop("p"), Atom("Tea", (Const("t1"),)))), r"atom Tea\(t1\) has arguments"),
    ],
)
def test_non_propositional_input_is_named(formula: Formula, message: str) -> None:
    with pytest.raises(NotPropositional, match=message) as caught:
        require_propositional(formula)
    assert isinstance(caught.value, ValueError)
    with SatSession() as session:
        with pytest.raises(ValueError, match=message):
            session.add(formula)
        with pytest.raises(ValueError, match=message):
            session.entails(formula)


def test_assumptions_must_be_literals() -> None:
    assert assumption_literal(prop("p")) == ("p", True)
    assert assumption_literal(Not(prop("p"))) == ("p", False)
    with SatSession() as session:
        session.add(prop("p"))
        for bad in (Not(Not(prop("p"))), Truth(True), Atom("P", (Const("c"),))):
            with pytest.raises(ValueError, match="must be a propositional atom or its negation"):
                session.satisfiable([bad])
            with pytest.raises(ValueError, match="must be a propositional atom or its negation"):
                session.count_models(["p"], 3, [bad])


def test_bounds_and_lifecycle() -> None:
    session = SatSession()
    assert isinstance(session, ConstraintSession)
    session.add(prop("p"))
    with pytest.raises(ValueError, match="bound must be at least 0"):
        session.count_models(["p"], -1)
    session.close()
    session.close()
    with pytest.raises(RuntimeError, match="closed"):
        session.satisfiable()
    with SatSession() as inner:
        inner.add(prop("q"))
    with pytest.raises(RuntimeError, match="closed"):
        inner.model()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("no-such-solver", "unknown SAT solver"),
        ("kissat404", "does not support assumptions"),
        ("lingeling", "does not support assumptions"),
    ],
)
def test_unusable_solver_names(name: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SatSession(name)
