"""The Clue constraint set as IR formulas: the game's structure and what each observation says.

Every function returns propositional formulas over the atoms of a ``ClueSetup``: a card is in
exactly one place, a hand has its size, the envelope has one card per category; a refuter holds
at least one of the suggested cards, a passing player holds none, a failed accusation names at
least one card outside the envelope.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from formalize.clue.setup import ClueSetup
from reasoning.formula import Atom, Card, Formula, Not, conj, disj


def structure(setup: ClueSetup) -> list[Formula]:
    """What every player knows: one place per card, the hand sizes, one envelope card a category."""
    out: list[Formula] = []
    for card in setup.cards:
        out.append(Card("exactly", 1, tuple(Atom(setup.atom(card, p)) for p in setup.places)))
    for seat, size in enumerate(setup.hand_sizes):
        out.append(Card("exactly", size, tuple(Atom(setup.atom(c, seat)) for c in setup.cards)))
    for _, cards in setup.categories:
        out.append(Card("exactly", 1, tuple(Atom(setup.atom(c, setup.envelope)) for c in cards)))
    return out


def own_hand(setup: ClueSetup, seat: int, hand: Iterable[str]) -> list[Formula]:
    """A player's own hand: it holds these cards and no others."""
    setup.check_seat(seat)
    held = set(hand)
    for card in held:
        setup.check_card(card)
    if len(held) != setup.hand_sizes[seat]:
        raise ValueError(
            f"hand of player {seat}: {len(held)} cards, but the hand size is "
            f"{setup.hand_sizes[seat]}"
        )
    return [
        Atom(setup.atom(c, seat)) if c in held else Not(Atom(setup.atom(c, seat)))
        for c in setup.cards
    ]


def holds(setup: ClueSetup, seat: int, card: str) -> Formula:
    """``seat`` holds ``card`` (a card shown to the observer, for instance)."""
    setup.check_seat(seat)
    return Atom(setup.atom(card, seat))


def holds_one_of(setup: ClueSetup, seat: int, cards: Sequence[str]) -> Formula:
    """``seat`` holds at least one of ``cards`` (a refutation the observer did not see)."""
    setup.check_seat(seat)
    return disj(Atom(setup.atom(c, seat)) for c in dict.fromkeys(cards))


def holds_none_of(setup: ClueSetup, seat: int, cards: Sequence[str]) -> list[Formula]:
    """``seat`` holds none of ``cards`` (it passed on a suggestion of them)."""
    setup.check_seat(seat)
    return [Not(Atom(setup.atom(c, seat))) for c in dict.fromkeys(cards)]


def nobody_else_holds(setup: ClueSetup, suggester: int, cards: Sequence[str]) -> list[Formula]:
    """No player but the suggester holds any of ``cards`` (nobody refuted the suggestion)."""
    setup.check_seat(suggester)
    return [
        f
        for seat in range(setup.n_players)
        if seat != suggester
        for f in holds_none_of(setup, seat, cards)
    ]


def envelope_is(setup: ClueSetup, cards: Sequence[str]) -> list[Formula]:
    """Each of ``cards`` is in the envelope (a correct accusation)."""
    return [Atom(setup.atom(c, setup.envelope)) for c in dict.fromkeys(cards)]


def envelope_is_not(setup: ClueSetup, cards: Sequence[str]) -> Formula:
    """Not all of ``cards`` are in the envelope (a failed accusation)."""
    return Not(conj(Atom(setup.atom(c, setup.envelope)) for c in dict.fromkeys(cards)))


def envelope_matches(setup: ClueSetup, cards: Sequence[str], right: int) -> Formula:
    """Exactly ``right`` of ``cards`` are in the envelope (the accuser's own accusation result)."""
    names = tuple(dict.fromkeys(cards))
    if not 0 <= right <= len(names):
        raise ValueError(f"accuracy {right}: must be between 0 and {len(names)}")
    return Card("exactly", right, tuple(Atom(setup.atom(c, setup.envelope)) for c in names))
