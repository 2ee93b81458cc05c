"""Sort inference: every variable and constant gets a sort, every predicate its argument sorts.

Symbols are declared by use. Annotations and a given ``Signature`` fix sorts; sorts flow through
shared variables and constants, predicate argument positions and equalities (union-find over sort
variables); Neo-Davidsonian role predicates then default to (event, entity), and anything still
open becomes ``entity``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from reasoning.formula import (
    ENTITY,
    EVENT,
    Atom,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Term,
    Var,
    children,
    rebuild,
    walk,
    with_children,
)
from reasoning.syntax import format_formula

ROLE_PREDICATES: frozenset[str] = frozenset(
    {
        "Agent",
        "Patient",
        "Theme",
        "Experiencer",
        "Instrument",
        "Location",
        "Source",
        "Goal",
        "Recipient",
        "Beneficiary",
        "Time",
        "Manner",
        "Cause",
        "Purpose",
        "Attribute",
        "Stimulus",
        "Result",
        "Path",
        "Destination",
        "Topic",
    }
)
"""Thematic-role relations between an event and a participant: (event, entity) by default."""

ROLE_SORTS: tuple[str, str] = (EVENT, ENTITY)


class SortError(ValueError):
    """A symbol forced to two sorts (``kind="sort"``) or a predicate used with two arities.

    ``where`` says in what position the clash was found; ``index`` is the 0-based formula index.
    """

    def __init__(
        self,
        symbol: str,
        expected: str,
        found: str,
        where: str,
        index: int | None = None,
        kind: Literal["sort", "arity"] = "sort",
    ) -> None:
        self.symbol = symbol
        self.expected = expected
        self.found = found
        self.where = where
        self.index = index
        self.kind = kind
        suffix = "" if index is None else f" in formula {index + 1}"
        super().__init__(self.detail + suffix)

    @property
    def detail(self) -> str:
        """The message without the formula number."""
        if self.kind == "arity":
            return (
                f"arity clash on {self.symbol!r}: expected {self.expected} argument(s), "
                f"found {self.found} at {self.where}"
            )
        return (
            f"sort clash on {self.symbol!r}: expected {self.expected}, found {self.found} "
            f"at {self.where}"
        )


@dataclass(frozen=True, eq=True)
class Signature:
    """Argument sorts of each predicate (``()`` for a propositional atom); each constant's sort."""

    predicates: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    constants: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "predicates", MappingProxyType(dict(self.predicates)))
        object.__setattr__(self, "constants", MappingProxyType(dict(self.constants)))

    def __hash__(self) -> int:
        return hash((frozenset(self.predicates.items()), frozenset(self.constants.items())))

    @property
    def sorts(self) -> tuple[str, ...]:
        """The sorts the predicates and constants mention, in alphabetical order."""
        found = set(self.constants.values())
        for arg_sorts in self.predicates.values():
            found.update(arg_sorts)
        return tuple(sorted(found))


class _Classes:
    """Union-find over sort variables.

    A class may carry a sort (from an annotation or the signature) and a default (from a role
    predicate). Defaults yield to sorts; two different defaults meeting in a class without a sort
    is a clash, reported (at the end, when no sort has settled it) where the classes met.
    """

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.sort: list[str | None] = []
        self.default: list[str | None] = []
        self.conflict: dict[int, SortError] = {}

    def new(self, default: str | None = None) -> int:
        self.parent.append(len(self.parent))
        self.sort.append(None)
        self.default.append(default)
        return len(self.parent) - 1

    def find(self, i: int) -> int:
        root = i
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[i] != root:
            self.parent[i], i = root, self.parent[i]
        return root

    def fix(self, i: int, sort: str, symbol: str, where: str, index: int | None) -> None:
        """Give ``i``'s class ``sort``; a different sort already there is a clash."""
        root = self.find(i)
        known = self.sort[root]
        if known is None:
            self.sort[root] = sort
        elif known != sort:
            raise SortError(symbol, known, sort, where, index)

    def union(self, expected: int, found: int, symbol: str, where: str, index: int | None) -> None:
        """Merge two classes; ``expected`` is the one the context imposes."""
        a, b = self.find(expected), self.find(found)
        if a == b:
            return
        sa, sb = self.sort[a], self.sort[b]
        if sa is not None and sb is not None and sa != sb:
            raise SortError(symbol, sa, sb, where, index)
        da, db = self.default[a], self.default[b]
        conflict_a, conflict_b = self.conflict.pop(a, None), self.conflict.pop(b, None)
        conflict = conflict_a or conflict_b
        if conflict is None and da is not None and db is not None and da != db:
            conflict = SortError(symbol, da, db, where, index)
        self.parent[b] = a
        self.sort[a] = sa if sa is not None else sb
        self.default[a] = da if da is not None else db
        if conflict is not None:
            self.conflict[a] = conflict

    def settle(self, root: int) -> str:
        """The final sort of a class: its sort, else its default, else entity."""
        sort = self.sort[root]
        if sort is not None:
            return sort
        conflict = self.conflict.get(root)
        if conflict is not None:
            raise conflict
        return self.default[root] or ENTITY


class _Inference:
    """Collects constraints formula by formula, then sorts every term."""

    def __init__(self, signature: Signature | None) -> None:
        self.classes = _Classes()
        self.predicates: dict[str, list[int]] = {}
        self.constants: dict[str, int] = {}
        self.order: list[int] = []
        self.index = 0
        self.free: dict[str, int] = {}
        self.final: list[str] = []
        if signature is not None:
            for pred, arg_sorts in signature.predicates.items():
                nodes = [self.classes.new() for _ in arg_sorts]
                for node, sort in zip(nodes, arg_sorts, strict=True):
                    self.classes.fix(node, sort, pred, "signature", None)
                self.predicates[pred] = nodes
            for name, sort in signature.constants.items():
                self.constants[name] = node = self.classes.new()
                self.classes.fix(node, sort, name, "signature", None)

    def add(self, index: int, f: Formula) -> None:
        self.index = index
        self.free = {}
        self.visit(f, {})

    def pred_nodes(self, atom: Atom) -> list[int]:
        pred, arity = atom.pred, len(atom.args)
        nodes = self.predicates.get(pred)
        if nodes is None:
            defaults: tuple[str | None, ...] = (None,) * arity
            if pred in ROLE_PREDICATES and arity == len(ROLE_SORTS):
                defaults = ROLE_SORTS
            nodes = self.predicates[pred] = [self.classes.new(d) for d in defaults]
        elif len(nodes) != arity:
            where = format_formula(atom)
            raise SortError(pred, str(len(nodes)), str(arity), where, self.index, "arity")
        return nodes

    def term(self, t: Term, scope: dict[str, int], where: str) -> int:
        if isinstance(t, Var):
            node = scope.get(t.name)
            if node is None:
                node = self.free.get(t.name)
                if node is None:
                    node = self.free[t.name] = self.classes.new()
        else:
            node = self.constants.get(t.name)
            if node is None:
                node = self.constants[t.name] = self.classes.new()
        if t.sort is not None:
            self.classes.fix(
                node, t.sort, t.name, f"annotation {t.name}:{t.sort} in {where}", self.index
            )
        self.order.append(node)
        return node

    def visit(self, f: Formula, scope: dict[str, int]) -> None:
        """Record the constraints of ``f`` in ``walk`` order (iterative, for any depth)."""
        stack: list[tuple[Formula, dict[str, int]]] = [(f, scope)]
        while stack:
            g, env = stack.pop()
            match g:
                case Atom(pred, args):
                    nodes = self.pred_nodes(g)
                    for i, (arg, pos) in enumerate(zip(args, nodes, strict=True), start=1):
                        where = f"argument {i} of {pred}"
                        self.classes.union(
                            pos, self.term(arg, env, where), arg.name, where, self.index
                        )
                case Eq(left, right):
                    where = f"equality {left.name} = {right.name}"
                    lnode = self.term(left, env, where)
                    self.classes.union(
                        lnode, self.term(right, env, where), right.name, where, self.index
                    )
                case Forall(vs, body) | Exists(vs, body):
                    inner = dict(env)
                    for v in vs:
                        node = self.classes.new()
                        if v.sort is not None:
                            self.classes.fix(node, v.sort, v.name, "binder", self.index)
                        inner[v.name] = node
                        self.order.append(node)
                    stack.append((body, inner))
                case _:
                    stack.extend((c, env) for c in reversed(children(g)))

    def settle(self) -> None:
        """Fix the final sort of every class (raising a pending default clash)."""
        classes = self.classes
        self.final = [classes.settle(classes.find(i)) for i in range(len(classes.parent))]

    def sort_of(self, node: int) -> str:
        return self.final[node]

    def rebuild(self, f: Formula, nodes: Iterator[int]) -> Formula:
        """``f`` with sorts filled in, consuming nodes in the order ``visit`` recorded them."""
        leaves: dict[int, Formula] = {}
        for i, g in enumerate(walk(f)):
            match g:
                case Atom(pred, args):
                    leaves[i] = Atom(pred, tuple(self.sorted_term(a, next(nodes)) for a in args))
                case Eq(left, right):
                    new_left = self.sorted_term(left, next(nodes))
                    leaves[i] = Eq(new_left, self.sorted_term(right, next(nodes)))
                case Forall(vs, body) | Exists(vs, body):
                    new_vs = tuple(Var(v.name, self.sort_of(next(nodes))) for v in vs)
                    kind = Forall if isinstance(g, Forall) else Exists
                    leaves[i] = kind(new_vs, body)

        def node(i: int, g: Formula, parts: tuple[Formula, ...]) -> Formula:
            return with_children(leaves.get(i, g), parts)

        return rebuild(f, node)

    def sorted_term(self, t: Term, node: int) -> Term:
        sort = self.sort_of(node)
        return Var(t.name, sort) if isinstance(t, Var) else Const(t.name, sort)

    def signature(self) -> Signature:
        return Signature(
            predicates={
                p: tuple(self.sort_of(n) for n in nodes) for p, nodes in self.predicates.items()
            },
            constants={c: self.sort_of(n) for c, n in self.constants.items()},
        )


def infer_sorts(
    formulas: Sequence[Formula], signature: Signature | None = None
) -> tuple[tuple[Formula, ...], Signature]:
    """Sort every variable and constant of ``formulas`` together; raises SortError on a clash.

    Returns the sorted formulas (same order) and the signature: the given one extended with every
    predicate and constant the formulas use.
    """
    inference = _Inference(signature)
    termless: list[bool] = []
    for index, f in enumerate(formulas):
        before = len(inference.order)
        inference.add(index, f)
        termless.append(len(inference.order) == before)
    inference.settle()
    nodes = iter(inference.order)
    out = tuple(
        f if bare else inference.rebuild(f, nodes)
        for f, bare in zip(formulas, termless, strict=True)
    )
    return out, inference.signature()


def erase_sorts(f: Formula) -> Formula:
    """``f`` with the sort of every variable and constant set back to None."""

    def node(_: int, g: Formula, parts: tuple[Formula, ...]) -> Formula:
        match g:
            case Atom(pred, args):
                return Atom(pred, tuple(_erase_term(a) for a in args))
            case Eq(left, right):
                return Eq(_erase_term(left), _erase_term(right))
            case Forall(vs, _):
                return Forall(tuple(Var(v.name) for v in vs), parts[0])
            case Exists(vs, _):
                return Exists(tuple(Var(v.name) for v in vs), parts[0])
        return with_children(g, parts)

    return rebuild(f, node)


def _erase_term(t: Term) -> Term:
    return Var(t.name) if isinstance(t, Var) else Const(t.name)
