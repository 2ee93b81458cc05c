"""The one interface every backend implements, and the errors it raises."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from reasoning.formula import BOTTOM, Formula
from reasoning.verdict import ProofResult


@dataclass(frozen=True, slots=True)
class Axiom:
    """A named premise; the name is what ``ProofResult.used_axioms`` reports."""

    name: str
    formula: Formula


class ProverUnavailable(RuntimeError):
    """The backend cannot run here (binary or server missing); the message says how to get it."""


@runtime_checkable
class Prover(Protocol):
    """A backend that decides whether axioms entail a goal.

    ``prove`` never raises for a hard or malformed problem: a timeout, crash or input error comes
    back as a verdict. Formulas must be sorted (see ``reasoning.sorts.infer_sorts``).
    """

    name: str

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        """Decide whether ``axioms`` entail ``goal`` within ``timeout`` seconds."""
        ...


def check_consistency(
    prover: Prover, axioms: Sequence[Axiom], timeout: float | None = None
) -> ProofResult:
    """Ask whether ``axioms`` are inconsistent, as the entailment of false.

    VALID means the set is inconsistent (false is entailed); INVALID means it is consistent, and
    ``countermodel`` holds a model of it.
    """
    return prover.prove(axioms, BOTTOM, timeout)
