"""What every Clue player knows before the deal is seen: the cards, the seats, the hand sizes.

Cards are plain names (unique across the deck) grouped by category; a *place* is a seat number
``0 .. n_players - 1`` or ``envelope`` (equal to ``n_players``). Each (card, place) pair has one
propositional atom, named readably (``mrs_white_p2``, ``rope_env``) and unique per game.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from reasoning.formula import Atom, Formula, Not

FactKind = Literal["holds", "not_holds", "in_envelope", "not_in_envelope"]
"""What a fact says about its cell (the same four kinds as a stated Clue deduction)."""

_SLUG_JUNK = re.compile(r"[^0-9a-z]+")


def _slug(name: str) -> str:
    slug = _SLUG_JUNK.sub("_", name.lower()).strip("_")
    if not slug:
        return "card"
    return slug if slug[0].isalpha() else f"c_{slug}"


@dataclass(frozen=True, slots=True)
class Fact:
    """A statement about one cell: ``player`` holds / does not hold ``card``, or it is / is not
    in the envelope (``player`` is None for the envelope kinds)."""

    kind: FactKind
    card: str
    player: int | None = None

    def __post_init__(self) -> None:
        about_player = self.kind in ("holds", "not_holds")
        if about_player and self.player is None:
            raise ValueError(f"player: required for a {self.kind!r} fact")
        if not about_player and self.player is not None:
            raise ValueError(f"player: must be None for a {self.kind!r} fact")

    @property
    def positive(self) -> bool:
        """True for ``holds`` and ``in_envelope``, False for their negations."""
        return self.kind in ("holds", "in_envelope")


@dataclass(frozen=True, slots=True)
class ClueSetup:
    """The deck by category (in order) and every seat's hand size.

    The envelope takes one card of each category; the hand sizes must add up to the rest.
    """

    categories: tuple[tuple[str, tuple[str, ...]], ...]
    hand_sizes: tuple[int, ...]
    _category_of: dict[str, str] = field(init=False, repr=False, compare=False)
    _atoms: dict[tuple[str, int], str] = field(init=False, repr=False, compare=False)
    _cells: dict[str, tuple[str, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.categories:
            raise ValueError("categories: at least one is needed")
        if len(self.hand_sizes) < 2:
            raise ValueError(f"hand_sizes: {len(self.hand_sizes)} seats; Clue needs at least 2")
        category_of: dict[str, str] = {}
        for category, names in self.categories:
            if not names:
                raise ValueError(f"category {category!r}: has no cards")
            for name in names:
                if name in category_of:
                    raise ValueError(f"card {name!r}: appears twice in the deck")
                category_of[name] = category
        if any(size < 0 for size in self.hand_sizes):
            raise ValueError(f"hand_sizes: {self.hand_sizes} has a negative size")
        dealt = len(category_of) - len(self.categories)
        if sum(self.hand_sizes) != dealt:
            raise ValueError(
                f"hand_sizes: {self.hand_sizes} add up to {sum(self.hand_sizes)}, "
                f"but {dealt} cards are dealt"
            )
        slugs: dict[str, str] = {}
        taken: set[str] = set()
        for name in category_of:
            base = candidate = _slug(name)
            k = 2
            while candidate in taken:
                candidate = f"{base}_{k}"
                k += 1
            taken.add(candidate)
            slugs[name] = candidate
        n = len(self.hand_sizes)
        atoms = {
            (name, place): f"{slugs[name]}_{'env' if place == n else f'p{place}'}"
            for name in category_of
            for place in range(n + 1)
        }
        object.__setattr__(self, "_category_of", category_of)
        object.__setattr__(self, "_atoms", atoms)
        object.__setattr__(self, "_cells", {name: cell for cell, name in atoms.items()})

    @property
    def n_players(self) -> int:
        """The number of seats."""
        return len(self.hand_sizes)

    @property
    def envelope(self) -> int:
        """The place number of the envelope (one past the last seat)."""
        return len(self.hand_sizes)

    @property
    def places(self) -> range:
        """Every place: the seats, then the envelope."""
        return range(len(self.hand_sizes) + 1)

    @property
    def cards(self) -> tuple[str, ...]:
        """Every card in deck order."""
        return tuple(self._category_of)

    def category_cards(self, category: str) -> tuple[str, ...]:
        """The cards of ``category``; ValueError when there is no such category."""
        for name, cards in self.categories:
            if name == category:
                return cards
        raise ValueError(f"unknown category {category!r}")

    def category_of(self, card: str) -> str:
        """The category of ``card``; ValueError naming an unknown card."""
        self.check_card(card)
        return self._category_of[card]

    def check_card(self, card: str) -> None:
        """ValueError unless ``card`` is in the deck."""
        if card not in self._category_of:
            raise ValueError(f"unknown card {card!r}")

    def check_seat(self, seat: int) -> None:
        """ValueError unless ``seat`` is a seat of this game."""
        if not 0 <= seat < self.n_players:
            raise ValueError(f"player {seat}: no such seat among {self.n_players}")

    def atom(self, card: str, place: int) -> str:
        """The atom name of "``card`` is at ``place``"; ValueError for an unknown card or place."""
        try:
            return self._atoms[(card, place)]
        except KeyError:
            self.check_card(card)
            raise ValueError(
                f"place {place}: no such place (seats, and envelope = {self.envelope})"
            ) from None

    def cell(self, name: str) -> tuple[str, int]:
        """The (card, place) of an atom name; ValueError for a name that is not one."""
        try:
            return self._cells[name]
        except KeyError:
            raise ValueError(f"{name!r} is not a (card, place) atom of this game") from None

    def describe(self, name: str, positive: bool = True) -> str:
        """The literal ``name`` (or its negation) in words: "player 2 holds Rope", "Rope is not
        in the envelope"."""
        card, place = self.cell(name)
        if place == self.envelope:
            return f"{card} is {'' if positive else 'not '}in the envelope"
        return f"player {place} {'holds' if positive else 'does not hold'} {card}"

    def cells(self) -> Iterator[tuple[str, int, str]]:
        """Every (card, place, atom name), card by card."""
        for (card, place), name in self._atoms.items():
            yield card, place, name

    def atom_names(self) -> tuple[str, ...]:
        """Every atom name, card by card."""
        return tuple(self._atoms.values())

    def place_of(self, fact: Fact) -> int:
        """The place a fact is about: its player, or the envelope."""
        return self.envelope if fact.player is None else fact.player

    def check_fact(self, fact: Fact) -> None:
        """ValueError naming an unknown card or seat in ``fact``."""
        self.check_card(fact.card)
        if fact.player is not None:
            self.check_seat(fact.player)

    def fact_literal(self, fact: Fact) -> tuple[str, bool]:
        """The atom a fact is about and whether the fact asserts it."""
        self.check_fact(fact)
        return self._atoms[(fact.card, self.place_of(fact))], fact.positive

    def fact_formula(self, fact: Fact) -> Formula:
        """The fact as a literal formula."""
        name, positive = self.fact_literal(fact)
        return Atom(name) if positive else Not(Atom(name))
