"""Models kept across updates, so that a backbone update asks the solver about few cells.

A model is a deal: a bit set with one bit per (card, place) atom. Every constraint after the
game's structure is a formula over those atoms, so a stored model that satisfies the constraints
added since is still a model, and swapping two cards between two places keeps the structure
(one place per card, the hand sizes, one envelope card per category when the cards share a
category) and needs only the constraints on the four changed atoms checked. An atom two stored
models disagree on is not in the backbone: only the others need the solver.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from formalize.clue.setup import ClueSetup
from reasoning.formula import And, Atom, Card, Formula, Iff, Implies, Not, Or, Truth, atoms


def literal(formula: Formula) -> tuple[str, bool] | None:
    """The atom and polarity of ``p`` or ``~p``; None for any other formula."""
    match formula:
        case Atom(name, ()):
            return name, True
        case Not(Atom(name, ())):
            return name, False
        case _:
            return None


def _literals(parts: Sequence[Formula]) -> list[tuple[str, bool]] | None:
    found = [literal(p) for p in parts]
    return [p for p in found if p is not None] if all(p is not None for p in found) else None


def clause_literals(formula: Formula) -> list[tuple[str, bool]] | None:
    """The literals of a clause: a literal, a disjunction of literals, or a negated conjunction
    of literals (flipped); None for any other formula."""
    single = literal(formula)
    if single is not None:
        return [single]
    match formula:
        case Or(parts):
            return _literals(parts)
        case Not(And(parts)):
            inner = _literals(parts)
            return None if inner is None else [(name, not positive) for name, positive in inner]
        case _:
            return None


def holds(formula: Formula, bits: int, index: Mapping[str, int]) -> bool:
    """Whether the propositional ``formula`` is true in the model ``bits`` (atom i true = bit i)."""
    match formula:
        case Atom(name, ()):
            return bool(bits >> index[name] & 1)
        case Not(body):
            return not holds(body, bits, index)
        case And(parts):
            return all(holds(p, bits, index) for p in parts)
        case Or(parts):
            return any(holds(p, bits, index) for p in parts)
        case Implies(left, right):
            return not holds(left, bits, index) or holds(right, bits, index)
        case Iff(left, right):
            return holds(left, bits, index) == holds(right, bits, index)
        case Truth(value):
            return value
        case Card(op, k, parts):
            count = sum(1 for p in parts if holds(p, bits, index))
            return count == k if op == "exactly" else count <= k if op == "atmost" else count >= k
        case _:
            raise ValueError(f"not a propositional formula over the game's atoms: {formula!r}")


@dataclass(frozen=True, slots=True)
class _Check:
    """One constraint, compiled: a clause (``k`` < 0) true when a ``pos`` atom is true or a ``neg``
    atom false; "exactly ``k`` of the ``pos`` atoms"; or any other ``formula``."""

    pos: int
    neg: int
    k: int
    formula: Formula | None

    def ok(self, bits: int, index: Mapping[str, int]) -> bool:
        if self.formula is not None:
            return holds(self.formula, bits, index)
        if self.k < 0:
            return bool(bits & self.pos) or bool(~bits & self.neg)
        return (bits & self.pos).bit_count() == self.k


class WitnessPool:
    """Up to ``capacity`` models of one player's constraint set, newest last."""

    def __init__(self, setup: ClueSetup, capacity: int = 48) -> None:
        self._places = len(setup.places)
        self._envelope = setup.envelope
        self._categories = [setup.category_of(c) for c in setup.cards]
        self.index = {
            setup.atom(card, place): i * self._places + place
            for i, card in enumerate(setup.cards)
            for place in setup.places
        }
        self.capacity = capacity
        self._models: list[int] = []
        self._where: dict[int, list[int]] = {}
        self._checks_on: defaultdict[int, list[_Check]] = defaultdict(list)
        self.every = -1
        self.some = 0

    def __len__(self) -> int:
        return len(self._models)

    def constrain(self, formula: Formula) -> None:
        """A constraint was added: keep it for swap checks, drop the stored models it rules out."""
        check = self._compile(formula)
        for name in {a.pred for a in atoms(formula)}:
            self._checks_on[self.index[name]].append(check)
        kept = [m for m in self._models if check.ok(m, self.index)]
        if len(kept) != len(self._models):
            self._models = kept
            self._recount()

    def add(self, model: Mapping[str, bool]) -> None:
        """Store a model given as atom values (atoms it leaves out count as false)."""
        bits = 0
        for name, i in self.index.items():
            if model.get(name, False):
                bits |= 1 << i
        self._store(bits)

    def agreed(self, name: str) -> bool | None:
        """The value every stored model gives ``name``; None when two disagree or none is stored."""
        bit = 1 << self.index[name]
        if not self._models or (self.some & bit and not self.every & bit):
            return None
        return bool(self.every & bit)

    def cover(self, name: str) -> bool:
        """Look for a model giving ``name`` the other value than every stored model gives it, by
        swapping two cards in one of the newest models; store it and say whether one was found."""
        value = self.agreed(name)
        if value is None:
            return bool(self._models)
        card, place = divmod(self.index[name], self._places)
        for model in reversed(self._models[-2:]):
            where = self._where[model]
            targets = [p for p in range(self._places) if p != place] if value else [place]
            source = place if value else where[card]
            for target in targets:
                for other, at in enumerate(where):
                    if at != target or other == card:
                        continue
                    bits = self._swap(model, card, source, other, target)
                    if bits is not None:
                        self._store(bits)
                        return True
        return False

    def satisfy(self, literals: Sequence[tuple[str, bool]]) -> bool:
        """Look for a model in which every literal holds: a stored one, or one made from a stored
        model by moving each wanted card to its place, swapping it with a card there; store it
        and say whether one was found (False only means none was found this way)."""
        positive = [self.index[name] for name, value in literals if value]
        negative = [self.index[name] for name, value in literals if not value]
        for model in reversed(self._models[-4:]):
            bits = self._arrange(model, positive)
            if bits is not None and not any(bits >> i & 1 for i in negative):
                if bits != model:
                    self._store(bits)
                return True
        return False

    def _arrange(self, model: int, positive: Sequence[int]) -> int | None:
        """``model`` with every card of ``positive`` moved to its wanted place, or None."""
        where = list(self._where[model])
        placed: set[int] = set()
        bits = model
        for i in positive:
            card, place = divmod(i, self._places)
            source = where[card]
            if source != place:
                swapped = None
                for other, at in enumerate(where):
                    if at == place and other != card and other not in placed:
                        swapped = self._swap(bits, card, source, other, place)
                        if swapped is not None:
                            where[card], where[other] = place, source
                            break
                if swapped is None:
                    return None
                bits = swapped
            placed.add(card)
        return bits

    def _swap(self, model: int, card: int, source: int, other: int, target: int) -> int | None:
        """``model`` with ``card`` moved from ``source`` to ``target`` and ``other`` back, when
        that keeps every constraint; else None."""
        envelope = self._envelope
        if (envelope in (source, target)) and self._categories[card] != self._categories[other]:
            return None
        p = self._places
        changed = (card * p + source, card * p + target, other * p + target, other * p + source)
        bits = model
        for i in changed:
            bits ^= 1 << i
        for i in changed:
            for check in self._checks_on.get(i, ()):
                if not check.ok(bits, self.index):
                    return None
        return bits

    def _store(self, bits: int) -> None:
        self._models.append(bits)
        if bits not in self._where:
            mask = (1 << self._places) - 1
            self._where[bits] = [
                (bits >> (card * self._places) & mask).bit_length() - 1
                for card in range(len(self._categories))
            ]
        if len(self._models) > self.capacity:
            del self._models[0]
            self._recount()
        else:
            self.every &= bits
            self.some |= bits

    def _recount(self) -> None:
        self._where = {m: self._where[m] for m in self._models}
        self.every, self.some = -1, 0
        for m in self._models:
            self.every &= m
            self.some |= m

    def _compile(self, formula: Formula) -> _Check:
        clause = clause_literals(formula)
        if clause is not None:
            pos = neg = 0
            for name, positive in clause:
                if positive:
                    pos |= 1 << self.index[name]
                else:
                    neg |= 1 << self.index[name]
            return _Check(pos, neg, -1, None)
        if isinstance(formula, Card) and formula.op == "exactly":
            parts = [literal(p) for p in formula.parts]
            names = {p[0] for p in parts if p is not None and p[1]}
            if len(names) == len(parts):
                mask = 0
                for name in names:
                    mask |= 1 << self.index[name]
                return _Check(mask, 0, formula.k, None)
        return _Check(0, 0, -1, formula)
