"""Entailment oracles: anything that can say whether a knowledge base entails a claim.

A prover answers this by proof search; a structure that keeps the knowledge's consequences (a
Clue knowledge grid: the SAT backbone of a constraint set) answers it by lookup. ``claim_status``
turns an oracle's answers into the Verifier's vocabulary by one rule, so every audit that uses an
oracle classifies claims exactly as the Verifier does with a prover.
"""

from __future__ import annotations

from typing import Protocol

from reasoning.formula import Formula, Not
from reasoning.verifier import ClaimStatus


class EntailmentOracle(Protocol):
    """Whether some fixed knowledge entails a formula."""

    def entails(self, claim: Formula) -> bool | None:
        """True when the knowledge entails ``claim``, False when a model of the knowledge makes
        it false, None when the oracle cannot tell."""
        ...


def claim_status(oracle: EntailmentOracle, claim: Formula) -> ClaimStatus:
    """ENTAILED when ``claim`` is entailed, CONTRADICTED when its negation is, UNDETERMINED when
    models show neither is, UNKNOWN when the oracle could not settle it: the Verifier's rule."""
    proved = oracle.entails(claim)
    if proved:
        return ClaimStatus.ENTAILED
    refuted = oracle.entails(Not(claim))
    if refuted:
        return ClaimStatus.CONTRADICTED
    if proved is False and refuted is False:
        return ClaimStatus.UNDETERMINED
    return ClaimStatus.UNKNOWN
