"""Incremental propositional constraint sets: the protocol games and formalizers program against.

A session holds a growing set of propositional formulas (atoms without arguments, truth
constants, connectives and ``Card``) and answers satisfiability, entailment, backbone, model and
bounded model-count questions about it. Backends live in ``provers``; callers pick one through a
``ConstraintSessionFactory``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol, runtime_checkable

from reasoning.formula import Atom, Eq, Exists, Forall, Formula, Not, Term, walk


class Inconsistent(ValueError):
    """The constraint set has no model, so a question about its models has no answer."""


class NotPropositional(ValueError):
    """A formula given to a propositional backend has a first-order part; ``part`` is that part."""

    def __init__(self, message: str, part: Formula) -> None:
        super().__init__(message)
        self.part = part


def _terms_text(terms: Sequence[Term]) -> str:
    return ", ".join(t.name for t in terms)


def _reason(part: Formula) -> str | None:
    """Why the node ``part`` itself is not propositional, or None when it is."""
    match part:
        case Forall(vs, _):
            return f"universal quantifier over {_terms_text(vs)}"
        case Exists(vs, _):
            return f"existential quantifier over {_terms_text(vs)}"
        case Eq(left, right):
            return f"equality {left.name} = {right.name}"
        case Atom(pred, args) if args:
            return f"atom {pred}({_terms_text(args)}) has arguments"
        case _:
            return None


def require_propositional(formula: Formula) -> None:
    """Raise ``NotPropositional`` naming the first quantifier, equality or atom with arguments."""
    for part in walk(formula):
        reason = _reason(part)
        if reason is not None:
            raise NotPropositional(f"not propositional: {reason}", part)


def assumption_literal(assumption: Formula) -> tuple[str, bool]:
    """The atom name and polarity of an assumption, which must be ``p`` or ``~p`` for an atom p."""
    match assumption:
        case Atom(name, ()):
            return name, True
        case Not(Atom(name, ())):
            return name, False
        case _:
            raise ValueError(
                "an assumption must be a propositional atom or its negation, got "
                f"{type(assumption).__name__}: {assumption!r}"
            )


@runtime_checkable
class ConstraintSession(Protocol):
    """An incremental set of propositional constraints with model-level queries.

    Adding formulas only ever removes models, so a backbone literal stays fixed once found:
    ``backbone`` takes those already known as a hint to skip work.
    """

    def add(self, formula: Formula) -> None:
        """Add a propositional formula for good; ``NotPropositional`` (a ValueError) otherwise."""
        ...

    def satisfiable(self, assumptions: Sequence[Formula] = ()) -> bool:
        """Whether the set has a model in which every assumption literal holds."""
        ...

    def entails(self, formula: Formula) -> bool:
        """Whether every model satisfies ``formula`` (always, if there is none); adds nothing."""
        ...

    def backbone(
        self, atoms: Iterable[str], known: Mapping[str, bool] | None = None
    ) -> dict[str, bool]:
        """The atoms among ``atoms`` with the same value in every model, mapped to that value.

        ``known`` lists atoms already found fixed (from an earlier call on fewer constraints);
        they are trusted and returned as given (a backend may reject a hint a model contradicts,
        with ValueError). Atoms no formula mentions are free, so never fixed. Raises
        ``Inconsistent`` when the set has no model.
        """
        ...

    def count_models(
        self, atoms: Sequence[str], bound: int, assumptions: Sequence[Formula] = ()
    ) -> int:
        """How many assignments to ``atoms`` extend to a model under the assumptions.

        Returns ``min(count, bound)``; a negative ``bound`` is a ValueError.
        """
        ...

    def model(self, assumptions: Sequence[Formula] = ()) -> dict[str, bool] | None:
        """One model over the atoms added so far and those of ``assumptions``, or None if none."""
        ...

    def close(self) -> None:
        """Release the backend; the session cannot be used afterwards."""
        ...


ConstraintSessionFactory = Callable[[], ConstraintSession]
"""Makes a fresh, empty session; how callers choose a backend without importing it."""
