"""The formula IR: immutable, hashable many-sorted first-order formulas.

Terms are variables and constants (no function symbols). A term's sort is ``None`` until sort
inference (``reasoning.sorts``) fills it in; provers receive formulas whose every term is sorted.
Propositional atoms are ``Atom`` with no arguments; ``Card`` states that exactly / at most / at
least ``k`` of its parts hold, which is how constraint sets (Clue hands, Hanabi cards) are written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

ENTITY = "entity"
EVENT = "event"
DEFAULT_SORTS: tuple[str, ...] = (ENTITY, EVENT)

CardOp = Literal["exactly", "atmost", "atleast"]


@dataclass(frozen=True, slots=True)
class Var:
    """A variable, bound by a quantifier; ``sort`` is None until inferred."""

    name: str
    sort: str | None = None


@dataclass(frozen=True, slots=True)
class Const:
    """A constant symbol (a named individual); ``sort`` is None until inferred."""

    name: str
    sort: str | None = None


Term = Var | Const


@dataclass(frozen=True, slots=True)
class Atom:
    """A predicate or relation applied to terms; with no arguments, a propositional atom."""

    pred: str
    args: tuple[Term, ...] = ()


@dataclass(frozen=True, slots=True)
class Eq:
    """Equality of two terms."""

    left: Term
    right: Term


@dataclass(frozen=True, slots=True)
class Truth:
    """The constant true (``value=True``) or false."""

    value: bool


@dataclass(frozen=True, slots=True)
class Not:
    """Negation."""

    body: Formula


@dataclass(frozen=True, slots=True)
class And:
    """Conjunction of two or more parts."""

    parts: tuple[Formula, ...]


@dataclass(frozen=True, slots=True)
class Or:
    """Disjunction of two or more parts."""

    parts: tuple[Formula, ...]


@dataclass(frozen=True, slots=True)
class Implies:
    """Implication ``left -> right``."""

    left: Formula
    right: Formula


@dataclass(frozen=True, slots=True)
class Iff:
    """Equivalence ``left <-> right``."""

    left: Formula
    right: Formula


@dataclass(frozen=True, slots=True)
class Forall:
    """Universal quantification over one or more variables."""

    vars: tuple[Var, ...]
    body: Formula


@dataclass(frozen=True, slots=True)
class Exists:
    """Existential quantification over one or more variables."""

    vars: tuple[Var, ...]
    body: Formula


@dataclass(frozen=True, slots=True)
class Card:
    """Cardinality constraint: exactly / at most / at least ``k`` of ``parts`` hold."""

    op: CardOp
    k: int
    parts: tuple[Formula, ...]


Formula = Atom | Eq | Truth | Not | And | Or | Implies | Iff | Forall | Exists | Card

TOP = Truth(True)
BOTTOM = Truth(False)


def conj(parts: Iterable[Formula]) -> Formula:
    """Conjunction of ``parts``, flattening nothing: TOP for none, the part itself for one."""
    items = tuple(parts)
    if not items:
        return TOP
    return items[0] if len(items) == 1 else And(items)


def disj(parts: Iterable[Formula]) -> Formula:
    """Disjunction of ``parts``: BOTTOM for none, the part itself for one."""
    items = tuple(parts)
    if not items:
        return BOTTOM
    return items[0] if len(items) == 1 else Or(items)


def negate(f: Formula) -> Formula:
    """The negation of ``f``, with a double negation removed: ``negate(Not(a))`` is ``a``."""
    return f.body if isinstance(f, Not) else Not(f)


def strip_negations(f: Formula) -> Formula:
    """``f`` with leading double negations removed: ``~~~a`` becomes ``~a``."""
    while isinstance(f, Not) and isinstance(f.body, Not):
        f = f.body.body
    return f


def literal(f: Formula) -> tuple[Atom, bool] | None:
    """The atom of ``f`` and its polarity when ``f`` is an atom under any number of negations
    (``~~a`` is ``(a, True)``, ``~a`` is ``(a, False)``); None for any other formula."""
    positive = True
    while isinstance(f, Not):
        f, positive = f.body, not positive
    return (f, positive) if isinstance(f, Atom) else None


def prop(name: str) -> Atom:
    """A propositional atom."""
    return Atom(name)


def children(f: Formula) -> tuple[Formula, ...]:
    """The immediate subformulas of ``f``."""
    match f:
        case Not(body) | Forall(_, body) | Exists(_, body):
            return (body,)
        case And(parts) | Or(parts) | Card(_, _, parts):
            return parts
        case Implies(left, right) | Iff(left, right):
            return (left, right)
        case _:
            return ()


def with_children(f: Formula, parts: tuple[Formula, ...]) -> Formula:
    """``f`` with its immediate subformulas replaced by ``parts`` (as many, in order)."""
    match f:
        case Not():
            return Not(parts[0])
        case Forall(vs, _):
            return Forall(vs, parts[0])
        case Exists(vs, _):
            return Exists(vs, parts[0])
        case And():
            return And(parts)
        case Or():
            return Or(parts)
        case Card(op, k, _):
            return Card(op, k, parts)
        case Implies():
            return Implies(parts[0], parts[1])
        case Iff():
            return Iff(parts[0], parts[1])
        case _:
            return f


def rebuild(
    f: Formula,
    node: Callable[[int, Formula, tuple[Formula, ...]], Formula],
) -> Formula:
    """``f`` rebuilt bottom-up without recursion, however deep it nests.

    ``node(i, g, parts)`` gives the replacement of the ``i``-th subformula ``g`` in ``walk``
    order, with ``parts`` the replacements of its immediate subformulas.
    """
    order = list(walk(f))
    done: list[Formula] = []
    for i in range(len(order) - 1, -1, -1):
        g = order[i]
        parts = tuple(done.pop() for _ in children(g))
        done.append(node(i, g, parts))
    return done[0]


def walk(f: Formula) -> Iterator[Formula]:
    """Every subformula of ``f``, ``f`` first (pre-order)."""
    stack = [f]
    while stack:
        g = stack.pop()
        yield g
        stack.extend(reversed(children(g)))


def depth(f: Formula) -> int:
    """The nesting depth of ``f``: 1 for an atom, equality or truth constant (iterative)."""
    deepest = 0
    stack = [(f, 1)]
    while stack:
        g, level = stack.pop()
        deepest = max(deepest, level)
        stack.extend((c, level + 1) for c in children(g))
    return deepest


def atoms(f: Formula) -> Iterator[Atom]:
    """Every atom occurrence in ``f``."""
    return (g for g in walk(f) if isinstance(g, Atom))


def terms(f: Formula) -> Iterator[Term]:
    """Every term occurrence in atoms and equalities of ``f`` (binders excluded)."""
    for g in walk(f):
        if isinstance(g, Atom):
            yield from g.args
        elif isinstance(g, Eq):
            yield g.left
            yield g.right


def free_vars(f: Formula) -> frozenset[Var]:
    """The variables of ``f`` not bound by a quantifier around them (iterative)."""
    out: set[Var] = set()
    stack: list[tuple[Formula, frozenset[str]]] = [(f, frozenset())]
    while stack:
        g, bound = stack.pop()
        match g:
            case Atom(_, args):
                out.update(a for a in args if isinstance(a, Var) and a.name not in bound)
            case Eq(left, right):
                out.update(t for t in (left, right) if isinstance(t, Var) and t.name not in bound)
            case Forall(vs, body) | Exists(vs, body):
                stack.append((body, bound | {v.name for v in vs}))
            case _:
                stack.extend((c, bound) for c in children(g))
    return frozenset(out)


def constants(f: Formula) -> frozenset[Const]:
    """The constants occurring in ``f``."""
    return frozenset(t for t in terms(f) if isinstance(t, Const))


def is_propositional(f: Formula) -> bool:
    """True when ``f`` has no quantifier, equality or predicate with arguments."""
    return all(
        not isinstance(g, Forall | Exists | Eq) and not (isinstance(g, Atom) and g.args)
        for g in walk(f)
    )
