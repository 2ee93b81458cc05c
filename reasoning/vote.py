"""Early-stop majority vote over repeated attempts (seed 002, Algorithm 2).

``first_repeat`` is the vote itself, over any attempts whose outcomes fall into hashable
classes: attempts stop as soon as one class has been seen twice, or at the cap. The prover vote
below and the LLM reading of answers in words (``formalize.reading``) both run on it.

For provers, each attempt's verdict falls into one outcome class: VALID, INVALID, SYNTAX_ERROR,
or UNKNOWN (which also takes TIMEOUT and UNSUPPORTED: each means "no answer"). Attempts stop as
soon as one class has been seen twice, and that class is the result. With four classes, five
attempts always produce a repeat (pigeonhole), so that is the default cap; seed 002's three
classes need four.

When the cap is reached with no repeat (a lower cap, or a portfolio whose provers all differ),
the no-repeat rule decides: decisive answers carry evidence (a proof or a countermodel), so a
single decisive class that no other decisive answer contradicts wins; conflicting decisive
answers, or none at all, give UNKNOWN.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from reasoning.formula import Formula
from reasoning.prover import Axiom, Prover
from reasoning.verdict import ProofResult, Verdict

OUTCOME_CLASSES: tuple[Verdict, ...] = (
    Verdict.VALID,
    Verdict.INVALID,
    Verdict.SYNTAX_ERROR,
    Verdict.UNKNOWN,
)
DEFAULT_MAX_ATTEMPTS = len(OUTCOME_CLASSES) + 1

T = TypeVar("T")
H = TypeVar("H", bound=Hashable)


def outcome_class(verdict: Verdict) -> Verdict:
    """The vote's outcome class: TIMEOUT and UNSUPPORTED count as UNKNOWN, the rest as is."""
    return Verdict.UNKNOWN if verdict in (Verdict.TIMEOUT, Verdict.UNSUPPORTED) else verdict


class VoteResult(BaseModel):
    """The vote's decision with every attempt that led to it."""

    model_config = ConfigDict(frozen=True)

    verdict: Verdict
    attempts: list[ProofResult]
    decided_by: Literal["repeat", "no-repeat rule"]

    @property
    def counts(self) -> dict[Verdict, int]:
        """How often each outcome class came up."""
        return dict(Counter(outcome_class(r.verdict) for r in self.attempts))


def no_repeat_rule(results: Sequence[ProofResult]) -> Verdict:
    """The decision when nothing repeated: the one uncontradicted decisive class, else UNKNOWN."""
    decisive = {r.verdict for r in results if r.verdict.decisive}
    return decisive.pop() if len(decisive) == 1 else Verdict.UNKNOWN


def first_repeat(
    attempt: Callable[[int], T],
    classify: Callable[[T], H],
    max_attempts: int,
    parallel: int = 1,
) -> tuple[list[T], H | None]:
    """Call ``attempt(i)`` for i = 0, 1, ... until the class ``classify`` gives one result has
    come up twice, or ``max_attempts`` results are in; return the results and that class (None
    when nothing repeated).

    With ``parallel`` above 1 the first ``parallel`` attempts run at once (attempt 0 in the
    calling thread, the others in worker threads), then one at a time. Results are read in
    attempt order, so the decision is the same as running them one after another.
    """
    if max_attempts < 1:
        raise ValueError(f"max_attempts must be at least 1, got {max_attempts}")
    if parallel < 1:
        raise ValueError(f"parallel must be at least 1, got {parallel}")
    burst = min(parallel, max_attempts)
    seen: Counter[H] = Counter()
    results: list[T] = []
    pool = ThreadPoolExecutor(max_workers=burst - 1) if burst > 1 else None
    try:
        ahead: dict[int, Future[T]] = {
            i: pool.submit(attempt, i) for i in range(1, burst) if pool is not None
        }
        for i in range(max_attempts):
            result = ahead.pop(i).result() if i in ahead else attempt(i)
            results.append(result)
            cls = classify(result)
            seen[cls] += 1
            if seen[cls] == 2:
                return results, cls
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    return results, None


def early_stop_vote(
    attempt: Callable[[int], ProofResult],
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    parallel: int = 1,
) -> VoteResult:
    """The vote over prover attempts (``first_repeat`` over their outcome classes), with the
    no-repeat rule deciding when nothing repeated."""
    results, repeated = first_repeat(
        attempt, lambda r: outcome_class(r.verdict), max_attempts, parallel
    )
    if repeated is not None:
        return VoteResult(verdict=repeated, attempts=results, decided_by="repeat")
    return VoteResult(
        verdict=no_repeat_rule(results), attempts=results, decided_by="no-repeat rule"
    )


class VoteProver:
    """A Prover that runs an early-stop vote over attempts cycling through ``provers``.

    One prover repeated models seed 002's re-runs of a nondeterministic prover; several provers
    make a portfolio in which each attempt asks the next backend. The first ``parallel``
    attempts run at once (two by default: the fewest that can agree), so when they agree the
    vote takes about as long as the slower of them. Every member must be safe to call from
    several threads. A time limit bounds the whole vote: each attempt gets what is left of it.
    """

    def __init__(
        self,
        provers: Sequence[Prover],
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        name: str | None = None,
        parallel: int = 2,
    ) -> None:
        if not provers:
            raise ValueError("a vote needs at least one prover")
        if parallel < 1:
            raise ValueError(f"parallel must be at least 1, got {parallel}")
        self.provers = tuple(provers)
        self.max_attempts = max_attempts
        self.parallel = parallel
        self.name = name or "vote(" + ",".join(p.name for p in self.provers) + ")"

    def vote(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> VoteResult:
        """Run the vote and return every attempt with the decision."""
        deadline = None if timeout is None else time.perf_counter() + timeout

        def attempt(i: int) -> ProofResult:
            prover = self.provers[i % len(self.provers)]
            if deadline is None:
                return prover.prove(axioms, goal, None)
            left = deadline - time.perf_counter()
            if left <= 0:
                return ProofResult(
                    verdict=Verdict.TIMEOUT,
                    prover=prover.name,
                    elapsed_s=0.0,
                    message="the vote's time limit passed before this attempt",
                )
            return prover.prove(axioms, goal, left)

        return early_stop_vote(attempt, self.max_attempts, self.parallel)

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        """The vote as one ProofResult: evidence taken from the first attempt that agrees."""
        start = time.perf_counter()
        result = self.vote(axioms, goal, timeout)
        agreeing = [r for r in result.attempts if outcome_class(r.verdict) == result.verdict]
        evidence = agreeing[0] if agreeing else None
        verdict = result.verdict
        if agreeing and all(r.verdict is Verdict.TIMEOUT for r in agreeing):
            verdict = Verdict.TIMEOUT
        ballots = ", ".join(f"{r.prover}={r.verdict.value}" for r in result.attempts)
        return ProofResult(
            verdict=verdict,
            prover=self.name,
            elapsed_s=time.perf_counter() - start,
            countermodel=evidence.countermodel if evidence else None,
            used_axioms=evidence.used_axioms if evidence else None,
            message=f"{result.verdict.value} by {result.decided_by} after "
            f"{len(result.attempts)} attempt(s): {ballots}",
            raw_log="\n".join(r.raw_log for r in result.attempts if r.raw_log),
        )
