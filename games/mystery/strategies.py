"""Hypothesis strategies for property tests over interrogation games: reachable states and judged
claims.

``states()`` draws a game after random legal play (introductions, questions, answers, votes);
``claims(state, seat)`` draws what the mystery audit judges: "this suspect is a killer of this
crime" (the audit's pruning of suspects: anyone but the seat and the victim) and any fact of any
character's script (its check of what is said), each stated or negated, judged against the
seat's script and the answers it heard, with their truth in the world. Scripts are generated
once per seed and kept, so ``seeds`` bounds the cost. Needs hypothesis
(``pip install 'gumshoe[testing]'``).
"""

from __future__ import annotations

from hypothesis import strategies as st

from formalize.world import atoms
from formalize.world.facts import fact_formula, holds_in
from games.core.strategies import played_state
from games.mystery.engine import MysteryState
from games.mystery.knowledge import Knowledge
from provers.sat_session import SatSession
from reasoning.formula import Formula
from reasoning.oracle import claim_status
from reasoning.strategies import GameClaim, negations

CLAIM_KINDS = ("culprit", "fact")
"""The kinds ``claims`` draws, each positive and negated."""


@st.composite
def states(draw: st.DrawFn, players: int = 4, seeds: int = 2, most: int = 30) -> MysteryState:
    """A game of ``players`` seats over the scripts of one of the first ``seeds`` seeds, after
    up to ``most`` random legal joint actions."""
    state = played_state(draw, "mystery", players, seeds, most)
    assert isinstance(state, MysteryState)
    return state


def claims(state: MysteryState, seat: int) -> st.SearchStrategy[GameClaim]:
    """Claims by ``seat`` about the killers and the characters' whereabouts, with the audit's
    verdict against what it knows in ``state`` and their truth in the world. ``statement`` is
    the un-negated claim: ``(crime, person)`` for a culprit, the ``Fact`` for a fact."""
    scripts = state.scripts
    world = scripts.world
    setting = world.setting
    view = state.observation(seat)
    me = view.person
    pool = [f for p in scripts.players for f in scripts.scripts[p]]

    @st.composite
    def draw_claim(draw: st.DrawFn) -> GameClaim:
        kind = draw(st.sampled_from(CLAIM_KINDS))
        statement: object
        if kind == "culprit":
            crime = draw(st.integers(1, len(world.crimes)))
            victim = world.crimes[crime - 1].victim
            person = draw(st.sampled_from([p for p in scripts.players if p not in (me, victim)]))
            base: Formula = atoms.culprit(crime, person)
            real = person in world.crimes[crime - 1].killers
            statement = (crime, person)
        else:
            fact = draw(st.sampled_from(pool))
            base, real, statement = fact_formula(fact, setting), holds_in(fact, world), fact
        claim, positive = negations(draw, base)
        known = [*view.intro, *view.script]
        with Knowledge(setting, scripts.players, me, known, SatSession) as know:
            for heard in view.heard:
                know.hear(scripts.players[heard.answerer], heard.facts)
            status = claim_status(know, claim)
        return GameClaim(kind, positive, claim, statement, status, real == positive)

    return draw_claim()
