"""Hypothesis strategies for property tests over Clue: reachable states and judged claims.

``states()`` draws a game after random legal play; ``claims(state, seat)`` draws claims of every
kind the Clue audit accepts (a player holds a card, a card is in the envelope, either negated),
and and/or compounds of them, about cards the seat sees and cards it does not, each judged as
the audit judges it: by the seat's exact knowledge grid (a prover over the same knowledge for
the compounds). Needs hypothesis (``pip install 'gumshoe[testing]'``).
"""

from __future__ import annotations

from typing import cast

from hypothesis import strategies as st

from formalize.clue.oracle import GridOracle
from formalize.clue.setup import Fact, FactKind
from games.clue.engine import ClueState
from games.clue.knowledge import PlayerView, clue_setup
from games.core.strategies import played_state
from provers.registry import get_prover
from provers.sat_session import SatSession
from reasoning.formula import And, Formula, Not, Or
from reasoning.oracle import EntailmentOracle, FallbackOracle, claim_status
from reasoning.strategies import GameClaim
from reasoning.verifier import Verifier

CLAIM_KINDS = ("holds", "in_envelope", "compound")
"""The kinds ``claims`` draws; each comes positive and negated."""


@st.composite
def states(draw: st.DrawFn, players: int = 3, most: int = 40) -> ClueState:
    """A Clue game of ``players`` random seats after up to ``most`` random legal moves."""
    state = played_state(draw, "clue", players, 10_000, most)
    assert isinstance(state, ClueState)
    return state


def claims(state: ClueState, seat: int) -> st.SearchStrategy[GameClaim]:
    """Claims by ``seat`` about any player's cards and the envelope, with the audit's verdict
    against what ``seat`` knows in ``state`` and their truth in the deal; the ``statement`` is
    the ``Fact`` the audit reads (a deduction), or the formula itself for a compound."""
    game = state.game
    players = len(game.hands)
    setup = clue_setup(game.config)
    with PlayerView(setup, SatSession, seat, game.hands[seat]) as view:
        for event in state.events():
            view.observe(event)
        grid = view.knowledge.grid()
        formulas = tuple(view.knowledge.formulas)
    envelope = set(game.envelope.names())
    held = {(p, c.name) for p, hand in enumerate(game.hands) for c in hand}
    cards = sorted({card for _, card in held} | envelope)

    def real(fact: Fact) -> bool:
        where = fact.card in envelope if fact.player is None else (fact.player, fact.card) in held
        return where == fact.positive

    @st.composite
    def draw_claim(draw: st.DrawFn) -> GameClaim:
        kind = draw(st.sampled_from(CLAIM_KINDS))
        positive = draw(st.booleans())
        statement: object
        oracle: EntailmentOracle
        if kind == "compound":
            facts = [
                Fact("holds", draw(st.sampled_from(cards)), draw(st.integers(0, players - 1)))
                for _ in range(2)
            ]
            parts = tuple(setup.fact_formula(f) for f in facts)
            values = [real(f) for f in facts]
            if draw(st.booleans()):
                base: Formula = And(parts)
                truth = all(values) == positive
            else:
                base = Or(parts)
                truth = any(values) == positive
            claim = statement = base if positive else Not(base)
            oracle = FallbackOracle(GridOracle(grid), formulas, Verifier(get_prover("sat")))
        else:
            name = kind if positive else f"not_{kind}"
            player = draw(st.integers(0, players - 1)) if kind == "holds" else None
            fact = Fact(cast(FactKind, name), draw(st.sampled_from(cards)), player)
            claim, statement, truth = setup.fact_formula(fact), fact, real(fact)
            oracle = GridOracle(grid)
        for _ in range(draw(st.integers(0, 2))):
            claim = Not(Not(claim))
        return GameClaim(kind, positive, claim, statement, claim_status(oracle, claim), truth)

    return draw_claim()
