"""What one character can conclude: the theory, the introduction, its script and what it heard.

A statement is heard as testimony (``formalize.interrogation.testimony``): true unless its
speaker is a murderer. The suspects of a crime still possible are the other players j for which
"j killed the victim" is consistent with all of that; entropy is ln of their number, summed over
the crimes.
Formulas asked about get a goal atom defined once in the incremental session.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from formalize.interrogation.testimony import as_heard
from formalize.world import atoms
from formalize.world.facts import Fact, Seen, fact_formula
from formalize.world.setting import Setting
from formalize.world.theory import background_theory
from reasoning.closing import Closing
from reasoning.constraints import ConstraintSessionFactory
from reasoning.formula import Atom, Formula, Iff, Not


class Knowledge(Closing):
    """One character's knowledge base in an incremental constraint session."""

    def __init__(
        self,
        setting: Setting,
        players: Sequence[str],
        me: str,
        known: Sequence[Fact],
        factory: ConstraintSessionFactory,
    ) -> None:
        self.setting = setting
        self.players = tuple(players)
        self.me = me
        self._session = factory()
        for axiom in background_theory(setting):
            self._session.add(axiom.formula)
        for fact in known:
            self._session.add(fact_formula(fact, setting))
        self._goals: dict[Formula, Atom] = {}

    def _goal(self, formula: Formula) -> Atom:
        goal = self._goals.get(formula)
        if goal is None:
            goal = Atom(f"goal_{len(self._goals)}")
            self._session.add(Iff(goal, formula))
            self._goals[formula] = goal
        return goal

    def hear(self, speaker: str, facts: Sequence[Fact]) -> None:
        """Add ``speaker``'s statement of ``facts`` as testimony."""
        if facts:
            self._session.add(as_heard(self.setting, speaker, facts))

    def entails(self, formula: Formula) -> bool:
        """Whether everything known entails ``formula``."""
        return not self._session.satisfiable([Not(self._goal(formula))])

    def possible(self, crime: int, person: str, given: Formula | None = None) -> bool:
        """Whether ``person`` may have killed in ``crime`` (given ``given``, if any)."""
        extra = [] if given is None else [self._goal(given)]
        return self._session.satisfiable([atoms.culprit(crime, person), *extra])

    def candidates(self, crime: int) -> tuple[str, ...]:
        """The players other than oneself and the crime's victim: the suspects before pruning."""
        victim = self.setting.crimes[crime - 1].victim
        return tuple(p for p in self.players if p not in (self.me, victim))

    def suspects(self, crime: int) -> tuple[str, ...]:
        """The candidates still possible as a killer of ``crime``."""
        return tuple(p for p in self.candidates(crime) if self.possible(crime, p))

    def entropy(self) -> float:
        """Sum over crimes of ln(number of suspects still possible)."""
        crimes = range(1, len(self.setting.crimes) + 1)
        return sum(math.log(max(1, len(self.suspects(i)))) for i in crimes)

    def expected_gain(self, speaker: str, person: str, slot: int) -> float:
        """Exact expected entropy drop from hearing ``speaker`` say where ``person`` was at
        ``slot``: each answer place weighted by the (crime, suspect) hypotheses it leaves."""
        crimes = range(1, len(self.setting.crimes) + 1)
        now = {i: self.suspects(i) for i in crimes}
        before = sum(math.log(max(1, len(s))) for s in now.values())
        total = gained = 0.0
        for place in self.setting.places:
            told = as_heard(self.setting, speaker, [Seen(person, place.id, slot)])
            after = {i: [j for j in now[i] if self.possible(i, j, told)] for i in crimes}
            weight = sum(len(s) for s in after.values())
            if weight == 0 or any(not s for s in after.values()):
                continue
            total += weight
            gained += weight * (before - sum(math.log(len(s)) for s in after.values()))
        return gained / total if total else 0.0

    def close(self) -> None:
        """Release the session."""
        self._session.close()
