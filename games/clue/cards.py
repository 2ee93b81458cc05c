"""Clue's cards, the standard deck, and the game settings (player count, round limit, deck)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, get_args

Category = Literal["suspect", "weapon", "room"]
CATEGORIES: tuple[Category, ...] = get_args(Category)

SUSPECTS: tuple[str, ...] = (
    "Miss Scarlet",
    "Colonel Mustard",
    "Mrs. White",
    "Mr. Green",
    "Mrs. Peacock",
    "Professor Plum",
)
WEAPONS: tuple[str, ...] = ("Candlestick", "Knife", "Lead Pipe", "Revolver", "Rope", "Wrench")
ROOMS: tuple[str, ...] = (
    "Kitchen",
    "Ballroom",
    "Conservatory",
    "Dining Room",
    "Billiard Room",
    "Library",
    "Lounge",
    "Hall",
    "Study",
)


@dataclass(frozen=True, slots=True)
class Card:
    """One card: its category and its name (names are unique across the whole deck)."""

    category: Category
    name: str

    def __post_init__(self) -> None:
        if self.category not in CATEGORIES:
            raise ValueError(f"card category {self.category!r}: expected one of {CATEGORIES}")
        if not self.name.strip():
            raise ValueError("card name: must not be empty")

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Triple:
    """A suspect, a weapon and a room: the envelope, a suggestion or an accusation."""

    suspect: str
    weapon: str
    room: str

    def names(self) -> tuple[str, str, str]:
        """The three names in category order."""
        return (self.suspect, self.weapon, self.room)


class Deck:
    """The cards of one game by category, in a fixed order, with lookup by name."""

    def __init__(
        self, suspects: tuple[str, ...], weapons: tuple[str, ...], rooms: tuple[str, ...]
    ) -> None:
        self.by_category: dict[Category, tuple[Card, ...]] = {
            "suspect": tuple(Card("suspect", n) for n in suspects),
            "weapon": tuple(Card("weapon", n) for n in weapons),
            "room": tuple(Card("room", n) for n in rooms),
        }
        self.cards: tuple[Card, ...] = tuple(c for cat in CATEGORIES for c in self.by_category[cat])
        self._by_name = {c.name: c for c in self.cards}
        self._index = {c: i for i, c in enumerate(self.cards)}
        if len(self._by_name) != len(self.cards):
            raise ValueError("deck: card names must be unique across categories")

    def card(self, name: str, category: Category | None = None) -> Card:
        """The card called ``name``; ValueError when unknown or not of ``category``."""
        found = self._by_name.get(name)
        if found is None:
            raise ValueError(f"unknown card {name!r}")
        if category is not None and found.category != category:
            raise ValueError(f"card {name!r} is a {found.category}, not a {category}")
        return found

    def __contains__(self, card: object) -> bool:
        return card in self._index

    def index(self, card: Card) -> int:
        """The card's position in deck order (suspects, then weapons, then rooms)."""
        return self._index[card]

    def sort(self, cards: Iterable[Card]) -> tuple[Card, ...]:
        """The given cards in deck order."""
        return tuple(sorted(cards, key=self.index))

    def triple_cards(self, triple: Triple) -> tuple[Card, Card, Card]:
        """The three cards named by ``triple``; ValueError names a wrong or unknown name."""
        return (
            self.card(triple.suspect, "suspect"),
            self.card(triple.weapon, "weapon"),
            self.card(triple.room, "room"),
        )


MAX_ROUNDS = 1000
"""The largest round limit a Clue game accepts."""
