"""Checks a sorted problem and collects its signature, the shared first step of every encoder.

Backends receive formulas whose terms all carry a sort; the signature (sorts, predicate argument
sorts, constant sorts) follows from use. Anything an encoder could not translate faithfully is
rejected here with a ``MalformedProblem`` naming the symbol and where it occurs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reasoning.formula import (
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
    Truth,
    Var,
)
from reasoning.prover import Axiom

GOAL_PLACE = "the goal"


class MalformedProblem(ValueError):
    """The problem cannot be encoded; the message names the symbol and where it occurs."""


class UnsupportedProblem(ValueError):
    """The problem is well formed but beyond what an encoding takes (a cardinality constraint
    too large to expand, nesting too deep); backends answer UNSUPPORTED with this message."""


@dataclass(frozen=True, slots=True)
class ProblemSignature:
    """What a problem uses: its sorts, predicates with argument sorts, and constants with sorts."""

    sorts: tuple[str, ...]
    predicates: Mapping[str, tuple[str, ...]]
    constants: Mapping[str, str]


def axiom_place(name: str) -> str:
    """How messages name an axiom."""
    return f"axiom {name!r}"


class _Collector:
    """Walks formulas with the bound variables in scope, recording and checking every symbol."""

    def __init__(self) -> None:
        self.sorts: dict[str, None] = {}
        self.predicates: dict[str, tuple[str, ...]] = {}
        self.constants: dict[str, str] = {}
        self.place = ""

    def formula(self, root: object, scope: Mapping[str, str]) -> None:
        """Check ``root`` and its subformulas in pre-order, with an explicit stack (any depth)."""
        stack: list[tuple[object, Mapping[str, str]]] = [(root, scope)]
        while stack:
            f, env = stack.pop()
            stack.extend((part, inner) for part, inner in reversed(self._node(f, env)))

    def _node(self, f: object, scope: Mapping[str, str]) -> list[tuple[object, Mapping[str, str]]]:
        """Check one node; return its subformulas with the scope each is checked in."""
        match f:
            case Atom(pred, args):
                self._atom(pred, args, scope)
            case Eq(left, right):
                left_sort = self._term(left, scope)
                right_sort = self._term(right, scope)
                if left_sort != right_sort:
                    raise self._error(
                        f"equality between {_show(left)} of sort {left_sort} and "
                        f"{_show(right)} of sort {right_sort}"
                    )
            case Truth():
                pass
            case Not(body):
                return [(body, scope)]
            case And(parts) | Or(parts):
                return [(part, scope) for part in parts]
            case Implies(left, right) | Iff(left, right):
                return [(left, scope), (right, scope)]
            case Forall(variables, body) | Exists(variables, body):
                return [(body, self._bind(variables, scope))]
            case Card(op, k, parts):
                if op not in ("exactly", "atmost", "atleast"):
                    raise self._error(f"unknown cardinality operator {op!r}")
                if not isinstance(k, int) or isinstance(k, bool) or k < 0:
                    raise self._error(f"cardinality bound {k!r} is not a non-negative integer")
                return [(part, scope) for part in parts]
            case _:
                raise self._error(f"{f!r} is not a formula")
        return []

    def _atom(self, pred: str, args: tuple[Term, ...], scope: Mapping[str, str]) -> None:
        if not isinstance(pred, str) or not pred:
            raise self._error(f"predicate name {pred!r} is not a non-empty string")
        arg_sorts = tuple(self._term(arg, scope) for arg in args)
        known = self.predicates.setdefault(pred, arg_sorts)
        if len(known) != len(arg_sorts):
            raise self._error(
                f"predicate {pred!r} used with {len(arg_sorts)} arguments here "
                f"and {len(known)} elsewhere"
            )
        for position, (want, got) in enumerate(zip(known, arg_sorts, strict=True), start=1):
            if want != got:
                raise self._error(
                    f"argument {position} of predicate {pred!r} has sort {got} here "
                    f"and {want} elsewhere"
                )

    def _term(self, t: object, scope: Mapping[str, str]) -> str:
        if not isinstance(t, Var | Const):
            raise self._error(f"{t!r} is not a term")
        if not isinstance(t.name, str) or not t.name:
            raise self._error(f"term name {t.name!r} is not a non-empty string")
        sort = self._sort_of(t)
        if isinstance(t, Var):
            bound = scope.get(t.name)
            if bound is None:
                raise self._error(f"variable {t.name!r} is not bound by a quantifier")
            if bound != sort:
                raise self._error(
                    f"variable {t.name!r} is bound with sort {bound} but used with sort {sort}"
                )
            return sort
        known = self.constants.setdefault(t.name, sort)
        if known != sort:
            raise self._error(f"constant {t.name!r} has sort {sort} here and {known} elsewhere")
        return sort

    def _bind(self, variables: tuple[Var, ...], scope: Mapping[str, str]) -> dict[str, str]:
        inner = dict(scope)
        seen: set[str] = set()
        for v in variables:
            if not isinstance(v, Var):
                raise self._error(f"quantifier binds {v!r}, which is not a variable")
            if not isinstance(v.name, str) or not v.name:
                raise self._error(f"variable name {v.name!r} is not a non-empty string")
            if v.name in seen:
                raise self._error(f"variable {v.name!r} is bound twice by one quantifier")
            seen.add(v.name)
            inner[v.name] = self._sort_of(v)
        return inner

    def _sort_of(self, t: Var | Const) -> str:
        kind = "variable" if isinstance(t, Var) else "constant"
        if t.sort is None:
            raise self._error(f"{kind} {t.name!r} has no sort (run sort inference first)")
        if not isinstance(t.sort, str) or not t.sort:
            raise self._error(f"{kind} {t.name!r} has sort {t.sort!r}, not a sort name")
        self.sorts.setdefault(t.sort)
        return t.sort

    def _error(self, what: str) -> MalformedProblem:
        return MalformedProblem(f"{what} (in {self.place})")


def sort_name(t: Var | Const) -> str:
    """The sort of a term of a checked problem; ``MalformedProblem`` if it has none."""
    if t.sort is None:
        raise MalformedProblem(f"{t.name!r} has no sort")
    return t.sort


def collect_signature(axioms: Sequence[Axiom], goal: Formula) -> ProblemSignature:
    """Check that ``axioms`` and ``goal`` are well sorted and closed; return their signature.

    Raises ``MalformedProblem`` for an unsorted or unbound term, a symbol used with two arities or
    sorts, an equality across sorts, a bad cardinality bound or a repeated axiom name.
    """
    collector = _Collector()
    names: set[str] = set()
    for axiom in axioms:
        if not isinstance(axiom, Axiom):
            raise MalformedProblem(f"{axiom!r} is not an Axiom")
        if not isinstance(axiom.name, str) or not axiom.name:
            raise MalformedProblem(f"axiom name {axiom.name!r} is not a non-empty string")
        if axiom.name in names:
            raise MalformedProblem(f"axiom name {axiom.name!r} is used twice")
        names.add(axiom.name)
        collector.place = axiom_place(axiom.name)
        collector.formula(axiom.formula, {})
    collector.place = GOAL_PLACE
    collector.formula(goal, {})
    return ProblemSignature(
        sorts=tuple(collector.sorts),
        predicates=dict(collector.predicates),
        constants=dict(collector.constants),
    )


def _show(t: Term) -> str:
    kind = "variable" if isinstance(t, Var) else "constant"
    return f"{kind} {t.name!r}"
