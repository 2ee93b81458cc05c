"""The Z3 backend: many-sorted first-order entailment checked by the embedded Z3 solver.

The problem reaches Z3 as the SMT-LIB text ``provers.smtlib`` writes (each axiom and the negated
goal behind a label), which Z3 parses far faster than terms built one by one through its Python
API; the labels are checked as assumptions, so the failed ones are the unsat core. Each thread
gets one Z3 context per backend instance, reused across calls; every call has a fresh solver, so
calls share no assertions and threads never share a context.

The time limit bounds the whole call, encoding and countermodel extraction included.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from itertools import product
from typing import TYPE_CHECKING, Any

import z3

from provers.countermodels import NOT_EXTRACTED, ModelClock, OutOfTime, assemble_countermodel
from provers.identifiers import const_id, pred_id, sort_id
from provers.signature import ProblemSignature
from provers.smtlib import encode_guarded
from reasoning.formula import Formula
from reasoning.prover import Axiom
from reasoning.verdict import Countermodel, ProofResult, Verdict

if TYPE_CHECKING:
    from provers.z3_tables import InterpretationTables

_TIMEOUT_REASONS = ("timeout", "canceled")
_LINES_PER_READ = 2000
"""Lines of SMT-LIB text z3 reads between two looks at the clock."""


class Z3Prover:
    """Decides entailment with Z3: VALID with an unsat core, INVALID with a countermodel."""

    def __init__(
        self,
        name: str = "z3",
        timeout: float | None = 10.0,
        *,
        countermodels: bool = True,
        minimize_cores: bool = False,
    ) -> None:
        """``timeout`` (seconds, None for none) applies when ``prove`` is given none.

        ``countermodels=False`` skips reading the model after ``sat`` (INVALID then carries no
        countermodel); ``minimize_cores=True`` makes Z3 shrink unsat cores to minimal ones.
        """
        self.name = name
        self.timeout = timeout
        self.countermodels = countermodels
        self.minimize_cores = minimize_cores
        self._local = threading.local()

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        """Check whether ``axioms`` entail ``goal``; never raises for a bad or hard problem."""
        start = time.perf_counter()
        limit = timeout if timeout is not None else self.timeout
        deadline = None if limit is None else start + limit
        encoded = encode_guarded(self.name, axioms, goal, start, limit, deadline)
        if isinstance(encoded, ProofResult):
            return encoded
        signature, script, labels = encoded
        try:
            return self._solve(axioms, signature, script, labels, deadline, start)
        except z3.Z3Exception as exc:
            return ProofResult.timed(
                Verdict.UNKNOWN, self.name, start, message=f"z3 failed: {exc}", raw_log=script
            )

    def _context(self) -> z3.Context:
        context = getattr(self._local, "context", None)
        if context is None:
            context = z3.Context()
            self._local.context = context
        return context

    def _solve(
        self,
        axioms: Sequence[Axiom],
        signature: ProblemSignature,
        script: str,
        labels: list[str],
        deadline: float | None,
        start: float,
    ) -> ProofResult:
        ctx = self._context()
        solver = z3.Solver(ctx=ctx)
        solver.set("core.minimize", self.minimize_cores)
        lines = script.splitlines(keepends=True)
        for first in range(0, len(lines), _LINES_PER_READ):
            if deadline is not None and time.perf_counter() >= deadline:
                return ProofResult.timed(
                    Verdict.TIMEOUT,
                    self.name,
                    start,
                    message=f"time limit reached while z3 read the problem ({first} of "
                    f"{len(lines)} lines read); the solver did not run",
                )
            solver.from_string("".join(lines[first : first + _LINES_PER_READ]))
        boolean = z3.BoolSort(ctx)
        assumptions = [z3.Const(label, boolean) for label in labels]
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                return ProofResult.timed(
                    Verdict.TIMEOUT,
                    self.name,
                    start,
                    message="time limit reached before the solver ran (the problem was read)",
                )
            solver.set("timeout", max(1, round(left * 1000)))
        answer = solver.check(*assumptions)
        log = (
            f"{script}(check-sat-assuming ({' '.join(labels)}))\n"
            f"; z3 {z3.get_version_string()}: {answer}; {_statistics(solver)}\n"
        )
        if answer == z3.unsat:
            core = {lit.get_id() for lit in solver.unsat_core()}
            used = [
                axiom.name
                for axiom, label in zip(axioms, assumptions, strict=False)
                if label.get_id() in core
            ]
            return ProofResult.timed(
                Verdict.VALID,
                self.name,
                start,
                used_axioms=used,
                message="unsat: the axioms with the negated goal have no model",
                raw_log=log,
            )
        if answer == z3.sat:
            return self._invalid(solver.model(), signature, deadline, start, log)
        reason = solver.reason_unknown()
        timed_out = any(r in reason for r in _TIMEOUT_REASONS) or (
            deadline is not None and time.perf_counter() >= deadline
        )
        verdict = Verdict.TIMEOUT if timed_out else Verdict.UNKNOWN
        return ProofResult.timed(
            verdict, self.name, start, message=f"z3 unknown: {reason}", raw_log=log
        )

    def _invalid(
        self,
        model: Any,
        signature: ProblemSignature,
        deadline: float | None,
        start: float,
        log: str,
    ) -> ProofResult:
        message = "sat: a model of the axioms falsifies the goal"
        if not self.countermodels:
            return ProofResult.timed(
                Verdict.INVALID, self.name, start, message=message, raw_log=log
            )
        try:
            countermodel = _ModelReader(model, signature, self._context(), deadline).read()
        except OutOfTime:
            return ProofResult.timed(
                Verdict.INVALID,
                self.name,
                start,
                message=f"{message} (z3 said sat; {NOT_EXTRACTED})",
                raw_log=log,
            )
        return ProofResult.timed(
            Verdict.INVALID,
            self.name,
            start,
            countermodel=countermodel,
            message=message,
            raw_log=log,
        )


class _ModelReader:
    """Reads a Z3 model into a Countermodel, each predicate's interpretation read once."""

    def __init__(
        self, model: Any, signature: ProblemSignature, ctx: z3.Context, deadline: float | None
    ) -> None:
        self.model = model
        self.signature = signature
        self.ctx = ctx
        self.clock = ModelClock(deadline)
        self.sorts = {s: z3.DeclareSort(sort_id(s), ctx) for s in signature.sorts}
        self.values: dict[int, Any] = {}
        self.elements: dict[str, list[int]] = {s: [] for s in signature.sorts}
        self.tables: InterpretationTables | None = None

    def _element(self, elements: dict[str, list[int]], sort: str, value: Any) -> int:
        key: int = value.get_id()
        if key not in self.values:
            self.values[key] = value
            elements[sort].append(key)
        return key

    def read(self) -> Countermodel:
        elements = self.elements
        for sort, z3_sort in self.sorts.items():
            for value in self.model.get_universe(z3_sort) or []:
                self._element(elements, sort, value)
        constants = {
            name: self._element(
                elements, sort, self.model.eval(z3.Const(const_id(name), self.sorts[sort]), True)
            )
            for name, sort in self.signature.constants.items()
        }
        for sort, z3_sort in self.sorts.items():
            if not elements[sort]:
                self._element(elements, sort, self.model.eval(z3.FreshConst(z3_sort), True))
        return assemble_countermodel(self.signature, elements, constants, self._true_tuples)

    def _tables(self) -> InterpretationTables:
        """The tables of the model's functions, over the elements read (numpy, loaded here)."""
        if self.tables is None:
            from provers.z3_tables import InterpretationTables

            elements = {
                sort_id(s): [self.values[k] for k in keys] for s, keys in self.elements.items()
            }
            self.tables = InterpretationTables(self.model, elements, self.clock.tick)
        return self.tables

    def _true_tuples(self, pred: str, domains: list[Sequence[int]]) -> list[tuple[int, ...]]:
        """The argument tuples on which ``pred`` is true, from its interpretation read once."""
        arg_sorts = self.signature.predicates[pred]
        boolean = z3.BoolSort(self.ctx)
        func = z3.Function(pred_id(pred), *(self.sorts[s] for s in arg_sorts), boolean)
        if not arg_sorts:
            return [()] if z3.is_true(self.model.eval(func(), True)) else []
        if not z3.Z3_model_has_interp(self.ctx.ref(), self.model.model, func.ast):
            return []
        interp = self.model[func]
        points: dict[tuple[int, ...], bool] = {}
        for i in range(interp.num_entries()):
            self.clock.tick()
            entry = interp.entry(i)
            key = tuple(entry.arg_value(j).get_id() for j in range(len(arg_sorts)))
            points.setdefault(key, z3.is_true(entry.value()))
        default = interp.else_value()
        if default is None or z3.is_false(default):
            return [
                key for key, value in points.items() if value and all(k in self.values for k in key)
            ]
        constant = z3.is_true(default)
        if not constant:
            table = self._tables().table(func)
            if table is not None:
                return [
                    tuple(domains[j][i] for j, i in enumerate(where))
                    for where in zip(*(axis.tolist() for axis in table.nonzero()), strict=True)
                ]
        out: list[tuple[int, ...]] = []
        for key in product(*domains):
            self.clock.tick()
            known = points.get(key)
            if known is None:
                known = constant or z3.is_true(
                    self.model.eval(func(*(self.values[k] for k in key)), True)
                )
            if known:
                out.append(key)
        return out


def _statistics(solver: Any) -> str:
    return "statistics: " + " ".join(f":{key} {value}" for key, value in solver.statistics())
