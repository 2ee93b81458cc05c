"""The cvc5 backend: the SMT-LIB text of the problem, decided by the embedded cvc5 with finite
model finding.

Finite model finding lets cvc5 answer ``sat`` on quantified problems that have a small model, so
a goal that is not entailed comes back INVALID with a countermodel where z3 may have to give up.
Axioms and the negated goal sit behind labels checked as assumptions; the failed ones are the
unsat core. Each call builds its own term manager and solver, so calls share nothing.

The time limit covers writing and reading the problem (the clock is read between commands);
the solver gets what is left as ``tlimit-per``, which cvc5 checks at its own pace, so on very
large inputs it can run somewhat past the limit.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from itertools import product
from typing import Any

import cvc5
from cvc5 import Kind

from provers.countermodels import NOT_EXTRACTED, ModelClock, OutOfTime, assemble_countermodel
from provers.identifiers import const_id, pred_id, sort_id
from provers.signature import ProblemSignature
from provers.smtlib import encode_guarded
from reasoning.formula import Formula
from reasoning.prover import Axiom
from reasoning.verdict import Countermodel, ProofResult, Verdict

_COMMANDS_PER_CLOCK = 500
"""SMT-LIB commands cvc5 reads between two looks at the clock."""


class Cvc5Prover:
    """Decides entailment with cvc5: VALID with an unsat core, INVALID with a countermodel."""

    def __init__(
        self, name: str = "cvc5", timeout: float | None = 10.0, *, countermodels: bool = True
    ) -> None:
        """``timeout`` applies when ``prove`` is given none; ``countermodels=False`` skips them."""
        self.name = name
        self.timeout = timeout
        self.countermodels = countermodels

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
            return _Call(self, axioms, signature, deadline, start).run(script, labels)
        except RuntimeError as exc:
            return ProofResult.timed(
                Verdict.UNKNOWN, self.name, start, message=f"cvc5 failed: {exc}", raw_log=script
            )


class _Call:
    """One ``prove`` call: a fresh solver, the parsed problem and what cvc5 answered."""

    def __init__(
        self,
        prover: Cvc5Prover,
        axioms: Sequence[Axiom],
        signature: ProblemSignature,
        deadline: float | None,
        start: float,
    ) -> None:
        self.prover = prover
        self.axioms = axioms
        self.signature = signature
        self.deadline = deadline
        self.start = start
        self.terms = cvc5.TermManager()
        self.solver = cvc5.Solver(self.terms)
        self.symbols = cvc5.SymbolManager(self.terms)

    def run(self, script: str, labels: list[str]) -> ProofResult:
        solver = self.solver
        solver.setOption("finite-model-find", "true")
        solver.setOption("produce-unsat-assumptions", "true")
        if self.prover.countermodels:
            solver.setOption("produce-models", "true")
        solver.setLogic("ALL")
        parser = cvc5.InputParser(solver, self.symbols)
        parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, script, "problem")
        read = 0
        while True:
            command = parser.nextCommand()
            if command.isNull():
                break
            command.invoke(solver, self.symbols)
            read += 1
            if read % _COMMANDS_PER_CLOCK == 0 and self._late():
                return ProofResult.timed(
                    Verdict.TIMEOUT,
                    self.prover.name,
                    self.start,
                    message=f"time limit reached while cvc5 read the problem ({read} "
                    "commands read); the solver did not run",
                )
        if self._late():
            return ProofResult.timed(
                Verdict.TIMEOUT,
                self.prover.name,
                self.start,
                message="time limit reached before the solver ran (the problem was read)",
            )
        declared = {str(t): t for t in self.symbols.getDeclaredTerms()}
        if self.deadline is not None:
            left_ms = max(1, round((self.deadline - time.perf_counter()) * 1000))
            solver.setOption("tlimit-per", str(left_ms))
        answer = solver.checkSatAssuming(*(declared[label] for label in labels))
        log = f"{script}(check-sat-assuming ({' '.join(labels)}))\n; cvc5: {answer}\n"
        name = self.prover.name
        if answer.isUnsat():
            core = {str(t) for t in solver.getUnsatAssumptions()}
            used = [a.name for a, label in zip(self.axioms, labels, strict=False) if label in core]
            return ProofResult.timed(
                Verdict.VALID,
                name,
                self.start,
                used_axioms=used,
                message="unsat: the axioms with the negated goal have no model",
                raw_log=log,
            )
        if answer.isSat():
            return self._invalid(declared, log)
        reason = str(answer.getUnknownExplanation())
        timed_out = "TIMEOUT" in reason or (
            self.deadline is not None and time.perf_counter() >= self.deadline
        )
        return ProofResult.timed(
            Verdict.TIMEOUT if timed_out else Verdict.UNKNOWN,
            name,
            self.start,
            message=f"cvc5 unknown: {reason}",
            raw_log=log,
        )

    def _late(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def _invalid(self, declared: dict[str, Any], log: str) -> ProofResult:
        message = "sat: a finite model of the axioms falsifies the goal"
        name = self.prover.name
        if not self.prover.countermodels:
            return ProofResult.timed(
                Verdict.INVALID, name, self.start, message=message, raw_log=log
            )
        try:
            countermodel = self._countermodel(declared)
        except OutOfTime:
            return ProofResult.timed(
                Verdict.INVALID,
                name,
                self.start,
                message=f"{message} (cvc5 said sat; {NOT_EXTRACTED})",
                raw_log=log,
            )
        return ProofResult.timed(
            Verdict.INVALID,
            name,
            self.start,
            countermodel=countermodel,
            message=message,
            raw_log=log,
        )

    def _countermodel(self, declared: dict[str, Any]) -> Countermodel:
        clock = ModelClock(self.deadline)
        sorts = {str(s): s for s in self.symbols.getDeclaredSorts()}
        values: dict[str, Any] = {}
        elements: dict[str, list[str]] = {}
        for sort in self.signature.sorts:
            members = elements[sort] = []
            for value in self.solver.getModelDomainElements(sorts[sort_id(sort)]):
                values[str(value)] = value
                members.append(str(value))
        constants: dict[str, str] = {}
        for constant, sort in self.signature.constants.items():
            key = str(self.solver.getValue(declared[const_id(constant)]))
            constants[constant] = key
            if key not in elements[sort]:
                elements[sort].append(key)

        def true_tuples(pred: str, domains: list[Sequence[str]]) -> list[tuple[str, ...]]:
            head = declared[pred_id(pred)]
            if not domains:
                return [()] if self.solver.getValue(head).getBooleanValue() else []
            out: list[tuple[str, ...]] = []
            for key in product(*domains):
                clock.tick()
                atom = self.terms.mkTerm(Kind.APPLY_UF, head, *(values[k] for k in key))
                if self.solver.getValue(atom).getBooleanValue():
                    out.append(key)
            return out

        return assemble_countermodel(self.signature, elements, constants, true_tuples)
