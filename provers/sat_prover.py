"""The SAT backend: propositional entailment decided by an embedded python-sat solver.

The axioms, each guarded by its own activation variable, and the negated goal are encoded to
CNF; the solver runs with every activation variable assumed. No model means VALID, and the
failed assumptions name the axioms used; a model is a countermodel, so INVALID.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from provers.model_eval import ground_atom
from provers.sat_encoding import CnfEncoder
from provers.sat_solver import PROVER_SOLVER, canonical_solver_name, open_solver, solve_within
from reasoning.constraints import NotPropositional, require_propositional
from reasoning.formula import Formula, Not, children
from reasoning.prover import Axiom
from reasoning.verdict import Countermodel, ProofResult, Verdict

_STATUS: dict[bool | None, str] = {True: "SAT", False: "UNSAT", None: "stopped"}

MAX_NESTING = 250
"""Deepest formula the encoder (a recursive walk) takes; z3 and cvc5 take any depth."""

MIN_SOLVER_S = 0.1
"""The least time the solver gets once the encoding is done."""


def nesting_depth(formula: Formula) -> int:
    """How many connectives deep ``formula`` goes (an atom is 1), walked without recursion."""
    deepest = 0
    stack = [(formula, 1)]
    while stack:
        f, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((c, depth + 1) for c in children(f))
    return deepest


def _unsupported(formula: Formula) -> str | None:
    """Why this backend cannot take ``formula`` (first-order, too deep), or None."""
    try:
        require_propositional(formula)
    except NotPropositional as exc:
        return f"{exc} (the sat backend is propositional; use z3, cvc5 or eprover)"
    if nesting_depth(formula) > MAX_NESTING:
        return (
            f"nesting deeper than {MAX_NESTING} levels is beyond the sat backend "
            "(z3 and cvc5 take any depth)"
        )
    return None


class SatProver:
    """Decides propositional entailment: VALID with the axioms used, INVALID with a countermodel.

    Input with quantifiers, equality or atoms with arguments, or nested deeper than
    ``MAX_NESTING``, is outside this backend: UNSUPPORTED, with the reason. The time limit
    bounds the encoding (TIMEOUT naming the encoding when it runs out there); the solver then
    gets what is left, and at least ``MIN_SOLVER_S``, so a problem whose encoding used up the
    limit is still decided when the solver needs no time. A solver timeout stops it
    (interrupting it, or between bounded slices for solvers that cannot be interrupted, such
    as CaDiCaL) and comes back as TIMEOUT naming the solver.
    """

    def __init__(self, name: str = "sat", solver_name: str = PROVER_SOLVER) -> None:
        """``solver_name`` is a python-sat solver name; an unusable one is a ValueError."""
        self.name = name
        self.solver_name = solver_name
        self._canonical = canonical_solver_name(solver_name)

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        """Check whether ``axioms`` entail ``goal``; never raises for a bad or hard problem."""
        start = time.perf_counter()
        deadline = None if timeout is None else start + timeout
        problem = [(f"axiom {axiom.name!r}", axiom.formula) for axiom in axioms]
        for where, formula in [*problem, ("goal", goal)]:
            reason = _unsupported(formula)
            if reason is not None:
                return ProofResult.timed(
                    Verdict.UNSUPPORTED, self.name, start, message=f"{where}: {reason}"
                )
        try:
            encoder = CnfEncoder()
            guards: dict[int, str] = {}
            for done, axiom in enumerate(axioms):
                if deadline is not None and time.perf_counter() >= deadline:
                    return ProofResult.timed(
                        Verdict.TIMEOUT,
                        self.name,
                        start,
                        message=f"time limit reached while encoding ({done} of "
                        f"{len(axioms)} axioms encoded); the solver did not run",
                    )
                act = encoder.fresh()
                guards[act] = axiom.name
                encoder.assert_formula(axiom.formula, guard=(-act,))
            encoder.assert_formula(Not(goal))
            encoded = time.perf_counter()
            budget = None if deadline is None else max(deadline - encoded, MIN_SOLVER_S)
            return self._solve(encoder, guards, budget, start, encoded - start)
        except Exception as exc:
            return ProofResult.timed(
                Verdict.UNKNOWN, self.name, start, message=f"SAT backend failed: {exc!r}"
            )

    def _solve(
        self,
        encoder: CnfEncoder,
        guards: dict[int, str],
        budget: float | None,
        start: float,
        encoding_s: float,
    ) -> ProofResult:
        clauses = encoder.take_clauses()
        solver = open_solver(self.solver_name)
        try:
            solver.append_formula(clauses)
            deadline = None if budget is None else time.monotonic() + budget
            status = solve_within(solver, self._canonical, list(guards), deadline)
            log = (
                f"{self._canonical}: {encoder.pool.top} variables, {len(clauses)} clauses; "
                f"{_STATUS[status]}; "
                f"{solver.accum_stats()}\n"
            )
            if status is None:
                return ProofResult.timed(
                    Verdict.TIMEOUT,
                    self.name,
                    start,
                    message=f"time limit reached in the SAT solver (encoding took "
                    f"{encoding_s:.3f} s, the solver had {budget:.3f} s)",
                    raw_log=log,
                )
            if not status:
                core = set(solver.get_core() or ())
                return ProofResult.timed(
                    Verdict.VALID,
                    self.name,
                    start,
                    used_axioms=[name for act, name in guards.items() if act in core],
                    message="unsat: the axioms with the negated goal have no model",
                    raw_log=log,
                )
            model = set(solver.get_model() or ())
            true_atoms = sorted(
                ground_atom(name, ()) for name, var in encoder.atom_names.items() if var in model
            )
            return ProofResult.timed(
                Verdict.INVALID,
                self.name,
                start,
                countermodel=Countermodel(true_atoms=true_atoms),
                message="sat: a model of the axioms falsifies the goal",
                raw_log=log,
            )
        finally:
            solver.delete()
