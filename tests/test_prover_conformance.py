"""Every backend present passes ``check_prover``; deliberately broken backends fail it, each on
the rule it breaks; the check's own suite is not vacuous."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence

import pytest
import z3

from provers import conformance
from provers.conformance import (
    HOSTILE_NAMES,
    ProverConformanceError,
    check_prover,
    known_problems,
    random_problem,
)
from provers.registry import BACKENDS, get_prover
from reasoning.formula import And, Atom, Formula, Implies, Not, Or, Truth, atoms
from reasoning.prover import Axiom
from reasoning.verdict import ProofResult, Verdict


def _present(name: str) -> pytest.MarkDecorator:
    row = next(b for b in BACKENDS if b.name == name)
    system = {"eprover": "the E prover (eprover)", "isabelle": "Isabelle"}.get(name, name)
    return pytest.mark.skipif(not row.available(), reason=f"{system} is not installed")


@pytest.mark.parametrize(
    "name", [pytest.param(b.name, marks=_present(b.name)) for b in BACKENDS if b.name != "vote"]
)
def test_every_backend_present_conforms(name: str) -> None:
    check_prover(name)


def test_the_vote_conforms() -> None:
    check_prover("vote", seeds=range(8))


@pytest.mark.parametrize("first_order", [False, True])
def test_the_random_suite_holds_both_answers(first_order: bool) -> None:
    """z3's answers on the random problems include VALID and INVALID, so agreement, countermodels
    and used axioms are all exercised."""
    reference = get_prover("z3")
    seen = Counter(
        reference.prove(p.axioms, p.goal, 10.0).verdict
        for p in (
            random_problem(random.Random(f"check-prover/{s}"), first_order) for s in range(24)
        )
    )
    assert seen[Verdict.VALID] and seen[Verdict.INVALID], seen


class _Wrapped:
    """z3 under another name, with one thing broken by ``bend``."""

    name = "broken"

    def __init__(self) -> None:
        self.inner = get_prover("z3")

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        result = self.inner.prove(axioms, goal, timeout)
        return self.bend(axioms, result).model_copy(update={"prover": self.name})

    def bend(self, axioms: Sequence[Axiom], result: ProofResult) -> ProofResult:
        return result


class _Flipped(_Wrapped):
    """Says INVALID where z3 proves the goal."""

    def bend(self, axioms: Sequence[Axiom], result: ProofResult) -> ProofResult:
        if result.verdict is Verdict.VALID:
            return result.model_copy(update={"verdict": Verdict.INVALID, "used_axioms": None})
        return result


class _EmptyModels(_Wrapped):
    """Gives every INVALID answer an empty countermodel."""

    def bend(self, axioms: Sequence[Axiom], result: ProofResult) -> ProofResult:
        if result.verdict is Verdict.INVALID and result.countermodel is not None:
            empty = result.countermodel.model_copy(update={"true_atoms": []})
            return result.model_copy(update={"countermodel": empty})
        return result


class _StingyCores(_Wrapped):
    """Names only the last axiom as used."""

    def bend(self, axioms: Sequence[Axiom], result: ProofResult) -> ProofResult:
        if result.verdict is Verdict.VALID and axioms:
            return result.model_copy(update={"used_axioms": [axioms[-1].name]})
        return result


class _Sleepy(_Wrapped):
    """Ignores a time limit on big problems: answers TIMEOUT, but only after a second."""

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        if len(axioms) > 20:
            time.sleep(1.0)
            return ProofResult(verdict=Verdict.TIMEOUT, prover=self.name, elapsed_s=1.0)
        return super().prove(axioms, goal, timeout)


class _RawSmtLib:
    """A propositional backend that writes SMT-LIB with names as they come (no escaping) and
    reads z3's last answer: an injected ``(assert false)`` makes a consistent set inconsistent."""

    name = "raw-smtlib"

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        try:
            texts = [self._text(ax.formula) for ax in axioms] + [f"(not {self._text(goal)})"]
        except TypeError:
            return ProofResult(verdict=Verdict.UNSUPPORTED, prover=self.name, elapsed_s=0.0)
        names = {a.pred for f in [*(ax.formula for ax in axioms), goal] for a in atoms(f)}
        lines = [f"(declare-fun {n} () Bool)" for n in sorted(names)]
        script = "\n".join([*lines, *(f"(assert {t})" for t in texts), "(check-sat)"])
        context = z3.Context()
        try:
            answer = z3.Z3_eval_smtlib2_string(context.ref(), script)
        except z3.Z3Exception as err:
            answer = err.value.decode() if isinstance(err.value, bytes) else str(err.value)
        last = answer.strip().splitlines()[-1] if answer.strip() else ""
        verdict = {"unsat": Verdict.VALID, "sat": Verdict.INVALID}.get(last, Verdict.UNKNOWN)
        return ProofResult(verdict=verdict, prover=self.name, elapsed_s=0.0)

    def _text(self, f: Formula) -> str:
        if isinstance(f, Atom) and not f.args:
            return f.pred
        if isinstance(f, Truth):
            return "true" if f.value else "false"
        if isinstance(f, Not):
            return f"(not {self._text(f.body)})"
        if isinstance(f, And | Or):
            op = "and" if isinstance(f, And) else "or"
            return f"({op} {' '.join(self._text(p) for p in f.parts)})"
        if isinstance(f, Implies):
            return f"(=> {self._text(f.left)} {self._text(f.right)})"
        raise TypeError(type(f).__name__)


@pytest.mark.parametrize(
    ("broken", "rule"),
    [
        (_Flipped, "verdicts"),
        (_Flipped, "agrees-with-z3"),
        (_EmptyModels, "countermodels"),
        (_StingyCores, "used-axioms"),
    ],
)
def test_a_broken_backend_fails_the_rule_it_breaks(broken: type[_Wrapped], rule: str) -> None:
    with pytest.raises(ProverConformanceError) as failed:
        check_prover(broken(), rules=[rule], seeds=range(24))
    assert failed.value.rule == rule
    assert f"broken: rule {rule!r}" in str(failed.value)


def test_a_backend_ignoring_its_time_limit_fails() -> None:
    with pytest.raises(ProverConformanceError, match="rule 'timeout'"):
        check_prover(_Sleepy(), rules=["timeout"], limit=0.2, grace=0.3)
    check_prover(_Wrapped(), rules=["timeout"], limit=0.2, grace=2.0)


def test_a_backend_writing_names_unescaped_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ProverConformanceError, match="rule 'identifiers'"):
        check_prover(_RawSmtLib(), first_order=False, rules=["identifiers"])
    injecting = [name for name in HOSTILE_NAMES if "(assert false) (declare-fun" in name]
    monkeypatch.setattr(conformance, "HOSTILE_NAMES", tuple(injecting))
    with pytest.raises(ProverConformanceError, match="is consistent: VALID, not INVALID"):
        check_prover(_RawSmtLib(), first_order=False, rules=["identifiers"])


def test_the_easy_problems_are_right_for_z3() -> None:
    reference = get_prover("z3")
    for problem in [*known_problems(True), *known_problems(False)]:
        assert reference.prove(problem.axioms, problem.goal, 10.0).verdict is problem.expected


def test_unknown_rules_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown rules"):
        check_prover("z3", rules=["fast"])


@_present("eprover")
def test_e_writing_tptp_names_unescaped_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 0-ary symbol named ``p). fof(f, axiom, $false). fof(g, axiom, q`` written into TPTP as
    it comes parses, and injects an axiom that makes a consistent set inconsistent."""
    from provers import tptp

    monkeypatch.setattr(tptp, "pred_id", lambda pred: pred)
    monkeypatch.setattr(tptp, "const_id", lambda name: name)
    with pytest.raises(ProverConformanceError, match=r"'p\). fof\(f, axiom, \$false\)"):
        check_prover("eprover", rules=["identifiers"])


class _Raising(_Wrapped):
    """Raises on a goal it did not expect, where a backend answers every problem."""

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        if goal == Atom("r"):
            raise KeyError("r")
        return super().prove(axioms, goal, timeout)


def test_a_backend_that_raises_fails_the_rule_of_the_problem_asked() -> None:
    with pytest.raises(ProverConformanceError, match="not entailed: prove raised KeyError") as e:
        check_prover(_Raising(), rules=["agrees-with-z3"])
    assert e.value.rule == "verdicts"
