"""The Z3 backend: many-sorted first-order entailment checked by the embedded Z3 solver.

Each IR sort is an uninterpreted Z3 sort, each predicate a Boolean function, each constant a Z3
constant; cardinality constraints are pseudo-Boolean constraints. Names reach Z3 only as encoded
identifiers (the same ones ``provers.smtlib`` writes). Every call uses a fresh solver in a context
owned by the calling thread, so calls share no assertions and threads never share a context.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from itertools import product
from typing import Any

import z3

from provers.identifiers import axiom_id, const_id, pred_id, sort_id, var_id
from provers.model_eval import ground_atom
from provers.signature import MalformedProblem, ProblemSignature, collect_signature, sort_name
from provers.smtlib import GOAL_LABEL, render_smtlib
from reasoning.formula import (
    ENTITY,
    EVENT,
    And,
    Atom,
    Card,
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
from reasoning.prover import Axiom
from reasoning.verdict import Countermodel, ProofResult, Verdict

_ELEMENT_PREFIX = {ENTITY: "e", EVENT: "ev"}
_TIMEOUT_REASONS = ("timeout", "canceled")


def element_name(sort: str, index: int) -> str:
    """The readable name of the ``index``-th (from 1) element of ``sort`` in a countermodel.

    ``e1, e2, ...`` for entities, ``ev1, ...`` for events, ``<sort>_1, ...`` for other sorts; the
    underscore keeps names of different sorts apart.
    """
    prefix = _ELEMENT_PREFIX.get(sort)
    return f"{prefix}{index}" if prefix else f"{sort}_{index}"


class Z3Prover:
    """Decides entailment with Z3: VALID with an unsat core, INVALID with a countermodel."""

    def __init__(self, name: str = "z3", timeout: float | None = 10.0) -> None:
        """``timeout`` (seconds, None for none) applies when ``prove`` is given none."""
        self.name = name
        self.timeout = timeout
        self._local = threading.local()

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        """Check whether ``axioms`` entail ``goal``; never raises for a bad or hard problem."""
        start = time.perf_counter()
        limit = timeout if timeout is not None else self.timeout
        try:
            signature = collect_signature(axioms, goal)
        except MalformedProblem as exc:
            return ProofResult.timed(Verdict.SYNTAX_ERROR, self.name, start, message=str(exc))
        script = render_smtlib(axioms, goal, signature)
        try:
            return self._solve(axioms, goal, signature, limit, script, start)
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
        goal: Formula,
        signature: ProblemSignature,
        limit: float | None,
        script: str,
        start: float,
    ) -> ProofResult:
        encoder = _Encoder(self._context(), signature)
        solver = z3.Solver(ctx=encoder.ctx)
        solver.set("core.minimize", True)
        if limit is not None:
            solver.set("timeout", max(1, round(limit * 1000)))
        labels: dict[str, str] = {}
        for axiom in axioms:
            label = axiom_id(axiom.name)
            labels[label] = axiom.name
            solver.assert_and_track(encoder.formula(axiom.formula), encoder.label(label))
        solver.assert_and_track(z3.Not(encoder.formula(goal)), encoder.label(GOAL_LABEL))
        answer = solver.check()
        log = f"{script}; z3 {z3.get_version_string()}: {answer}; {_statistics(solver)}\n"
        if answer == z3.unsat:
            core = {str(lit) for lit in solver.unsat_core()}
            used = [axiom.name for axiom in axioms if axiom_id(axiom.name) in core]
            return ProofResult.timed(
                Verdict.VALID,
                self.name,
                start,
                used_axioms=used,
                message="unsat: the axioms with the negated goal have no model",
                raw_log=log,
            )
        if answer == z3.sat:
            return ProofResult.timed(
                Verdict.INVALID,
                self.name,
                start,
                countermodel=_countermodel(solver.model(), encoder, signature),
                message="sat: a model of the axioms falsifies the goal",
                raw_log=log,
            )
        reason = solver.reason_unknown()
        timed_out = any(r in reason for r in _TIMEOUT_REASONS) or (
            limit is not None and time.perf_counter() - start >= limit
        )
        verdict = Verdict.TIMEOUT if timed_out else Verdict.UNKNOWN
        return ProofResult.timed(
            verdict, self.name, start, message=f"z3 unknown: {reason}", raw_log=log
        )


class _Encoder:
    """Translates checked IR formulas into Z3 terms of one context."""

    def __init__(self, ctx: z3.Context, signature: ProblemSignature) -> None:
        self.ctx = ctx
        boolean = z3.BoolSort(ctx)
        self.sorts = {s: z3.DeclareSort(sort_id(s), ctx) for s in signature.sorts}
        self.preds = {
            p: z3.Function(pred_id(p), *(self.sorts[s] for s in arg_sorts), boolean)
            for p, arg_sorts in signature.predicates.items()
        }
        self.consts = {
            c: z3.Const(const_id(c), self.sorts[s]) for c, s in signature.constants.items()
        }

    def label(self, name: str) -> Any:
        return z3.Bool(name, self.ctx)

    def formula(self, f: Formula, scope: Mapping[str, Any] | None = None) -> Any:
        env: Mapping[str, Any] = scope or {}
        match f:
            case Atom(pred, args):
                return self.preds[pred](*(self._term(a, env) for a in args))
            case Eq(left, right):
                return self._term(left, env) == self._term(right, env)
            case Truth(value):
                return z3.BoolVal(value, self.ctx)
            case Not(body):
                return z3.Not(self.formula(body, env))
            case And(parts):
                return self._nary(z3.And, True, parts, env)
            case Or(parts):
                return self._nary(z3.Or, False, parts, env)
            case Implies(left, right):
                return z3.Implies(self.formula(left, env), self.formula(right, env))
            case Iff(left, right):
                return self.formula(left, env) == self.formula(right, env)
            case Forall(variables, body) | Exists(variables, body):
                return self._quantifier(isinstance(f, Forall), variables, body, env)
            case Card(op, k, parts):
                return self._card(op, k, [self.formula(p, env) for p in parts])
        raise MalformedProblem(f"{f!r} is not a formula")

    def _term(self, t: Term, env: Mapping[str, Any]) -> Any:
        return env[t.name] if isinstance(t, Var) else self.consts[t.name]

    def _nary(
        self, build: Any, unit: bool, parts: Sequence[Formula], env: Mapping[str, Any]
    ) -> Any:
        items = [self.formula(p, env) for p in parts]
        if not items:
            return z3.BoolVal(unit, self.ctx)
        return items[0] if len(items) == 1 else build(*items)

    def _quantifier(
        self, universal: bool, variables: tuple[Var, ...], body: Formula, env: Mapping[str, Any]
    ) -> Any:
        if not variables:
            return self.formula(body, env)
        inner = dict(env)
        bound = []
        for v in variables:
            const = z3.Const(var_id(v.name), self.sorts[sort_name(v)])
            inner[v.name] = const
            bound.append(const)
        translated = self.formula(body, inner)
        return z3.ForAll(bound, translated) if universal else z3.Exists(bound, translated)

    def _card(self, op: str, k: int, items: list[Any]) -> Any:
        if not items:
            holds = k == 0 or op == "atmost"
            return z3.BoolVal(holds, self.ctx)
        if op == "exactly":
            return z3.PbEq([(b, 1) for b in items], k, self.ctx)
        if op == "atmost":
            return z3.AtMost(*items, k)
        return z3.AtLeast(*items, k)


def _countermodel(model: Any, encoder: _Encoder, signature: ProblemSignature) -> Countermodel:
    """Read a finite model into readable domains, constants and true ground atoms."""
    elements: dict[str, list[Any]] = {}
    names: dict[str, str] = {}

    def add(sort: str, value: Any) -> str:
        key = value.sexpr()
        if key not in names:
            elements[sort].append(value)
            names[key] = element_name(sort, len(elements[sort]))
        return names[key]

    for sort, z3_sort in encoder.sorts.items():
        elements[sort] = []
        for value in model.get_universe(z3_sort) or []:
            add(sort, value)
    constants = {
        c: add(signature.constants[c], model.eval(const, model_completion=True))
        for c, const in encoder.consts.items()
    }
    for sort, z3_sort in encoder.sorts.items():
        if not elements[sort]:
            add(sort, model.eval(z3.FreshConst(z3_sort), model_completion=True))
    true_atoms = []
    for pred, arg_sorts in signature.predicates.items():
        func = encoder.preds[pred]
        for values in product(*(elements[s] for s in arg_sorts)):
            if z3.is_true(model.eval(func(*values), model_completion=True)):
                true_atoms.append(ground_atom(pred, [names[v.sexpr()] for v in values]))
    return Countermodel(
        domains={s: [names[v.sexpr()] for v in elements[s]] for s in signature.sorts},
        true_atoms=true_atoms,
        constants=constants,
    )


def _statistics(solver: Any) -> str:
    return "statistics: " + " ".join(f":{key} {value}" for key, value in solver.statistics())
