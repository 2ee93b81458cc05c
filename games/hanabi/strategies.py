"""Hypothesis strategies for property tests over Hanabi: reachable states and judged claims.

``states()`` draws a game of two to four seats after random legal play; ``claims(state, seat)``
draws what the Hanabi audit accepts: a ``SlotClaim`` naming a set of colours, of ranks, or both
for one of the seat's own cards (hidden from it), each colour or rank claim also stated
negatively (as the complementary set), judged as the audit judges it. Needs hypothesis
(``pip install 'gumshoe[testing]'``).
"""

from __future__ import annotations

from hypothesis import strategies as st

from formalize.hanabi.deck import COLORS, NUM_RANKS
from games.core.strategies import played_state
from games.hanabi.audit import judge_claim
from games.hanabi.entry import HanabiState
from games.hanabi.events import SlotClaim
from reasoning.claims import Correctness
from reasoning.formula import Atom, disj
from reasoning.strategies import GameClaim

RANKS = "12345"
CLAIM_KINDS = ("color", "rank", "card")
"""The kinds ``claims`` draws: colour and rank claims positive and negated, card claims (a
colour set and a rank set at once) positive only: the negation of a card is no such pair."""


def slot_atom(slot: int, identity: int) -> Atom:
    """The atom "slot ``slot`` holds the card of identity ``identity``" claim formulas use."""
    return Atom(f"slot{slot}_is_{identity}")


@st.composite
def states(
    draw: st.DrawFn, min_players: int = 2, max_players: int = 4, most: int = 50
) -> HanabiState:
    """A Hanabi game of ``min_players`` to ``max_players`` seats after up to ``most`` random
    legal moves."""
    players = draw(st.integers(min_players, max_players))
    state = played_state(draw, "hanabi", players, 10_000, most)
    assert isinstance(state, HanabiState)
    return state


def claims(state: HanabiState, seat: int) -> st.SearchStrategy[GameClaim]:
    """Claims by ``seat`` about its own cards, with the audit's verdict against what it knows in
    ``state`` and their truth; nothing when its hand is empty (the end of the game)."""
    game = state.game
    hand = game.hands[seat]
    if not hand:
        return st.nothing()

    @st.composite
    def draw_claim(draw: st.DrawFn) -> GameClaim:
        slot = draw(st.integers(0, len(hand) - 1))
        kind = draw(st.sampled_from(CLAIM_KINDS))
        positive = kind == "card" or draw(st.booleans())
        colors, ranks = set(COLORS), set(RANKS)
        if kind in ("color", "card"):
            colors = draw(st.sets(st.sampled_from(COLORS), min_size=1, max_size=2))
        if kind in ("rank", "card"):
            ranks = draw(st.sets(st.sampled_from(RANKS), min_size=1, max_size=2))
        if not positive:
            if kind == "color":
                colors = set(COLORS) - colors
            else:
                ranks = set(RANKS) - ranks
        statement = SlotClaim(
            seat=seat,
            slot=slot,
            colors="".join(c for c in COLORS if c in colors),
            ranks="".join(r for r in RANKS if r in ranks),
        )
        judged = judge_claim(game, len(game.history), seat, statement)
        assert judged.status is not None, f"slot {slot} of seat {seat} is in its hand"
        formula = disj(
            slot_atom(slot, COLORS.index(c) * NUM_RANKS + int(r) - 1)
            for c in statement.colors
            for r in statement.ranks
        )
        truth = judged.correctness is Correctness.TRUE
        return GameClaim(kind, positive, formula, statement, judged.status, truth)

    return draw_claim()
