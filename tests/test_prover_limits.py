"""Backends at the edges: deep nesting, huge bounds, big theories, clashing and odd names."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import provers.z3_prover as z3_module
from provers.countermodels import ModelClock
from provers.cvc5_prover import Cvc5Prover
from provers.eprover import EProver, eprover_available
from provers.isabelle.theory_text import render_theory
from provers.model_eval import evaluate
from provers.sat_prover import SatProver
from provers.tptp import to_tptp
from provers.z3_prover import Z3Prover
from provers.z3_tables import InterpretationTables
from reasoning.formula import (
    Atom,
    Card,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Implies,
    Not,
    Or,
    Var,
    prop,
)
from reasoning.prover import Axiom, Prover
from reasoning.verdict import Countermodel, Verdict
from tests.support.tea import TEA, atom

needs_e = pytest.mark.skipif(not eprover_available(), reason="E prover (eprover) not installed")
X = Var("x", "entity")
HUGE = 99999999999999999999


def nested(depth: int) -> Formula:
    """``q -> (q -> ... -> p)`` with ``depth`` implications, which says ``q -> p``."""
    f: Formula = prop("p")
    for _ in range(depth):
        f = Implies(prop("q"), f)
    return f


def negations(depth: int) -> Formula:
    """``p`` under ``depth`` negations."""
    f: Formula = prop("p")
    for _ in range(depth):
        f = Not(f)
    return f


def first_order_nested(depth: int) -> Formula:
    """``forall x. P(x) -> ...`` with a ``depth``-deep implication chain inside."""
    body: Formula = Atom("P", (X,))
    for _ in range(depth):
        body = Implies(Atom("Q", (X,)), body)
    return Forall((X,), body)


@pytest.mark.parametrize("depth", [600, 5000])
@pytest.mark.parametrize("backend", [Z3Prover(), Cvc5Prover()], ids=["z3", "cvc5"])
def test_deep_nesting_is_decided(backend: Prover, depth: int) -> None:
    axiom = Axiom("deep", nested(depth))
    assert backend.prove([axiom, Axiom("q", prop("q"))], prop("p")).verdict is Verdict.VALID
    result = backend.prove([axiom], prop("p"))
    assert result.verdict is Verdict.INVALID
    assert result.countermodel is not None
    assert evaluate(axiom.formula, result.countermodel)
    assert not evaluate(prop("p"), result.countermodel)
    assert backend.prove([Axiom("p", prop("p"))], negations(depth)).verdict is Verdict.VALID


@pytest.mark.parametrize("backend", [Z3Prover(), Cvc5Prover()], ids=["z3", "cvc5"])
def test_deep_first_order_nesting_is_decided(backend: Prover) -> None:
    c = Const("c", "entity")
    deep = Axiom("deep", first_order_nested(800))
    assert backend.prove([deep], Atom("P", (c,))).verdict is Verdict.INVALID
    axioms = [deep, Axiom("q", Atom("Q", (c,)))]
    assert backend.prove(axioms, Atom("P", (c,))).verdict is Verdict.VALID


def test_deep_nesting_exports_and_evaluates() -> None:
    assert to_tptp([Axiom("deep", negations(5000))], prop("q")).count("~(") == 5000
    assert to_tptp([Axiom("deep", nested(5000))], prop("q")).count("=>") == 5000
    assert evaluate(nested(5000), Countermodel(true_atoms=["q"])) is False
    assert evaluate(nested(5000), Countermodel(true_atoms=["q", "p"])) is True
    assert evaluate(negations(5000), Countermodel(true_atoms=["p"])) is True


@needs_e
def test_e_decides_600_levels() -> None:
    axioms = [Axiom("deep", nested(600)), Axiom("q", prop("q"))]
    assert EProver(timeout=10).prove(axioms, prop("p")).verdict is Verdict.VALID


def test_sat_says_deep_nesting_is_unsupported_naming_itself() -> None:
    result = SatProver().prove([Axiom("deep", nested(600))], prop("p"))
    assert result.verdict is Verdict.UNSUPPORTED
    assert "sat backend" in result.message


def _huge_bound_backends() -> list[Prover]:
    backends: list[Prover] = [Z3Prover(), Cvc5Prover(), SatProver()]
    return backends + ([EProver(timeout=10)] if eprover_available() else [])


@pytest.mark.parametrize("op", ["exactly", "atleast", "atmost"])
def test_huge_cardinality_bound_answers_alike(op: str) -> None:
    card = Card(op, HUGE, (prop("P"), prop("Q")))  # type: ignore[arg-type]
    as_axiom = {
        b.name: b.prove([Axiom("big", card)], prop("R")).verdict for b in _huge_bound_backends()
    }
    as_goal = {b.name: b.prove([], card).verdict for b in _huge_bound_backends()}
    holds = op == "atmost"
    assert set(as_axiom.values()) == {Verdict.INVALID if holds else Verdict.VALID}, as_axiom
    assert set(as_goal.values()) == {Verdict.VALID if holds else Verdict.INVALID}, as_goal


def test_big_propositional_theory_is_decided() -> None:
    n = 20_000
    axioms = [Axiom("a0", prop("p0"))]
    axioms += [Axiom(f"a{i}", Implies(prop(f"p{i - 1}"), prop(f"p{i}"))) for i in range(1, n)]
    for backend in (Z3Prover(), SatProver()):
        result = backend.prove(axioms, prop(f"p{n - 1}"), timeout=120)
        assert result.verdict is Verdict.VALID
        assert result.used_axioms is not None and len(result.used_axioms) == n


@pytest.mark.parametrize("backend", [Z3Prover(), Cvc5Prover()], ids=["z3", "cvc5"])
def test_a_spent_limit_is_a_timeout_saying_where(backend: Prover) -> None:
    axioms = [Axiom(f"a{i}", Or((prop(f"p{i}"), prop(f"q{i}")))) for i in range(200)]
    result = backend.prove(axioms, prop("p0"), timeout=1e-9)
    assert result.verdict is Verdict.TIMEOUT
    assert "time limit" in result.message


class _SpentClock(ModelClock):
    """A clock whose deadline has always passed."""

    def __init__(self, deadline: float | None) -> None:
        super().__init__(0.0)


def distinct_ternary(n: int) -> tuple[list[Axiom], Formula]:
    """``n`` pairwise distinct constants with ternary relations: models of ``n`` elements."""
    consts = [Const(f"c{i}", "entity") for i in range(n)]
    y, z = Var("y", "entity"), Var("z", "entity")
    axioms = [
        Axiom(f"r{i}", Atom("R", (consts[i], consts[(i + 1) % n], consts[(i + 3) % n])))
        for i in range(n)
    ]
    axioms += [
        Axiom(f"d{i}_{j}", Not(Eq(consts[i], consts[j]))) for i in range(n) for j in range(i + 1, n)
    ]
    axioms.append(
        Axiom("back", Forall((X, y, z), Implies(Atom("R", (X, y, z)), Atom("B", (z, y, X)))))
    )
    return axioms, Atom("R", (consts[0], consts[5], consts[7]))


def test_countermodel_out_of_time_still_answers_invalid(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(z3_module, "ModelClock", _SpentClock)
    axioms, goal = distinct_ternary(12)
    result = Z3Prover().prove(axioms, goal)
    assert result.verdict is Verdict.INVALID
    assert result.countermodel is None
    assert "z3 said sat" in result.message and "not extracted" in result.message


def test_interpretation_tables_match_atom_by_atom(monkeypatch: pytest.MonkeyPatch) -> None:
    axioms, goal = distinct_ternary(12)
    built: list[bool] = []
    table = InterpretationTables.table

    def spy(self: InterpretationTables, func: Any) -> Any:
        found = table(self, func)
        built.append(found is not None)
        return found

    monkeypatch.setattr(InterpretationTables, "table", spy)
    fast = Z3Prover().prove(axioms, goal).countermodel
    assert any(built)
    monkeypatch.setattr(InterpretationTables, "table", lambda self, func: None)
    slow = Z3Prover().prove(axioms, goal).countermodel
    assert fast is not None and fast == slow
    assert all(evaluate(a.formula, fast) for a in axioms) and not evaluate(goal, fast)


@pytest.mark.parametrize("backend", [Z3Prover(), Cvc5Prover()], ids=["z3", "cvc5"])
def test_element_names_never_look_like_constants(backend: Prover) -> None:
    e1, e2, e3 = (Const(name, "entity") for name in ("e1", "e2", "e3"))
    axioms = [
        Axiom("p", Atom("P", (e1,))),
        Axiom("not q", Not(Atom("P", (e2,)))),
        Axiom("three", Not(Atom("Q", (e3,)))),
        Axiom("q", Atom("Q", (e1,))),
    ]
    result = backend.prove(axioms, Atom("Q", (e2,)))
    assert result.verdict is Verdict.INVALID
    model = result.countermodel
    assert model is not None
    elements = model.domains["entity"]
    assert not set(elements) & {"e1", "e2", "e3"}
    assert set(model.constants) == {"e1", "e2", "e3"}
    assert set(model.constants.values()) <= set(elements)
    assert all(evaluate(a.formula, model) for a in axioms)


def test_odd_names_are_quoted_on_one_line() -> None:
    odd = ["line\nbreak", "nul\x00byte", "a,b", 'quote"d']
    axioms = [Axiom(f"a{i}", Atom(name, (Const(name, "entity"),))) for i, name in enumerate(odd)]
    result = Z3Prover().prove(axioms, Atom("Other", (Const("x", "entity"),)))
    model = result.countermodel
    assert model is not None
    text = model.render()
    assert len(text.splitlines()) == 2 + len(odd) + 1
    for atom_text in model.true_atoms:
        assert "\n" not in atom_text and "\x00" not in atom_text
    assert '"line\\nbreak" = ' in text and '"nul\\x00byte" = ' in text and '"a,b" = ' in text
    assert all(evaluate(a.formula, model) for a in axioms)


def test_deep_nesting_renders_as_an_isabelle_theory() -> None:
    theory = render_theory([Axiom("deep", nested(5000))], prop("p"))
    assert theory.count("\\<longrightarrow>") == 5000


def test_cvc5_calls_from_threads() -> None:
    backend = Cvc5Prover()
    goals = [Exists((X,), atom("EarlGrey", X)), Exists((X,), atom("CeylonTea", X))] * 4
    with ThreadPoolExecutor(max_workers=4) as pool:
        verdicts = list(pool.map(lambda g: backend.prove(TEA, g).verdict, goals))
    assert verdicts == [Verdict.VALID, Verdict.INVALID] * 4
