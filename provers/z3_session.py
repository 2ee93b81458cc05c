"""Z3Session: first-order knowledge kept in one incremental Z3 solver (an ``EntailmentSession``).

Each added formula is asserted once; a question asserts the negated goal behind a fresh
assumption literal, checks under that assumption and then retires it for good, so earlier
questions never constrain later ones and nothing added before is encoded again. Formulas reach
Z3 as the SMT-LIB text ``provers.smtlib`` writes, read against the symbols declared so far, so
names are encoded exactly as in the one-shot backends (``q!N``, the assumption literals' names,
cannot be one of them).
"""

from __future__ import annotations

import time
from typing import Any

import z3

from provers.identifiers import const_id, pred_id, sort_id
from provers.signature import MalformedProblem, collect_signature
from provers.smtlib import smt_formula
from reasoning.closing import Closing
from reasoning.formula import Formula
from reasoning.verdict import ProofResult, Verdict

_TIMEOUT_REASONS = ("timeout", "canceled")
_NO_LIMIT_MS = 2**32 - 1
"""Z3's largest timeout, which it reads as no limit."""


def _milliseconds(timeout: float | None) -> int:
    """Z3's timeout parameter for ``timeout`` seconds (None: none), clamped to what Z3 takes."""
    if timeout is None:
        return _NO_LIMIT_MS
    return min(_NO_LIMIT_MS, max(1, round(timeout * 1000)))


class Z3Session(Closing):
    """Sorted first-order formulas asserted in one Z3 solver; ``prove`` asks one goal at a time.

    A symbol keeps the sorts of its first use; a formula that uses it otherwise is a
    ``MalformedProblem`` (a ValueError) for ``add`` and SYNTAX_ERROR for ``prove``.
    """

    def __init__(self, name: str = "z3") -> None:
        self.name = name
        self._ctx = z3.Context()
        self._solver: z3.Solver | None = z3.Solver(ctx=self._ctx)
        self._sorts: dict[str, Any] = {}
        self._decls: dict[str, Any] = {}
        self._predicates: dict[str, tuple[str, ...]] = {}
        self._constants: dict[str, str] = {}
        self._questions = 0

    def add(self, formula: Formula) -> None:
        """Assert ``formula`` for good; ``MalformedProblem`` when it is not well sorted."""
        self._live().add(self._encode(formula))

    def prove(self, goal: Formula, timeout: float | None = None) -> ProofResult:
        """Whether the asserted formulas entail ``goal``; never raises for a bad or hard goal."""
        start = time.perf_counter()
        solver = self._live()
        try:
            negated = z3.Not(self._encode(goal))
        except MalformedProblem as exc:
            return ProofResult.timed(Verdict.SYNTAX_ERROR, self.name, start, message=str(exc))
        solver.set("timeout", _milliseconds(timeout))
        self._questions += 1
        asked = z3.Bool(f"q!{self._questions}", self._ctx)
        try:
            solver.add(z3.Implies(asked, negated))
            answer = solver.check(asked)
            reason = solver.reason_unknown() if answer == z3.unknown else ""
            solver.add(z3.Not(asked))
        except z3.Z3Exception as exc:
            return ProofResult.timed(Verdict.UNKNOWN, self.name, start, message=f"z3 failed: {exc}")
        if answer == z3.unsat:
            return ProofResult.timed(
                Verdict.VALID, self.name, start, message="unsat: the knowledge entails the goal"
            )
        if answer == z3.sat:
            return ProofResult.timed(
                Verdict.INVALID, self.name, start, message="sat: a model falsifies the goal"
            )
        timed_out = any(r in reason for r in _TIMEOUT_REASONS)
        verdict = Verdict.TIMEOUT if timed_out else Verdict.UNKNOWN
        return ProofResult.timed(verdict, self.name, start, message=f"z3 unknown: {reason}")

    def close(self) -> None:
        """Drop the solver; later calls raise RuntimeError."""
        self._solver = None

    def _live(self) -> z3.Solver:
        if self._solver is None:
            raise RuntimeError("the z3 session is closed")
        return self._solver

    def _encode(self, formula: Formula) -> Any:
        """``formula`` as a Z3 term, declaring the symbols it uses first."""
        signature = collect_signature([], formula)
        for sort in signature.sorts:
            if sort_id(sort) not in self._sorts:
                self._sorts[sort_id(sort)] = z3.DeclareSort(sort_id(sort), self._ctx)
        for pred, arg_sorts in signature.predicates.items():
            known = self._predicates.setdefault(pred, arg_sorts)
            if known != arg_sorts:
                raise MalformedProblem(
                    f"predicate {pred!r} takes sorts ({', '.join(known)}) in earlier formulas "
                    f"and ({', '.join(arg_sorts)}) here"
                )
            if pred_id(pred) not in self._decls:
                domain = [self._sorts[sort_id(s)] for s in arg_sorts]
                self._decls[pred_id(pred)] = z3.Function(
                    pred_id(pred), *domain, z3.BoolSort(self._ctx)
                )
        for const, sort in signature.constants.items():
            known_sort = self._constants.setdefault(const, sort)
            if known_sort != sort:
                raise MalformedProblem(
                    f"constant {const!r} has sort {known_sort} in earlier formulas and {sort} here"
                )
            if const_id(const) not in self._decls:
                self._decls[const_id(const)] = z3.Const(const_id(const), self._sorts[sort_id(sort)])
        parsed = z3.parse_smt2_string(
            f"(assert {smt_formula(formula)})",
            sorts={sort_id(s): self._sorts[sort_id(s)] for s in signature.sorts},
            decls={
                **{pred_id(p): self._decls[pred_id(p)] for p in signature.predicates},
                **{const_id(c): self._decls[const_id(c)] for c in signature.constants},
            },
            ctx=self._ctx,
        )
        return parsed[0]
