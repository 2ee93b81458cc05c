"""What one seat can know of a teammate's card knowledge: the reachable standard of tracking.

A teammate ``t``'s exact knowledge of its slot ``j`` is the set of identities that slot holds in
some deal consistent with ``t``'s hints and with every card ``t`` sees, and ``t`` sees the
speaker's own hand, which the speaker does not. So the speaker cannot compute it; what it can
compute is the union of that set over every own hand ``H`` the speaker may hold (consistent with
its own hints and with every card it sees, ``t``'s hand included):

    reachable[j] = U { exact_t(H)[j] : H a hand the speaker's knowledge allows }.

A colour x rank claim about ``t``'s slot is one the speaker knows ``t`` can deduce exactly when
it contains ``reachable[j]``; the narrowest such claim is the colour x rank hull of
``reachable[j]``, and it always contains ``t``'s true exact knowledge and the card there. The
coarser "common knowledge plus the cards both seats see" (``t``'s hints dealt from the deck less
the discards, the fireworks and the third seats' hands) contains ``reachable`` and differs from
it when the speaker's own hints pin cards of its hand.

An identity ``x`` is in ``reachable[j]`` when some own hand ``H`` and some hand ``T`` for ``t``
fit their hints, ``T[j] = x``, ``H`` avoids ``t``'s real cards and ``T`` avoids ``H``: both drawn
from the cards neither sees, ``H`` only from the copies that are not in ``t``'s real hand. That
is a flow problem (slots to identities, with copy capacities), decided exactly for each ``x``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from formalize.hanabi.deck import NUM_IDENTITIES
from formalize.hanabi.knowledge import hand_knowledge, unseen_counts

_SOURCE, _SINK = "source", "sink"


def reachable_knowledge(
    own_hints: Sequence[int],
    team_hints: Sequence[int],
    team_hand: Sequence[int],
    shared: Iterable[int],
) -> tuple[int, ...]:
    """Per slot of the teammate's hand, the identities its exact knowledge may allow in some
    deal the speaker considers possible (masks; see the module docstring).

    ``own_hints`` / ``team_hints``: the hint masks of the speaker's and the teammate's slots;
    ``team_hand``: the teammate's real cards; ``shared``: every card both seats see (discards,
    fireworks and the other seats' hands).
    """
    return _reachable(tuple(own_hints), tuple(team_hints), tuple(team_hand), unseen_counts(shared))


@lru_cache(maxsize=4096)
def _reachable(
    own_hints: tuple[int, ...],
    team_hints: tuple[int, ...],
    team_hand: tuple[int, ...],
    unseen: tuple[int, ...],
) -> tuple[int, ...]:
    held = [0] * NUM_IDENTITIES
    for card in team_hand:
        held[card] += 1
    coarse = hand_knowledge(team_hints, unseen).exact
    found = [0] * len(team_hints)
    for slot, candidates in enumerate(coarse):
        for card in range(NUM_IDENTITIES):
            if not candidates >> card & 1 or found[slot] >> card & 1:
                continue
            own = _witness(own_hints, team_hints, slot, card, unseen, held)
            if own is None:
                continue
            left = list(unseen)
            for taken in own:
                left[taken] -= 1
            for other, mask in enumerate(hand_knowledge(team_hints, left).exact):
                found[other] |= mask
    return tuple(found)


def _witness(
    own_hints: Sequence[int],
    team_hints: Sequence[int],
    slot: int,
    card: int,
    unseen: Sequence[int],
    held: Sequence[int],
) -> list[int] | None:
    """An own hand that lets the teammate's ``slot`` hold ``card`` (None when none does)."""
    capacity: dict[str, dict[str, int]] = {}

    def edge(a: str, b: str, cap: int) -> None:
        if cap > 0:
            capacity.setdefault(a, {})[b] = cap
            capacity.setdefault(b, {}).setdefault(a, 0)

    for c in range(NUM_IDENTITIES):
        edge(f"own{c}", f"card{c}", unseen[c] - held[c])
        edge(f"card{c}", _SINK, unseen[c])
    for i, mask in enumerate(own_hints):
        edge(_SOURCE, f"o{i}", 1)
        for c in range(NUM_IDENTITIES):
            if mask >> c & 1:
                edge(f"o{i}", f"own{c}", 1)
    for k, mask in enumerate(team_hints):
        edge(_SOURCE, f"t{k}", 1)
        allowed = 1 << card if k == slot else mask
        for c in range(NUM_IDENTITIES):
            if allowed >> c & 1:
                edge(f"t{k}", f"card{c}", 1)
    need = len(own_hints) + len(team_hints)
    if _max_flow(capacity, need) < need:
        return None
    hand = []
    for i in range(len(own_hints)):
        used = [c for c in range(NUM_IDENTITIES) if capacity.get(f"own{c}", {}).get(f"o{i}")]
        hand.append(used[0])
    return hand


def _max_flow(capacity: dict[str, dict[str, int]], limit: int) -> int:
    """Augment along depth-first paths, in place on the residual ``capacity``, up to ``limit``."""
    flow = 0
    while flow < limit:
        parent: dict[str, str] = {_SOURCE: _SOURCE}
        stack = [_SOURCE]
        while stack and _SINK not in parent:
            node = stack.pop()
            for nxt, cap in capacity.get(node, {}).items():
                if cap > 0 and nxt not in parent:
                    parent[nxt] = node
                    stack.append(nxt)
        if _SINK not in parent:
            break
        node = _SINK
        while node != _SOURCE:
            prev = parent[node]
            capacity[prev][node] -= 1
            capacity[node][prev] += 1
            node = prev
        flow += 1
    return flow
