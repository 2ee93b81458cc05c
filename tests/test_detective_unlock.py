"""Minimal unlock sets on small hand-made knowledge, checked against brute force."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.detective.knowledge import CaseKnowledge
from games.detective.unlock import minimal_unlock_sets
from provers import SatSession
from reasoning.formula import Atom, Formula
from reasoning.syntax import parse_formula

GOAL = Atom("g")


def _sets(theory: list[str], cards: list[list[str]], intro: tuple[str, ...] = ()) -> list[set[int]]:
    with CaseKnowledge(
        [parse_formula(t) for t in theory],
        [parse_formula(t) for t in intro],
        [[parse_formula(f) for f in card] for card in cards],
        SatSession,
    ) as kb:
        return [set(s) for s in minimal_unlock_sets(kb, GOAL, SatSession)]


def test_two_ways_to_the_goal() -> None:
    theory = ["a & b -> g", "c -> g"]
    assert _sets(theory, [["a"], ["b"], ["c"], ["d"]]) == [{2}, {0, 1}]


def test_no_way_and_the_introduction_alone() -> None:
    assert _sets(["a & b -> g"], [["a"], ["d"]]) == []
    assert _sets(["a -> g"], [["b"]], intro=("a",)) == [set()]


@settings(max_examples=25, deadline=None)
@given(
    rules=st.lists(st.sets(st.integers(0, 5), min_size=1, max_size=3), min_size=1, max_size=4),
    cards=st.lists(st.sets(st.integers(0, 5), max_size=2), min_size=1, max_size=6),
)
def test_matches_brute_force(rules: list[set[int]], cards: list[set[int]]) -> None:
    theory = [" & ".join(f"p{i}" for i in sorted(rule)) + " -> g" for rule in rules]
    card_text = [[f"p{i}" for i in sorted(card)] for card in cards]

    def unlocks(chosen: tuple[int, ...]) -> bool:
        known = set().union(*(cards[i] for i in chosen)) if chosen else set()
        return any(rule <= known for rule in rules)

    found = [c for k in range(len(cards) + 1) for c in combinations(range(len(cards)), k)]
    minimal = [
        set(c) for c in found if unlocks(c) and not any(unlocks(tuple(set(c) - {i})) for i in c)
    ]
    expected = sorted(minimal, key=lambda s: (len(s), sorted(s)))
    assert _sets(theory, card_text) == expected


def test_a_compound_goal_asked_twice_keeps_its_answer() -> None:
    f: Formula = parse_formula("a & b")
    with CaseKnowledge([], [], [[parse_formula("a")], [parse_formula("b")]], SatSession) as kb:
        assert kb.entails({0, 1}, f) and not kb.entails({0}, f)
        assert kb.entails({0, 1}, f) and not kb.entails({1}, f)
        assert kb.consistent({0}, parse_formula("~b")) and not kb.consistent(
            {1}, parse_formula("~b")
        )
