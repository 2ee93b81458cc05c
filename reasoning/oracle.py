"""Entailment oracles: anything that can say whether a knowledge base entails a claim.

A prover answers this by proof search; a structure that keeps the knowledge's consequences (a
Clue knowledge grid: the SAT backbone of a constraint set) answers it by lookup. ``claim_status``
turns an oracle's answers into the Verifier's vocabulary by one rule, so every audit that uses an
oracle classifies claims exactly as the Verifier does with a prover. An oracle that only speaks a
small language (literals, say) is wrapped in a ``FallbackOracle``: claims outside its language go
to a prover over the same knowledge instead of coming back UNKNOWN.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from reasoning.claims import ClaimStatus
from reasoning.formula import Formula, negate, strip_negations
from reasoning.verifier import Verifier


class EntailmentOracle(Protocol):
    """Whether some fixed knowledge entails a formula."""

    def entails(self, claim: Formula) -> bool | None:
        """True when the knowledge entails ``claim``, False when a model of the knowledge makes
        it false, None when the oracle cannot tell."""
        ...


def claim_status(oracle: EntailmentOracle, claim: Formula) -> ClaimStatus:
    """ENTAILED when ``claim`` is entailed, CONTRADICTED when its negation is, UNDETERMINED when
    models show neither is, UNKNOWN when the oracle could not settle it: the Verifier's rule.

    Double negations are removed once here (``negate``), so no oracle sees ``~~a``.
    """
    claim = strip_negations(claim)
    proved = oracle.entails(claim)
    if proved:
        return ClaimStatus.ENTAILED
    refuted = oracle.entails(negate(claim))
    if refuted:
        return ClaimStatus.CONTRADICTED
    if proved is False and refuted is False:
        return ClaimStatus.UNDETERMINED
    return ClaimStatus.UNKNOWN


class FallbackOracle:
    """``primary`` where it can answer; a prover over ``knowledge`` for every other claim."""

    def __init__(
        self, primary: EntailmentOracle, knowledge: Sequence[Formula], verifier: Verifier
    ) -> None:
        self.primary = primary
        self.knowledge = tuple(knowledge)
        self.verifier = verifier
        self.fallbacks = 0
        """How many questions the primary oracle could not answer."""

    def entails(self, claim: Formula) -> bool | None:
        """The primary oracle's answer, or the prover's (None only when the prover gives up)."""
        answer = self.primary.entails(claim)
        if answer is not None:
            return answer
        self.fallbacks += 1
        return self.verifier.entails(self.knowledge, claim)
