"""The deal pool: every stored deal fits the constraints, and the cells it derives are entailed."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from formalize.clue import ClueSetup
from formalize.clue.witnesses import WitnessPool, cells
from games.clue.knowledge import clue_setup
from tests.test_clue_knowledge import SMALL, Deal, all_deals

SETUP = clue_setup(SMALL)
DEALS = list(all_deals(SMALL, SETUP.hand_sizes))


def deal_bits(setup: ClueSetup, deal: Deal) -> int:
    """A deal as the pool's bit set."""
    hands, envelope = deal
    places = len(setup.places)
    bits = 0
    for i, card in enumerate(setup.cards):
        place = (
            setup.envelope
            if card in envelope
            else next(seat for seat, hand in enumerate(hands) if card in hand)
        )
        bits |= 1 << (i * places + place)
    return bits


ALL_BITS = [deal_bits(SETUP, deal) for deal in DEALS]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 100_000), steps=st.integers(1, 12))
def test_deals_fit_and_derived_cells_are_entailed(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    truth = rng.choice(ALL_BITS)
    pool = WitnessPool(SETUP, capacity=8)
    for bits in rng.sample(ALL_BITS, 5):
        pool.add(bits)
    cell_count = len(SETUP.cards) * len(SETUP.places)
    clauses: list[tuple[int, int]] = []
    known_true = known_false = 0
    for _ in range(steps):
        if rng.random() < 0.6:
            cell = rng.randrange(cell_count)
            value = bool(truth >> cell & 1)
            new_true, new_false = pool.fix(1 << cell if value else 0, 0 if value else 1 << cell)
            known_true |= new_true
            known_false |= new_false
        else:
            held = rng.choice(cells(truth))
            pos = 1 << held
            for cell in rng.sample(range(cell_count), 2):
                pos |= 1 << cell
            clauses.append((pos, 0))
            pool.clause(pos, 0)
        assert (pool.true, pool.false) == (known_true, known_false)
        fitting = [
            b
            for b in ALL_BITS
            if not b & known_false
            and not known_true & ~b
            and all(b & pos or neg & ~b for pos, neg in clauses)
        ]
        assert truth in fitting
        for model in pool.models:
            assert model in ALL_BITS, "a swap broke the game's structure"
            assert model in fitting, "a stored deal breaks a constraint"
        every = -1
        for b in fitting:
            every &= b
        assert known_true & ~every == 0, "a derived true cell is not entailed"
        assert all(not b & known_false for b in fitting)


def test_cover_flips_a_cell_by_one_swap() -> None:
    pool = WitnessPool(SETUP)
    start = ALL_BITS[0]
    pool.add(start)
    card = 0
    places = len(SETUP.places)
    where = next(p for p in SETUP.places if start >> (card * places + p) & 1)
    cell = card * places + where
    model = pool.cover(cell, True)
    assert model is not None and model in ALL_BITS
    assert not model >> cell & 1
    assert (model ^ start).bit_count() == 4
