"""TPTP FOF export: many-sorted entailment problems for untyped first-order provers such as E.

Sorts become guard predicates ``s_<sort>``: quantifiers are relativised to them, every sort is
non-empty, sorts are pairwise disjoint and each constant is typed by an axiom. A sorted problem
and its encoding have the same answer. Names are encoded identifiers behind a prefix per kind:
``p_`` predicates, ``c_`` constants, ``s_`` sorts, ``V_`` variables, ``a_`` axiom names; helper
axioms are named ``t_...`` and the conjecture ``goal``.

Cardinality constraints are expanded into clauses over subsets of their parts: "at most k of n"
needs one clause per (k+1)-subset, "at least k of n" one per (n-k+1)-subset. That grows as a
binomial coefficient, so a constraint needing more than ``CARD_EXPANSION_LIMIT`` clauses is
rejected with ``UnsupportedProblem`` (which backends report as UNSUPPORTED).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import comb

from provers.identifiers import axiom_id, const_id, pred_id, sort_id, symbol
from provers.signature import (
    GOAL_PLACE,
    MalformedProblem,
    ProblemSignature,
    UnsupportedProblem,
    axiom_place,
    collect_signature,
    sort_name,
)
from provers.trampoline import Walk, run
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

CARD_EXPANSION_LIMIT = 10_000
GOAL_NAME = "goal"


def var_id(name: str) -> str:
    """The TPTP name of a bound variable (upper case, as TPTP demands)."""
    return symbol("V_", name)


def to_tptp(axioms: Sequence[Axiom], goal: Formula) -> str:
    """A TPTP FOF problem: ``axioms`` as axioms and ``goal`` as the conjecture.

    Raises ``MalformedProblem`` (a ValueError) for a problem that is not well sorted and
    ``UnsupportedProblem`` for a cardinality constraint above ``CARD_EXPANSION_LIMIT`` clauses.
    """
    return render_tptp(axioms, goal, collect_signature(axioms, goal))


def render_tptp(axioms: Sequence[Axiom], goal: Formula, signature: ProblemSignature) -> str:
    """``to_tptp`` for a problem already checked, with its signature."""
    lines = ["% entailment problem; many-sorted, encoded with sort guard predicates"]
    sorts = signature.sorts
    for sort in sorts:
        lines.append(_fof(symbol("t_nonempty_", sort), "axiom", f"?[X]: {sort_id(sort)}(X)"))
    for i, j in combinations(range(len(sorts)), 2):
        both = f"{sort_id(sorts[i])}(X) & {sort_id(sorts[j])}(X)"
        lines.append(_fof(f"t_disjoint_{i}_{j}", "axiom", f"![X]: ~({both})"))
    for name, sort in signature.constants.items():
        lines.append(_fof(symbol("t_const_", name), "axiom", f"{sort_id(sort)}({const_id(name)})"))
    for axiom in axioms:
        text = _Writer(axiom_place(axiom.name)).formula(axiom.formula)
        lines.append(_fof(axiom_id(axiom.name), "axiom", text))
    lines.append(_fof(GOAL_NAME, "conjecture", _Writer(GOAL_PLACE).formula(goal)))
    return "\n".join(lines) + "\n"


def _fof(name: str, role: str, text: str) -> str:
    return f"fof({name}, {role}, {text})."


def _term(t: Term) -> str:
    return var_id(t.name) if isinstance(t, Var) else const_id(t.name)


class _Writer:
    """Writes one checked formula as fully parenthesised FOF, expanding cardinalities."""

    def __init__(self, place: str) -> None:
        self.place = place

    def formula(self, f: Formula) -> str:
        """``f`` as FOF text (iterative: any nesting depth)."""
        return run(self._formula(f))

    def _formula(self, f: Formula) -> Walk[str]:
        match f:
            case Atom(pred, ()):
                return pred_id(pred)
            case Atom(pred, args):
                return f"{pred_id(pred)}({', '.join(_term(a) for a in args)})"
            case Eq(left, right):
                return f"({_term(left)} = {_term(right)})"
            case Truth(value):
                return "$true" if value else "$false"
            case Not(body):
                return f"~({(yield self._formula(body))})"
            case And(parts) | Or(parts) | Card(_, _, parts):
                texts: list[str] = []
                for part in parts:
                    texts.append((yield self._formula(part)))
                if isinstance(f, And):
                    return _join(" & ", "$true", texts)
                if isinstance(f, Or):
                    return _join(" | ", "$false", texts)
                return self._card(f.op, f.k, texts)
            case Implies(left, right) | Iff(left, right):
                connective = "=>" if isinstance(f, Implies) else "<=>"
                left_text = yield self._formula(left)
                right_text = yield self._formula(right)
                return f"({left_text} {connective} {right_text})"
            case Forall(variables, body) | Exists(variables, body):
                inner = yield self._formula(body)
                return self._quantifier(isinstance(f, Forall), variables, inner)
        raise MalformedProblem(f"{f!r} is not a formula (in {self.place})")

    def _quantifier(self, universal: bool, variables: tuple[Var, ...], inner: str) -> str:
        if not variables:
            return inner
        names = ", ".join(var_id(v.name) for v in variables)
        guards = " & ".join(f"{sort_id(sort_name(v))}({var_id(v.name)})" for v in variables)
        if universal:
            return f"(![{names}]: (({guards}) => {inner}))"
        return f"(?[{names}]: (({guards}) & {inner}))"

    def _card(self, op: str, k: int, parts: list[str]) -> str:
        n = len(parts)
        need = 0
        if op in ("atmost", "exactly") and k < n:
            need += comb(n, k + 1)
        if op in ("atleast", "exactly") and 0 < k <= n:
            need += comb(n, n - k + 1)
        if need > CARD_EXPANSION_LIMIT:
            raise UnsupportedProblem(
                f"cardinality constraint '{op} {k} of {n}' expands to {need} clauses, above "
                f"the limit of {CARD_EXPANSION_LIMIT} (in {self.place})"
            )
        if op in ("atleast", "exactly") and k > n:
            return "$false"
        clauses: list[str] = []
        if op in ("atmost", "exactly") and k < n:
            clauses += [
                _join(" | ", "$false", [f"~({p})" for p in subset])
                for subset in combinations(parts, k + 1)
            ]
        if op in ("atleast", "exactly") and 0 < k <= n:
            clauses += [
                _join(" | ", "$false", list(subset)) for subset in combinations(parts, n - k + 1)
            ]
        return _join(" & ", "$true", clauses)


def _join(connective: str, unit: str, items: list[str]) -> str:
    if not items:
        return unit
    if len(items) == 1:
        return items[0]
    return "(" + connective.join(items) + ")"
