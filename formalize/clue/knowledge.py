"""One Clue player's knowledge: an incremental constraint set and its exact knowledge grid.

``ClueKnowledge`` adds, observation by observation, only the new constraints to a
``ConstraintSession`` (any backend, chosen by the caller's factory). The knowledge grid (card x
place: True / False / unknown) is the session's backbone. Adding constraints only removes models,
so a fixed cell stays fixed: each update asks the backbone about the still-unknown cells only.
Observations arrive as clauses (plain tuples, see ``rules``) and are simplified against the grid
first: a redundant one (the grid already implies it) adds nothing and costs no solver call, and
only what is left is turned into a formula for the session. Cells forced by counting (a card in
one place, a full hand) are known at once, and a pool of deals kept across updates (see
``witnesses``) shows most open cells free without a solve.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from formalize.clue import rules
from formalize.clue.rules import Clause
from formalize.clue.setup import ClueSetup, Fact
from formalize.clue.witnesses import WitnessPool, cells
from reasoning.claims import ClaimStatus
from reasoning.closing import Closing
from reasoning.constraints import ConstraintSession, ConstraintSessionFactory, Inconsistent
from reasoning.formula import Formula, Implies, atoms, conj


class InconsistentKnowledge(ValueError):
    """The observations contradict each other: no deal fits what the player was told."""


@dataclass(frozen=True, slots=True)
class KnowledgeGrid:
    """A snapshot of which cells are entailed: ``fixed`` maps an atom to its value in every model.

    The grid is exact: a cell is True (or False) exactly when the knowledge entails it.
    """

    setup: ClueSetup
    fixed: Mapping[str, bool]

    def value(self, card: str, place: int) -> bool | None:
        """True / False when ``card`` is known to be / not to be at ``place``, else None."""
        return self.fixed.get(self.setup.atom(card, place))

    def status(self, fact: Fact) -> ClaimStatus:
        """ENTAILED, CONTRADICTED or UNDETERMINED for ``fact``; ValueError for an unknown card."""
        name, positive = self.setup.fact_literal(fact)
        value = self.fixed.get(name)
        if value is None:
            return ClaimStatus.UNDETERMINED
        return ClaimStatus.ENTAILED if value == positive else ClaimStatus.CONTRADICTED

    def holder(self, card: str) -> int | None:
        """The place known to hold ``card`` (a seat or the envelope), or None."""
        for place in self.setup.places:
            if self.value(card, place):
                return place
        return None

    def envelope_candidates(self, category: str) -> tuple[str, ...]:
        """The cards of ``category`` that may still be in the envelope."""
        env = self.setup.envelope
        cards = self.setup.category_cards(category)
        return tuple(c for c in cards if self.value(c, env) is not False)

    def solution(self) -> tuple[str, ...] | None:
        """The envelope, one card per category, when every category's card is entailed."""
        found: list[str] = []
        for category, _ in self.setup.categories:
            candidates = self.envelope_candidates(category)
            if len(candidates) != 1 or not self.value(candidates[0], self.setup.envelope):
                return None
            found.append(candidates[0])
        return tuple(found)

    def outside_envelope(self) -> frozenset[str]:
        """The cards known not to be in the envelope."""
        env = self.setup.envelope
        return frozenset(c for c in self.setup.cards if self.value(c, env) is False)

    def facts(self) -> list[Fact]:
        """Every entailed fact: ``holds``, ``not_holds``, ``in_envelope`` or ``not_in_envelope``."""
        out: list[Fact] = []
        env = self.setup.envelope
        for card, place, name in self.setup.cells():
            value = self.fixed.get(name)
            if value is None:
                continue
            if place == env:
                out.append(Fact("in_envelope" if value else "not_in_envelope", card))
            else:
                out.append(Fact("holds" if value else "not_holds", card, place))
        return out


class ClueKnowledge(Closing):
    """What one player (or, with ``player=None``, an onlooker seeing only public events) knows.

    Every observation method returns whether it added anything new. After an
    ``InconsistentKnowledge`` error the object is unusable. ``close`` releases the session.
    """

    def __init__(
        self,
        setup: ClueSetup,
        factory: ConstraintSessionFactory,
        player: int | None = None,
        hand: Iterable[str] | None = None,
    ) -> None:
        if player is not None:
            setup.check_seat(player)
        self.setup = setup
        self.player = player
        self._session: ConstraintSession = factory()
        self._atoms = setup.atom_names()
        self._cell = {name: i for i, name in enumerate(self._atoms)}
        self._all = (1 << len(self._atoms)) - 1
        self._pool: WitnessPool | None = WitnessPool(setup)
        self._new_true = self._new_false = 0
        self._structure = rules.structure(setup)
        self._observed: dict[Clause | Formula, None] = {}
        self._built: list[Formula] = []
        self._fixed: dict[str, bool] = {}
        self._asserted: dict[str, bool] = {}
        self._grid: KnowledgeGrid | None = None
        self._hand: tuple[str, ...] | None = None
        for formula in self._structure:
            self._session.add(formula)
        if hand is not None:
            self.set_hand(hand)

    @property
    def hand(self) -> tuple[str, ...] | None:
        """The player's own hand, once given."""
        return self._hand

    @property
    def formulas(self) -> tuple[Formula, ...]:
        """The whole constraint set so far as IR formulas: every observation once (those the
        rest implies included), so it grows with what was seen, not with how often."""
        built = self._built
        for item in list(self._observed)[len(built) :]:
            built.append(rules.clause_formula(item) if isinstance(item, tuple) else item)
        return (*self._structure, *built)

    def set_hand(self, hand: Iterable[str]) -> bool:
        """The player's own hand; ValueError for an onlooker or a second, different hand."""
        if self.player is None:
            raise ValueError("an onlooker (player=None) has no hand")
        cards = tuple(dict.fromkeys(hand))
        if self._hand is not None:
            if set(cards) != set(self._hand):
                raise ValueError(f"hand of player {self.player}: given twice, differently")
            return False
        clauses = rules.own_hand(self.setup, self.player, cards)
        self._hand = cards
        return self._add_all(clauses)

    def shown(self, refuter: int, card: str) -> bool:
        """``refuter`` showed this player ``card``."""
        return self._add_all([rules.holds(self.setup, refuter, card)])

    def refuted(self, refuter: int, cards: Sequence[str]) -> bool:
        """``refuter`` showed someone one of ``cards``, unseen by this player."""
        return self._add_all([rules.holds_one_of(self.setup, refuter, cards)])

    def passed(self, seat: int, cards: Sequence[str]) -> bool:
        """``seat`` could not refute a suggestion of ``cards``."""
        return self._add_all(rules.holds_none_of(self.setup, seat, cards))

    def unrefuted(self, suggester: int, cards: Sequence[str]) -> bool:
        """Nobody but ``suggester`` could refute its suggestion of ``cards``."""
        return self._add_all(rules.nobody_else_holds(self.setup, suggester, cards))

    def accused(self, cards: Sequence[str], correct: bool, right: int | None = None) -> bool:
        """An accusation of ``cards`` and its outcome; ``right`` (the number of envelope cards it
        named) is known only to the accuser."""
        if correct:
            return self._add_all(rules.envelope_is(self.setup, cards))
        if right is not None:
            formula = rules.envelope_matches(self.setup, cards, right)
            self._observed[formula] = None
            self._put(formula)
            if self._pool is not None:
                self._pool.count(self._mask(a.pred for a in atoms(formula)), right)
            return True
        return self._add_all([rules.envelope_is_not(self.setup, cards)])

    def add(self, formula: Formula) -> bool:
        """Add any propositional formula over this setup's atoms (ValueError names a stranger)."""
        known = set(self._atoms)
        for atom in atoms(formula):
            if atom.args or atom.pred not in known:
                raise ValueError(f"atom {atom.pred!r} is not a (card, place) atom of this game")
        self._observed[formula] = None
        clause = rules.formula_clause(formula)
        if clause is None:
            self._put(formula)
            self._pool = None
            return True
        changed = self._add_clause(clause)
        self._fix_units()
        return changed

    def grid(self) -> KnowledgeGrid:
        """The knowledge grid now; InconsistentKnowledge when no deal fits the observations.

        Only cells still unknown are examined. A cell that two stored deals (see
        ``WitnessPool``) disagree on is not fixed; for the others a deal flipping them is looked
        for by swapping two cards, and only the rest go to the solver, one model question each.
        After ``add`` of a formula that is not a clause, the session's backbone answers alone.
        """
        if self._grid is not None:
            return self._grid
        fixed = dict(self._fixed)
        fixed.update(self._asserted)
        pool = self._pool
        if pool is None:
            unknown = [name for name in self._atoms if name not in fixed]
            try:
                fixed.update(self._session.backbone(unknown) if unknown else {})
            except Inconsistent as err:
                raise self._inconsistent() from err
        else:
            if not pool.models:
                pool.add(self._model(()))
            true = false = 0
            for cell, value in self._settle(pool):
                if value:
                    true |= 1 << cell
                else:
                    false |= 1 << cell
            fixed.update(self._values(*pool.fix(true, false)))
        self._fixed = fixed
        self._asserted = {}
        self._grid = KnowledgeGrid(self.setup, fixed)
        return self._grid

    def status(self, fact: Fact) -> ClaimStatus:
        """ENTAILED, CONTRADICTED or UNDETERMINED for ``fact`` against this knowledge."""
        return self.grid().status(fact)

    def possible(self, facts: Sequence[Fact]) -> bool:
        """Whether all ``facts`` can hold together with this knowledge (a stored deal, or a fact
        the grid already contradicts, answers without the solver)."""
        literals = [self.setup.fact_literal(f) for f in facts]
        for name, positive in literals:
            if self._known(name) is (not positive):
                return False
        pool = self._pool
        if pool is not None and pool.models:
            pos = self._mask(name for name, positive in literals if positive)
            neg = self._mask(name for name, positive in literals if not positive)
            if pool.find(pos, neg):
                return True
        return self._session.satisfiable([rules.literal_formula(lit) for lit in literals])

    def entails(self, fact: Fact, given: Sequence[Fact] = ()) -> bool:
        """Whether this knowledge, with the ``given`` facts added (not kept), entails ``fact``."""
        goal = self.setup.fact_formula(fact)
        if given:
            goal = Implies(conj(self.setup.fact_formula(g) for g in given), goal)
        return self._session.entails(goal)

    def count_envelope(self, category: str, given: Sequence[Fact] = ()) -> int:
        """How many cards of ``category`` may be in the envelope, given extra facts (not kept)."""
        cards = self.setup.category_cards(category)
        names = [self.setup.atom(c, self.setup.envelope) for c in cards]
        assumptions = [self.setup.fact_formula(g) for g in given]
        return self._session.count_models(names, len(names) + 1, assumptions)

    def close(self) -> None:
        """Release the constraint session."""
        self._session.close()

    def _settle(self, pool: WitnessPool) -> list[tuple[int, bool]]:
        """The unknown cells fixed in every model, with their values: each cell every stored
        deal agrees on is covered by a swap, else by a solver model flipping it; a cell no model
        flips is fixed."""
        every, some = pool.agreement()
        agreed = (every | ~some) & ~(pool.true | pool.false) & self._all
        found: list[tuple[int, bool]] = []
        while agreed:
            low = agreed & -agreed
            agreed ^= low
            cell = low.bit_length() - 1
            value = bool(every & low)
            model = pool.cover(cell, value)
            if model is None:
                flipped = rules.literal_formula((self._atoms[cell], not value))
                solved = self._session.model([flipped])
                if solved is None:
                    found.append((cell, value))
                    continue
                model = self._bits(solved)
                pool.add(model)
            every &= model
            some |= model
            agreed &= every | ~some
        return found

    def _model(self, assumptions: Sequence[Formula]) -> int:
        """A model of the session as a deal; InconsistentKnowledge when there is none."""
        model = self._session.model(assumptions)
        if model is None:
            raise self._inconsistent()
        return self._bits(model)

    def _bits(self, model: Mapping[str, bool]) -> int:
        """A model given as atom values as a deal (a bit per cell)."""
        cell = self._cell
        mask = 0
        for name, value in model.items():
            if value and name in cell:
                mask |= 1 << cell[name]
        return mask

    def _mask(self, names: Iterable[str]) -> int:
        cell = self._cell
        mask = 0
        for name in names:
            mask |= 1 << cell[name]
        return mask

    def _inconsistent(self) -> InconsistentKnowledge:
        return InconsistentKnowledge(self._who() + ": no deal fits the observations")

    def _who(self) -> str:
        return "an onlooker" if self.player is None else f"player {self.player}"

    def _known(self, name: str) -> bool | None:
        value = self._asserted.get(name)
        return self._fixed.get(name) if value is None else value

    def _add_all(self, clauses: Sequence[Clause]) -> bool:
        self._observed.update(dict.fromkeys(clauses))
        changed = False
        for clause in clauses:
            changed = self._add_clause(clause) or changed
        self._fix_units()
        return changed

    def _fix_units(self) -> None:
        """Hand the cells fixed by the unit clauses just added to the deal pool, at once; the
        cells they force by counting are known from now on too."""
        if self._pool is not None:
            true, false = self._pool.fix(self._new_true, self._new_false)
            self._asserted.update(self._values(true, false))
        self._new_true = self._new_false = 0

    def _values(self, true: int, false: int) -> dict[str, bool]:
        """The cells of the masks ``true`` and ``false`` by atom name, with their values."""
        names = self._atoms
        values = {names[cell]: True for cell in cells(true)}
        values.update((names[cell], False) for cell in cells(false))
        return values

    def _add_clause(self, clause: Clause) -> bool:
        """Add one clause unless the grid already implies it, without the literals the grid
        already falsifies; a unit clause left over fixes its cell at once."""
        open_literals: list[tuple[str, bool]] = []
        asserted, fixed = self._asserted, self._fixed
        for name, positive in clause:
            value = asserted.get(name)
            if value is None:
                value = fixed.get(name)
            if value is None:
                open_literals.append((name, positive))
            elif value == positive:
                return False
        if not open_literals:
            setup = self.setup
            known = "; ".join(setup.describe(name, not positive) for name, positive in clause)
            raise InconsistentKnowledge(
                f"{self._who()}: the observation that {rules.describe_clause(setup, clause)} "
                f"contradicts what is already known ({known})"
            )
        self._put(rules.clause_formula(tuple(open_literals)))
        pool = self._pool
        if len(open_literals) == 1:
            name, positive = open_literals[0]
            self._asserted[name] = positive
            if positive:
                self._new_true |= 1 << self._cell[name]
            else:
                self._new_false |= 1 << self._cell[name]
        elif pool is not None:
            pool.clause(
                self._mask(name for name, positive in open_literals if positive),
                self._mask(name for name, positive in open_literals if not positive),
            )
        return True

    def _put(self, formula: Formula) -> None:
        self._session.add(formula)
        self._grid = None
