"""Evaluating formulas on a Countermodel, and the ground-atom spelling countermodels use.

A countermodel lists its true ground atoms as text (``Tea(e1)``, ``Agent(ev1, e1)``, ``p``);
``ground_atom`` is the one place that spelling is decided, so that backends writing countermodels
and ``evaluate`` reading them agree. Names that are not plain identifiers are quoted.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import product

from provers.trampoline import Walk, run
from reasoning.formula import (
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
from reasoning.verdict import Countermodel, quote_name


def ground_atom(pred: str, elements: Sequence[str]) -> str:
    """The text of a ground atom in a countermodel: ``P(e1, ev2)``, or ``p`` with no arguments."""
    head = quote_name(pred)
    return f"{head}({', '.join(map(quote_name, elements))})" if elements else head


def evaluate(formula: Formula, countermodel: Countermodel) -> bool:
    """The truth value of a closed, sorted ``formula`` in ``countermodel``.

    Quantifiers range over the countermodel's domain for the variable's sort; atoms not listed as
    true are false. Raises ValueError for a free or unsorted variable, a sort without a domain or
    a constant the countermodel does not interpret.
    """
    return run(_Evaluator(countermodel).formula(formula, {}))


class _Evaluator:
    """Evaluation with an environment from variable names to elements, as a trampolined walk
    (``provers.trampoline``), so formulas of any depth evaluate."""

    def __init__(self, countermodel: Countermodel) -> None:
        self.model = countermodel
        self.true_atoms = frozenset(countermodel.true_atoms)

    def formula(self, f: Formula, env: Mapping[str, str]) -> Walk[bool]:
        match f:
            case Atom(pred, args):
                return ground_atom(pred, [self.term(a, env) for a in args]) in self.true_atoms
            case Eq(left, right):
                return self.term(left, env) == self.term(right, env)
            case Truth(value):
                return value
            case Not(body):
                return not (yield self.formula(body, env))
            case And(parts):
                for part in parts:
                    if not (yield self.formula(part, env)):
                        return False
                return True
            case Or(parts):
                for part in parts:
                    if (yield self.formula(part, env)):
                        return True
                return False
            case Implies(left, right):
                if not (yield self.formula(left, env)):
                    return True
                return bool((yield self.formula(right, env)))
            case Iff(left, right):
                return bool((yield self.formula(left, env)) == (yield self.formula(right, env)))
            case Forall(variables, body):
                for inner in self._bindings(variables, env):
                    if not (yield self.formula(body, inner)):
                        return False
                return True
            case Exists(variables, body):
                for inner in self._bindings(variables, env):
                    if (yield self.formula(body, inner)):
                        return True
                return False
            case Card(op, k, parts):
                count = 0
                for part in parts:
                    count += bool((yield self.formula(part, env)))
                if op == "exactly":
                    return count == k
                return count <= k if op == "atmost" else count >= k
        raise ValueError(f"{f!r} is not a formula")

    def term(self, t: Term, env: Mapping[str, str]) -> str:
        if isinstance(t, Var):
            if t.name not in env:
                raise ValueError(f"variable {t.name!r} is free")
            return env[t.name]
        if t.name not in self.model.constants:
            raise ValueError(f"constant {t.name!r} is not interpreted by the countermodel")
        return self.model.constants[t.name]

    def _bindings(
        self, variables: tuple[Var, ...], env: Mapping[str, str]
    ) -> Iterator[dict[str, str]]:
        domains = [self._domain(v) for v in variables]
        for values in product(*domains):
            inner = dict(env)
            inner.update((v.name, value) for v, value in zip(variables, values, strict=True))
            yield inner

    def _domain(self, v: Var) -> list[str]:
        if v.sort is None:
            raise ValueError(f"variable {v.name!r} has no sort")
        if v.sort not in self.model.domains:
            raise ValueError(f"sort {v.sort!r} of variable {v.name!r} has no domain")
        return self.model.domains[v.sort]
