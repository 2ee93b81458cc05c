"""The early-stop majority vote: stops at the first repeat, keeps to its cap, states its rule."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasoning.formula import TOP, Formula
from reasoning.prover import Axiom
from reasoning.verdict import Countermodel, ProofResult, Verdict
from reasoning.vote import (
    DEFAULT_MAX_ATTEMPTS,
    VoteProver,
    early_stop_vote,
    first_repeat,
    no_repeat_rule,
    outcome_class,
)


class ScriptedProver:
    """Answers with the next verdict of its script and counts its calls."""

    def __init__(self, script: Sequence[Verdict], name: str = "scripted") -> None:
        self.script = list(script)
        self.name = name
        self.calls = 0

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        verdict = self.script[self.calls % len(self.script)]
        self.calls += 1
        model = (
            Countermodel(true_atoms=[f"call{self.calls}"]) if verdict is Verdict.INVALID else None
        )
        return ProofResult(verdict=verdict, prover=self.name, elapsed_s=0.01, countermodel=model)


V, INV, U, T, S = (
    Verdict.VALID,
    Verdict.INVALID,
    Verdict.UNKNOWN,
    Verdict.TIMEOUT,
    Verdict.SYNTAX_ERROR,
)


def _vote(script: Sequence[Verdict], cap: int = DEFAULT_MAX_ATTEMPTS) -> tuple[Verdict, int, str]:
    prover = ScriptedProver(script)
    result = VoteProver([prover], max_attempts=cap, parallel=1).vote([], TOP)
    return result.verdict, prover.calls, result.decided_by


@pytest.mark.parametrize(
    ("script", "verdict", "calls"),
    [
        ([V, V], V, 2),
        ([V, INV, V], V, 3),
        ([INV, S, V, INV], INV, 4),
        ([T, U], U, 2),
        ([S, V, INV, U, S], S, 5),
    ],
)
def test_stops_at_first_repeat(script: list[Verdict], verdict: Verdict, calls: int) -> None:
    assert _vote(script) == (verdict, calls, "repeat")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list(Verdict)), min_size=DEFAULT_MAX_ATTEMPTS, max_size=12))
def test_vote_matches_first_repeated_class_and_cap(script: list[Verdict]) -> None:
    classes = [outcome_class(v) for v in script]
    first_repeat = next(i for i in range(len(classes)) if classes[i] in classes[:i])
    verdict, calls, decided_by = _vote(script)
    assert calls == first_repeat + 1 <= DEFAULT_MAX_ATTEMPTS
    assert verdict == classes[first_repeat]
    assert decided_by == "repeat"


def test_seed_002_three_classes_need_four_attempts() -> None:
    # valid, invalid, syntax error: the fourth attempt must repeat one of them.
    assert _vote([V, INV, S, INV], cap=4) == (INV, 4, "repeat")


@pytest.mark.parametrize(
    ("script", "cap", "verdict"),
    [
        ([V, U, S], 3, V),
        ([INV, S], 2, INV),
        ([V, INV, U], 3, U),
        ([S, U], 2, U),
        ([S], 1, U),
    ],
)
def test_no_repeat_rule(script: list[Verdict], cap: int, verdict: Verdict) -> None:
    got, calls, decided_by = _vote(script, cap)
    assert (got, calls, decided_by) == (verdict, cap, "no-repeat rule")


def test_no_repeat_rule_direct() -> None:
    def res(v: Verdict) -> ProofResult:
        return ProofResult(verdict=v, prover="p", elapsed_s=0.0)

    assert no_repeat_rule([res(T), res(V)]) is V
    assert no_repeat_rule([res(V), res(INV)]) is U
    assert no_repeat_rule([]) is U


def test_portfolio_cycles_through_provers() -> None:
    always_valid = ScriptedProver([V], name="a")
    always_timeout = ScriptedProver([T], name="b")
    vote = VoteProver([always_valid, always_timeout], parallel=1)
    result = vote.prove([], TOP)
    assert result.verdict is V
    assert (always_valid.calls, always_timeout.calls) == (2, 1)
    assert result.prover == "vote(a,b)"
    assert "after 3 attempt(s)" in result.message


def test_prove_keeps_evidence_of_first_agreeing_attempt() -> None:
    result = VoteProver([ScriptedProver([U, INV, INV])], parallel=1).prove([], TOP)
    assert result.verdict is INV
    assert result.countermodel is not None
    assert result.countermodel.true_atoms == ["call2"]
    assert result.elapsed_s >= 0


def test_all_timeouts_reported_as_timeout_mixed_as_unknown() -> None:
    assert VoteProver([ScriptedProver([T])]).prove([], TOP).verdict is T
    assert VoteProver([ScriptedProver([T, U])], parallel=1).prove([], TOP).verdict is U


def test_bad_settings() -> None:
    with pytest.raises(ValueError, match="at least one prover"):
        VoteProver([])
    with pytest.raises(ValueError, match="max_attempts"):
        early_stop_vote(lambda i: ProofResult(verdict=V, prover="p", elapsed_s=0), 0)
    with pytest.raises(ValueError, match="parallel"):
        VoteProver([ScriptedProver([V])], parallel=0)


class MeetingProver:
    """VALID only if another call reaches the same barrier while this one waits there."""

    def __init__(self, barrier: threading.Barrier, name: str) -> None:
        self.barrier = barrier
        self.name = name

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        try:
            self.barrier.wait()
        except threading.BrokenBarrierError:
            return ProofResult(verdict=U, prover=self.name, elapsed_s=0.0)
        return ProofResult(verdict=V, prover=self.name, elapsed_s=0.0)


def test_first_two_members_run_at_the_same_time() -> None:
    barrier = threading.Barrier(2, timeout=10)
    members = [MeetingProver(barrier, "a"), MeetingProver(barrier, "b")]
    result = VoteProver(members, max_attempts=2).vote([], TOP)
    assert [r.verdict for r in result.attempts] == [V, V]
    assert result.decided_by == "repeat"


def test_one_at_a_time_never_meets() -> None:
    barrier = threading.Barrier(2, timeout=0.2)
    members = [MeetingProver(barrier, "a"), MeetingProver(barrier, "b")]
    result = VoteProver(members, max_attempts=2, parallel=1).vote([], TOP)
    assert result.verdict is U


def test_an_attempt_after_the_deadline_is_a_timeout() -> None:
    result = VoteProver([ScriptedProver([V])], parallel=1).vote([], TOP, timeout=-1.0)
    assert [r.verdict for r in result.attempts] == [T, T]
    assert result.verdict is U


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("abcdef"), min_size=1, max_size=10), st.integers(1, 8))
def test_first_repeat_over_any_hashable_outcome(script: list[str], cap: int) -> None:
    calls: list[int] = []

    def attempt(i: int) -> str:
        calls.append(i)
        return script[i % len(script)]

    results, repeated = first_repeat(attempt, str.upper, cap)
    drawn = [script[i % len(script)].upper() for i in range(cap)]
    first = next((i for i in range(cap) if drawn[i] in drawn[:i]), None)
    if first is None:
        assert repeated is None and len(results) == cap
    else:
        assert repeated == drawn[first] and len(results) == first + 1
    assert calls == list(range(len(results)))
