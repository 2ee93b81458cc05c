"""Deals kept across updates, so that most knowledge-grid updates need no solver call.

A deal is a bit set over the cells: bit ``card * places + place`` is set when the card is at that
place. The pool keeps deals that satisfy every constraint added so far: the cells known true or
false, the clauses left open, and exact counts. Swapping two cards between two places keeps the
game's structure (one place per card, the hand sizes, and one envelope card per category when the
two cards share a category), so a deal a new constraint rules out is repaired by a swap where one
fits, rather than dropped, and a cell on which every deal agrees is covered, where one fits, by a
swap that flips it. A cell two deals disagree on is not fixed; only the cells left need a solver.
"""

from __future__ import annotations

from formalize.clue.setup import ClueSetup

REPAIRS = 6
"""How many deals a new constraint rules out are repaired; the others are dropped."""
COVER_FROM = 4
"""How many of the newest deals ``cover`` tries to swap from."""


def cells(mask: int) -> list[int]:
    """The cells (bit positions) set in ``mask``."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class WitnessPool:
    """Up to ``capacity`` deals that fit everything added so far, newest last."""

    def __init__(self, setup: ClueSetup, capacity: int = 64) -> None:
        places = len(setup.places)
        cards = len(setup.cards)
        self._places = places
        self._envelope = setup.envelope
        self._category = [setup.category_of(c) for c in setup.cards]
        self._at_place = [sum(1 << (c * places + p) for c in range(cards)) for p in range(places)]
        self._card_mask = (1 << places) - 1
        groups = [(self._card_mask << (c * places), 1) for c in range(cards)]
        groups += [(self._at_place[p], size) for p, size in enumerate(setup.hand_sizes)]
        for _, names in setup.categories:
            envelope = sum(1 << (setup.cards.index(n) * places + setup.envelope) for n in names)
            groups.append((envelope, 1))
        self._groups = groups
        self._groups_of: list[list[int]] = [[] for _ in range(cards * places)]
        for g, (mask, _) in enumerate(groups):
            for cell in range(cards * places):
                if mask >> cell & 1:
                    self._groups_of[cell].append(g)
        self.capacity = capacity
        self.true = 0
        """Cells known to be true (in every deal)."""
        self.false = 0
        """Cells known to be false."""
        self._clauses: list[tuple[int, int]] = []
        self._counts: list[tuple[int, int]] = []
        self.models: list[int] = []

    def fix(self, true: int, false: int) -> tuple[int, int]:
        """The cells of ``true`` are known to be true, those of ``false`` false: with what
        follows by counting (see ``_derive``), they are added to the known cells, and the deals
        that disagree are repaired or dropped. Returns every cell newly known, true and false."""
        true, false = self._derive(true & ~self.true, false & ~self.false)
        if not (true or false):
            return 0, 0
        self.true |= true
        self.false |= false
        known_true, known_false = self.true, self.false
        self._clauses = [
            (pos, neg) for pos, neg in self._clauses if not (pos & known_true or neg & known_false)
        ]
        self._recheck([m for m in self.models if m & false or true & ~m])
        return true, false

    def _derive(self, true: int, false: int) -> tuple[int, int]:
        """``true`` and ``false`` (new cells) with the cells they force by counting: a card in
        one place, a hand of its size, one envelope card per category. A group is done when its
        count of true cells is reached (the rest are false) or when only as many cells as its
        count are left open (they are true). Only groups of newly known cells are looked at."""
        known_true, known_false = self.true | true, self.false | false
        todo = {g for cell in cells(true | false) for g in self._groups_of[cell]}
        while todo:
            mask, size = self._groups[todo.pop()]
            if (known_true & mask).bit_count() == size:
                forced, value = mask & ~known_true & ~known_false, False
            elif (mask & ~known_false).bit_count() == size:
                forced, value = mask & ~known_false & ~known_true, True
            else:
                continue
            if not forced:
                continue
            if value:
                known_true |= forced
            else:
                known_false |= forced
            todo.update(g for cell in cells(forced) for g in self._groups_of[cell])
        return known_true & ~self.true, known_false & ~self.false

    def clause(self, pos: int, neg: int) -> None:
        """At least one cell of ``pos`` is true or one of ``neg`` false."""
        self._clauses.append((pos, neg))
        self._recheck([m for m in self.models if not (m & pos or neg & ~m)])

    def count(self, mask: int, k: int) -> None:
        """Exactly ``k`` cells of ``mask`` are true."""
        self._counts.append((mask, k))
        self._recheck([m for m in self.models if (m & mask).bit_count() != k])

    def add(self, model: int) -> None:
        """Store a deal (known to fit), dropping the oldest beyond capacity."""
        self.models.append(model)
        if len(self.models) > self.capacity:
            del self.models[0]

    def agreement(self) -> tuple[int, int]:
        """The cells true in every deal, and the cells true in some deal."""
        every, some = -1, 0
        for model in self.models:
            every &= model
            some |= model
        return every, some

    def find(self, pos: int, neg: int) -> bool:
        """Whether a stored deal has every cell of ``pos`` true and every cell of ``neg`` false."""
        return any(model & pos == pos and not model & neg for model in self.models)

    def cover(self, cell: int, value: bool) -> int | None:
        """A deal, made by one swap from one of the newest few, in which ``cell`` is not
        ``value`` (the value every stored deal gives it); stored and returned, or None."""
        card, place = divmod(cell, self._places)
        for model in reversed(self.models[-COVER_FROM:]):
            if value:
                found = self._move_away(model, card, place)
            else:
                found = self._swap(model, card, self._place_of(model, card), place)
            if found is not None:
                self.add(found)
                return found
        return None

    def fits(self, model: int) -> bool:
        """Whether ``model`` keeps the known cells, the open clauses and the counts."""
        if model & self.false or self.true & ~model:
            return False
        for pos, neg in self._clauses:
            if not (model & pos or neg & ~model):
                return False
        return not self._counts or all((model & mask).bit_count() == k for mask, k in self._counts)

    def _recheck(self, broken: list[int]) -> None:
        """Repair the deals in ``broken`` (those the newest constraint rules out) or drop them."""
        if not broken:
            return
        gone = set(broken)
        kept = [m for m in self.models if m not in gone]
        for model in broken[:REPAIRS]:
            repaired = self._repair(model)
            if repaired is not None and repaired not in kept:
                kept.append(repaired)
        self.models = kept

    def _repair(self, model: int) -> int | None:
        """A deal one swap from ``model`` that fits, or None."""
        wrong = model & self.false
        if wrong:
            card, place = divmod(wrong.bit_length() - 1, self._places)
            return self._move_away(model, card, place)
        missing = self.true & ~model
        if missing:
            card, place = divmod(missing.bit_length() - 1, self._places)
            return self._swap(model, card, self._place_of(model, card), place)
        for pos, neg in self._clauses:
            if model & pos or neg & ~model:
                continue
            while pos:
                low = pos & -pos
                pos ^= low
                card, place = divmod(low.bit_length() - 1, self._places)
                found = self._swap(model, card, self._place_of(model, card), place)
                if found is not None:
                    return found
            while neg:
                low = neg & -neg
                neg ^= low
                card, place = divmod(low.bit_length() - 1, self._places)
                found = self._move_away(model, card, place)
                if found is not None:
                    return found
            return None
        return None

    def _place_of(self, model: int, card: int) -> int:
        return (model >> (card * self._places) & self._card_mask).bit_length() - 1

    def _move_away(self, model: int, card: int, place: int) -> int | None:
        """``model`` with ``card`` moved from ``place`` to another place by one swap, or None."""
        open_places = ~(self.false >> (card * self._places)) & self._card_mask & ~(1 << place)
        for target in cells(open_places):
            found = self._swap(model, card, place, target)
            if found is not None:
                return found
        return None

    def _swap(self, model: int, card: int, source: int, target: int) -> int | None:
        """``model`` with ``card`` moved from ``source`` to ``target`` and a card from
        ``target`` moved back to ``source``, the first such deal that fits; else None."""
        places = self._places
        here, there = card * places + source, card * places + target
        if self.true >> here & 1 or self.false >> there & 1:
            return None
        moved = 1 << here | 1 << there
        same_category = self._envelope in (source, target)
        category = self._category[card]
        others = model & self._at_place[target]
        while others:
            low = others & -others
            others ^= low
            other = (low.bit_length() - 1) // places
            if other == card or (same_category and self._category[other] != category):
                continue
            back = other * places + source
            if self.false >> back & 1:
                continue
            found = model ^ moved ^ low ^ 1 << back
            if self.fits(found):
                return found
        return None
