"""What a reader of a case can conclude: the theory, the introduction, and any set of cards.

One incremental constraint session holds the background theory and the introduction's facts for
good, and each card's facts behind its own selector atom; "these cards entail F" is then one
solver call with the chosen selectors and "not F" assumed. Formulas asked about get a goal atom
defined once, so repeated questions cost nothing to encode.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from reasoning.closing import Closing
from reasoning.constraints import ConstraintSessionFactory
from reasoning.formula import Atom, Formula, Iff, Implies, Not


class CaseKnowledge(Closing):
    """The theory and introduction for good, plus ``cards`` (lists of facts) to choose from."""

    def __init__(
        self,
        theory: Sequence[Formula],
        intro: Sequence[Formula],
        cards: Sequence[Sequence[Formula]],
        factory: ConstraintSessionFactory,
    ) -> None:
        self._session = factory()
        for formula in [*theory, *intro]:
            self._session.add(formula)
        self.cards = len(cards)
        for index, facts in enumerate(cards):
            for fact in facts:
                self._session.add(Implies(self._selector(index), fact))
        self._goals: dict[Formula, Atom] = {}

    @staticmethod
    def _selector(index: int) -> Atom:
        return Atom(f"read_card_{index}")

    def _goal(self, formula: Formula) -> Atom:
        goal = self._goals.get(formula)
        if goal is None:
            goal = Atom(f"goal_{len(self._goals)}")
            self._session.add(Iff(goal, formula))
            self._goals[formula] = goal
        return goal

    def _read(self, cards: Collection[int]) -> list[Formula]:
        return [self._selector(i) for i in sorted(cards)]

    def entails(self, cards: Collection[int], formula: Formula) -> bool:
        """Whether the theory, the introduction and ``cards`` together entail ``formula``."""
        return not self._session.satisfiable([*self._read(cards), Not(self._goal(formula))])

    def model(self, cards: Collection[int]) -> dict[str, bool] | None:
        """One model of the theory, introduction and ``cards`` (atom name to value), or None."""
        return self._session.model(self._read(cards))

    def consistent(self, cards: Collection[int], formula: Formula | None = None) -> bool:
        """Whether the theory, introduction and ``cards`` (and ``formula``) have a model."""
        extra = [] if formula is None else [self._goal(formula)]
        return self._session.satisfiable([*self._read(cards), *extra])

    def close(self) -> None:
        """Release the session."""
        self._session.close()
