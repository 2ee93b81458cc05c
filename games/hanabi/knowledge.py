"""A seat's card knowledge from its observation: the ``hints`` view and the ``exact`` view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from formalize.hanabi.knowledge import (
    HandKnowledge,
    hand_knowledge,
    hint_masks,
    played_cards,
    unseen_counts,
)
from games.hanabi.engine import HanabiObservation

KnowledgeView = Literal["hints", "exact"]
"""``hints``: the colour x rank product from direct hints (as the reference engine);
``exact``: jointly counted over everything the seat sees."""


def visible_cards(obs: HanabiObservation) -> list[int]:
    """Every card the observing seat can see: teammates' hands, discards and fireworks."""
    cards = [card for other, hand in enumerate(obs.hands) if other != obs.seat for card in hand]
    cards += obs.discards
    cards += played_cards(obs.fireworks)
    return cards


def seat_knowledge(obs: HanabiObservation, extra: Sequence[int] | None = None) -> HandKnowledge:
    """The observing seat's exact knowledge of its own hand.

    ``extra`` optionally narrows each slot further (an identity mask per slot, for example what
    a convention implies); the ``hints`` view stays the hints alone.
    """
    hints = hint_masks(obs.color_masks[obs.seat], obs.rank_masks[obs.seat])
    masks = hints if extra is None else tuple(h & e for h, e in zip(hints, extra, strict=True))
    return hand_knowledge(masks, unseen_counts(visible_cards(obs)), hints=hints)


def public_knowledge(obs: HanabiObservation, seat: int) -> HandKnowledge:
    """What every seat knows of ``seat``'s hand: hints, discards and fireworks only."""
    hints = hint_masks(obs.color_masks[seat], obs.rank_masks[seat])
    public = list(obs.discards) + played_cards(obs.fireworks)
    return hand_knowledge(hints, unseen_counts(public))


def possible_sets(knowledge: HandKnowledge, view: KnowledgeView) -> tuple[int, ...]:
    """Every slot's possible identities (masks) in the chosen view."""
    return knowledge.hints if view == "hints" else knowledge.exact
