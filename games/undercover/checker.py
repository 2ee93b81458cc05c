"""The prover-backed description checker: seed 002's consistency test T(s, Delta) (Appendix C).

T(w, Delta) holds when the card theory phi(w) of the lexicon together with the formulas Delta has
a model: the description does not contradict the card. A prover answers "does phi(w) with Delta
entail false?": VALID means Delta contradicts the card, INVALID (a model exists) means it is
consistent, and a prover that gives no evidence either way leaves the test undecided. Any
``reasoning.Prover`` will do (Z3 by default; E or the early-stop vote by setting).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.undercover.agent import Description
from games.undercover.engine import CardCheck
from games.undercover.events import CheckOutcome
from games.undercover.lexicon import Lexicon, UnknownWord
from games.undercover.reading import DescriptionReader, ReadDescription
from provers.registry import get_prover
from reasoning.claims import ClaimStatus
from reasoning.formula import Formula
from reasoning.prover import Prover, ProverUnavailable, check_consistency
from reasoning.sorts import SortError
from reasoning.verdict import ProofResult, Verdict

DEFAULT_TIMEOUT_S = 10.0


@dataclass(frozen=True, slots=True)
class ConsistencyResult:
    """One T(w, Delta): its status, a one-line reason, and the prover's answer if one was asked."""

    status: CheckOutcome
    detail: str
    proof: ProofResult | None = None


class ConsistencyTest:
    """T(w, Delta) against the lexicon's card theories with one prover, cached by (word, Delta).

    The cache makes repeated tests (every agent re-tests the same descriptions each turn) cheap
    and keeps a game's answers stable within a run.
    """

    def __init__(
        self,
        lexicon: Lexicon,
        prover: Prover | None = None,
        timeout: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        """Test against ``lexicon``'s theories with ``prover`` (default Z3, which reads no
        countermodels: the test needs only the verdict), ``timeout`` s each."""
        self.lexicon = lexicon
        self.prover: Prover = (
            prover if prover is not None else get_prover("z3", timeout=timeout, countermodels=False)
        )
        self.timeout = timeout
        self._cache: dict[tuple[str, frozenset[Formula]], ConsistencyResult] = {}

    def test(self, word: str, formulas: Sequence[Formula]) -> ConsistencyResult:
        """T(word, formulas): whether the formulas together are consistent with phi(word)."""
        if not formulas:
            return ConsistencyResult(CheckOutcome.NOT_FORMALISED, "no formula to test")
        try:
            entry = self.lexicon.entry(word)
        except UnknownWord as err:
            return ConsistencyResult(CheckOutcome.UNDECIDED, f"no card theory: {err}")
        key = (entry.word, frozenset(formulas))
        cached = self._cache.get(key)
        if cached is None:
            cached = self._run(entry.word, formulas)
            self._cache[key] = cached
        return cached

    def entailment(self, word: str, formula: Formula) -> ProofResult | None:
        """The prover's answer to "does phi(word) entail ``formula``?" (the formula sorted against
        the pair's vocabulary); None when the prover is unavailable. SortError on a sort clash."""
        *theory, claim = self.lexicon.consistency_axioms(word, [formula])
        try:
            return self.prover.prove(theory, claim.formula, self.timeout)
        except ProverUnavailable:
            return None

    def _run(self, word: str, formulas: Sequence[Formula]) -> ConsistencyResult:
        try:
            axioms = self.lexicon.consistency_axioms(word, formulas)
        except SortError as err:
            return ConsistencyResult(CheckOutcome.SYNTAX_ERROR, f"against {word!r}: {err}")
        try:
            proof = check_consistency(self.prover, axioms, self.timeout)
        except ProverUnavailable as err:
            return ConsistencyResult(CheckOutcome.UNDECIDED, f"{self.prover.name}: {err}")
        if proof.verdict is Verdict.VALID:
            status = CheckOutcome.CONTRADICTS_CARD
            detail = f"{proof.prover}: phi({word!r}) with it entails false"
            if proof.used_axioms:
                detail += f" (using {', '.join(proof.used_axioms)})"
        elif proof.verdict is Verdict.INVALID:
            status = CheckOutcome.CONSISTENT
            detail = f"{proof.prover}: phi({word!r}) with it has a model"
        elif proof.verdict is Verdict.SYNTAX_ERROR:
            status = CheckOutcome.SYNTAX_ERROR
            detail = f"{proof.prover}: {proof.message}"
        else:
            status = CheckOutcome.UNDECIDED
            detail = f"{proof.prover} answered {proof.verdict.value}: {proof.message}"
        return ConsistencyResult(status, detail, proof)


@dataclass(frozen=True, slots=True)
class CheckRecord:
    """One description the checker saw: the speaker's word, the sentence and the test's result."""

    word: str
    text: str
    result: ConsistencyResult


class ProverChecker:
    """The engine's DescriptionChecker backed by a reader and a prover: every description is read
    (``games.undercover.reading``), and what its reading asserts is tested against the card,
    T(speaker's word, meaning).

    A reading that asserts nothing about the card is ``no_claim``; a description the readers
    cannot read is ``unread`` (``syntax_error`` when its speaker's own formula did not parse or
    fit the card's vocabulary); a prover that gives no evidence leaves it undecided.
    ``records`` keeps every check.
    """

    def __init__(self, test: ConsistencyTest, reader: DescriptionReader | None = None) -> None:
        """Check descriptions with ``test``, reading them with ``reader`` (default: the offline
        reader of the test's lexicon)."""
        self.test = test
        self.reader = reader if reader is not None else DescriptionReader(test.lexicon)
        self.records: list[CheckRecord] = []

    def assess(
        self, word: str, description: Description
    ) -> tuple[ConsistencyResult, ReadDescription | None]:
        """The full result of testing ``description`` against the card ``word``, and its
        reading (None when the lexicon has no entry for the word)."""
        try:
            read = self.reader.read(word, description)
        except UnknownWord as err:
            return ConsistencyResult(CheckOutcome.UNREAD, f"no vocabulary to read it: {err}"), None
        return self.judge(word, read), read

    def judge(self, word: str, read: ReadDescription) -> ConsistencyResult:
        """T(``word``, what the reading ``read`` asserts), or why there is nothing to test."""
        record = read.record
        if read.formula is not None:
            return self.test.test(word, [read.formula])
        if record.outcome == "nothing":
            detail = "it asserts nothing about the card"
            return ConsistencyResult(CheckOutcome.NO_CLAIM, _with(detail, record.note))
        if read.syntax_error and record.seat_formula is not None:
            return ConsistencyResult(
                CheckOutcome.SYNTAX_ERROR, f"its formula: {record.seat_formula.reason}"
            )
        return ConsistencyResult(CheckOutcome.UNREAD, record.note or "no reader could read it")

    def claim_status(
        self, word: str, read: ReadDescription
    ) -> tuple[ClaimStatus, ConsistencyResult]:
        """How the description read as ``read`` stands against the card theory phi(``word``),
        with the consistency test behind it: its meaning's ``formula_status``, or UNKNOWN when
        there is nothing to test (no reading, nothing asserted)."""
        if read.formula is None:
            return ClaimStatus.UNKNOWN, self.judge(word, read)
        return self.formula_status(word, read.formula)

    def formula_status(self, word: str, formula: Formula) -> tuple[ClaimStatus, ConsistencyResult]:
        """How ``formula`` stands against phi(``word``) in the Verifier's terms: CONTRADICTED
        when it contradicts the card, ENTAILED or UNDETERMINED when it is consistent and
        phi(word) proves it or not, UNKNOWN when the prover could not tell."""
        result = self.test.test(word, [formula])
        if result.status is CheckOutcome.CONTRADICTS_CARD:
            return ClaimStatus.CONTRADICTED, result
        if result.status is not CheckOutcome.CONSISTENT:
            return ClaimStatus.UNKNOWN, result
        proof = self.test.entailment(word, formula)
        if proof is not None and proof.verdict is Verdict.VALID:
            return ClaimStatus.ENTAILED, result
        if proof is not None and proof.verdict is Verdict.INVALID:
            return ClaimStatus.UNDETERMINED, result
        return ClaimStatus.UNKNOWN, result

    def check(self, word: str, description: Description) -> CardCheck:
        """The card check of ``description`` given by the holder of ``word``."""
        result, read = self.assess(word, description)
        self.records.append(CheckRecord(word, description.text, result))
        return CardCheck(result.status, read.record if read is not None else None)


def _with(detail: str, note: str) -> str:
    return f"{detail} ({note})" if note else detail
