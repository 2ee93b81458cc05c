"""Exact card knowledge of one hand: every identity each slot can hold, with its probability.

A seat's hidden hand is a uniformly random draw from the cards it cannot see (the full deck minus
teammates' hands, discards and played cards), conditioned on every hint: each slot holds an
identity from its hint mask. The consistent assignments are counted jointly across the hand, by
physical copy, so two slots cannot both hold the last copy of a card and a slot's probability of
an identity is the exact share of consistent deals that put it there.

Counting groups identities by the set of slots that allow them: such a group is a pool of ``P``
interchangeable physical cards, and giving ``k`` given slots distinct cards from it can be done in
``P (P-1) ... (P-k+1)`` ways. A forward and a backward pass over the groups, with the set of slots
already filled as the state, give the total and every slot's share of every group.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from formalize.hanabi.deck import COPIES, NUM_IDENTITIES, NUM_RANKS, product_mask

_FALLING = [[1] + [0] * 8 for _ in range(64)]
for _pool in range(64):
    for _k in range(1, 9):
        _FALLING[_pool][_k] = _FALLING[_pool][_k - 1] * max(_pool - _k + 1, 0)


@dataclass(frozen=True, slots=True)
class HandKnowledge:
    """The exact knowledge of a hand.

    ``hints[j]``: the identities slot ``j``'s hints allow (the colour x rank product, as the
    reference engine keeps it); ``exact[j]``: the identities slot ``j`` holds in at least one
    consistent deal; ``probabilities[j][x]``: the probability that slot ``j`` holds identity
    ``x``; ``deals``: the number of consistent deals of physical cards (0 if none is).
    """

    hints: tuple[int, ...]
    exact: tuple[int, ...]
    probabilities: tuple[tuple[float, ...], ...]
    deals: int


def unseen_counts(visible: Iterable[int]) -> tuple[int, ...]:
    """Copies of each identity left once the ``visible`` cards are taken out of the full deck."""
    counts = list(COPIES)
    for card in visible:
        counts[card] -= 1
    if min(counts) < 0:
        raise ValueError("visible cards: more copies of an identity than the deck holds")
    return tuple(counts)


def played_cards(fireworks: Sequence[int]) -> list[int]:
    """The identities on the fireworks: ranks below each colour's height."""
    return [
        color * NUM_RANKS + rank for color, height in enumerate(fireworks) for rank in range(height)
    ]


def hint_masks(color_masks: Sequence[int], rank_masks: Sequence[int]) -> tuple[int, ...]:
    """Every slot's identity mask from its possible colours and ranks (5-bit masks)."""
    return tuple(product_mask(c, r) for c, r in zip(color_masks, rank_masks, strict=True))


def hand_knowledge(
    masks: Sequence[int], unseen: Sequence[int], hints: Sequence[int] | None = None
) -> HandKnowledge:
    """The exact knowledge of a hand whose slot ``j`` may hold the identities in ``masks[j]``,
    dealt from the ``unseen`` copies; ``hints`` (default ``masks``) is reported as the hints view.
    """
    exact, probabilities, deals = _count(tuple(masks), tuple(unseen))
    return HandKnowledge(
        hints=tuple(masks if hints is None else hints),
        exact=exact,
        probabilities=probabilities,
        deals=deals,
    )


@lru_cache(maxsize=8192)
def _count(
    masks: tuple[int, ...], unseen: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[tuple[float, ...], ...], int]:
    size = len(masks)
    full = (1 << size) - 1
    pools: dict[int, int] = {}
    groups: dict[int, list[int]] = {}
    for card in range(NUM_IDENTITIES):
        copies = unseen[card]
        if not copies:
            continue
        allowed = 0
        for slot in range(size):
            if masks[slot] >> card & 1:
                allowed |= 1 << slot
        if allowed:
            pools[allowed] = pools.get(allowed, 0) + copies
            groups.setdefault(allowed, []).append(card)
    classes = list(pools.items())
    forward = [{0: 1}]
    for allowed, pool in classes:
        forward.append(_extend(forward[-1], allowed, pool))
    backward = [{0: 1}]
    for allowed, pool in reversed(classes):
        backward.append(_extend(backward[-1], allowed, pool))
    backward.reverse()
    deals = forward[-1].get(full, 0)
    rows = [[0.0] * NUM_IDENTITIES for _ in range(size)]
    exact = [0] * size
    if deals:
        for k, (allowed, pool) in enumerate(classes):
            shares = _class_shares(forward[k], backward[k + 1], allowed, pool, full, size)
            for slot, weight in enumerate(shares):
                if not weight:
                    continue
                for card in groups[allowed]:
                    rows[slot][card] = weight * unseen[card] / (pool * deals)
                    exact[slot] |= 1 << card
    return tuple(exact), tuple(tuple(row) for row in rows), deals


def _extend(states: dict[int, int], allowed: int, pool: int) -> dict[int, int]:
    """Add one group: fill any set of still-empty slots it allows with distinct cards of it."""
    falling = _FALLING[pool]
    out: dict[int, int] = {}
    for filled, ways in states.items():
        out[filled] = out.get(filled, 0) + ways
        free = allowed & ~filled
        chosen = free
        while chosen:
            factor = falling[chosen.bit_count()]
            if factor:
                key = filled | chosen
                out[key] = out.get(key, 0) + ways * factor
            chosen = (chosen - 1) & free
    return out


def _class_shares(
    before: dict[int, int], after: dict[int, int], allowed: int, pool: int, full: int, size: int
) -> list[int]:
    """For each slot, the number of consistent deals that give it a card of this group."""
    falling = _FALLING[pool]
    shares = [0] * size
    for filled, ways in before.items():
        free = allowed & ~filled
        chosen = free
        while chosen:
            factor = falling[chosen.bit_count()]
            rest = after.get(full ^ filled ^ chosen) if factor else None
            if rest:
                weight = ways * factor * rest
                for slot in range(size):
                    if chosen >> slot & 1:
                        shares[slot] += weight
            chosen = (chosen - 1) & free
    return shares


def clear_count_cache() -> None:
    """Forget memoised counts, so that the next call pays the full counting cost."""
    _count.cache_clear()
