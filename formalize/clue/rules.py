"""The Clue constraint set: the game's structure and what each observation says.

The structure (a card is in exactly one place, a hand has its size, the envelope has one card per
category) is a list of cardinality formulas. An observation is a list of clauses over the atoms
of a ``ClueSetup``, each a tuple of literals ``(atom, positive)`` of which at least one holds: a
refuter holds at least one of the suggested cards, a passing player holds none, a failed
accusation names at least one card outside the envelope. Only an accuser's own accuracy is a
cardinality formula. Clauses stay plain tuples on the hot path; ``clause_formula`` gives the IR.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from formalize.clue.setup import ClueSetup
from reasoning.formula import And, Atom, Card, Formula, Not, Or

Literal = tuple[str, bool]
"""An atom name and whether it is asserted (True) or denied (False)."""
Clause = tuple[Literal, ...]
"""At least one of the literals holds."""


def literal_formula(literal: Literal) -> Formula:
    """``p`` or ``~p``."""
    name, positive = literal
    return Atom(name) if positive else Not(Atom(name))


def clause_formula(clause: Clause) -> Formula:
    """A clause as IR: the literal itself, or the disjunction of its literals."""
    if len(clause) == 1:
        return literal_formula(clause[0])
    return Or(tuple(literal_formula(lit) for lit in clause))


def formula_literal(formula: Formula) -> Literal | None:
    """The literal of ``p`` or ``~p``; None for any other formula."""
    match formula:
        case Atom(name, ()):
            return name, True
        case Not(Atom(name, ())):
            return name, False
        case _:
            return None


def formula_clause(formula: Formula) -> Clause | None:
    """The clause a formula states: a literal, a disjunction of literals, or a negated
    conjunction of literals (flipped); None for any other formula."""
    match formula:
        case Or(parts) | Not(And(parts)):
            found = [formula_literal(p) for p in parts]
            literals = [lit for lit in found if lit is not None]
            if len(literals) != len(found):
                return None
            if isinstance(formula, Or):
                return tuple(literals)
            return tuple((name, not positive) for name, positive in literals)
        case _:
            single = formula_literal(formula)
            return None if single is None else (single,)


def describe_clause(setup: ClueSetup, clause: Clause) -> str:
    """A clause in words, naming cards, players and the envelope."""
    return " or ".join(setup.describe(name, positive) for name, positive in clause)


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


def own_hand(setup: ClueSetup, seat: int, hand: Iterable[str]) -> list[Clause]:
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
    return [((setup.atom(c, seat), c in held),) for c in setup.cards]


def holds(setup: ClueSetup, seat: int, card: str) -> Clause:
    """``seat`` holds ``card`` (a card shown to the observer, for instance)."""
    setup.check_seat(seat)
    return ((setup.atom(card, seat), True),)


def holds_one_of(setup: ClueSetup, seat: int, cards: Sequence[str]) -> Clause:
    """``seat`` holds at least one of ``cards`` (a refutation the observer did not see)."""
    setup.check_seat(seat)
    return tuple((setup.atom(c, seat), True) for c in dict.fromkeys(cards))


def holds_none_of(setup: ClueSetup, seat: int, cards: Sequence[str]) -> list[Clause]:
    """``seat`` holds none of ``cards`` (it passed on a suggestion of them)."""
    setup.check_seat(seat)
    return [((setup.atom(c, seat), False),) for c in dict.fromkeys(cards)]


def nobody_else_holds(setup: ClueSetup, suggester: int, cards: Sequence[str]) -> list[Clause]:
    """No player but the suggester holds any of ``cards`` (nobody refuted the suggestion)."""
    setup.check_seat(suggester)
    return [
        clause
        for seat in range(setup.n_players)
        if seat != suggester
        for clause in holds_none_of(setup, seat, cards)
    ]


def envelope_is(setup: ClueSetup, cards: Sequence[str]) -> list[Clause]:
    """Each of ``cards`` is in the envelope (a correct accusation)."""
    return [((setup.atom(c, setup.envelope), True),) for c in dict.fromkeys(cards)]


def envelope_is_not(setup: ClueSetup, cards: Sequence[str]) -> Clause:
    """Not all of ``cards`` are in the envelope (a failed accusation)."""
    return tuple((setup.atom(c, setup.envelope), False) for c in dict.fromkeys(cards))


def envelope_matches(setup: ClueSetup, cards: Sequence[str], right: int) -> Formula:
    """Exactly ``right`` of ``cards`` are in the envelope (the accuser's own accusation result)."""
    names = tuple(dict.fromkeys(cards))
    if not 0 <= right <= len(names):
        raise ValueError(f"accuracy {right}: must be between 0 and {len(names)}")
    return Card("exactly", right, tuple(Atom(setup.atom(c, setup.envelope)) for c in names))
