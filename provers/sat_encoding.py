"""Tseitin encoding of propositional formulas into CNF clauses over one python-sat variable pool.

Atoms map to pool variables by name; every compound subformula that needs a literal gets one
defining variable, cached, whose definition clauses hold in every model of the original atoms
(they only fix the new variable), so they may be kept for good even when the formula that caused
them is retracted. Top-level assertions are clausified directly, without definitions, wherever
the shape allows. Cardinality constraints use python-sat encodings with auxiliaries drawn from the
same pool, or, for solvers with native at-most constraints, as those constraints directly when
they are asserted at top level.
"""

from __future__ import annotations

from collections.abc import Sequence

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from reasoning.constraints import require_propositional
from reasoning.formula import And, Atom, Card, CardOp, Formula, Iff, Implies, Not, Or, Truth

PAIRWISE_MAX = 10
"""Up to this many parts, at-most-one is encoded pairwise (no auxiliaries)."""

Clause = list[int]
AtMost = tuple[list[int], int]
"""A native constraint: at most ``k`` of the literals hold."""


def _atmost(lits: list[int], k: int, pool: IDPool) -> list[Clause]:
    n = len(lits)
    if k < 0:
        return [[]]
    if k >= n:
        return []
    if k == 0:
        return [[-lit] for lit in lits]
    if k == 1 and n <= PAIRWISE_MAX:
        return [[-lits[i], -lits[j]] for i in range(n) for j in range(i + 1, n)]
    clauses: list[Clause] = CardEnc.atmost(
        lits, bound=k, vpool=pool, encoding=EncType.seqcounter
    ).clauses
    return clauses


def _atleast(lits: list[int], k: int, pool: IDPool) -> list[Clause]:
    n = len(lits)
    if k <= 0:
        return []
    if k > n:
        return [[]]
    if k == 1:
        return [list(lits)]
    if k == n:
        return [[lit] for lit in lits]
    return _atmost([-lit for lit in lits], n - k, pool)


def card_clauses(op: CardOp, k: int, lits: Sequence[int], pool: IDPool) -> list[Clause]:
    """Clauses (auxiliaries from ``pool``) satisfiable exactly when ``op k`` of ``lits`` hold."""
    items = list(lits)
    if op == "atmost":
        return _atmost(items, k, pool)
    if op == "atleast":
        return _atleast(items, k, pool)
    return _atleast(items, k, pool) + _atmost(items, k, pool)


def _native_card(
    op: CardOp, k: int, lits: list[int], pool: IDPool
) -> tuple[list[Clause], list[AtMost]]:
    """Clauses for the trivial, small at-most-one and repeated-variable cases; else native."""
    n = len(lits)
    if op == "exactly":
        c1, a1 = _native_card("atleast", k, lits, pool)
        c2, a2 = _native_card("atmost", k, lits, pool)
        return c1 + c2, a1 + a2
    distinct = len({abs(lit) for lit in lits}) == n
    if op == "atleast":
        if k <= 1 or k >= n or not distinct:
            return _atleast(lits, k, pool), []
        return [], [([-lit for lit in lits], n - k)]
    if k <= 0 or k >= n or (k == 1 and n <= PAIRWISE_MAX) or not distinct:
        return _atmost(lits, k, pool), []
    return [], [(list(lits), k)]


class CnfEncoder:
    """Turns propositional formulas into clauses (and native constraints), held until taken.

    One encoder serves one solver: both must see every clause in the same order of growth. With
    ``native_atmost``, cardinality constraints asserted at top level without a guard become
    native at-most constraints (for solvers such as minicard and gluecard), which need no
    auxiliary variables.
    """

    def __init__(self, pool: IDPool | None = None, native_atmost: bool = False) -> None:
        self.pool = pool if pool is not None else IDPool()
        self.native_atmost = native_atmost
        self._atmosts: list[AtMost] = []
        self._atoms: dict[str, int] = {}
        self._defs: dict[Formula, int] = {}
        self._pending: list[Clause] = []
        self._fresh = 0
        self._true: int | None = None

    @property
    def atom_names(self) -> dict[str, int]:
        """Every atom name given a variable so far, with its variable."""
        return dict(self._atoms)

    def atom_var(self, name: str) -> int:
        """The variable of the propositional atom ``name`` (allocated on first use)."""
        var = self._atoms.get(name)
        if var is None:
            var = self.pool.id(("atom", name))
            self._atoms[name] = var
        return var

    def fresh(self) -> int:
        """A new variable standing for nothing, e.g. to guard retractable clauses."""
        self._fresh += 1
        var: int = self.pool.id(("fresh", self._fresh))
        return var

    def take_clauses(self) -> list[Clause]:
        """The clauses produced since the last call, handed over once."""
        out, self._pending = self._pending, []
        return out

    def take_atmosts(self) -> list[AtMost]:
        """The native at-most constraints produced since the last call (only when native)."""
        out, self._atmosts = self._atmosts, []
        return out

    def literal(self, formula: Formula) -> int:
        """A literal equivalent to ``formula``; its definition clauses are queued.

        Raises ``NotPropositional`` (nothing queued) when ``formula`` is not propositional.
        """
        require_propositional(formula)
        return self._lit(formula)

    def assert_formula(self, formula: Formula, guard: Sequence[int] = ()) -> None:
        """Queue clauses that force ``formula`` unless a literal of ``guard`` is true.

        With ``guard = (-a,)`` the formula holds whenever ``a`` is assumed, so it can be retracted
        by adding the unit clause ``-a``. Raises ``NotPropositional`` (nothing queued) when
        ``formula`` is not propositional.
        """
        require_propositional(formula)
        self._assert(formula, list(guard))

    def _emit(self, clauses: list[Clause], guard: list[int]) -> None:
        self._pending.extend(clause + guard for clause in clauses)

    def _assert(self, f: Formula, guard: list[int]) -> None:
        match f:
            case Truth(value):
                if not value:
                    self._emit([[]], guard)
            case And(parts):
                for part in parts:
                    self._assert(part, guard)
            case Not(Not(body)):
                self._assert(body, guard)
            case Not(Or(parts)):
                for part in parts:
                    self._assert(Not(part), guard)
            case Not(Implies(left, right)):
                self._assert(left, guard)
                self._assert(Not(right), guard)
            case Not(Truth(value)):
                self._assert(Truth(not value), guard)
            case Card(op, k, parts) if self.native_atmost and not guard:
                lits = [self._lit(part) for part in parts]
                clauses, atmosts = _native_card(op, k, lits, self.pool)
                self._pending.extend(clauses)
                self._atmosts.extend(atmosts)
            case Card(op, k, parts):
                lits = [self._lit(part) for part in parts]
                self._emit(card_clauses(op, k, lits, self.pool), guard)
            case Or(parts):
                self._emit([[self._lit(part) for part in parts]], guard)
            case Not(And(parts)):
                self._emit([[-self._lit(part) for part in parts]], guard)
            case Implies(left, right):
                self._emit([[-self._lit(left), self._lit(right)]], guard)
            case _:
                self._emit([[self._lit(f)]], guard)

    def _true_var(self) -> int:
        if self._true is None:
            self._true = self.fresh()
            self._pending.append([self._true])
        return self._true

    def _lit(self, f: Formula) -> int:
        match f:
            case Atom(name, ()):
                return self.atom_var(name)
            case Not(body):
                return -self._lit(body)
            case Truth(value):
                return self._true_var() if value else -self._true_var()
        cached = self._defs.get(f)
        if cached is not None:
            return cached
        var = self._define(f)
        self._defs[f] = var
        return var

    def _define(self, f: Formula) -> int:
        match f:
            case And(parts):
                lits = [self._lit(part) for part in parts]
                v = self.fresh()
                self._pending.extend([-v, lit] for lit in lits)
                self._pending.append([v, *(-lit for lit in lits)])
            case Or(parts):
                lits = [self._lit(part) for part in parts]
                v = self.fresh()
                self._pending.extend([v, -lit] for lit in lits)
                self._pending.append([-v, *lits])
            case Implies(left, right):
                a, b = self._lit(left), self._lit(right)
                v = self.fresh()
                self._pending.extend([[v, a], [v, -b], [-v, -a, b]])
            case Iff(left, right):
                a, b = self._lit(left), self._lit(right)
                v = self.fresh()
                self._pending.extend([[-v, -a, b], [-v, a, -b], [v, a, b], [v, -a, -b]])
            case Card("exactly", k, parts):
                v = self._lit(And((Card("atleast", k, parts), Card("atmost", k, parts))))
            case Card("atleast", k, parts):
                v = self._define_card(parts, ("atleast", k), ("atmost", k - 1))
            case Card(_, k, parts):
                v = self._define_card(parts, ("atmost", k), ("atleast", k + 1))
            case _:
                raise ValueError(f"cannot encode {type(f).__name__} as a propositional literal")
        return v

    def _define_card(
        self,
        parts: tuple[Formula, ...],
        holds: tuple[CardOp, int],
        fails: tuple[CardOp, int],
    ) -> int:
        """A variable true exactly when the bound ``holds`` does; ``fails`` is its negation."""
        lits = [self._lit(part) for part in parts]
        v = self.fresh()
        self._emit(card_clauses(holds[0], holds[1], lits, self.pool), [-v])
        self._emit(card_clauses(fails[0], fails[1], lits, self.pool), [v])
        return v
