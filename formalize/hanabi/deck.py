"""The Hanabi deck: 5 colours x 5 ranks = 25 card identities, numbered ``colour * 5 + rank``.

Ranks are 0-based here (rank 0 is the card "1"); colours follow the reference engine's order
R, Y, G, W, B. Sets of identities are 25-bit masks, bit ``i`` for identity ``i``.
"""

from __future__ import annotations

from collections.abc import Iterable

COLORS = "RYGWB"
"""Colour letters in identity order."""
NUM_COLORS = 5
NUM_RANKS = 5
NUM_IDENTITIES = NUM_COLORS * NUM_RANKS
COPIES_PER_RANK = (3, 2, 2, 2, 1)
"""Copies of each card of a colour, by 0-based rank."""
COPIES: tuple[int, ...] = tuple(COPIES_PER_RANK[i % NUM_RANKS] for i in range(NUM_IDENTITIES))
"""Copies of each identity in the full deck (50 cards)."""
ALL_IDENTITIES = (1 << NUM_IDENTITIES) - 1
"""The mask holding every identity."""


def identity(color: int, rank: int) -> int:
    """The identity number of a colour and 0-based rank."""
    return color * NUM_RANKS + rank


def card_name(card: int) -> str:
    """The usual short name of an identity, such as ``R1`` or ``B5``."""
    return f"{COLORS[card // NUM_RANKS]}{card % NUM_RANKS + 1}"


def parse_card(text: str) -> int:
    """The identity named by ``text`` (``R1`` ... ``B5``); ValueError naming it otherwise."""
    if len(text) != 2 or text[0] not in COLORS or text[1] not in "12345":
        raise ValueError(f"not a card: {text!r} (expected a colour of {COLORS} and a rank 1-5)")
    return identity(COLORS.index(text[0]), int(text[1]) - 1)


def product_mask(color_mask: int, rank_mask: int) -> int:
    """The identities whose colour is in ``color_mask`` and rank in ``rank_mask`` (5-bit masks)."""
    return _PRODUCT[color_mask][rank_mask]


def mask_of(cards: Iterable[int]) -> int:
    """The mask of a collection of identities."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _product(color_mask: int, rank_mask: int) -> int:
    return mask_of(
        identity(c, r)
        for c in range(NUM_COLORS)
        if color_mask >> c & 1
        for r in range(NUM_RANKS)
        if rank_mask >> r & 1
    )


_PRODUCT = [[_product(c, r) for r in range(32)] for c in range(32)]
