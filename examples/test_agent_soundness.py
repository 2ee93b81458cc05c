"""Property tests of an agent's soundness: every claim it states follows from what it saw.

Run with ``pytest examples/test_agent_soundness.py``. ``traces()`` draws reasoning traces whose
observations hold in a hidden assignment; the property asks the Verifier, step by step, whether
each claim the agent states is ENTAILED by everything observed so far. A careful agent passes;
an agent that sometimes guesses is caught, and hypothesis shrinks the trace that catches it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hypothesis import find, given, settings

from provers import get_prover
from reasoning import Verifier, parse_formula
from reasoning.claims import ClaimStatus
from reasoning.formula import Atom, Formula, Not, Or
from reasoning.strategies import traces
from reasoning.trace import ReasoningTrace

Agent = Callable[[Sequence[Formula]], list[Formula]]
"""A toy agent: from everything observed so far, the claims it states."""

VERIFIER = Verifier(get_prover("sat"))


def careful(seen: Sequence[Formula]) -> list[Formula]:
    """Restates each literal it observed, and resolves a two-literal clause against a literal."""
    literals = [f for f in seen if isinstance(f, Atom | Not)]
    claims = list(literals)
    for clause in (f for f in seen if isinstance(f, Or) and len(f.parts) == 2):
        for kept, dropped in (clause.parts, clause.parts[::-1]):
            negated = dropped.body if isinstance(dropped, Not) else Not(dropped)
            if negated in literals:
                claims.append(kept)
    return claims


def guesser(seen: Sequence[Formula]) -> list[Formula]:
    """Careful, but when it saw a clause it also claims the clause's first literal."""
    return careful(seen) + [f.parts[0] for f in seen if isinstance(f, Or)]


def unsound_claims(agent: Agent, trace: ReasoningTrace) -> list[str]:
    """The claims ``agent`` states along ``trace`` that what it saw does not entail."""
    seen: list[Formula] = []
    bad: list[str] = []
    for step in trace.steps:
        seen += [parse_formula(text) for text in step.observe]
        for claim in agent(seen):
            if VERIFIER.check(seen, claim).status is not ClaimStatus.ENTAILED:
                bad.append(f"{claim} after {len(seen)} observations")
    return bad


@settings(max_examples=40, deadline=None)
@given(traces())
def test_the_careful_agent_states_only_entailed_claims(trace: ReasoningTrace) -> None:
    assert unsound_claims(careful, trace) == []


def test_a_guessing_agent_is_caught_with_a_small_trace() -> None:
    counterexample = find(traces(), lambda trace: bool(unsound_claims(guesser, trace)))
    observed = [text for step in counterexample.steps for text in step.observe]
    assert len(observed) == 1 and "|" in observed[0], observed
