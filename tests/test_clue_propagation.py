"""The rule-propagation baseline: never a wrong cell, sometimes fewer cells than the exact grid."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.clue_perf import RuleView
from formalize.clue import ClueKnowledge, InconsistentKnowledge, RulePropagation
from games.clue.knowledge import PlayerView, clue_setup
from provers.sat_session import SatSession
from tests.test_clue_knowledge import SMALL, play_small


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), rash=st.booleans(), seat=st.integers(0, 2))
def test_rule_cells_are_exact_cells(seed: int, rash: bool, seat: int) -> None:
    game = play_small(seed, rash)
    setup = clue_setup(SMALL)
    hand = game.hands[seat]
    rules = RuleView(setup, seat, hand)
    with PlayerView(setup, SatSession, seat, hand) as view:
        for event in game.observation(seat).history:
            view.observe(event)
            rules.observe(event)
            exact = view.knowledge.grid().fixed
            for name, value in rules.rules.grid().fixed.items():
                assert exact.get(name) == value, name


def test_rules_miss_what_needs_cases() -> None:
    setup = clue_setup(SMALL)
    with ClueKnowledge(setup, SatSession, None) as knowledge:
        rules = RulePropagation(setup)
        for cards in (["Scarlet", "Rope", "Hall"], ["Plum", "Knife", "Hall"]):
            knowledge.refuted(2, cards)
            rules.refuted(2, cards)
        exact = knowledge.grid().fixed
        found = rules.grid().fixed
    hall = setup.atom("Hall", 2)
    assert exact[hall] is True
    assert hall not in found
    assert all(exact[name] == value for name, value in found.items())


def test_rule_contradictions_are_in_words() -> None:
    setup = clue_setup(SMALL)
    rules = RulePropagation(setup, 0, ["Plum", "Knife"])
    rules.shown(1, "Hall")
    with pytest.raises(InconsistentKnowledge, match=r"player 0: .*player 1 does not hold Hall"):
        rules.passed(1, ["Hall"])
    onlooker = RulePropagation(setup)
    onlooker.refuted(1, ["Scarlet", "Rope", "Hall"])
    onlooker.passed(1, ["Scarlet", "Rope", "Hall"])
    with pytest.raises(InconsistentKnowledge, match=r"an onlooker: .*refuter holds none"):
        onlooker.grid()
    with pytest.raises(ValueError, match="no hand"):
        onlooker.set_hand(["Hall"])
