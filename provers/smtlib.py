"""SMT-LIB 2 export: an entailment problem as a script whose ``unsat`` answer means "entailed".

Every emitted name is an encoded identifier (``provers.identifiers``) behind a prefix per kind:
``s_`` sorts, ``p_`` predicates, ``c_`` constants, ``v_`` bound variables, ``a_`` axiom labels;
the negated goal is labelled ``goal``. So no input name can break the script or change its
meaning. Cardinality constraints become sums of ``ite`` terms over Int (standard SMT-LIB).
"""

from __future__ import annotations

from collections.abc import Sequence

from provers.identifiers import axiom_id, const_id, pred_id, sort_id, var_id
from provers.signature import ProblemSignature, collect_signature, sort_name
from reasoning.formula import (
    And,
    Atom,
    Card,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Term,
    Truth,
    Var,
)
from reasoning.prover import Axiom

GOAL_LABEL = "goal"


def to_smtlib(axioms: Sequence[Axiom], goal: Formula) -> str:
    """A complete SMT-LIB 2 script asserting ``axioms`` and the negated ``goal``.

    ``unsat`` means the axioms entail the goal. Raises ``MalformedProblem`` (a ValueError) when
    the problem is not well sorted.
    """
    return render_smtlib(axioms, goal, collect_signature(axioms, goal))


def render_smtlib(axioms: Sequence[Axiom], goal: Formula, signature: ProblemSignature) -> str:
    """``to_smtlib`` for a problem already checked, with its signature."""
    lines = [
        "; entailment problem: unsat means the axioms entail the goal",
        "(set-option :produce-unsat-cores true)",
        "(set-logic ALL)",
    ]
    lines += [f"(declare-sort {sort_id(s)} 0)" for s in signature.sorts]
    for pred, arg_sorts in signature.predicates.items():
        domain = " ".join(sort_id(s) for s in arg_sorts)
        lines.append(f"(declare-fun {pred_id(pred)} ({domain}) Bool)")
    for name, sort in signature.constants.items():
        lines.append(f"(declare-fun {const_id(name)} () {sort_id(sort)})")
    for axiom in axioms:
        lines.append(f"(assert (! {smt_formula(axiom.formula)} :named {axiom_id(axiom.name)}))")
    lines.append(f"(assert (! (not {smt_formula(goal)}) :named {GOAL_LABEL}))")
    lines.append("(check-sat)")
    return "\n".join(lines) + "\n"


def smt_formula(f: Formula) -> str:
    """One formula as an SMT-LIB term of sort Bool."""
    out: list[str] = []
    _emit(f, out)
    return "".join(out)


def _term(t: Term) -> str:
    return var_id(t.name) if isinstance(t, Var) else const_id(t.name)


def _emit(f: Formula, out: list[str]) -> None:
    match f:
        case Atom(pred, ()):
            out.append(pred_id(pred))
        case Atom(pred, args):
            out.append(f"({pred_id(pred)} {' '.join(_term(a) for a in args)})")
        case Eq(left, right):
            out.append(f"(= {_term(left)} {_term(right)})")
        case Truth(value):
            out.append("true" if value else "false")
        case Not(body):
            _apply("not", (body,), out)
        case And(parts):
            _nary("and", "true", parts, out)
        case Or(parts):
            _nary("or", "false", parts, out)
        case Implies(left, right):
            _apply("=>", (left, right), out)
        case Iff(left, right):
            _apply("=", (left, right), out)
        case Forall(variables, body) | Exists(variables, body):
            if not variables:
                _emit(body, out)
                return
            binder = "forall" if isinstance(f, Forall) else "exists"
            bound = " ".join(f"({var_id(v.name)} {sort_id(sort_name(v))})" for v in variables)
            out.append(f"({binder} ({bound}) ")
            _emit(body, out)
            out.append(")")
        case Card(op, k, parts):
            relation = {"exactly": "=", "atmost": "<=", "atleast": ">="}[op]
            out.append(f"({relation} ")
            _count(parts, out)
            out.append(f" {k})")


def _apply(head: str, args: Sequence[Formula], out: list[str]) -> None:
    out.append(f"({head}")
    for a in args:
        out.append(" ")
        _emit(a, out)
    out.append(")")


def _nary(head: str, unit: str, parts: Sequence[Formula], out: list[str]) -> None:
    if not parts:
        out.append(unit)
    elif len(parts) == 1:
        _emit(parts[0], out)
    else:
        _apply(head, parts, out)


def _count(parts: Sequence[Formula], out: list[str]) -> None:
    """The number of true ``parts`` as an Int term (``+`` needs two or more summands)."""
    if not parts:
        out.append("0")
        return
    if len(parts) > 1:
        out.append("(+")
    for part in parts:
        out.append(" (ite " if len(parts) > 1 else "(ite ")
        _emit(part, out)
        out.append(" 1 0)")
    if len(parts) > 1:
        out.append(")")
