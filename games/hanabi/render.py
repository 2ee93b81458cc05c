"""Hanabi as text: card sets, a seat's knowledge, the table and each logged move."""

from __future__ import annotations

from formalize.hanabi.deck import COLORS, NUM_IDENTITIES, NUM_RANKS, card_name, product_mask
from formalize.hanabi.knowledge import HandKnowledge
from games.hanabi.engine import HanabiObservation
from games.hanabi.events import (
    DealEvent,
    DecisionEvent,
    DiscardEvent,
    GameEnd,
    HanabiEvent,
    HintEvent,
    PlayEvent,
)
from games.hanabi.knowledge import KnowledgeView, possible_sets

LISTED = 6
"""A set of at most this many identities that is no colour x rank product is listed in full."""


def identities(mask: int) -> list[int]:
    """The identities in ``mask``, in increasing order."""
    return [i for i in range(NUM_IDENTITIES) if mask >> i & 1]


def mask_text(mask: int) -> str:
    """A set of identities, short: ``R3``, ``[RY][12]`` (a product), ``R1|Y2``, a product but a
    few, else a count."""
    cards = identities(mask)
    if not cards:
        return "none"
    if len(cards) == 1:
        return card_name(cards[0])
    colors = sorted({c // NUM_RANKS for c in cards})
    ranks = sorted({c % NUM_RANKS for c in cards})
    color_mask = sum(1 << c for c in colors)
    rank_mask = sum(1 << r for r in ranks)
    product = "[" + "".join(COLORS[c] for c in colors) + "][" + "".join(str(r + 1) for r in ranks)
    if product_mask(color_mask, rank_mask) == mask:
        return product + "]"
    if len(cards) <= LISTED:
        return "|".join(card_name(c) for c in cards)
    missing = identities(product_mask(color_mask, rank_mask) & ~mask)
    if len(missing) <= LISTED // 2:
        return f"{product}] but {'|'.join(card_name(c) for c in missing)}"
    return f"{len(cards)} of {product}]"


def knowledge_text(knowledge: HandKnowledge, view: KnowledgeView) -> str:
    """Every slot's possible identities in ``view``, oldest slot first; neighbouring slots with
    the same set share one entry (``0-4:...``)."""
    sets = possible_sets(knowledge, view)
    parts = []
    start = 0
    for slot in range(1, len(sets) + 1):
        if slot == len(sets) or sets[slot] != sets[start]:
            where = str(start) if slot - 1 == start else f"{start}-{slot - 1}"
            parts.append(f"{where}:{mask_text(sets[start])}")
            start = slot
    return " ".join(parts)


def table_text(obs: HanabiObservation) -> str:
    """Fireworks, tokens, lives and cards left, on one line."""
    fireworks = " ".join(f"{c}{h}" for c, h in zip(COLORS, obs.fireworks, strict=True))
    return f"fireworks {fireworks} | tokens {obs.tokens} | lives {obs.lives} | deck {obs.deck_size}"


def event_text(event: HanabiEvent) -> str:
    """One logged event as a line of text."""
    if isinstance(event, DealEvent):
        hands = "; ".join(f"P{s}: {' '.join(hand)}" for s, hand in enumerate(event.hands))
        return f"deal {hands}"
    if isinstance(event, PlayEvent):
        outcome = "scores" if event.scored else "misfires"
        drawn = f", draws {event.drawn}" if event.drawn else ""
        return f"P{event.seat} plays slot {event.slot}: {event.card} {outcome}{drawn}"
    if isinstance(event, DiscardEvent):
        drawn = f", draws {event.drawn}" if event.drawn else ""
        return f"P{event.seat} discards slot {event.slot}: {event.card}{drawn}"
    if isinstance(event, HintEvent):
        named = event.color if event.color is not None else str(event.rank)
        slots = ",".join(str(s) for s in event.slots)
        return f"P{event.seat} hints P{event.target} {named}: slots {slots}"
    if isinstance(event, DecisionEvent):
        how = "fell back to a random move" if event.fallback else "chose"
        rated = f"rated {len(event.ratings)} moves, " if event.ratings else ""
        claims = f", stated {len(event.claims)} deductions" if event.claims else ""
        return f"P{event.seat} ({event.agent}) {rated}{how} move {event.chosen}{claims}"
    assert isinstance(event, GameEnd)
    return f"game over ({event.reason}): score {event.score}, lives {event.lives}"
