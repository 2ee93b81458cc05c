"""Hypothesis strategies for property tests over detective cases: reachable states and judged
claims.

``states()`` draws a generated case after random legal play (answers given, locations read);
``claims(state)`` draws what the detective audit accepts: one answer element (a question's slot
filled with one of its choices, the right one half the time), stated or negated, whether or not
what was read settles it, judged against the introduction and the locations read so far. Cases
are generated once per seed and kept, so ``seeds`` bounds the cost. Needs hypothesis
(``pip install 'gumshoe[testing]'``).
"""

from __future__ import annotations

from hypothesis import strategies as st

from games.core.strategies import played_state
from games.detective.case import CaseKnobs
from games.detective.engine import DetectiveState
from games.detective.events import DetectiveConfig
from games.detective.knowledge import CaseKnowledge
from games.detective.verify import card_formulas, slot_formula, theory_formulas
from provers.sat_session import SatSession
from reasoning.formula import Formula
from reasoning.oracle import claim_status
from reasoning.strategies import GameClaim, negations

SMALL_CASE = CaseKnobs(locations=8, questions=2, red_herrings=1, distractors=4, words_per_card=40)
"""Knobs of a case small enough to generate in a fraction of a second."""

CLAIM_KINDS = ("element",)
"""The kind ``claims`` draws, positive and negated."""


@st.composite
def states(
    draw: st.DrawFn, knobs: CaseKnobs = SMALL_CASE, seeds: int = 3, most: int = 17
) -> DetectiveState:
    """A case generated from one of the first ``seeds`` seeds with ``knobs``, after up to
    ``most`` random legal decisions (a stage's answers, a location to read)."""
    state = played_state(draw, "detective", 1, seeds, most, DetectiveConfig(knobs=knobs))
    assert isinstance(state, DetectiveState)
    return state


def claims(state: DetectiveState, seat: int = 0) -> st.SearchStrategy[GameClaim]:
    """Answer elements, with the audit's verdict against what the detective has read in
    ``state`` and their truth in the case's solution. ``statement`` is the answers mapping the
    audit reads (``{question: {slot: value}}``)."""
    case = state.case
    intro, cards = card_formulas(case)
    theory = theory_formulas(case)
    read = {i for i, loc in enumerate(case.locations) if loc.id in state.read}
    slots = [(q, slot) for q in case.questions for slot in q.slots]

    class _ReadOracle:
        def __init__(self, know: CaseKnowledge) -> None:
            self.know = know

        def entails(self, claim: Formula) -> bool:
            return self.know.entails(read, claim)

    @st.composite
    def draw_claim(draw: st.DrawFn) -> GameClaim:
        question, slot = draw(st.sampled_from(slots))
        value = draw(
            st.one_of(st.just(slot.answer), st.sampled_from([c.value for c in slot.choices]))
        )
        claim, positive = negations(draw, slot_formula(slot, value))
        with CaseKnowledge(theory, intro, cards, SatSession) as know:
            status = claim_status(_ReadOracle(know), claim)
        statement = {question.id: {slot.name: value}}
        truth = (value == slot.answer) == positive
        return GameClaim("element", positive, claim, statement, status, truth)

    return draw_claim()
