"""Hypothesis strategies for property tests over Undercover-V: reachable states and judged claims.

``states()`` draws a game over one of the lexicon's word pairs after random play: a speaker
says a statement the lexicon makes of its own word (with its formula), a voter picks any legal
target. ``claims(state, seat)`` draws what the Undercover-V audit judges: a description whose
formula is a statement of either word of the pair (the seat's own, or the one it may not hold),
or a statement of its own word with something the lexicon does not know added, stated or
negated, its formula judged as the audit judges a reading's meaning (``formula_status``)
against the card theory phi(word) of the seat's word.
That theory is both the seat's knowledge and the truth about its card, so a claim's ``truth`` is
TRUE when ENTAILED and FALSE when CONTRADICTED; an UNDETERMINED claim has none, and its ``truth``
is None. Needs hypothesis (``pip install 'gumshoe[testing]'``).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from hypothesis import strategies as st

from formalize.davidsonian.render import ITEM
from games.core.protocol import GameState
from games.core.strategies import any_legal, played_state
from games.undercover.agent import Description
from games.undercover.checker import ConsistencyTest, ProverChecker
from games.undercover.engine import Phase, UndercoverState
from games.undercover.events import UndercoverConfig, UndercoverSetup
from games.undercover.lexicon import Lexicon
from games.undercover.prover_agent import StatementLibrary
from reasoning.claims import Correctness, correctness_of
from reasoning.formula import And, Atom, Const
from reasoning.strategies import GameClaim, negations

CLAIM_KINDS = ("own_word", "other_word", "embellished")
"""The kinds ``claims`` draws (a statement of the seat's word, of the pair's other word, or of
the seat's word with an addition the lexicon cannot settle), each positive and negated."""

UNKNOWN_ADDITION = Atom("Remarkable", (Const(ITEM),))
"""What an embellished statement adds: a property no lexicon pair speaks of."""


@cache
def _library() -> StatementLibrary:
    return StatementLibrary(Lexicon.load())


@cache
def _checker() -> ProverChecker:
    return ProverChecker(ConsistencyTest(_library().lexicon))


def _speak_or_vote(rng: random.Random, state: GameState, seat: int) -> Any:
    """A statement of the speaker's own word, or any legal vote."""
    assert isinstance(state, UndercoverState)
    if state.game.phase is not Phase.DESCRIBE:
        return any_legal(rng, state, seat)
    word = state.game.words[seat]
    statement = rng.choice(_library().book(word).statements(word))
    return Description(statement.text, formula=statement.formula)


@st.composite
def states(draw: st.DrawFn, players: int = 4, most: int = 12) -> UndercoverState:
    """A game of ``players`` seats over a word pair of the lexicon after up to ``most`` random
    descriptions and votes."""
    pair = draw(st.sampled_from(_library().lexicon.pairs))
    config = UndercoverSetup(
        config=UndercoverConfig.model_validate({"players": players}), pair=pair
    )
    state = played_state(draw, "undercover", players, 10_000, most, config, _speak_or_vote)
    assert isinstance(state, UndercoverState)
    return state


def claims(state: UndercoverState, seat: int) -> st.SearchStrategy[GameClaim]:
    """Descriptions ``seat`` could give, with the audit's verdict against its card; the
    ``statement`` is the ``Description`` (its sentence, and the formula drawn)."""
    word = state.game.words[seat]
    book = _library().book(word)
    other = book.pair.other(word)

    @st.composite
    def draw_claim(draw: st.DrawFn) -> GameClaim:
        kind = draw(st.sampled_from(CLAIM_KINDS))
        statement = draw(st.sampled_from(book.statements(other if kind == "other_word" else word)))
        said, text = statement.formula, statement.text
        if kind == "embellished":
            said = And((said, UNKNOWN_ADDITION))
            text = f"{text.removesuffix('.')}, and it is remarkable."
        claim, positive = negations(draw, said)
        text = text if positive else f"Not so: {text}"
        description = Description(text, formula=claim)
        status, _ = _checker().formula_status(word, claim)
        correctness = correctness_of(status)
        truth = None if correctness is None else correctness is Correctness.TRUE
        return GameClaim(kind, positive, claim, description, status, truth)

    return draw_claim()
