"""The effectively propositional (EPR, Bernays-Schoenfinkel) fragment, decided by grounding.

A formula is in the fragment when, in negation normal form, no existential quantifier lies under
a universal one and no quantifier lies inside a cardinality constraint: its existentials become
constants and the rest is universal. With no function symbols a universal formula holds in some
model exactly when its instances over the named constants (each sort's own, at least one per sort)
are propositionally satisfiable, with equality read as a congruence over the grounded atoms:
names are not unique (Z3 declares each constant without a distinctness axiom), so two names may
denote one element unless the knowledge says otherwise.

``GroundedSession`` keeps such knowledge on a propositional ``EntailmentSession``. It grounds
incrementally and only where it matters: an instance is added once every atom negated at the top
of its clause (its guards) may be true, which keeps rules like ``forall x. Tea(x) -> Drink(x)``
linear in the facts. Instances it leaves out are satisfied by making false every atom that no
added formula mentions, so verdicts are those of full grounding.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from reasoning.closing import Closing
from reasoning.formula import (
    And,
    Atom,
    Card,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Term,
    Truth,
    Var,
    conj,
    walk,
)
from reasoning.session import EntailmentSession
from reasoning.verdict import ProofResult, Verdict

EQUALITY = "="
"""The predicate name ground equality atoms are kept under (never a user predicate's name)."""

GroundAtom = tuple[str, tuple[str, ...]]
"""A ground atom: predicate and argument constant names (equality: the two names, sorted)."""


class OutsideFragment(ValueError):
    """A formula whose Skolem form needs a function symbol, or with a quantifier in a count."""


def _nnf(f: Formula, positive: bool = True) -> Formula:
    """``f`` (negated unless ``positive``) with negations on atoms, equalities and counts only."""
    match f:
        case Atom() | Eq() | Card():
            if isinstance(f, Card) and any(
                isinstance(g, Forall | Exists) for p in f.parts for g in walk(p)
            ):
                raise OutsideFragment("a quantifier inside a cardinality constraint")
            return f if positive else Not(f)
        case Truth(value):
            return Truth(value == positive)
        case Not(body):
            return _nnf(body, not positive)
        case And(parts) | Or(parts):
            inner = tuple(_nnf(p, positive) for p in parts)
            return And(inner) if isinstance(f, And) == positive else Or(inner)
        case Implies(left, right):
            return _nnf(Or((Not(left), right)), positive)
        case Iff(left, right):
            both = And((Implies(left, right), Implies(right, left)))
            return _nnf(both, positive)
        case Forall(vs, body) | Exists(vs, body):
            inner_body = _nnf(body, positive)
            return (
                Forall(vs, inner_body)
                if isinstance(f, Forall) == positive
                else Exists(vs, inner_body)
            )
    raise TypeError(f"not a formula: {f!r}")


@dataclass(frozen=True, slots=True)
class Clausal:
    """A formula in Skolem form: universal variables (renamed apart) over a quantifier-free
    matrix in negation normal form, and the existential variables replaced by constants."""

    variables: tuple[Var, ...]
    matrix: Formula
    witnesses: tuple[Var, ...]


def _subst(term: Term, env: dict[str, Term]) -> Term:
    return env.get(term.name, term) if isinstance(term, Var) else term


def skolem_form(formula: Formula, witness: Iterator[Const] | None = None) -> Clausal:
    """``formula`` in Skolem form; ``witness`` names the constants for its existentials (in
    order met), or, when None, they stay variables listed as ``witnesses``.

    ``OutsideFragment`` when an existential lies under a universal or a count holds a quantifier.
    """
    universals: list[Var] = []
    existentials: list[Var] = []

    def go(f: Formula, env: dict[str, Term], under_forall: bool) -> Formula:
        match f:
            case Atom(pred, args):
                return Atom(pred, tuple(_subst(a, env) for a in args))
            case Eq(left, right):
                return Eq(_subst(left, env), _subst(right, env))
            case Not(body):
                return Not(go(body, env, under_forall))
            case And(parts):
                return And(tuple(go(p, env, under_forall) for p in parts))
            case Or(parts):
                return Or(tuple(go(p, env, under_forall) for p in parts))
            case Card(op, k, parts):
                return Card(op, k, tuple(go(p, env, under_forall) for p in parts))
            case Forall(vs, body):
                inner = dict(env)
                for v in vs:
                    fresh = Var(f"{v.name}!{len(universals)}", v.sort)
                    universals.append(fresh)
                    inner[v.name] = fresh
                return go(body, inner, True)
            case Exists(vs, body):
                if under_forall:
                    raise OutsideFragment("an existential under a universal needs a function")
                inner = dict(env)
                for v in vs:
                    if witness is None:
                        fresh_var = Var(f"{v.name}!e{len(existentials)}", v.sort)
                        existentials.append(fresh_var)
                        inner[v.name] = fresh_var
                    else:
                        inner[v.name] = Const(next(witness).name, v.sort)
                return go(body, inner, under_forall)
        return f

    matrix = go(_nnf(formula), {}, False)
    return Clausal(tuple(universals), matrix, tuple(existentials))


def in_fragment(knowledge: Iterable[Formula], claims: Iterable[Formula]) -> bool:
    """Whether every knowledge formula, and every claim and its negation, has a Skolem form
    without functions (a claim is proved by refuting its negation, and refuted the other way)."""
    try:
        for f in knowledge:
            skolem_form(f)
        for c in claims:
            skolem_form(c)
            skolem_form(Not(c))
    except OutsideFragment:
        return False
    return True


def _prop_key(atom: GroundAtom) -> str:
    pred, args = atom
    if pred == EQUALITY:
        return f"2{args[0]}={args[1]}"
    return f"1{pred}({','.join(args)})" if args else f"0{pred}"


def _eq_atom(a: str, b: str) -> GroundAtom:
    return (EQUALITY, (a, b) if a < b else (b, a))


Guard = tuple[str, tuple[Term, ...]]


@dataclass(slots=True)
class _Rule:
    """A universal formula being grounded: its matrix, the guards that decide which instances
    matter, the variables no guard binds, and the instances made so far."""

    variables: tuple[Var, ...]
    matrix: Formula
    guards: tuple[Guard, ...]
    free: tuple[Var, ...]
    seen: set[tuple[str, ...]] = field(default_factory=set)
    collected: list[Formula] | None = None


def _guards(matrix: Formula) -> tuple[Guard, ...]:
    """The atoms negated at the top level of ``matrix``: if one is false, the matrix holds."""
    parts: list[Formula] = []
    stack = [matrix]
    while stack:
        f = stack.pop()
        if isinstance(f, Or):
            stack.extend(f.parts)
        else:
            parts.append(f)
    out: list[Guard] = []
    for part in parts:
        match part:
            case Not(Atom(pred, args)):
                out.append((pred, args))
            case Not(Eq(left, right)):
                out.append((EQUALITY, (left, right)))
    return tuple(out)


class GroundedSession(Closing):
    """An ``EntailmentSession`` for EPR formulas over a propositional session (see the module
    docstring); ``add`` and ``prove`` raise or answer SYNTAX_ERROR outside the fragment.

    A goal is proved by grounding its negation: its existentials take constants from a reusable
    pool per sort (knowledge never names them, so they denote any element), and the negation's
    instances are asked only under the assumption literal of that one question.
    """

    def __init__(self, session: EntailmentSession, name: str = "epr-sat") -> None:
        self.name = name
        self._session = session
        self._facts: dict[str, set[tuple[str, ...]]] = defaultdict(set)
        self._by_arg: dict[tuple[str, int, str], list[tuple[str, ...]]] = defaultdict(list)
        self._adjacent: dict[str, set[str]] = defaultdict(set)
        self._domain: dict[str, list[str]] = defaultdict(list)
        self._sort_of: dict[str, str] = {}
        self._rules: list[_Rule] = []
        self._watch: dict[str, list[tuple[_Rule, int]]] = defaultdict(list)
        self._pending: list[tuple[str, tuple[str, ...]] | str] = []
        self._pool: dict[str, list[str]] = defaultdict(list)
        self._arity: dict[str, tuple[str, ...]] = {}
        self._equality_sorts: set[str] = set()
        self._skolems = 0

    @property
    def instances(self) -> int:
        """How many instances of universal formulas have been made (a measure of the work)."""
        return sum(len(r.seen) for r in self._rules)

    def add(self, formula: Formula) -> None:
        """Add a sorted EPR formula for good; ``OutsideFragment`` (a ValueError) otherwise."""
        clausal = skolem_form(formula, self._fresh_constants())
        self._assert(clausal, None)
        self._drain()

    def prove(self, goal: Formula, timeout: float | None = None) -> ProofResult:
        """Whether the knowledge entails ``goal``: its negation, grounded, has no model."""
        start = time.perf_counter()
        try:
            clausal = skolem_form(Not(goal))
        except OutsideFragment as exc:
            return ProofResult.timed(Verdict.SYNTAX_ERROR, self.name, start, message=str(exc))
        used: dict[str, int] = defaultdict(int)
        env: dict[str, Term] = {}
        for v in clausal.witnesses:
            sort = v.sort or "entity"
            env[v.name] = Const(self._pooled(sort, used[sort]), sort)
            used[sort] += 1
        negation: list[Formula] = []
        matrix = _substitute(clausal.matrix, env)
        rule = self._assert(Clausal(clausal.variables, matrix, ()), negation)
        self._drain()
        if rule is not None:
            self._rules.remove(rule)
            for pred in {pred for pred, _ in rule.guards}:
                self._watch[pred] = [w for w in self._watch[pred] if w[0] is not rule]
        result = self._session.prove(Not(conj(negation)), timeout)
        return ProofResult.timed(result.verdict, self.name, start, message=result.message)

    def close(self) -> None:
        """Close the underlying session."""
        self._session.close()

    def _fresh_constants(self) -> Iterator[Const]:
        while True:
            self._skolems += 1
            yield Const(f"!k{self._skolems}")

    def _pooled(self, sort: str, index: int) -> str:
        pool = self._pool[sort]
        while len(pool) <= index:
            name = f"!{sort}!{len(pool)}"
            pool.append(name)
            self._constant(name, sort)
        return pool[index]

    def _assert(self, clausal: Clausal, collect: list[Formula] | None) -> _Rule | None:
        """Ground ``clausal`` now and as the facts grow; instances go to the session, or to
        ``collect`` for a question's negation. Returns the rule that grounds it (None when it
        is ground)."""
        for f in walk(clausal.matrix):
            if isinstance(f, Atom | Eq):
                args = f.args if isinstance(f, Atom) else (f.left, f.right)
                for a in args:
                    if isinstance(a, Const):
                        self._constant(a.name, a.sort or "entity")
        if not clausal.variables:
            self._instance(clausal.matrix, {}, collect)
            return None
        for v in clausal.variables:
            if not self._domain[v.sort or "entity"]:
                self._pooled(v.sort or "entity", 0)
        guards = _guards(clausal.matrix)
        bound = {a.name for _, args in guards for a in args if isinstance(a, Var)}
        rule = _Rule(
            variables=clausal.variables,
            matrix=clausal.matrix,
            guards=guards,
            free=tuple(v for v in clausal.variables if v.name not in bound),
            collected=collect,
        )
        self._rules.append(rule)
        for i, (pred, _) in enumerate(guards):
            self._watch[pred].append((rule, i))
        for binding in self._join(rule.guards, {}):
            self._emit(rule, binding, None)
        return rule

    def _constant(self, name: str, sort: str) -> None:
        if name not in self._sort_of:
            self._sort_of[name] = sort
            self._domain[sort].append(name)
            self._pending.append(name)

    def _fact(self, atom: GroundAtom) -> None:
        pred, args = atom
        if args in self._facts[pred]:
            return
        self._facts[pred].add(args)
        for i, a in enumerate(args):
            self._by_arg[(pred, i, a)].append(args)
        if pred == EQUALITY:
            a, b = args
            self._adjacent[a].add(b)
            self._adjacent[b].add(a)
            self._equality(self._sort_of[a])
        elif args and pred not in self._arity:
            self._arity[pred] = tuple(self._sort_of[a] for a in args)
            if self._equality_sorts:
                self._congruence(pred)
        self._pending.append(atom)

    def _equality(self, sort: str) -> None:
        """Make equality of ``sort`` an equivalence and a congruence, once it first appears."""
        if sort in self._equality_sorts:
            return
        first = not self._equality_sorts
        self._equality_sorts.add(sort)
        x, y, z = (Var(f"{n}!eq", sort) for n in "xyz")
        self._assert(Clausal((x, y, z), Or((Not(Eq(x, y)), Not(Eq(y, z)), Eq(x, z))), ()), None)
        if first:
            for pred in list(self._arity):
                self._congruence(pred)

    def _congruence(self, pred: str) -> None:
        sorts = self._arity[pred]
        xs = tuple(Var(f"x{i}!eq", s) for i, s in enumerate(sorts))
        ys = tuple(Var(f"y{i}!eq", s) for i, s in enumerate(sorts))
        matrix = Or(
            (
                Not(Atom(pred, xs)),
                *(Not(Eq(a, b)) for a, b in zip(xs, ys, strict=True)),
                Atom(pred, ys),
            )
        )
        self._assert(Clausal(xs + ys, matrix, ()), None)

    def _drain(self) -> None:
        """Ground every rule against the facts and constants that arrived, to a fixpoint."""
        while self._pending:
            item = self._pending.pop()
            if isinstance(item, str):
                self._new_constant(item)
                continue
            pred, args = item
            for rule, index in list(self._watch.get(pred, ())):
                _, pattern = rule.guards[index]
                orders = [args, args[::-1]] if pred == EQUALITY else [args]
                for ground in orders:
                    start = _match(pattern, ground, {})
                    if start is None:
                        continue
                    rest = rule.guards[:index] + rule.guards[index + 1 :]
                    for binding in self._join(rest, start):
                        self._emit(rule, binding, None)

    def _new_constant(self, name: str) -> None:
        sort = self._sort_of[name]
        for rule in list(self._rules):
            if not any(v.sort == sort for v in rule.free):
                continue
            for binding in self._join(rule.guards, {}):
                self._emit(rule, binding, name)

    def _emit(self, rule: _Rule, binding: dict[str, str], including: str | None) -> None:
        """Every instance of ``rule`` extending the guard ``binding`` over the free variables
        (only those giving some free variable the constant ``including``, when given)."""
        for full in self._free_values(rule.free, binding, including):
            key = tuple(full[v.name] for v in rule.variables)
            if key in rule.seen:
                continue
            rule.seen.add(key)
            env: dict[str, Term] = {v.name: Const(full[v.name], v.sort) for v in rule.variables}
            self._instance(rule.matrix, env, rule.collected)

    def _free_values(
        self, free: tuple[Var, ...], binding: dict[str, str], including: str | None
    ) -> Iterator[dict[str, str]]:
        if including is None:
            yield from self._assignments(free, binding)
            return
        sort = self._sort_of[including]
        for i, v in enumerate(free):
            if v.sort != sort:
                continue
            before = [w for w in free[:i] if w.sort == sort]
            start = {**binding, v.name: including}
            for full in self._assignments(free[:i] + free[i + 1 :], start):
                if all(full[w.name] != including for w in before):
                    yield full

    def _assignments(
        self, free: Sequence[Var], binding: dict[str, str]
    ) -> Iterator[dict[str, str]]:
        if not free:
            yield binding
            return
        head, rest = free[0], free[1:]
        for value in list(self._domain[head.sort or "entity"]):
            yield from self._assignments(rest, {**binding, head.name: value})

    def _join(self, guards: Sequence[Guard], binding: dict[str, str]) -> Iterator[dict[str, str]]:
        """Every extension of ``binding`` under which each guard's atom is a known fact."""
        if not guards:
            yield binding
            return
        index = self._pick(guards, binding)
        pred, pattern = guards[index]
        rest = [*guards[:index], *guards[index + 1 :]]
        for ground in self._candidates(pred, pattern, binding):
            extended = _match(pattern, ground, binding)
            if extended is not None:
                yield from self._join(rest, extended)

    @staticmethod
    def _pick(guards: Sequence[Guard], binding: dict[str, str]) -> int:
        """The guard to match next: one fully bound, else the most bound (an equality only
        once one side is bound)."""
        best, best_score = 0, (False, False, -1)
        for i, (pred, pattern) in enumerate(guards):
            known = 0
            for t in pattern:
                if isinstance(t, Const) or t.name in binding:
                    known += 1
            score = (pred != EQUALITY or known > 0, known == len(pattern), known)
            if score > best_score:
                best, best_score = i, score
        return best

    def _candidates(
        self, pred: str, pattern: tuple[Term, ...], binding: dict[str, str]
    ) -> Sequence[tuple[str, ...]]:
        """The facts ``pred`` may match under ``binding`` (for equality, also ``c = c``)."""
        values = [t.name if isinstance(t, Const) else binding.get(t.name) for t in pattern]
        if pred == EQUALITY:
            left, right = values
            if left is not None:
                return [(left, o) for o in (left, *self._adjacent.get(left, ()))]
            if right is not None:
                return [(o, right) for o in (right, *self._adjacent.get(right, ()))]
            sort = pattern[0].sort or "entity"
            pairs = [(c, c) for c in self._domain[sort]]
            facts = self._facts.get(EQUALITY, set())
            return pairs + [p for a, b in facts for p in ((a, b), (b, a))]
        best: list[tuple[str, ...]] | None = None
        for i, value in enumerate(values):
            if value is not None:
                found = self._by_arg.get((pred, i, value), [])
                if best is None or len(found) < len(best):
                    best = found
        return list(self._facts.get(pred, ())) if best is None else list(best)

    def _instance(
        self, matrix: Formula, env: dict[str, Term], collect: list[Formula] | None
    ) -> None:
        """Add ``matrix`` under ``env`` (to ``collect`` when given), recording its atoms."""
        made = self._ground(matrix, env)
        if made == Truth(True):
            return
        if collect is not None:
            collect.append(made)
        else:
            self._session.add(made)

    def _ground(self, f: Formula, env: dict[str, Term]) -> Formula:
        """The propositional form of ``f`` under ``env``, simplified; its atoms become facts."""
        match f:
            case Atom(pred, args):
                names = tuple(_subst(a, env).name for a in args)
                self._fact((pred, names))
                return Atom(_prop_key((pred, names)))
            case Eq(left, right):
                a, b = _subst(left, env).name, _subst(right, env).name
                if a == b:
                    return Truth(True)
                atom = _eq_atom(a, b)
                self._fact(atom)
                return Atom(_prop_key(atom))
            case Truth():
                return f
            case Not(body):
                inner = self._ground(body, env)
                return Truth(not inner.value) if isinstance(inner, Truth) else Not(inner)
            case And(parts) | Or(parts):
                unit = isinstance(f, And)
                kept: list[Formula] = []
                for p in parts:
                    g = self._ground(p, env)
                    if isinstance(g, Truth):
                        if g.value != unit:
                            return g
                        continue
                    kept.append(g)
                if not kept:
                    return Truth(unit)
                return (
                    kept[0] if len(kept) == 1 else (And(tuple(kept)) if unit else Or(tuple(kept)))
                )
            case Card(op, k, parts):
                return Card(op, k, tuple(self._ground(p, env) for p in parts))
        raise TypeError(f"not a quantifier-free formula in negation normal form: {f!r}")


def _match(
    pattern: tuple[Term, ...], ground: tuple[str, ...], binding: dict[str, str]
) -> dict[str, str] | None:
    """``binding`` extended so that ``pattern`` names ``ground``, or None when it cannot."""
    out = binding
    for term, value in zip(pattern, ground, strict=True):
        if isinstance(term, Const):
            if term.name != value:
                return None
            continue
        known = out.get(term.name)
        if known is None:
            if out is binding:
                out = dict(binding)
            out[term.name] = value
        elif known != value:
            return None
    return out


def _substitute(f: Formula, env: dict[str, Term]) -> Formula:
    """``f`` with the variables named in ``env`` replaced (``f`` is quantifier-free)."""
    if not env:
        return f
    match f:
        case Atom(pred, args):
            return Atom(pred, tuple(_subst(a, env) for a in args))
        case Eq(left, right):
            return Eq(_subst(left, env), _subst(right, env))
        case Not(body):
            return Not(_substitute(body, env))
        case And(parts):
            return And(tuple(_substitute(p, env) for p in parts))
        case Or(parts):
            return Or(tuple(_substitute(p, env) for p in parts))
        case Card(op, k, parts):
            return Card(op, k, tuple(_substitute(p, env) for p in parts))
    return f
