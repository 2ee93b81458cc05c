"""Hanabi moves and their numbering, as the reference engine numbers them.

For ``h`` cards a hand and ``p`` players: 0..h-1 discard slot i, h..2h-1 play slot i, then a colour
hint for each target offset 1..p-1 and colour, then a rank hint for each offset and rank. The same
numbers are OpenSpiel's action ids, and legal moves are listed in this order.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal

from formalize.hanabi.deck import COLORS, NUM_COLORS, NUM_RANKS

MoveKind = Literal["discard", "play", "reveal_color", "reveal_rank"]


@dataclass(frozen=True, slots=True)
class Move:
    """One move: a discard or play of a slot, or a colour or rank hint to a seat ``offset`` ahead.

    Unused fields are -1; ``rank`` is 0-based.
    """

    kind: MoveKind
    slot: int = -1
    offset: int = -1
    color: int = -1
    rank: int = -1

    def text(self) -> str:
        """The move as the reference engine prints it, e.g. ``(Reveal player +1 color R)``."""
        if self.kind == "discard":
            return f"(Discard {self.slot})"
        if self.kind == "play":
            return f"(Play {self.slot})"
        if self.kind == "reveal_color":
            return f"(Reveal player +{self.offset} color {COLORS[self.color]})"
        return f"(Reveal player +{self.offset} rank {self.rank + 1})"


@cache
def move_table(players: int, hand_size: int) -> tuple[Move, ...]:
    """Every move of a game, indexed by its number."""
    moves = [Move("discard", slot=i) for i in range(hand_size)]
    moves += [Move("play", slot=i) for i in range(hand_size)]
    offsets = range(1, players)
    moves += [Move("reveal_color", offset=o, color=c) for o in offsets for c in range(NUM_COLORS)]
    moves += [Move("reveal_rank", offset=o, rank=r) for o in offsets for r in range(NUM_RANKS)]
    return tuple(moves)
