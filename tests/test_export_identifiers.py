"""Identifier safety: any symbol names give well-formed TPTP and SMT-LIB with unchanged meaning."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from provers.eprover import EProver, eprover_available
from provers.identifiers import axiom_id, decode, encode, symbol
from provers.smtlib import GOAL_LABEL, to_smtlib
from provers.tptp import to_tptp
from provers.z3_prover import Z3Prover
from reasoning.formula import And, Atom, Const, Eq, Exists, Forall, Formula, Implies, Not, Var
from reasoning.prover import Axiom
from reasoning.verdict import Verdict

TRICKY = [
    "fof",
    "cnf",
    "assert",
    "check-sat",
    "declare-fun",
    "goal",
    "a_goal",
    "forall",
    "exists",
    "true",
    "$false",
    "|",
    ")",
    "(",
    "%",
    "'",
    '"',
    "_",
    "__",
    "_2_",
    "x y",
    "line\nbreak",
    "tab\there",
    "thé",
    "∀x",
    "ÆØÅ",
    "🍵",
    "a.b",
    "A",
    "V_x",
    "p_x",
    ":named",
    "! x",
    ";",
    "\\",
]
names = st.one_of(
    st.sampled_from(TRICKY),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=8),
)


@settings(max_examples=200, deadline=None)
@given(names, names, st.sampled_from(["p_", "c_", "V_", "s_", "a_"]))
def test_symbols_are_plain_injective_and_invertible(a: str, b: str, prefix: str) -> None:
    assert re.fullmatch(r"[A-Za-z0-9_]+", symbol(prefix, a))
    assert decode(encode(a)) == a
    if a != b:
        assert symbol(prefix, a) != symbol(prefix, b)


@dataclass(frozen=True)
class Names:
    """The symbols of the tea problem, to be replaced by arbitrary text."""

    preds: tuple[str, ...]
    sorts: tuple[str, str]
    variables: tuple[str, str, str]
    consts: tuple[str, str]
    axioms: tuple[str, str, str]


PLAIN = Names(
    preds=("Tea", "Bergamot", "Infuse", "Agent", "Patient", "EarlGrey", "CeylonTea"),
    sorts=("entity", "event"),
    variables=("x", "y", "e"),
    consts=("earl", "lady"),
    axioms=("fact_1", "rule_2", "fact_3"),
)
GOALS = ("earl_grey_exists", "ceylon_exists", "earl_is_tea", "lady_is_tea", "same_consts")
EXPECTED = {
    "earl_grey_exists": Verdict.VALID,
    "ceylon_exists": Verdict.INVALID,
    "earl_is_tea": Verdict.VALID,
    "lady_is_tea": Verdict.INVALID,
    "same_consts": Verdict.INVALID,
}
USED = {"earl_grey_exists": (0, 1), "earl_is_tea": (2,)}


def used_names(n: Names, which: str) -> list[str]:
    """The axiom names a proof of goal ``which`` needs."""
    return [n.axioms[i] for i in USED[which]]


def tea_problem(n: Names, which: str) -> tuple[list[Axiom], Formula]:
    """The tea example over the given names, with one of a few goals."""
    tea, bergamot, infuse, agent, patient, earl_grey, ceylon = n.preds
    ent, ev = n.sorts
    x, y, e = Var(n.variables[0], ent), Var(n.variables[1], ent), Var(n.variables[2], ev)
    earl, lady = Const(n.consts[0], ent), Const(n.consts[1], ent)
    body = And(
        (
            Atom(tea, (x,)),
            Atom(bergamot, (y,)),
            Atom(infuse, (e,)),
            Atom(agent, (e, x)),
            Atom(patient, (e, y)),
        )
    )
    axioms = [
        Axiom(n.axioms[0], Exists((x, y, e), body)),
        Axiom(
            n.axioms[1],
            Forall((x, y, e), Implies(body, And((Atom(earl_grey, (x,)), Not(Atom(ceylon, (x,))))))),
        ),
        Axiom(n.axioms[2], Atom(tea, (earl,))),
    ]
    goals: dict[str, Formula] = {
        "earl_grey_exists": Exists((x,), Atom(earl_grey, (x,))),
        "ceylon_exists": Exists((x,), Atom(ceylon, (x,))),
        "earl_is_tea": Atom(tea, (earl,)),
        "lady_is_tea": Atom(tea, (lady,)),
        "same_consts": Eq(earl, lady),
    }
    return axioms, goals[which]


def distinct(size: int) -> st.SearchStrategy[tuple[str, ...]]:
    return st.lists(names, min_size=size, max_size=size, unique=True).map(tuple)


tricky_names = st.builds(
    Names,
    preds=distinct(7),
    sorts=distinct(2),
    variables=distinct(3),
    consts=distinct(2),
    axioms=distinct(3),
)


def smtlib_verdict(axioms: list[Axiom], goal: Formula) -> tuple[Verdict, set[str]]:
    """Solve the exported script with z3: run whole, and parsed with its labels as assumptions.

    Both must agree; the second also gives the unsat core as label names.
    """
    script = to_smtlib(axioms, goal)
    ctx = z3.Context()
    answer = z3.Z3_eval_smtlib2_string(ctx.ref(), script).strip()
    assertions = z3.parse_smt2_string(script, ctx=ctx)
    labels = [a.arg(0) for a in assertions]
    expected = [axiom_id(a.name) for a in axioms] + [GOAL_LABEL]
    assert [str(label) for label in labels] == expected
    solver = z3.Solver(ctx=ctx)
    solver.add(assertions)
    parsed = solver.check(*labels)
    assert str(parsed) == answer
    if parsed == z3.unsat:
        return Verdict.VALID, {str(lit) for lit in solver.unsat_core()}
    assert parsed == z3.sat
    return Verdict.INVALID, set()


def test_plain_names_give_the_expected_verdicts() -> None:
    for which in GOALS:
        axioms, goal = tea_problem(PLAIN, which)
        assert Z3Prover().prove(axioms, goal).verdict is EXPECTED[which]
        assert smtlib_verdict(axioms, goal)[0] is EXPECTED[which]


SMT_SAFE = re.compile(r"[A-Za-z0-9_ ()!:=<>+\n-]*")


@settings(max_examples=40, deadline=None)
@given(tricky_names, st.sampled_from(GOALS))
def test_smtlib_and_z3_keep_their_meaning(n: Names, which: str) -> None:
    axioms, goal = tea_problem(n, which)
    script = to_smtlib(axioms, goal)
    header, body = script.split("\n", 1)
    assert header.startswith(";")
    assert SMT_SAFE.fullmatch(body)
    verdict, core = smtlib_verdict(axioms, goal)
    assert verdict is EXPECTED[which]
    result = Z3Prover().prove(axioms, goal)
    assert result.verdict is EXPECTED[which]
    if verdict is Verdict.VALID:
        assert result.used_axioms == used_names(n, which)
        assert {axiom_id(name) for name in result.used_axioms} <= core


TPTP_SAFE = re.compile(r"[A-Za-z0-9_ ()!?:~&|=<>$\[\],.\n]*")


@pytest.mark.skipif(not eprover_available(), reason="E prover (eprover) not installed")
@settings(max_examples=25, deadline=None)
@given(tricky_names, st.sampled_from(GOALS))
def test_tptp_keeps_its_meaning_under_e(n: Names, which: str) -> None:
    axioms, goal = tea_problem(n, which)
    problem = to_tptp(axioms, goal)
    header, body = problem.split("\n", 1)
    assert header.startswith("%")
    assert TPTP_SAFE.fullmatch(body)
    result = EProver(timeout=5.0).prove(axioms, goal)
    assert result.verdict is EXPECTED[which], result.raw_log
    if result.verdict is Verdict.VALID:
        assert result.used_axioms == used_names(n, which)
