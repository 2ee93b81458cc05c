"""Hanabi card knowledge: the deck's identities and the exact, jointly counted hand knowledge.

Each name is imported from its module on first use, so importing one submodule stays cheap.
"""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from formalize.hanabi.deck import ALL_IDENTITIES as ALL_IDENTITIES
    from formalize.hanabi.deck import COLORS as COLORS
    from formalize.hanabi.deck import COPIES as COPIES
    from formalize.hanabi.deck import NUM_COLORS as NUM_COLORS
    from formalize.hanabi.deck import NUM_IDENTITIES as NUM_IDENTITIES
    from formalize.hanabi.deck import NUM_RANKS as NUM_RANKS
    from formalize.hanabi.deck import card_name as card_name
    from formalize.hanabi.deck import identity as identity
    from formalize.hanabi.deck import mask_of as mask_of
    from formalize.hanabi.deck import parse_card as parse_card
    from formalize.hanabi.deck import product_mask as product_mask
    from formalize.hanabi.knowledge import HandKnowledge as HandKnowledge
    from formalize.hanabi.knowledge import hand_knowledge as hand_knowledge
    from formalize.hanabi.knowledge import hint_masks as hint_masks
    from formalize.hanabi.knowledge import played_cards as played_cards
    from formalize.hanabi.knowledge import unseen_counts as unseen_counts

_HOMES = {
    "ALL_IDENTITIES": "formalize.hanabi.deck",
    "COLORS": "formalize.hanabi.deck",
    "COPIES": "formalize.hanabi.deck",
    "HandKnowledge": "formalize.hanabi.knowledge",
    "NUM_COLORS": "formalize.hanabi.deck",
    "NUM_IDENTITIES": "formalize.hanabi.deck",
    "NUM_RANKS": "formalize.hanabi.deck",
    "card_name": "formalize.hanabi.deck",
    "hand_knowledge": "formalize.hanabi.knowledge",
    "hint_masks": "formalize.hanabi.knowledge",
    "identity": "formalize.hanabi.deck",
    "mask_of": "formalize.hanabi.deck",
    "parse_card": "formalize.hanabi.deck",
    "played_cards": "formalize.hanabi.knowledge",
    "product_mask": "formalize.hanabi.deck",
    "unseen_counts": "formalize.hanabi.knowledge",
}

__all__ = sorted(_HOMES)
__getattr__ = lazy_exports(__name__, _HOMES)
