"""Entailment sessions: knowledge that grows formula by formula, asked one goal at a time.

A trace audit keeps what the agent observed in one session as steps arrive, so each claim costs
one incremental question rather than a proof from scratch over all the knowledge so far. Backends
live in ``provers``; ``ConstraintEntailment`` makes any propositional ``ConstraintSession`` one,
and ``GroundAtoms`` lets a propositional session decide ground formulas without equality
(``reasoning.epr.GroundedSession``, the effectively propositional fragment with equality).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from reasoning.closing import Closing
from reasoning.constraints import ConstraintSession
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
    Truth,
    walk,
)
from reasoning.syntax import format_formula
from reasoning.verdict import ProofResult, Verdict


@runtime_checkable
class EntailmentSession(Protocol):
    """Sorted formulas added for good, and entailment questions against all of them.

    ``prove`` answers like ``Prover.prove`` with the added formulas as the axioms, and adds
    nothing; it never raises for a hard problem. ``add`` raises ValueError for a formula the
    backend cannot take.
    """

    name: str

    def add(self, formula: Formula) -> None:
        """Add ``formula`` to the knowledge for good."""
        ...

    def prove(self, goal: Formula, timeout: float | None = None) -> ProofResult:
        """Decide whether the knowledge entails ``goal`` within ``timeout`` seconds."""
        ...

    def close(self) -> None:
        """Release the backend; the session cannot be used afterwards."""
        ...


EntailmentSessionFactory = Callable[[], EntailmentSession]
"""Makes a fresh, empty session; how callers choose a backend without importing it."""


class ConstraintEntailment(Closing):
    """An ``EntailmentSession`` over a propositional ``ConstraintSession``.

    Propositional entailment is decided outright, so answers are VALID or INVALID; the session's
    solver runs without a time limit.
    """

    def __init__(self, session: ConstraintSession, name: str) -> None:
        self.name = name
        self._session = session

    def add(self, formula: Formula) -> None:
        """Add a propositional formula; ``NotPropositional`` (a ValueError) otherwise."""
        self._session.add(formula)

    def prove(self, goal: Formula, timeout: float | None = None) -> ProofResult:
        """VALID when every model of the knowledge satisfies ``goal``, else INVALID."""
        start = time.perf_counter()
        if self._session.entails(goal):
            return ProofResult.timed(
                Verdict.VALID, self.name, start, message="no model of the knowledge falsifies it"
            )
        return ProofResult.timed(
            Verdict.INVALID, self.name, start, message="a model of the knowledge falsifies it"
        )

    def close(self) -> None:
        """Close the underlying constraint session."""
        self._session.close()


def is_ground(formula: Formula) -> bool:
    """True when ``formula`` has no quantifier and no equality (atoms may have arguments)."""
    return not any(isinstance(g, Forall | Exists | Eq) for g in walk(formula))


def _atom_key(atom: Atom) -> str:
    """One propositional name per ground atom, different for different atoms and sorts."""
    return "1" + format_formula(atom) if atom.args else "0" + atom.pred


def propositional_form(formula: Formula) -> Formula:
    """A ground, equality-free formula with each atom replaced by a propositional atom.

    Without variables or equality, any truth values of distinct ground atoms come from some
    model (one whose constants all denote different elements), so entailment is unchanged.
    ValueError for a quantifier or an equality.
    """
    match formula:
        case Atom():
            return Atom(_atom_key(formula))
        case Truth():
            return formula
        case Not(body):
            return Not(propositional_form(body))
        case And(parts):
            return And(tuple(propositional_form(p) for p in parts))
        case Or(parts):
            return Or(tuple(propositional_form(p) for p in parts))
        case Card(op, k, parts):
            return Card(op, k, tuple(propositional_form(p) for p in parts))
        case Implies(left, right):
            return Implies(propositional_form(left), propositional_form(right))
        case Iff(left, right):
            return Iff(propositional_form(left), propositional_form(right))
    raise ValueError(f"not ground and equality-free: {format_formula(formula)}")


class GroundAtoms(Closing):
    """An ``EntailmentSession`` for ground formulas without equality over a propositional one
    (see ``propositional_form``): first-order ground knowledge at SAT speed."""

    def __init__(self, session: EntailmentSession) -> None:
        self.name = session.name
        self._session = session

    def add(self, formula: Formula) -> None:
        """Add a ground, equality-free formula; ValueError otherwise."""
        self._session.add(propositional_form(formula))

    def prove(self, goal: Formula, timeout: float | None = None) -> ProofResult:
        """Whether the knowledge entails the ground, equality-free ``goal``."""
        return self._session.prove(propositional_form(goal), timeout)

    def close(self) -> None:
        """Close the underlying session."""
        self._session.close()
