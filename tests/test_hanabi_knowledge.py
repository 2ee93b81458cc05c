"""Exact card knowledge: brute-force agreement on small hands, and soundness on real games."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formalize.hanabi.deck import ALL_IDENTITIES, COPIES, NUM_IDENTITIES, mask_of, parse_card
from formalize.hanabi.knowledge import hand_knowledge, unseen_counts
from games.hanabi.engine import HanabiGame
from games.hanabi.events import HanabiConfig
from games.hanabi.knowledge import possible_sets, public_knowledge, seat_knowledge

SMALL = 6
"""Brute-force hands draw from the first few identities only, to keep enumeration small."""


def _brute_force(masks: list[int], unseen: list[int]) -> tuple[int, list[list[float]], list[int]]:
    """Deals, probabilities and possible sets by enumerating ordered draws of physical cards."""
    physical = [card for card, copies in enumerate(unseen) for _ in range(copies)]
    counts = [[0] * NUM_IDENTITIES for _ in masks]
    deals = 0
    for draw in itertools.permutations(range(len(physical)), len(masks)):
        cards = [physical[i] for i in draw]
        if all(mask >> card & 1 for mask, card in zip(masks, cards, strict=True)):
            deals += 1
            for slot, card in enumerate(cards):
                counts[slot][card] += 1
    probabilities = [[c / deals if deals else 0.0 for c in row] for row in counts]
    possible = [sum(1 << card for card, c in enumerate(row) if c) for row in counts]
    return deals, probabilities, possible


@settings(max_examples=150, deadline=None)
@given(
    masks=st.lists(st.integers(1, (1 << SMALL) - 1), min_size=1, max_size=3),
    unseen=st.lists(st.integers(0, 3), min_size=SMALL, max_size=SMALL),
)
def test_counts_match_brute_force(masks: list[int], unseen: list[int]) -> None:
    unseen_full = unseen + [0] * (NUM_IDENTITIES - SMALL)
    knowledge = hand_knowledge(masks, unseen_full)
    deals, probabilities, possible = _brute_force(masks, unseen_full)
    assert knowledge.deals == deals
    assert list(knowledge.exact) == (possible if deals else [0] * len(masks))
    for ours, theirs in zip(knowledge.probabilities, probabilities, strict=True):
        assert ours == pytest.approx(theirs, abs=1e-12)


def test_last_copy_cannot_fill_two_slots() -> None:
    """Slots allowing only B4 or B5, one copy of each unseen: a slot known to be B5 makes the
    other B4, and three such slots have no consistent deal at all."""
    b4, b5 = parse_card("B4"), parse_card("B5")
    both = 1 << b4 | 1 << b5
    unseen = list(COPIES)
    unseen[b4] = 1
    knowledge = hand_knowledge([both, both, 1 << b5], unseen)
    assert (knowledge.deals, knowledge.exact) == (0, (0, 0, 0))
    knowledge = hand_knowledge([both, 1 << b5], unseen)
    assert knowledge.exact == (1 << b4, 1 << b5)
    assert knowledge.probabilities[0][b4] == 1.0


def test_unseen_counts_reject_too_many_copies() -> None:
    with pytest.raises(ValueError, match="more copies"):
        unseen_counts([parse_card("B5")] * 2)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_true_card_is_always_possible(players: int) -> None:
    """On hint-heavy random games: the true card is in the exact set, exact within hints,
    probabilities sum to one, and public knowledge is never sharper than the seat's own."""
    for seed in range(6):
        game = HanabiGame(HanabiConfig(players=players), seed)
        rng = random.Random(seed)
        while not game.is_terminal():
            seat = game.current
            obs = game.observation(seat)
            knowledge = seat_knowledge(obs)
            public = public_knowledge(obs, seat)
            for slot, card in enumerate(game.hands[seat]):
                assert knowledge.exact[slot] >> card & 1
                assert knowledge.exact[slot] & ~knowledge.hints[slot] == 0
                assert knowledge.exact[slot] & ~public.exact[slot] == 0
                assert sum(knowledge.probabilities[slot]) == pytest.approx(1.0)
            legal = game.legal_actions(seat)
            quiet = [a for a in legal if game.moves[a].kind != "play"]
            game.apply({seat: rng.choice(quiet if quiet and rng.random() < 0.9 else legal)})


def test_views_pick_the_hints_or_the_exact_sets() -> None:
    game = HanabiGame(HanabiConfig(players=2), 1)
    knowledge = seat_knowledge(game.observation(0))
    assert possible_sets(knowledge, "hints") == knowledge.hints == (ALL_IDENTITIES,) * 5
    assert possible_sets(knowledge, "exact") == knowledge.exact
    unseen = unseen_counts(game.hands[1])
    assert all(mask == mask_of(c for c in range(25) if unseen[c]) for mask in knowledge.exact)
