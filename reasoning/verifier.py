"""The Verifier: classify an agent's claims against what it knew, and against the hidden truth.

A claim is ENTAILED when the knowledge proves it, CONTRADICTED when the knowledge proves its
negation, UNDETERMINED when countermodels show both it and its negation are consistent with the
knowledge, and UNKNOWN when the prover could not settle it (never silently folded into
UNDETERMINED). Given the hidden state as formulas, each claim is also TRUE or FALSE. Together they
tell a sound deduction (entailed and true) from a lucky guess (true, not entailed) and a wrong
one (false); ``recall`` finds the entailed facts an agent could have stated but did not.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from pydantic import BaseModel, ConfigDict

from reasoning.claims import ClaimStatus as ClaimStatus
from reasoning.claims import Correctness as Correctness
from reasoning.claims import Judgement as Judgement
from reasoning.claims import correctness_of as correctness_of
from reasoning.claims import judge as judge
from reasoning.formula import Formula, negate
from reasoning.prover import Axiom, Prover, check_consistency
from reasoning.sorts import infer_sorts
from reasoning.syntax import format_formula, parse_formula
from reasoning.verdict import ProofResult, Verdict

Statement = Axiom | Formula | str


class ClaimCheck(BaseModel):
    """One claim's classification with the prover results behind it."""

    model_config = ConfigDict(frozen=True)

    claim: str
    status: ClaimStatus
    correctness: Correctness | None = None
    proof: ProofResult
    refutation: ProofResult | None = None

    @property
    def kind(self) -> Judgement:
        """sound (entailed, true), lucky (true, not entailed), wrong (false), or unjudged."""
        return judge(self.status, self.correctness)


class AuditReport(BaseModel):
    """Every claim's check, the knowledge's consistency, and the counts per status and kind."""

    model_config = ConfigDict(frozen=True)

    checks: list[ClaimCheck]
    knowledge_consistent: bool | None

    @property
    def status_counts(self) -> dict[str, int]:
        """How many claims got each status."""
        return dict(Counter(c.status.value for c in self.checks))

    @property
    def kind_counts(self) -> dict[str, int]:
        """How many claims were sound, lucky, wrong or unjudged."""
        return dict(Counter(c.kind for c in self.checks))


class RecallReport(BaseModel):
    """Which candidate facts the knowledge entails, and which of those the agent stated."""

    model_config = ConfigDict(frozen=True)

    entailed: list[str]
    stated: list[str]
    missed: list[str]

    @property
    def recall(self) -> float | None:
        """Stated entailed facts over all entailed facts; None when nothing was entailed."""
        return len(self.stated) / len(self.entailed) if self.entailed else None


def _as_formula(statement: Formula | str) -> Formula:
    return parse_formula(statement) if isinstance(statement, str) else statement


def _as_axioms(statements: Sequence[Statement], prefix: str) -> list[Axiom]:
    out: list[Axiom] = []
    for i, s in enumerate(statements, start=1):
        out.append(s if isinstance(s, Axiom) else Axiom(f"{prefix}{i}", _as_formula(s)))
    return out


def classify(
    prove: Callable[[Formula], ProofResult], claim: Formula
) -> tuple[ClaimStatus, ProofResult, ProofResult | None]:
    """A claim's status from proofs of it and of its negation (``prove`` asks one goal).

    Returns the status, the proof attempt of the claim and, unless it was entailed, the attempt
    at its negation.
    """
    proof = prove(claim)
    if proof.verdict is Verdict.VALID:
        return ClaimStatus.ENTAILED, proof, None
    refutation = prove(negate(claim))
    if refutation.verdict is Verdict.VALID:
        return ClaimStatus.CONTRADICTED, proof, refutation
    if proof.verdict is Verdict.INVALID and refutation.verdict is Verdict.INVALID:
        return ClaimStatus.UNDETERMINED, proof, refutation
    return ClaimStatus.UNKNOWN, proof, refutation


def consistency_of(result: ProofResult) -> bool | None:
    """Whether a set is consistent, from the attempt to prove false from it (None: unsettled)."""
    return {Verdict.VALID: False, Verdict.INVALID: True}.get(result.verdict)


class Verifier:
    """Checks claims with one prover (any ``Prover``: a backend, or a ``VoteProver``)."""

    def __init__(self, prover: Prover, timeout: float | None = None) -> None:
        self.prover = prover
        self.timeout = timeout

    def _sorted(
        self, knowledge: Sequence[Statement], extra: Sequence[Formula | str]
    ) -> tuple[list[Axiom], list[Formula]]:
        """Sort the knowledge and the extra formulas together, so shared symbols agree."""
        axioms = _as_axioms(knowledge, "k")
        formulas = [a.formula for a in axioms] + [_as_formula(e) for e in extra]
        sorted_formulas, _ = infer_sorts(formulas)
        n = len(axioms)
        sorted_axioms = [Axiom(a.name, f) for a, f in zip(axioms, sorted_formulas[:n], strict=True)]
        return sorted_axioms, list(sorted_formulas[n:])

    def _status(
        self, axioms: Sequence[Axiom], claim: Formula
    ) -> tuple[ClaimStatus, ProofResult, ProofResult | None]:
        return classify(lambda goal: self.prover.prove(axioms, goal, self.timeout), claim)

    def entails(self, knowledge: Sequence[Statement], claim: Formula | str) -> bool | None:
        """True when ``knowledge`` entails ``claim``, False when a countermodel shows it does not,
        None when the prover gave up: one proof attempt, as an entailment oracle answers."""
        axioms, goals = self._sorted(knowledge, [claim])
        verdict = self.prover.prove(axioms, goals[0], self.timeout).verdict
        return {Verdict.VALID: True, Verdict.INVALID: False}.get(verdict)

    def check(
        self,
        knowledge: Sequence[Statement],
        claim: Formula | str,
        truth: Sequence[Statement] | None = None,
    ) -> ClaimCheck:
        """Classify one claim against ``knowledge`` and, when given, the hidden ``truth``."""
        return self.audit(knowledge, [claim], truth).checks[0]

    def audit(
        self,
        knowledge: Sequence[Statement],
        claims: Sequence[Formula | str],
        truth: Sequence[Statement] | None = None,
    ) -> AuditReport:
        """Classify every claim; the knowledge's consistency is checked once and reported.

        Examples:
            >>> from provers.registry import get_prover
            >>> report = Verifier(get_prover("z3")).audit(
            ...     ["forall x. Tea(x) -> Hot(x)", "Tea(earl)"],
            ...     ["Hot(earl)", "Tea(lady)"],
            ...     truth=["Tea(earl)", "Hot(earl)", "~Tea(lady)"],
            ... )
            >>> for check in report.checks:
            ...     print(check.claim, check.status.value, check.kind)
            Hot(earl:entity) ENTAILED sound
            Tea(lady:entity) UNDETERMINED wrong
        """
        truth_axioms = _as_axioms(truth or [], "t")
        axioms, extra = self._sorted(knowledge, [*claims, *(a.formula for a in truth_axioms)])
        sorted_claims = extra[: len(claims)]
        truth_axioms = [
            Axiom(a.name, f) for a, f in zip(truth_axioms, extra[len(claims) :], strict=True)
        ]
        consistency = check_consistency(self.prover, axioms, self.timeout)
        consistent = consistency_of(consistency)
        checks: list[ClaimCheck] = []
        for claim in sorted_claims:
            status, proof, refutation = self._status(axioms, claim)
            correctness: Correctness | None = None
            if truth is not None:
                truth_status, _, _ = self._status(truth_axioms, claim)
                correctness = correctness_of(truth_status)
            checks.append(
                ClaimCheck(
                    claim=format_formula(claim),
                    status=status,
                    correctness=correctness,
                    proof=proof,
                    refutation=refutation,
                )
            )
        return AuditReport(checks=checks, knowledge_consistent=consistent)

    def recall(
        self,
        knowledge: Sequence[Statement],
        candidates: Sequence[Formula | str],
        stated: Sequence[Formula | str],
    ) -> RecallReport:
        """The candidates the knowledge entails, split into those stated and those missed."""
        axioms, extra = self._sorted(knowledge, [*candidates, *stated])
        sorted_candidates, sorted_stated = extra[: len(candidates)], extra[len(candidates) :]
        stated_set = set(sorted_stated)
        entailed = [
            c
            for c in sorted_candidates
            if self.prover.prove(axioms, c, self.timeout).verdict is Verdict.VALID
        ]
        return RecallReport(
            entailed=[format_formula(c) for c in entailed],
            stated=[format_formula(c) for c in entailed if c in stated_set],
            missed=[format_formula(c) for c in entailed if c not in stated_set],
        )
