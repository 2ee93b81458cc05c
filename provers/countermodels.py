"""Turning a solver's finite model into a readable Countermodel, within a deadline.

Backends say which elements each sort has, which element each constant denotes and on which
argument tuples each predicate holds; ``assemble_countermodel`` names the elements (clear of the
problem's constants) and writes the true ground atoms. ``ModelClock`` stops a long extraction.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

from provers.model_eval import ground_atom
from provers.signature import ProblemSignature
from reasoning.formula import ENTITY, EVENT
from reasoning.verdict import Countermodel

K = TypeVar("K", bound=Hashable)

_ELEMENT_PREFIX = {ENTITY: "e", EVENT: "ev"}
CLOCK_EVERY = 256
"""Steps between two looks at the clock."""
NOT_EXTRACTED = "the model was not extracted within the time limit"


class OutOfTime(Exception):
    """The deadline passed while a countermodel was being extracted."""


class ModelClock:
    """Counts extraction steps and raises ``OutOfTime`` once the deadline has passed."""

    def __init__(self, deadline: float | None) -> None:
        """``deadline`` is a ``time.perf_counter()`` value, or None for no limit."""
        self.deadline = deadline
        self.steps = 0

    def tick(self) -> None:
        """One step; every ``CLOCK_EVERY`` steps the clock is read."""
        self.steps += 1
        if (
            self.deadline is not None
            and self.steps % CLOCK_EVERY == 0
            and time.perf_counter() >= self.deadline
        ):
            raise OutOfTime


def element_prefix(sort: str, taken: Iterable[str] = ()) -> str:
    """The prefix of the elements of ``sort`` in a countermodel, clear of the names in ``taken``.

    ``e`` for entities (``e1, e2, ...``), ``ev`` for events, ``<sort>_`` for other sorts; an
    underscore is added while a name in ``taken`` (a constant of the problem, an element of
    another sort) has the form prefix-and-digits, so elements never look like constants.
    """
    names = list(taken)
    prefix = _ELEMENT_PREFIX.get(sort, f"{sort}_")
    while any(n.startswith(prefix) and n[len(prefix) :].isdecimal() for n in names):
        prefix += "_"
    return prefix


def assemble_countermodel(
    signature: ProblemSignature,
    elements: Mapping[str, Sequence[K]],
    constants: Mapping[str, K],
    true_tuples: Callable[[str, list[Sequence[K]]], Iterable[tuple[K, ...]]],
) -> Countermodel:
    """Name each sort's ``elements`` and list the true atoms ``true_tuples(pred, domains)`` gives.

    ``elements`` holds every sort's elements (the constants' among them), ``constants`` each
    constant's element; ``true_tuples`` receives a predicate and its argument domains.
    """
    names: dict[K, str] = {}
    taken: list[str] = list(signature.constants)
    for sort in signature.sorts:
        prefix = element_prefix(sort, taken)
        for index, key in enumerate(elements[sort], start=1):
            names[key] = f"{prefix}{index}"
        taken += [names[key] for key in elements[sort]]
    true_atoms = [
        ground_atom(pred, [names[k] for k in values])
        for pred, arg_sorts in signature.predicates.items()
        for values in true_tuples(pred, [elements[s] for s in arg_sorts])
    ]
    return Countermodel(
        domains={s: [names[k] for k in elements[s]] for s in signature.sorts},
        true_atoms=true_atoms,
        constants={c: names[k] for c, k in constants.items()},
    )
