"""Hypothesis strategies for property tests of deduction soundness: formulas, theories, traces.

For users' own tests (``pip install gumshoe[testing]`` brings hypothesis) as much as for ours:

- ``formulas``: any IR value (free variables, captured constants, stray sorts, odd names), for
  syntax round trips and structural properties;
- ``propositional_formulas``: atoms, connectives and cardinality constraints over a few letters;
- ``fol_formulas``: closed, well-sorted first-order formulas over ``SMALL_SIGNATURE`` (or another
  signature), for provers and sort inference.

- ``theories``: lists of formulas (knowledge bases), of any of the above;
- ``traces``: reasoning traces (``reasoning.trace.ReasoningTrace``) whose observations hold in a
  hidden assignment the trace's ``truth`` states, with claims that may or may not follow.

Each game ships its own ``states()`` and ``claims(state, seat)`` in ``games.<game>.strategies``;
its claims are ``GameClaim`` values, negated with ``negations``.

Size is bounded by ``max_leaves`` (atoms per formula) and, for ``fol_formulas``, ``max_depth``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from hypothesis import strategies as st

from reasoning.claims import ClaimStatus
from reasoning.formula import (
    ENTITY,
    EVENT,
    And,
    Atom,
    Card,
    CardOp,
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
)
from reasoning.sorts import Signature, erase_sorts
from reasoning.syntax import KEYWORDS, format_formula
from reasoning.trace import ReasoningTrace, StepLine

CARD_OPS: tuple[CardOp, ...] = get_args(CardOp)

SMALL_SIGNATURE = Signature(
    predicates={
        "P": (ENTITY,),
        "Q": (ENTITY, ENTITY),
        "R": (),
        "Walk": (EVENT,),
        "Agent": (EVENT, ENTITY),
    },
    constants={"a": ENTITY, "b": ENTITY, "e1": EVENT},
)
"""A small signature with both default sorts, a role predicate and a propositional atom."""

ODD_NAMES: tuple[str, ...] = (
    "a b",
    'say "hi"',
    "back\\slash",
    "new\nline",
    "tab\there",
    "",
    "1st",
    "x.y",
    "#hash",
    "naïve",
    "Δ",
    "∀",
    "x'",
    "\u2028",
    "\x00",
    *sorted(KEYWORDS),
)
"""Names that need quoting or unusual lexing: spaces, quotes, escapes, Unicode, keywords."""


def plain_names(alphabet: str = "abcxyz") -> st.SearchStrategy[str]:
    """Short identifiers that never collide with a keyword."""
    return st.text(alphabet, min_size=1, max_size=3).filter(lambda n: n not in KEYWORDS)


def names(odd: bool = False) -> st.SearchStrategy[str]:
    """Symbol names; with ``odd``, also quoted-only names and arbitrary text."""
    plain = plain_names()
    if not odd:
        return plain
    return st.one_of(plain, st.sampled_from(ODD_NAMES), st.text(max_size=6))


def sorts(odd: bool = False) -> st.SearchStrategy[str]:
    """Sort names: the defaults plus a custom one (and odd names with ``odd``)."""
    base = st.sampled_from((ENTITY, EVENT, "person"))
    return st.one_of(base, names(odd=True)) if odd else base


def _maybe_sort(with_sorts: bool | None, odd: bool) -> st.SearchStrategy[str | None]:
    if with_sorts is False:
        return st.none()
    if with_sorts is True:
        return sorts(odd)
    return st.one_of(st.none(), sorts(odd))


def terms(with_sorts: bool | None = None, odd: bool = False) -> st.SearchStrategy[Term]:
    """Variables and constants from a small shared pool of names (so captures happen).

    ``with_sorts``: True gives every term a sort, False none, None a mix.
    """
    pool = st.one_of(st.sampled_from(("x", "y", "z", "c")), names(odd))
    sort = _maybe_sort(with_sorts, odd)
    return st.one_of(st.builds(Var, pool, sort), st.builds(Const, pool, sort))


def formulas(
    max_leaves: int = 8, with_sorts: bool | None = None, odd: bool = False
) -> st.SearchStrategy[Formula]:
    """Arbitrary IR formulas, not necessarily closed or well sorted.

    ``with_sorts``: True gives every term and binder a sort, False none, None a mix; ``odd`` draws
    names and sorts that need quoting.
    """
    pred = st.one_of(st.sampled_from(("P", "Q", "R")), names(odd))
    term = terms(with_sorts, odd)
    var = st.builds(
        Var, st.one_of(st.sampled_from(("x", "y", "z")), names(odd)), _maybe_sort(with_sorts, odd)
    )
    leaves = st.one_of(
        st.builds(Atom, pred, st.lists(term, max_size=3).map(tuple)),
        st.builds(Eq, term, term),
        st.builds(Truth, st.booleans()),
    )

    def extend(inner: st.SearchStrategy[Formula]) -> st.SearchStrategy[Formula]:
        parts = st.lists(inner, min_size=2, max_size=4).map(tuple)
        binders = st.lists(var, min_size=1, max_size=3).map(tuple)
        return st.one_of(
            st.builds(Not, inner),
            st.builds(And, parts),
            st.builds(Or, parts),
            st.builds(Implies, inner, inner),
            st.builds(Iff, inner, inner),
            st.builds(Forall, binders, inner),
            st.builds(Exists, binders, inner),
            st.builds(
                Card,
                st.sampled_from(CARD_OPS),
                st.integers(0, 4),
                st.lists(inner, max_size=4).map(tuple),
            ),
        )

    return st.recursive(leaves, extend, max_leaves=max_leaves)


def propositional_formulas(
    letters: tuple[str, ...] = ("p", "q", "r", "s"), max_leaves: int = 8, card: bool = True
) -> st.SearchStrategy[Formula]:
    """Formulas over propositional atoms; with ``card``, cardinality constraints over literals."""
    atom = st.sampled_from(letters).map(Atom)
    literal = st.one_of(atom, atom.map(Not))
    leaves: st.SearchStrategy[Formula] = st.one_of(atom, st.builds(Truth, st.booleans()))
    if card:
        leaves = st.one_of(
            leaves,
            st.lists(literal, max_size=len(letters)).flatmap(
                lambda parts: st.builds(
                    Card,
                    st.sampled_from(CARD_OPS),
                    st.integers(0, len(parts) + 1),
                    st.just(tuple(parts)),
                )
            ),
        )

    def extend(inner: st.SearchStrategy[Formula]) -> st.SearchStrategy[Formula]:
        parts = st.lists(inner, min_size=2, max_size=3).map(tuple)
        return st.one_of(
            st.builds(Not, inner),
            st.builds(And, parts),
            st.builds(Or, parts),
            st.builds(Implies, inner, inner),
            st.builds(Iff, inner, inner),
        )

    return st.recursive(leaves, extend, max_leaves=max_leaves)


def fol_formulas(
    signature: Signature = SMALL_SIGNATURE,
    max_depth: int = 3,
    with_sorts: bool = True,
    equality: bool = True,
) -> st.SearchStrategy[Formula]:
    """Closed formulas, well sorted under ``signature``; sorts erased unless ``with_sorts``.

    Every argument is a constant or a variable bound around it, of the position's sort;
    quantified variables are of the signature's sorts. Every sort a predicate uses needs a
    constant of that sort in ``signature``.
    """
    sort_names = signature.sorts or (ENTITY,)

    @st.composite
    def build(draw: st.DrawFn, depth: int, scope: tuple[Var, ...]) -> Formula:
        def term_of(sort: str) -> Term:
            pool: list[Term] = [v for v in scope if v.sort == sort]
            pool += [Const(c, s) for c, s in signature.constants.items() if s == sort]
            return draw(st.sampled_from(pool))

        def leaf() -> Formula:
            kinds = ["atom", "truth"] + (["eq"] if equality else [])
            kind = draw(st.sampled_from(kinds))
            if kind == "truth":
                return Truth(draw(st.booleans()))
            if kind == "eq":
                sort = draw(st.sampled_from(constant_sorts))
                return Eq(term_of(sort), term_of(sort))
            pred = draw(st.sampled_from(tuple(signature.predicates)))
            return Atom(pred, tuple(term_of(s) for s in signature.predicates[pred]))

        if depth <= 0 or draw(st.integers(0, 3)) == 0:
            return leaf()
        kind = draw(st.sampled_from(("not", "and", "or", "imp", "iff", "forall", "exists")))
        if kind == "not":
            return Not(draw(build(depth - 1, scope)))
        if kind in ("and", "or"):
            n = draw(st.integers(2, 3))
            parts = tuple(draw(build(depth - 1, scope)) for _ in range(n))
            return And(parts) if kind == "and" else Or(parts)
        if kind in ("imp", "iff"):
            left, right = draw(build(depth - 1, scope)), draw(build(depth - 1, scope))
            return Implies(left, right) if kind == "imp" else Iff(left, right)
        count = draw(st.integers(1, 2))
        new = tuple(
            Var(f"v{len(scope) + i}", draw(st.sampled_from(sort_names))) for i in range(count)
        )
        body = draw(build(depth - 1, scope + new))
        return Forall(new, body) if kind == "forall" else Exists(new, body)

    constant_sorts = tuple(sorted(set(signature.constants.values()))) or (ENTITY,)
    strategy = build(max_depth, ())
    return strategy if with_sorts else strategy.map(erase_sorts)


def theories(
    formula: st.SearchStrategy[Formula] | None = None, min_size: int = 1, max_size: int = 6
) -> st.SearchStrategy[list[Formula]]:
    """Knowledge bases: lists of ``formula`` (propositional formulas by default)."""
    return st.lists(
        formula if formula is not None else propositional_formulas(),
        min_size=min_size,
        max_size=max_size,
    )


@st.composite
def traces(
    draw: st.DrawFn,
    letters: str = "pqrs",
    max_steps: int = 6,
    max_claims: int = 2,
) -> ReasoningTrace:
    """A trace over the atoms ``letters``: a hidden assignment (the trace's ``truth``), steps
    observing clauses that hold in it, and claims (literals and clauses) that may be entailed,
    contradicted or neither by what was observed before them."""
    hidden = {letter: draw(st.booleans()) for letter in letters}

    def lit(letter: str, positive: bool) -> Formula:
        return Atom(letter) if positive else Not(Atom(letter))

    literal = st.tuples(st.sampled_from(letters), st.booleans()).map(lambda pair: lit(*pair))

    @st.composite
    def true_clause(inner: st.DrawFn) -> Formula:
        anchor = inner(st.sampled_from(letters))
        others = inner(st.lists(literal, max_size=2))
        parts = (lit(anchor, hidden[anchor]), *others)
        return parts[0] if len(parts) == 1 else Or(parts)

    clause = st.lists(literal, min_size=1, max_size=2).map(
        lambda parts: parts[0] if len(parts) == 1 else Or(tuple(parts))
    )
    steps = [
        StepLine(
            kind="step",
            observe=[format_formula(f) for f in draw(st.lists(true_clause(), max_size=3))],
            claims=[format_formula(f) for f in draw(st.lists(clause, max_size=max_claims))],
        )
        for _ in range(draw(st.integers(1, max_steps)))
    ]
    truth = [format_formula(lit(letter, value)) for letter, value in hidden.items()]
    return ReasoningTrace(steps=steps, truth=truth)


@dataclass(frozen=True, repr=False)
class GameClaim:
    """A claim a game's ``claims`` strategy drew for one seat, as that game's audit judges it.

    ``formula`` is the claim over the game's atoms; ``statement`` is the game's own form of it
    (what its agents state and its audit reads); ``status`` is the audit's verdict against what
    the seat knows; ``truth`` whether it holds in the hidden state (None where the game's hidden
    state does not settle it: an Undercover-V description its card theory leaves open).
    """

    kind: str
    positive: bool
    formula: Formula
    statement: object
    status: ClaimStatus
    truth: bool | None

    def __repr__(self) -> str:
        sign = "+" if self.positive else "-"
        return f"<{self.kind}{sign} {format_formula(self.formula)}: {self.status.value}>"


def negations(draw: st.DrawFn, claim: Formula) -> tuple[Formula, bool]:
    """``claim`` or its negation, either under zero to two double negations; and its polarity."""
    positive = draw(st.booleans())
    out = claim if positive else Not(claim)
    for _ in range(draw(st.integers(0, 2))):
        out = Not(Not(out))
    return out, positive
