"""SatProver agrees with brute force; bad input, timeouts and crashes come back as verdicts."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import provers.sat_prover as sat_prover_module
from provers.model_eval import evaluate
from provers.sat_prover import MAX_NESTING, SatProver
from reasoning.formula import (
    BOTTOM,
    TOP,
    And,
    Atom,
    Card,
    Const,
    Forall,
    Formula,
    Implies,
    Not,
    Or,
    Var,
    atoms,
    prop,
)
from reasoning.prover import Axiom, Prover, check_consistency
from reasoning.strategies import propositional_formulas
from reasoning.verdict import Countermodel, Verdict

LETTERS = ("p", "q", "r", "s", "t")


def _holds(formula: Formula, true: frozenset[str]) -> bool:
    return evaluate(formula, Countermodel(true_atoms=sorted(true)))


ASSIGNMENTS = [
    frozenset(n for n, v in zip(LETTERS, bits, strict=True) if v)
    for bits in itertools.product((False, True), repeat=len(LETTERS))
]


def _models(formulas: list[Formula]) -> list[frozenset[str]]:
    return [m for m in ASSIGNMENTS if all(_holds(f, m) for f in formulas)]


@settings(max_examples=150, deadline=None)
@given(
    axioms=st.lists(propositional_formulas(LETTERS, max_leaves=6), max_size=4),
    goal=propositional_formulas(LETTERS, max_leaves=5),
    solver=st.sampled_from(("cadical195", "glucose4")),
)
def test_verdicts_match_brute_force(axioms: list[Formula], goal: Formula, solver: str) -> None:
    named = [Axiom(f"ax{i}", f) for i, f in enumerate(axioms)]
    entailed = all(_holds(goal, m) for m in _models(axioms))
    result = SatProver(solver_name=solver).prove(named, goal)
    assert result.prover == "sat"
    if entailed:
        assert result.verdict is Verdict.VALID
        assert result.used_axioms is not None
        used = [a.formula for a in named if a.name in result.used_axioms]
        assert all(_holds(goal, m) for m in _models(used))
    else:
        assert result.verdict is Verdict.INVALID
        assert result.countermodel is not None
        true = frozenset(result.countermodel.true_atoms)
        mentioned = {a.pred for f in [*axioms, goal] for a in atoms(f)}
        assert true <= mentioned
        assert all(_holds(f, true) for f in axioms)
        assert not _holds(goal, true)


def test_used_axioms_come_from_the_core() -> None:
    axioms = [
        Axiom("p", prop("p")),
        Axiom("p implies q", Implies(prop("p"), prop("q"))),
        Axiom("unrelated", Or((prop("r"), prop("s")))),
    ]
    result = SatProver().prove(axioms, prop("q"))
    assert result.verdict is Verdict.VALID
    assert result.used_axioms == ["p", "p implies q"]
    assert "UNSAT" in result.raw_log


def test_countermodel_lists_true_atoms_of_the_problem() -> None:
    axioms = [Axiom("one", Card("exactly", 1, (prop("a"), prop("b")))), Axiom("a", prop("a"))]
    result = SatProver().prove(axioms, prop("b"))
    assert result.verdict is Verdict.INVALID
    assert result.countermodel == Countermodel(true_atoms=["a"])
    assert result.used_axioms is None


def test_consistency_and_trivial_goals() -> None:
    prover: Prover = SatProver()
    consistent = check_consistency(prover, [Axiom("p", prop("p"))])
    assert consistent.verdict is Verdict.INVALID
    inconsistent = check_consistency(
        prover, [Axiom("p", prop("p")), Axiom("not p", Not(prop("p")))]
    )
    assert inconsistent.verdict is Verdict.VALID
    assert inconsistent.used_axioms == ["p", "not p"]
    assert prover.prove([], TOP).verdict is Verdict.VALID
    assert prover.prove([], BOTTOM).verdict is Verdict.INVALID


@pytest.mark.parametrize(
    ("axioms", "goal", "where", "what"),
    [
        (
            [Axiom("tea", Atom("Tea", (Const("t1"),)))],
            prop("q"),
            "axiom 'tea'",
            "atom Tea(t1) has arguments",
        ),
        (
            [Axiom("ok", prop("p"))],
            And((prop("p"), Forall((Var("x"),), Atom("P", (Var("x"),))))),
            "goal",
            "universal quantifier over x",
        ),
    ],
)
def test_non_propositional_input_is_unsupported(
    axioms: list[Axiom], goal: Formula, where: str, what: str
) -> None:
    result = SatProver().prove(axioms, goal)
    assert result.verdict is Verdict.UNSUPPORTED
    assert "sat backend is propositional" in result.message
    assert result.message.startswith(where)
    assert what in result.message


def _pigeonhole(pigeons: int) -> list[Axiom]:
    holes = pigeons - 1
    sits = [[prop(f"p{i}h{j}") for j in range(holes)] for i in range(pigeons)]
    axioms = [Axiom(f"pigeon {i}", Or(tuple(row))) for i, row in enumerate(sits)]
    axioms += [
        Axiom(f"hole {j}: {a} or {b}", Or((Not(sits[a][j]), Not(sits[b][j]))))
        for j in range(holes)
        for a, b in itertools.combinations(range(pigeons), 2)
    ]
    return axioms


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_timeout_is_a_verdict(solver: str) -> None:
    result = SatProver(solver_name=solver).prove(_pigeonhole(11), BOTTOM, timeout=0.3)
    assert result.verdict is Verdict.TIMEOUT
    assert result.message.startswith("time limit reached in the SAT solver")


def test_no_time_left_for_encoding_is_a_timeout_naming_the_encoding() -> None:
    result = SatProver().prove([Axiom("p", prop("p"))], prop("p"), timeout=0)
    assert result.verdict is Verdict.TIMEOUT
    assert "while encoding (0 of 1 axioms encoded)" in result.message


def test_the_solver_has_its_own_budget_once_the_encoding_is_done() -> None:
    result = SatProver().prove([], TOP, timeout=1e-9)
    assert result.verdict is Verdict.VALID


def test_nesting_beyond_the_limit_is_unsupported() -> None:
    deep: Formula = prop("p")
    for _ in range(MAX_NESTING):
        deep = Not(deep)
    result = SatProver().prove([Axiom("deep", deep)], prop("p"))
    assert result.verdict is Verdict.UNSUPPORTED
    assert f"nesting deeper than {MAX_NESTING}" in result.message


def test_solver_failure_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(name: str) -> object:
        raise RuntimeError(f"{name} crashed")

    monkeypatch.setattr(sat_prover_module, "open_solver", broken)
    result = SatProver().prove([Axiom("p", prop("p"))], prop("p"))
    assert result.verdict is Verdict.UNKNOWN
    assert "cadical195 crashed" in result.message


def test_unknown_solver_name_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown SAT solver 'nope'"):
        SatProver(solver_name="nope")
