"""The Undercover-V strategies (``games.undercover.strategies``) reach games with descriptions
and draw claims of both kinds, stated and negated, whose status is the Verifier's with z3 over
the card theory phi(word) and whose truth follows it; every status occurs in the sample."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.undercover.events import DescriptionEvent
from games.undercover.lexicon import Lexicon
from games.undercover.strategies import CLAIM_KINDS, claims, states
from provers.z3_prover import Z3Prover
from reasoning.claims import ClaimStatus
from reasoning.strategies import GameClaim
from reasoning.verifier import Verifier

TRUTH = {ClaimStatus.ENTAILED: True, ClaimStatus.CONTRADICTED: False}


def test_undercover_claims_are_judged_as_the_verifier_judges_them() -> None:
    lexicon = Lexicon.load()
    verifier = Verifier(Z3Prover())
    drawn: list[GameClaim] = []
    described: list[int] = []

    @settings(
        max_examples=8,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        state = data.draw(states())
        described.append(sum(isinstance(e, DescriptionEvent) for e in state.game.events))
        seat = data.draw(st.integers(0, 3))
        word = state.game.words[seat]
        for claim in data.draw(st.lists(claims(state, seat), min_size=3, max_size=5)):
            *theory, goal = lexicon.consistency_axioms(word, [claim.formula])
            expected = verifier.check([a.formula for a in theory], goal.formula).status
            assert claim.status is expected, f"{claim!r}: z3 says {expected}"
            assert claim.truth == TRUTH.get(claim.status), claim
            drawn.append(claim)

    run()
    assert max(described) > 0, "random play never reached a description"
    assert {c.status for c in drawn} == set(ClaimStatus) - {ClaimStatus.UNKNOWN}
    wanted = {(kind, positive) for kind in CLAIM_KINDS for positive in (True, False)}
    assert {(c.kind, c.positive) for c in drawn} == wanted
    negative = {c.status for c in drawn if not c.positive}
    assert negative == set(ClaimStatus) - {ClaimStatus.UNKNOWN}
