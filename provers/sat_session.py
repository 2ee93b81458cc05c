"""SatSession: an incremental python-sat constraint session (the SAT ``ConstraintSession``).

One solver lives as long as the session. Questions that need temporary clauses (backbone, model
counting) guard them with a fresh activation variable that is assumed during the question and
falsified for good afterwards, so nothing they add constrains later questions.

The session keeps the last models the solver returned as witnesses, each a bit set (bit v set
when variable v is true). Adding constraints only removes models, so a kept model that satisfies
everything added since is still a model (with activation variables read false); witnesses show,
without a solve, that an atom is not fixed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence

from pysat.solvers import Solver

from provers.sat_encoding import AtMost, Clause, CnfEncoder
from provers.sat_solver import (
    DEFAULT_SOLVER,
    NO_PHASES,
    canonical_solver_name,
    ctrl_c_as_keyboard_interrupt,
    open_solver,
)
from reasoning.closing import Closing
from reasoning.constraints import Inconsistent, assumption_literal
from reasoning.formula import Atom, Formula, Not, Or, atoms

KEPT_MODELS = 64
"""How many recent models the session keeps as witnesses for ``backbone``."""

UNCHECKED_LIMIT = 256
"""How many constraints may wait before the kept witnesses are checked against them."""

Witness = int
"""A model as a bit set: bit v is set when variable v is true (unmentioned variables are false)."""


def _masks(lits: Sequence[int]) -> tuple[int, int]:
    """The bit sets of the variables of the positive and of the negative literals in ``lits``."""
    pos = neg = 0
    for lit in lits:
        if lit > 0:
            pos |= 1 << lit
        else:
            neg |= 1 << -lit
    return pos, neg


def _bits(model: Sequence[int]) -> Witness:
    """A solver model (signed literals) as a witness."""
    bits = 0
    for lit in model:
        if lit > 0:
            bits |= 1 << lit
    return bits


def _true(model: list[int], var: int) -> bool:
    """Whether ``var`` is true in a solver model (variables past its end are false)."""
    return var <= len(model) and model[var - 1] > 0


def _keeper(clauses: list[Clause], atmosts: list[AtMost]) -> Callable[[Witness], bool]:
    """A test of whether a witness satisfies every clause and at-most constraint given."""
    clause_masks = [_masks(clause) for clause in clauses]
    atmost_masks = [(*_masks(lits), k) for lits, k in atmosts]

    def keeps(w: Witness) -> bool:
        return all(w & pos or neg & ~w for pos, neg in clause_masks) and all(
            (w & pos).bit_count() + (neg & ~w).bit_count() <= k for pos, neg, k in atmost_masks
        )

    return keeps


class SatSession(Closing):
    """A ``ConstraintSession`` over one incremental SAT solver; also a context manager.

    ``solver_name`` is any python-sat solver with assumptions and incremental clauses. The
    default, minicard, takes cardinality constraints natively (no auxiliary variables) and
    follows preferred phases, which ``backbone`` uses to flip many candidates per solve.
    ``solver_calls`` counts every solve, which is how the work of a question can be observed.
    """

    def __init__(self, solver_name: str = DEFAULT_SOLVER) -> None:
        self._solver: Solver | None = open_solver(solver_name)
        self.solver_name = solver_name
        self._phases = canonical_solver_name(solver_name) not in NO_PHASES
        self._encoder = CnfEncoder(native_atmost=bool(self._solver.supports_atmost()))
        self._added: dict[str, int] = {}
        self._witnesses: deque[Witness] = deque(maxlen=KEPT_MODELS)
        self._unchecked: tuple[list[Clause], list[AtMost]] = ([], [])
        self._calls = 0

    @property
    def solver_calls(self) -> int:
        """How many times the solver has been asked to solve."""
        return self._calls

    def add(self, formula: Formula) -> None:
        """Add a propositional formula for good; ``NotPropositional`` (a ValueError) otherwise.

        A clause of atoms (a literal, or a disjunction of literals) goes to the solver as it is.
        """
        clause = self._clause(formula)
        if clause is not None:
            self._live().add_clause(clause)
            self._defer_check([clause], [])
            return
        self._encoder.assert_formula(formula)
        for atom in atoms(formula):
            self._added[atom.pred] = self._encoder.atom_var(atom.pred)
        self._flush()

    def satisfiable(self, assumptions: Sequence[Formula] = ()) -> bool:
        """Whether the set has a model in which every assumption literal holds."""
        return self._solve(self._assumption_lits(assumptions))

    def entails(self, formula: Formula) -> bool:
        """Whether every model satisfies ``formula`` (always, if there is none); adds nothing.

        Only the definition of a literal for ``formula`` is added, which every model extends to.
        """
        lit = self._encoder.literal(formula)
        self._flush()
        return not self._solve([-lit])

    def backbone(
        self, atoms: Iterable[str], known: Mapping[str, bool] | None = None
    ) -> dict[str, bool]:
        """The atoms among ``atoms`` fixed in every model, mapped to their value.

        ``known`` holds atoms already found fixed; they are returned as given and only checked
        against one model (a contradicting hint is a ValueError). Kept witnesses rule out the
        other atoms they disagree on; the rest are settled by ``_settle``. Raises
        ``Inconsistent`` when the set has no model.
        """
        names = list(dict.fromkeys(atoms))
        hint = {name: known[name] for name in names if known is not None and name in known}
        self._check_witnesses()
        if not self._witnesses:
            if not self._solve([]):
                raise Inconsistent("the constraint set has no model, so it has no backbone")
            self._keep_model()
        first = self._witnesses[0]
        atom_var = self._encoder.atom_var
        for name, value in hint.items():
            if bool(first >> atom_var(name) & 1) != value:
                raise ValueError(
                    f"hint says atom {name!r} is fixed to {value}, "
                    f"but a model sets it to {not value}"
                )
        every, some = first, first
        for witness in self._witnesses:
            every &= witness
            some |= witness
        name_of: dict[int, str] = {}
        true_all: set[int] = set()
        false_all: set[int] = set()
        for name in names:
            if name in hint:
                continue
            var = atom_var(name)
            if every >> var & 1:
                true_all.add(var)
            elif not some >> var & 1:
                false_all.add(var)
            else:
                continue
            name_of[var] = name
        self._settle(true_all, false_all)
        values = dict(hint)
        values.update((name_of[var], True) for var in true_all)
        values.update((name_of[var], False) for var in false_all)
        return {name: values[name] for name in names if name in values}

    def count_models(
        self, atoms: Sequence[str], bound: int, assumptions: Sequence[Formula] = ()
    ) -> int:
        """How many assignments to ``atoms`` extend to a model under the assumptions.

        Enumerates models, blocking each projected assignment found, up to ``bound``; returns
        ``min(count, bound)``. A negative ``bound`` is a ValueError.
        """
        if bound < 0:
            raise ValueError(f"bound must be at least 0, got {bound}")
        lits = self._assumption_lits(assumptions)
        variables = [self._encoder.atom_var(name) for name in dict.fromkeys(atoms)]
        count = 0
        if bound == 0:
            return count
        act = self._encoder.fresh()
        solver = self._live()
        try:
            while self._solve([*lits, act]):
                count += 1
                if count >= bound:
                    break
                raw = self._keep_model()
                solver.add_clause([-act, *(-v if _true(raw, v) else v for v in variables)])
        finally:
            solver.add_clause([-act])
        return count

    def model(self, assumptions: Sequence[Formula] = ()) -> dict[str, bool] | None:
        """One model over the atoms added so far and those of ``assumptions``, or None if none."""
        lits = self._assumption_lits(assumptions)
        if not self._solve(lits):
            return None
        raw = self._keep_model()
        top = len(raw)
        values = {name: var <= top and raw[var - 1] > 0 for name, var in self._added.items()}
        for assumption in assumptions:
            name, _ = assumption_literal(assumption)
            values[name] = _true(raw, self._encoder.atom_var(name))
        return values

    def close(self) -> None:
        """Release the solver; later calls raise RuntimeError."""
        if self._solver is not None:
            self._solver.delete()
            self._solver = None

    def _settle(self, true_all: set[int], false_all: set[int]) -> None:
        """Shrink the candidate sets (variables true / false in every model seen) to the backbone.

        Two kinds of solve alternate. A single test assumes one candidate flipped (those false
        everywhere first: where each item sits in one of several places, most of them are free):
        a model drops every candidate it flips, no model proves that one fixed. After a fixed one
        is found, a clause test asks for a model flipping any remaining candidate (a clause
        guarded by an activation variable, each new one implying the last); no model proves all
        of them fixed at once. Preferred phases ask every solve to flip as many as it can.
        """
        solver = self._live()
        fixed_true: set[int] = set()
        fixed_false: set[int] = set()
        act = 0
        clause_test = False
        try:
            while true_all or false_all:
                flips = list(false_all) + [-v for v in true_all]
                if self._phases:
                    solver.set_phases(flips)
                if clause_test:
                    if not act:
                        act = self._encoder.fresh()
                    solver.add_clause([-act, *flips])
                    if not self._solve([act]):
                        break
                    clause_test = False
                elif not self._solve([flips[0]]):
                    var = abs(flips[0])
                    (fixed_true if var in true_all else fixed_false).add(var)
                    true_all.discard(var)
                    false_all.discard(var)
                    clause_test = True
                    continue
                raw = self._keep_model()
                true_all.difference_update([v for v in true_all if not _true(raw, v)])
                false_all.difference_update([v for v in false_all if _true(raw, v)])
        finally:
            if act:
                solver.add_clause([-act])
        true_all |= fixed_true
        false_all |= fixed_false

    def _clause(self, formula: Formula) -> Clause | None:
        """The literals of a literal or of a disjunction of literals (recording their atoms);
        None for any other formula."""
        parts = formula.parts if isinstance(formula, Or) else (formula,)
        names: list[tuple[str, bool]] = []
        for part in parts:
            match part:
                case Atom(name, ()):
                    names.append((name, True))
                case Not(Atom(name, ())):
                    names.append((name, False))
                case _:
                    return None
        clause: Clause = []
        for name, positive in names:
            var = self._encoder.atom_var(name)
            self._added[name] = var
            clause.append(var if positive else -var)
        return clause

    def _live(self) -> Solver:
        if self._solver is None:
            raise RuntimeError("the SAT session is closed")
        return self._solver

    def _flush(self) -> None:
        """Hand the encoder's new constraints to the solver; witnesses are checked against them
        when next needed."""
        clauses = self._encoder.take_clauses()
        atmosts = self._encoder.take_atmosts()
        if not (clauses or atmosts):
            return
        solver = self._live()
        solver.append_formula(clauses)
        for lits, k in atmosts:
            solver.add_atmost(lits, k)
        self._defer_check(clauses, atmosts)

    def _defer_check(self, clauses: list[Clause], atmosts: list[AtMost]) -> None:
        """Note new constraints for the next witness check (done at once when many pile up)."""
        if not self._witnesses:
            return
        self._unchecked[0].extend(clauses)
        self._unchecked[1].extend(atmosts)
        if len(self._unchecked[0]) + len(self._unchecked[1]) > UNCHECKED_LIMIT:
            self._check_witnesses()

    def _check_witnesses(self) -> None:
        """Drop the witnesses that the constraints added since the last check exclude."""
        clauses, atmosts = self._unchecked
        if clauses or atmosts:
            keeps = _keeper(clauses, atmosts)
            self._witnesses = deque(filter(keeps, self._witnesses), maxlen=KEPT_MODELS)
            self._unchecked = ([], [])

    def _solve(self, assumptions: list[int]) -> bool:
        solver = self._live()
        self._calls += 1
        with ctrl_c_as_keyboard_interrupt():
            return bool(solver.solve(assumptions=assumptions))

    def _keep_model(self) -> list[int]:
        """The model of the last (satisfiable) solve (a literal per variable, in order), kept as
        a witness."""
        model: list[int] | None = self._live().get_model()
        raw = model if model is not None else []
        self._witnesses.appendleft(_bits(raw))
        return raw

    def _assumption_lits(self, assumptions: Sequence[Formula]) -> list[int]:
        lits: list[int] = []
        for assumption in assumptions:
            name, positive = assumption_literal(assumption)
            var = self._encoder.atom_var(name)
            lits.append(var if positive else -var)
        return lits
