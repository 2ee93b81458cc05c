"""Hanabi card knowledge: the deck's identities and the exact, jointly counted hand knowledge."""

from formalize.hanabi.deck import (
    ALL_IDENTITIES,
    COLORS,
    COPIES,
    NUM_COLORS,
    NUM_IDENTITIES,
    NUM_RANKS,
    card_name,
    identity,
    mask_of,
    parse_card,
    product_mask,
)
from formalize.hanabi.knowledge import (
    HandKnowledge,
    hand_knowledge,
    hint_masks,
    played_cards,
    unseen_counts,
)

__all__ = [
    "ALL_IDENTITIES",
    "COLORS",
    "COPIES",
    "NUM_COLORS",
    "NUM_IDENTITIES",
    "NUM_RANKS",
    "HandKnowledge",
    "card_name",
    "hand_knowledge",
    "hint_masks",
    "identity",
    "mask_of",
    "parse_card",
    "played_cards",
    "product_mask",
    "unseen_counts",
]
