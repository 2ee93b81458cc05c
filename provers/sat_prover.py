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
from reasoning.formula import Formula, Not
from reasoning.prover import Axiom
from reasoning.verdict import Countermodel, ProofResult, Verdict

_STATUS: dict[bool | None, str] = {True: "SAT", False: "UNSAT", None: "stopped"}


class SatProver:
    """Decides propositional entailment: VALID with the axioms used, INVALID with a countermodel.

    Input with quantifiers, equality or atoms with arguments comes back as SYNTAX_ERROR. A
    timeout stops the solver (interrupting it, or between bounded slices for solvers that
    cannot be interrupted, such as CaDiCaL) and comes back as TIMEOUT.
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
        deadline = None if timeout is None else time.monotonic() + timeout
        problem = [(f"axiom {axiom.name!r}", axiom.formula) for axiom in axioms]
        for where, formula in [*problem, ("goal", goal)]:
            try:
                require_propositional(formula)
            except NotPropositional as exc:
                return ProofResult.timed(
                    Verdict.SYNTAX_ERROR, self.name, start, message=f"{where}: {exc}"
                )
        try:
            encoder = CnfEncoder()
            guards: dict[int, str] = {}
            for axiom in axioms:
                act = encoder.fresh()
                guards[act] = axiom.name
                encoder.assert_formula(axiom.formula, guard=(-act,))
            encoder.assert_formula(Not(goal))
            return self._solve(encoder, guards, deadline, start)
        except Exception as exc:
            return ProofResult.timed(
                Verdict.UNKNOWN, self.name, start, message=f"SAT backend failed: {exc!r}"
            )

    def _solve(
        self, encoder: CnfEncoder, guards: dict[int, str], deadline: float | None, start: float
    ) -> ProofResult:
        clauses = encoder.take_clauses()
        solver = open_solver(self.solver_name)
        try:
            solver.append_formula(clauses)
            status = solve_within(solver, self._canonical, list(guards), deadline)
            log = (
                f"{self._canonical}: {encoder.pool.top} variables, {len(clauses)} clauses; "
                f"{_STATUS[status]}; "
                f"{solver.accum_stats()}\n"
            )
            if status is None:
                return ProofResult.timed(
                    Verdict.TIMEOUT, self.name, start, message="time limit reached", raw_log=log
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
