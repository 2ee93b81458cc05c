"""A formula about a described thing as literals: each a canonical core with a polarity.

A description says of one thing (the constant ``item``) a conjunction of literals. A core is an
atom about constants ("Tea(item)") or an existential conjunction of atoms ("exists e y.
Name(e) & Patient(e, item) & Island(y) & Source(e, y)"); a literal is a core or its negation.
Writings that mean the same give the same core: conjuncts are sorted, nested existentials merged,
variables renamed in order (``e1``, ``e2``, ... for events, ``y1``, ``y2``, ... for the rest),
sorts erased, and a universal that denies ("forall e y. Have(e) & Agent(e, item) & Patient(e,
y) -> ~Seed(y)") read as the negated existential it is equivalent to. An existential whose
conjuncts fall into parts that share no variable is split into a literal per part, and a ground
part of its body becomes a literal of its own.

``literals_of`` returns None for a formula that is not such a conjunction (a disjunction, a
positive universal, a negated conjunction of several literals...): it is not a set of literals.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from reasoning.formula import (
    EVENT,
    TOP,
    And,
    Atom,
    Const,
    Exists,
    Forall,
    Formula,
    Implies,
    Not,
    Term,
    Truth,
    Var,
    conj,
    constants,
)
from reasoning.sorts import ROLE_PREDICATES, erase_sorts
from reasoning.syntax import format_formula


@dataclass(frozen=True, slots=True)
class Claim:
    """One literal of a description: the canonical ``core`` and whether it holds."""

    core: Formula
    holds: bool

    def formula(self) -> Formula:
        """The literal as a formula: the core, or its negation."""
        return self.core if self.holds else Not(self.core)

    def key(self) -> tuple[str, bool]:
        """A sort key: the core's text, then the polarity."""
        return format_formula(self.core), self.holds


def literals_of(formula: Formula) -> tuple[Claim, ...] | None:
    """The literals of ``formula`` in canonical form (sorted, without repeats), or None when it
    is not a conjunction of literals (see the module docstring); TOP has none."""
    found: list[Claim] = []
    for part in _conjuncts(erase_sorts(formula)):
        claims = _literal(part)
        if claims is None:
            return None
        found.extend(claims)
    unique = {c.key(): c for c in found}
    return tuple(unique[k] for k in sorted(unique))


def conjunction(claims: Sequence[Claim]) -> Formula:
    """The literals as one formula, in the order given (TOP for none)."""
    return conj(c.formula() for c in claims) if claims else TOP


def about_only(claims: Iterable[Claim], subject: str) -> bool:
    """Whether every literal names the constant ``subject`` and no other constant."""
    return all({c.name for c in constants(claim.core)} == {subject} for claim in claims)


def _conjuncts(f: Formula) -> list[Formula]:
    if isinstance(f, And):
        return [g for part in f.parts for g in _conjuncts(part)]
    if isinstance(f, Truth) and f.value:
        return []
    return [f]


def _literal(f: Formula) -> list[Claim] | None:
    """The literals one conjunct stands for."""
    match f:
        case Atom(_, args) if all(isinstance(a, Const) for a in args):
            return [Claim(f, True)]
        case Exists():
            return _existential(f, holds=True)
        case Not(body):
            inner = _literal(body)
            if inner is None or len(inner) != 1:
                return None
            return [Claim(inner[0].core, not inner[0].holds)]
        case Forall(vs, Not(body)):
            return _existential(Exists(vs, body), holds=False)
        case Forall(vs, Implies(left, Not(right))):
            return _existential(Exists(vs, And((left, right))), holds=False)
    return None


def _existential(f: Formula, *, holds: bool) -> list[Claim] | None:
    """An existential conjunction of atoms, split into parts sharing no variable."""
    bound: set[str] = set()
    body = f
    while isinstance(body, Exists):
        bound |= {v.name for v in body.vars}
        body = body.body
    atoms: list[Atom] = []
    for part in _conjuncts(body):
        if isinstance(part, Exists):
            nested = _existential(part, holds=True)
            if nested is None:
                return None
            atoms.extend(a for claim in nested for a in _atoms(claim.core))
        elif isinstance(part, Atom):
            atoms.append(part)
        else:
            return None
    if any(isinstance(t, Var) and t.name not in bound for a in atoms for t in a.args):
        return None
    parts = _components(atoms, bound)
    if not holds and len(parts) != 1:
        return None
    return [Claim(_canonical(p, bound), holds) for p in parts]


def _atoms(core: Formula) -> list[Atom]:
    body = core.body if isinstance(core, Exists) else core
    return [a for a in _conjuncts(body) if isinstance(a, Atom)]


def _components(atoms: list[Atom], bound: set[str]) -> list[list[Atom]]:
    """The atoms grouped by shared bound variables; a ground atom is a group of its own."""
    groups: list[tuple[set[str], list[Atom]]] = []
    for atom in dict.fromkeys(atoms):
        names = {t.name for t in atom.args if isinstance(t, Var) and t.name in bound}
        joined = [g for g in groups if g[0] & names]
        merged_names, merged_atoms = set(names), [atom]
        for g in joined:
            merged_names |= g[0]
            merged_atoms = g[1] + merged_atoms
            groups.remove(g)
        groups.append((merged_names, merged_atoms))
    return [atoms_ for _, atoms_ in groups]


def _canonical(atoms: list[Atom], bound: set[str]) -> Formula:
    """One existential part with its conjuncts sorted and its variables renamed in order."""
    used = {t.name for a in atoms for t in a.args if isinstance(t, Var) and t.name in bound}
    if not used:
        ground = sorted(atoms, key=_shape)
        return conj(list[Formula](ground))
    events = {
        a.args[0].name
        for a in atoms
        if a.pred in ROLE_PREDICATES and len(a.args) == 2 and isinstance(a.args[0], Var)
    }
    names: dict[str, str] = {}
    for atom in sorted(atoms, key=_shape):
        for t in atom.args:
            if isinstance(t, Var) and t.name in used and t.name not in names:
                prefix = "e" if t.name in events or t.sort == EVENT else "y"
                names[t.name] = f"{prefix}{sum(n[0] == prefix for n in names.values()) + 1}"

    def rename(t: Term) -> Term:
        return Var(names[t.name]) if isinstance(t, Var) and t.name in names else t

    renamed = sorted({Atom(a.pred, tuple(map(rename, a.args))) for a in atoms}, key=_full)
    variables = tuple(Var(n) for n in sorted(names.values(), key=_var_order))
    return Exists(variables, conj(list[Formula](renamed)))


def _shape(a: Atom) -> tuple[str, tuple[str, ...]]:
    """An atom's key with its variables left anonymous."""
    return a.pred, tuple("?" if isinstance(t, Var) else "#" + t.name for t in a.args)


def _full(a: Atom) -> tuple[str, tuple[str, ...]]:
    return a.pred, tuple(("?" if isinstance(t, Var) else "#") + t.name for t in a.args)


def _var_order(name: str) -> tuple[str, int]:
    return name[0], int(name[1:])
