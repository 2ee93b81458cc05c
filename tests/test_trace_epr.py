"""Effectively propositional traces audited by grounding on the SAT session agree with Z3.

Random traces mix universal rules, existential descriptions, equality (names are not unique)
and cardinality constraints over two sorts; every claim's status and correctness, and every
consistency flag, must be what Z3 finds proving each claim from scratch.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provers.trace_cli import epr_trace, grounded_session
from provers.z3_prover import Z3Prover
from reasoning.claims import ClaimStatus
from reasoning.epr import OutsideFragment, in_fragment, skolem_form
from reasoning.formula import (
    ENTITY,
    EVENT,
    And,
    Atom,
    Card,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Term,
    Var,
)
from reasoning.syntax import format_formula, parse_formula
from reasoning.trace import TraceAudit, audit_trace, audit_trace_incremental, parse_sorted_trace
from reasoning.verifier import Verifier

CONSTANTS = {ENTITY: ("a", "b", "c", "d"), EVENT: ("e1", "e2", "e3")}
PREDICATES: dict[str, tuple[str, ...]] = {
    "P": (ENTITY,),
    "Q": (ENTITY,),
    "R": (ENTITY, ENTITY),
    "Walk": (EVENT,),
    "Agent": (EVENT, ENTITY),
}


@st.composite
def _matrix(draw: st.DrawFn, scope: tuple[Var, ...], depth: int = 2) -> Formula:
    """A quantifier-free formula over the constants and the variables in ``scope``."""

    def term(sort: str) -> Term:
        bound = [v for v in scope if v.sort == sort]
        if bound and draw(st.booleans()):
            return draw(st.sampled_from(bound))
        return Const(draw(st.sampled_from(CONSTANTS[sort])), sort)

    if depth == 0 or draw(st.integers(0, 2)) == 0:
        if draw(st.integers(0, 3)) == 0:
            sort = draw(st.sampled_from((ENTITY, EVENT)))
            return Eq(term(sort), term(sort))
        pred = draw(st.sampled_from(tuple(PREDICATES)))
        return Atom(pred, tuple(term(s) for s in PREDICATES[pred]))
    kind = draw(st.sampled_from(("not", "and", "or", "imp", "iff", "card")))
    if kind == "not":
        return Not(draw(_matrix(scope, depth - 1)))
    if kind == "card":
        parts = tuple(draw(_matrix(scope, 0)) for _ in range(draw(st.integers(2, 3))))
        op = draw(st.sampled_from(("exactly", "atmost", "atleast")))
        return Card(op, draw(st.integers(0, 2)), parts)
    left, right = draw(_matrix(scope, depth - 1)), draw(_matrix(scope, depth - 1))
    return {"and": And((left, right)), "or": Or((left, right)), "imp": Implies(left, right)}.get(
        kind, Iff(left, right)
    )


def _variables(draw: st.DrawFn, prefix: str, most: int) -> tuple[Var, ...]:
    count = draw(st.integers(0, most))
    return tuple(Var(f"{prefix}{i}", draw(st.sampled_from((ENTITY, EVENT)))) for i in range(count))


@st.composite
def _rule(draw: st.DrawFn, scope: tuple[Var, ...]) -> Formula:
    """``A & B -> C``: conditions on the variables, and a conclusion."""
    condition = And((draw(_matrix(scope, 0)), draw(_matrix(scope, 0))))
    return Implies(condition, draw(_matrix(scope, 1)))


@st.composite
def knowledge(draw: st.DrawFn) -> Formula:
    """``exists* forall*`` over a matrix: a description, a rule, or a ground fact."""
    outer = _variables(draw, "y", 1)
    inner = _variables(draw, "x", 2)
    shape = _rule if draw(st.booleans()) else _matrix
    body = draw(shape(outer + inner))
    if inner:
        body = Forall(inner, body)
    return Exists(outer, body) if outer else body


@st.composite
def claims(draw: st.DrawFn) -> Formula:
    """A ground claim, or one block of existentials or of universals over a matrix."""
    bound = _variables(draw, "z", 2)
    body = draw(_matrix(bound))
    if not bound:
        return body
    return Forall(bound, body) if draw(st.booleans()) else Exists(bound, body)


def _text(truth: list[Formula], steps: list[tuple[list[Formula], list[Formula]]]) -> str:
    lines = [{"kind": "truth", "formulas": [format_formula(f) for f in truth]}]
    lines += [
        {
            "kind": "step",
            "observe": [format_formula(f) for f in observe],
            "claims": [format_formula(f) for f in said],
        }
        for observe, said in steps
    ]
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def epr_traces() -> st.SearchStrategy[str]:
    """JSONL traces whose every formula lies in the EPR fragment."""
    step = st.tuples(st.lists(knowledge(), max_size=2), st.lists(claims(), min_size=1, max_size=3))
    return st.builds(
        _text, st.lists(knowledge(), max_size=1), st.lists(step, min_size=1, max_size=4)
    )


def _outcomes(audit: TraceAudit) -> list[object]:
    steps = [
        (a.knowledge_consistent, [(c.claim, c.status, c.correctness) for c in a.checks])
        for a in audit.steps
    ]
    return [steps, audit.knowledge_consistent, audit.truth_consistent]


def test_grounding_agrees_with_z3_from_scratch() -> None:
    seen: set[ClaimStatus] = set()

    @settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(epr_traces())
    def check(text: str) -> None:
        _, trace = parse_sorted_trace(text)
        assert epr_trace(trace)
        grounded = audit_trace_incremental(grounded_session, trace, 20.0)
        scratch = audit_trace(Verifier(Z3Prover(), 20.0), trace)
        assert _outcomes(grounded) == _outcomes(scratch)
        seen.update(c.status for a in grounded.steps for c in a.checks)

    check()
    assert {ClaimStatus.ENTAILED, ClaimStatus.CONTRADICTED, ClaimStatus.UNDETERMINED} <= seen


def test_names_are_not_unique() -> None:
    text = (
        '{"kind": "step", "observe": ["P(a)", "~P(b)"], "claims": ["a = b", "~(a = b)"]}\n'
        '{"kind": "step", "observe": ["forall x. x = a | x = b"], '
        '"claims": ["forall x. ~P(x) -> x = b"]}\n'
    )
    _, trace = parse_sorted_trace(text)
    audit = audit_trace_incremental(grounded_session, trace)
    statuses = [c.status for a in audit.steps for c in a.checks]
    assert statuses == [ClaimStatus.CONTRADICTED, ClaimStatus.ENTAILED, ClaimStatus.ENTAILED]
    assert audit.engine == "epr-sat"


def test_new_constants_meet_old_rules() -> None:
    text = (
        '{"kind": "step", "observe": ["forall x. P(x) -> Q(x)"], "claims": ["Q(later)"]}\n'
        '{"kind": "step", "observe": ["P(later)"], "claims": ["Q(later)", "Q(other)"]}\n'
    )
    _, trace = parse_sorted_trace(text)
    audit = audit_trace_incremental(grounded_session, trace)
    statuses = [c.status for a in audit.steps for c in a.checks]
    assert statuses == [
        ClaimStatus.UNDETERMINED,
        ClaimStatus.ENTAILED,
        ClaimStatus.UNDETERMINED,
    ]


@pytest.mark.parametrize(
    ("text", "inside"),
    [
        ("exists y. forall x. R(x, y)", True),
        ("forall x. exists y. R(x, y)", False),
        ("~(exists x. forall y. R(x, y))", False),
        ("exactly 1 of {forall x. P(x), Q(a)}", False),
        ("(forall x. P(x)) <-> Q(a)", True),
    ],
)
def test_fragment(text: str, inside: bool) -> None:
    assert in_fragment([parse_formula(text)], []) is inside
    if not inside:
        with pytest.raises(OutsideFragment):
            skolem_form(parse_formula(text))


def test_claims_are_checked_both_ways() -> None:
    claim = parse_formula("forall x. exists y. R(x, y)")
    assert not in_fragment([], [claim])
    assert in_fragment([], [parse_formula("exists x. P(x)")])
