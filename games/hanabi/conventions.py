"""The symbolic agent's conventions, tracked from public information only.

Every seat replays the public history the same way, so what a hint means is common knowledge and a
hinter can check, before hinting, how the hint will be read.

- The *chop* of a hand is its oldest slot never touched by a hint; untouched cards are discarded
  from the chop, touched cards are kept.
- A hint's *focus* is the chop if the hint newly touches it, else the newest newly touched slot,
  else the newest touched slot.
- If the focus could, from public information, be a card that is playable now, or playable once
  the cards whose identity is public in some hand are played, the hint says the focus is such a
  card (a play hint); otherwise it only says: keep this card (a save hint).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from formalize.hanabi.deck import ALL_IDENTITIES, COPIES, NUM_COLORS, NUM_RANKS, product_mask
from games.hanabi.engine import Turn
from games.hanabi.moves import Move

_FULL = (1 << NUM_RANKS) - 1


@dataclass(frozen=True, slots=True)
class SlotInfo:
    """What everyone knows of one slot: hinted colours and ranks, whether a hint touched it,
    and the identities the conventions still allow."""

    colors: int = _FULL
    ranks: int = _FULL
    touched: bool = False
    convention: int = ALL_IDENTITIES

    def mask(self) -> int:
        """Identities allowed by hints and conventions together."""
        return product_mask(self.colors, self.ranks) & self.convention


def playable_mask(fireworks: list[int] | tuple[int, ...]) -> int:
    """The identities that can be played now."""
    return sum(1 << (c * NUM_RANKS + h) for c, h in enumerate(fireworks) if h < NUM_RANKS)


def dead_mask(fireworks: list[int] | tuple[int, ...], discarded: list[int]) -> int:
    """Identities that can never score: already played, or above a rank whose copies are gone."""
    mask = 0
    for color in range(NUM_COLORS):
        reachable = True
        for rank in range(NUM_RANKS):
            card = color * NUM_RANKS + rank
            if rank < fireworks[color] or not reachable:
                mask |= 1 << card
            if discarded[card] >= COPIES[card]:
                reachable = False
    return mask


def critical_mask(fireworks: list[int] | tuple[int, ...], discarded: list[int]) -> int:
    """Identities not dead whose other copies are all discarded: losing one loses points."""
    dead = dead_mask(fireworks, discarded)
    mask = 0
    for card in range(NUM_COLORS * NUM_RANKS):
        if not dead >> card & 1 and COPIES[card] - discarded[card] == 1:
            mask |= 1 << card
    return mask


class PublicState:
    """The public replay of a game: fireworks, discards and every slot's :class:`SlotInfo`."""

    def __init__(self, players: int, hand_size: int) -> None:
        self.players = players
        self.fireworks = [0] * NUM_COLORS
        self.discarded = [0] * (NUM_COLORS * NUM_RANKS)
        self.hands = [[SlotInfo() for _ in range(hand_size)] for _ in range(players)]
        self.seen = 0

    def alive_mask(self) -> int:
        """Identities with a copy neither played nor discarded."""
        mask = 0
        for card in range(NUM_COLORS * NUM_RANKS):
            played = 1 if card % NUM_RANKS < self.fireworks[card // NUM_RANKS] else 0
            if COPIES[card] - self.discarded[card] - played > 0:
                mask |= 1 << card
        return mask

    def public_mask(self, seat: int, slot: int, alive: int) -> int:
        """Identities a slot can hold by public information (falls back to the hints alone)."""
        info = self.hands[seat][slot]
        mask = info.mask() & alive
        return mask or product_mask(info.colors, info.ranks) & alive

    def chop(self, seat: int) -> int | None:
        """The oldest untouched slot of a seat, or None when every card is touched."""
        for slot, info in enumerate(self.hands[seat]):
            if not info.touched:
                return slot
        return None

    def promised_mask(self) -> int:
        """Playable now, or playable once the cards whose identity is public are played."""
        alive = self.alive_mask()
        known = 0
        for seat in range(self.players):
            for slot in range(len(self.hands[seat])):
                mask = self.public_mask(seat, slot, alive)
                if mask.bit_count() == 1:
                    known |= mask
        heights = list(self.fireworks)
        mask = 0
        for color in range(NUM_COLORS):
            while heights[color] < NUM_RANKS:
                card = color * NUM_RANKS + heights[color]
                mask |= 1 << card
                if not known >> card & 1:
                    break
                heights[color] += 1
        return mask

    def update(self, history: tuple[Turn, ...], moves: tuple[Move, ...]) -> None:
        """Replay the turns not yet seen."""
        for turn in history[self.seen :]:
            self.apply(turn, moves[turn.action])
        self.seen = len(history)

    def apply(self, turn: Turn, move: Move) -> None:
        """Replay one turn."""
        if move.kind in ("play", "discard"):
            del self.hands[turn.seat][move.slot]
            if turn.scored:
                self.fireworks[turn.card // NUM_RANKS] += 1
            else:
                self.discarded[turn.card] += 1
            if turn.drew:
                self.hands[turn.seat].append(SlotInfo())
            return
        target = (turn.seat + move.offset) % self.players
        self.hands[target] = self.read_hint(target, move, turn.touched)

    def read_hint(self, target: int, move: Move, touched: int) -> list[SlotInfo]:
        """The target's slots after a hint touching ``touched``, with its meaning applied."""
        before = self.hands[target]
        chop = self.chop(target)
        promised = self.promised_mask()
        after: list[SlotInfo] = []
        for slot, info in enumerate(before):
            hit = bool(touched >> slot & 1)
            if move.kind == "reveal_color":
                colors = 1 << move.color if hit else info.colors & ~(1 << move.color)
                info = replace(info, colors=colors)
            else:
                ranks = 1 << move.rank if hit else info.ranks & ~(1 << move.rank)
                info = replace(info, ranks=ranks)
            after.append(replace(info, touched=info.touched or hit))
        fresh = [s for s in range(len(before)) if touched >> s & 1 and not before[s].touched]
        if chop is not None and chop in fresh:
            focus = chop
        elif fresh:
            focus = fresh[-1]
        else:
            focus = max(s for s in range(len(before)) if touched >> s & 1)
        alive = self.alive_mask()
        possible = after[focus].mask() & alive
        if possible & promised:
            after[focus] = replace(after[focus], convention=after[focus].convention & promised)
        return after
