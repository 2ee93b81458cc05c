"""A property over Clue states: every claim a toy agent chooses to state is ENTAILED.

Run with ``pytest examples/test_clue_claims.py``. ``states()`` draws a Clue game after random
legal play and ``claims(state, seat)`` a claim about any player's cards or the envelope, judged
as the Clue audit judges it against what the seat knows. A toy agent that states only what its
own hand shows passes; one that also names cards it has not seen as the envelope's is caught.
"""

from __future__ import annotations

from hypothesis import find, given, settings
from hypothesis import strategies as st

from formalize.clue.setup import Fact
from games.clue.agent import ClueObservation
from games.clue.strategies import claims, states
from reasoning.claims import ClaimStatus
from reasoning.strategies import GameClaim


def careful(seen: ClueObservation, fact: Fact) -> bool:
    """States a fact only about a card in its own hand: it holds it, so nobody else does and it
    is not in the envelope."""
    if fact.card not in {card.name for card in seen.hand}:
        return False
    if fact.kind == "holds":
        return fact.player == seen.player
    if fact.kind == "not_holds":
        return fact.player != seen.player
    return fact.kind == "not_in_envelope"


def guesser(seen: ClueObservation, fact: Fact) -> bool:
    """Careful, but it also puts in the envelope every card it was never shown."""
    unseen = fact.card not in {c.name for c in seen.hand} | {s.card.name for s in seen.shown}
    return careful(seen, fact) or (fact.kind == "in_envelope" and unseen)


@st.composite
def situations(draw: st.DrawFn) -> tuple[ClueObservation, GameClaim]:
    """A seat's view of a reachable game, and a claim about a card, judged for that seat."""
    state = draw(states())
    seat = draw(st.integers(0, 2))
    claim = draw(claims(state, seat).filter(lambda c: isinstance(c.statement, Fact)))
    return state.observation(seat), claim


@settings(max_examples=30, deadline=None)
@given(situations())
def test_the_careful_agent_states_only_entailed_claims(
    situation: tuple[ClueObservation, GameClaim],
) -> None:
    seen, claim = situation
    assert isinstance(claim.statement, Fact)
    if careful(seen, claim.statement):
        assert claim.status is ClaimStatus.ENTAILED, claim


def test_the_guessing_agent_is_caught() -> None:
    def unsound(situation: tuple[ClueObservation, GameClaim]) -> bool:
        seen, claim = situation
        assert isinstance(claim.statement, Fact)
        return guesser(seen, claim.statement) and claim.status is not ClaimStatus.ENTAILED

    _, claim = find(situations(), unsound, settings=settings(deadline=None))
    assert isinstance(claim.statement, Fact) and claim.statement.kind == "in_envelope"
