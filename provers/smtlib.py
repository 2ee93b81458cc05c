"""SMT-LIB 2 export: an entailment problem as a script whose ``unsat`` answer means "entailed".

Every emitted name is an encoded identifier (``provers.identifiers``) behind a prefix per kind:
``s_`` sorts, ``p_`` predicates, ``c_`` constants, ``v_`` bound variables, ``a_`` axiom labels;
the negated goal is labelled ``goal``. So no input name can break the script or change its
meaning. Cardinality constraints become sums of ``ite`` terms over Int (standard SMT-LIB); a
bound above the number of parts is decided while writing. ``render_guarded`` writes the form
the embedded solvers read: each assertion behind a Boolean label, checked as an assumption.
Formulas of any nesting depth are written (the walk keeps its own stack).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from provers.identifiers import axiom_id, const_id, pred_id, sort_id, var_id
from provers.signature import MalformedProblem, ProblemSignature, collect_signature, sort_name
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
from reasoning.verdict import ProofResult, Verdict

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
        *smt_declarations(signature),
    ]
    for axiom in axioms:
        lines.append(f"(assert (! {smt_formula(axiom.formula)} :named {axiom_id(axiom.name)}))")
    lines.append(f"(assert (! (not {smt_formula(goal)}) :named {GOAL_LABEL}))")
    lines.append("(check-sat)")
    return "\n".join(lines) + "\n"


def render_guarded(
    axioms: Sequence[Axiom], goal: Formula, signature: ProblemSignature
) -> tuple[str, list[str]]:
    """The problem as declarations and assertions ``(=> label formula)``, with the labels.

    Each axiom's label is its ``axiom_id``, the negated goal's is ``GOAL_LABEL``; checking
    satisfiability under all labels as assumptions decides entailment, and the failed
    assumptions are the unsat core. Solvers read this text instead of building terms one by one.
    """
    labels = [axiom_id(axiom.name) for axiom in axioms] + [GOAL_LABEL]
    lines = smt_declarations(signature)
    lines += [f"(declare-fun {label} () Bool)" for label in labels]
    for label, axiom in zip(labels, axioms, strict=False):
        lines.append(f"(assert (=> {label} {smt_formula(axiom.formula)}))")
    lines.append(f"(assert (=> {GOAL_LABEL} (not {smt_formula(goal)})))")
    return "\n".join(lines) + "\n", labels


def smt_declarations(signature: ProblemSignature) -> list[str]:
    """The sort, predicate and constant declarations of a problem's signature."""
    lines = [f"(declare-sort {sort_id(s)} 0)" for s in signature.sorts]
    for pred, arg_sorts in signature.predicates.items():
        domain = " ".join(sort_id(s) for s in arg_sorts)
        lines.append(f"(declare-fun {pred_id(pred)} ({domain}) Bool)")
    for name, sort in signature.constants.items():
        lines.append(f"(declare-fun {const_id(name)} () {sort_id(sort)})")
    return lines


def smt_formula(f: Formula) -> str:
    """One formula as an SMT-LIB term of sort Bool (iterative: any nesting depth)."""
    out: list[str] = []
    stack: list[Formula | str] = [f]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        else:
            stack.extend(reversed(_pieces(item)))
    return "".join(out)


def _term(t: Term) -> str:
    return var_id(t.name) if isinstance(t, Var) else const_id(t.name)


def _pieces(f: Formula) -> list[Formula | str]:
    """``f`` as text with its subformulas left in place, to be expanded in turn."""
    match f:
        case Atom(pred, ()):
            return [pred_id(pred)]
        case Atom(pred, args):
            return [f"({pred_id(pred)} {' '.join(_term(a) for a in args)})"]
        case Eq(left, right):
            return [f"(= {_term(left)} {_term(right)})"]
        case Truth(value):
            return ["true" if value else "false"]
        case Not(body):
            return _apply("not", (body,))
        case And(parts):
            return _nary("and", "true", parts)
        case Or(parts):
            return _nary("or", "false", parts)
        case Implies(left, right):
            return _apply("=>", (left, right))
        case Iff(left, right):
            return _apply("=", (left, right))
        case Forall(variables, body) | Exists(variables, body):
            if not variables:
                return [body]
            binder = "forall" if isinstance(f, Forall) else "exists"
            bound = " ".join(f"({var_id(v.name)} {sort_id(sort_name(v))})" for v in variables)
            return [f"({binder} ({bound}) ", body, ")"]
        case Card(op, k, parts):
            return _card(op, k, parts)
    raise MalformedProblem(f"{f!r} is not a formula")


def _apply(head: str, args: Sequence[Formula]) -> list[Formula | str]:
    out: list[Formula | str] = [f"({head}"]
    for a in args:
        out += [" ", a]
    out.append(")")
    return out


def _nary(head: str, unit: str, parts: Sequence[Formula]) -> list[Formula | str]:
    if not parts:
        return [unit]
    if len(parts) == 1:
        return [parts[0]]
    return _apply(head, parts)


def _card(op: str, k: int, parts: Sequence[Formula]) -> list[Formula | str]:
    """The count of true ``parts`` compared with ``k``; a bound above the count is decided here.

    Deciding ``k > len(parts)`` up front keeps huge bounds out of the solver's arithmetic.
    """
    if k > len(parts):
        return ["true" if op == "atmost" else "false"]
    relation = {"exactly": "=", "atmost": "<=", "atleast": ">="}[op]
    if not parts:
        return [f"({relation} 0 {k})"]
    out: list[Formula | str] = [f"({relation} "]
    if len(parts) > 1:
        out.append("(+")
    for part in parts:
        out += [" (ite " if len(parts) > 1 else "(ite ", part, " 1 0)"]
    if len(parts) > 1:
        out.append(")")
    out.append(f" {k})")
    return out


def encode_guarded(
    prover: str,
    axioms: Sequence[Axiom],
    goal: Formula,
    start: float,
    limit: float | None,
    deadline: float | None,
) -> tuple[ProblemSignature, str, list[str]] | ProofResult:
    """The SMT-LIB backends' first step: the signature and the guarded script with its labels, or
    the result that ends the call (SYNTAX_ERROR for a malformed problem, TIMEOUT when encoding
    used up the limit)."""
    try:
        signature = collect_signature(axioms, goal)
        script, labels = render_guarded(axioms, goal, signature)
    except MalformedProblem as exc:
        return ProofResult.timed(Verdict.SYNTAX_ERROR, prover, start, message=str(exc))
    if deadline is not None and limit is not None and time.perf_counter() >= deadline:
        return ProofResult.timed(
            Verdict.TIMEOUT,
            prover,
            start,
            message=f"time limit of {limit:g} s reached while encoding the problem",
        )
    return signature, script, labels
