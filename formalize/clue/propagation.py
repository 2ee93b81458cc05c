"""Clue knowledge by hand-written rules swept to a fixpoint: fast, sound, and incomplete.

``RulePropagation`` takes the same observations as ``ClueKnowledge`` and applies the rules a
careful player writes on a notepad, over and over until none changes a cell:

- a card is in exactly one place: found somewhere, it is nowhere else; ruled out of every place
  but one, it is there;
- a hand holds its size: once that many cards are found, it holds no other; once all but that
  many are ruled out, it holds the rest (the envelope likewise holds one card of each category);
- a refuter holds one of the suggested cards: with all but one ruled out, it holds that one;
- a failed accusation named a card outside the envelope: with all but one named card found in
  the envelope, that one is not;
- an accuser's own accuracy counts the named cards in the envelope, like a hand's size.

It is the baseline the exact grid is measured against: it never fixes a wrong cell, but it
misses what needs reasoning by cases (for instance two refutations sharing one free card of a
hand with one slot left).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from formalize.clue.knowledge import InconsistentKnowledge, KnowledgeGrid
from formalize.clue.setup import ClueSetup


class RulePropagation:
    """One player's (``player=None``: an onlooker's) grid by rule propagation alone."""

    def __init__(
        self, setup: ClueSetup, player: int | None = None, hand: Iterable[str] | None = None
    ) -> None:
        if player is not None:
            setup.check_seat(player)
        self.setup = setup
        self.player = player
        self._card_index = {card: i for i, card in enumerate(setup.cards)}
        self._places = len(setup.places)
        self._names = [setup.atom(card, p) for card in setup.cards for p in setup.places]
        self._cells: list[bool | None] = [None] * len(self._names)
        self._fixed: dict[str, bool] = {}
        self._groups: list[tuple[list[int], int]] = self._structure()
        self._one_of: list[list[int]] = []
        self._not_all: list[list[int]] = []
        self._grid: KnowledgeGrid | None = None
        if hand is not None:
            self.set_hand(hand)

    def set_hand(self, hand: Iterable[str]) -> None:
        """The player's own hand: it holds these cards and no others."""
        if self.player is None:
            raise ValueError("an onlooker (player=None) has no hand")
        held = {self._card(card) for card in hand}
        for i in range(len(self._card_index)):
            self._set(self._cell(i, self.player), i in held)

    def shown(self, refuter: int, card: str) -> None:
        """``refuter`` showed this player ``card``."""
        self._set(self._cell(self._card(card), self._seat(refuter)), True)

    def refuted(self, refuter: int, cards: Sequence[str]) -> None:
        """``refuter`` showed someone one of ``cards``, unseen by this player."""
        seat = self._seat(refuter)
        self._one_of.append([self._cell(self._card(c), seat) for c in cards])
        self._grid = None

    def passed(self, seat: int, cards: Sequence[str]) -> None:
        """``seat`` could not refute a suggestion of ``cards``."""
        place = self._seat(seat)
        for card in cards:
            self._set(self._cell(self._card(card), place), False)

    def unrefuted(self, suggester: int, cards: Sequence[str]) -> None:
        """Nobody but ``suggester`` could refute its suggestion of ``cards``."""
        self._seat(suggester)
        for seat in range(self.setup.n_players):
            if seat != suggester:
                self.passed(seat, cards)

    def accused(self, cards: Sequence[str], correct: bool, right: int | None = None) -> None:
        """An accusation of ``cards`` and its outcome (``right``: its accuracy, if known)."""
        envelope = self.setup.envelope
        cells = [self._cell(self._card(c), envelope) for c in dict.fromkeys(cards)]
        if correct:
            for cell in cells:
                self._set(cell, True)
        elif right is not None:
            if not 0 <= right <= len(cells):
                raise ValueError(f"accuracy {right}: must be between 0 and {len(cells)}")
            self._groups.append((cells, right))
        else:
            self._not_all.append(cells)
        self._grid = None

    def grid(self) -> KnowledgeGrid:
        """The cells the rules fix, swept to a fixpoint; InconsistentKnowledge on a clash."""
        if self._grid is None:
            while self._sweep():
                pass
            self._grid = KnowledgeGrid(self.setup, dict(self._fixed))
        return self._grid

    def _sweep(self) -> bool:
        """Apply every rule once; whether any cell changed."""
        changed = False
        for cells, size in self._groups:
            changed = self._count(cells, size) or changed
        kept: list[list[int]] = []
        for cells in self._one_of:
            values = [self._cells[c] for c in cells]
            if True in values:
                continue
            open_cells = [c for c, v in zip(cells, values, strict=True) if v is None]
            if not open_cells:
                raise self._clash("a refuter holds none of the cards it refuted with")
            if len(open_cells) == 1:
                changed = self._set(open_cells[0], True) or changed
            else:
                kept.append(cells)
        self._one_of = kept
        kept = []
        for cells in self._not_all:
            values = [self._cells[c] for c in cells]
            if False in values:
                continue
            open_cells = [c for c, v in zip(cells, values, strict=True) if v is None]
            if not open_cells:
                raise self._clash("a failed accusation named exactly the envelope")
            if len(open_cells) == 1:
                changed = self._set(open_cells[0], False) or changed
            else:
                kept.append(cells)
        self._not_all = kept
        return changed

    def _count(self, cells: list[int], size: int) -> bool:
        """Exactly ``size`` of ``cells`` are true: fill in the rest once the count is decided."""
        values = [self._cells[c] for c in cells]
        found = values.count(True)
        open_count = values.count(None)
        if not open_count:
            if found != size:
                raise self._clash(f"{found} cards where there must be {size}")
            return False
        if found == size:
            value = False
        elif found + open_count == size:
            value = True
        elif found > size or found + open_count < size:
            raise self._clash(f"no way to place {size} cards")
        else:
            return False
        for cell, current in zip(cells, values, strict=True):
            if current is None:
                self._set(cell, value)
        return True

    def _structure(self) -> list[tuple[list[int], int]]:
        """The game's groups of cells with how many of them are true."""
        setup = self.setup
        groups = [
            ([self._cell(i, p) for p in setup.places], 1) for i in range(len(self._card_index))
        ]
        groups += [
            ([self._cell(i, seat) for i in range(len(self._card_index))], size)
            for seat, size in enumerate(setup.hand_sizes)
        ]
        groups += [
            ([self._cell(self._card(c), setup.envelope) for c in cards], 1)
            for _, cards in setup.categories
        ]
        return groups

    def _set(self, cell: int, value: bool) -> bool:
        """Fix ``cell``; whether it was open (a fixed cell set the other way is a clash)."""
        current = self._cells[cell]
        if current is not None:
            if current != value:
                name = self._names[cell]
                raise self._clash(
                    f"{self.setup.describe(name, value)}, but {self.setup.describe(name, current)}"
                )
            return False
        self._cells[cell] = value
        self._fixed[self._names[cell]] = value
        self._grid = None
        return True

    def _clash(self, why: str) -> InconsistentKnowledge:
        who = "an onlooker" if self.player is None else f"player {self.player}"
        return InconsistentKnowledge(f"{who}: the observations contradict each other ({why})")

    def _cell(self, card: int, place: int) -> int:
        return card * self._places + place

    def _card(self, name: str) -> int:
        self.setup.check_card(name)
        return self._card_index[name]

    def _seat(self, seat: int) -> int:
        self.setup.check_seat(seat)
        return seat
