"""The Verifier agrees with brute-force enumeration: entailed claims hold in every model."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provers.model_eval import evaluate
from provers.sat_prover import SatProver
from provers.z3_prover import Z3Prover
from reasoning.claims import ClaimStatus, Correctness
from reasoning.formula import Formula, Not, atoms
from reasoning.prover import Prover
from reasoning.strategies import propositional_formulas
from reasoning.verdict import Countermodel
from reasoning.verifier import Verifier

LETTERS = ("p", "q", "r")


def _models(formulas: list[Formula]) -> list[frozenset[str]]:
    names = sorted({a.pred for f in formulas for a in atoms(f)} | set(LETTERS))
    out = []
    for values in itertools.product((False, True), repeat=len(names)):
        true = frozenset(n for n, v in zip(names, values, strict=True) if v)
        model = Countermodel(true_atoms=sorted(true))
        if all(evaluate(f, model) for f in formulas):
            out.append(true)
    return out


def _holds(f: Formula, true: frozenset[str]) -> bool:
    return evaluate(f, Countermodel(true_atoms=sorted(true)))


@pytest.mark.parametrize("prover", [SatProver(), Z3Prover()], ids=["sat", "z3"])
@settings(max_examples=60, deadline=None)
@given(
    knowledge=st.lists(propositional_formulas(LETTERS, max_leaves=5), min_size=1, max_size=3),
    claim=propositional_formulas(LETTERS, max_leaves=4),
    pick=st.integers(0, 7),
)
def test_status_and_truth_match_brute_force(
    prover: Prover, knowledge: list[Formula], claim: Formula, pick: int
) -> None:
    models = _models(knowledge)
    hidden = models[pick % len(models)] if models else None
    truth = None
    if hidden is not None:
        truth = [a if a in hidden else f"~{a}" for a in LETTERS]
    report = Verifier(prover).audit(knowledge, [claim], truth=truth)
    check = report.checks[0]
    assert report.knowledge_consistent is bool(models)
    values = {_holds(claim, m) for m in models}
    if values <= {True}:
        assert check.status is ClaimStatus.ENTAILED
    elif values == {False}:
        assert check.status is ClaimStatus.CONTRADICTED
    else:
        assert check.status is ClaimStatus.UNDETERMINED
    if hidden is not None:
        expected = Correctness.TRUE if _holds(claim, hidden) else Correctness.FALSE
        assert check.correctness is expected
        if check.status is ClaimStatus.ENTAILED:
            assert check.kind == "sound"


def test_tea_claims_with_z3() -> None:
    knowledge = [
        "exists x y e. Tea(x) & Bergamot(y) & Infuse(e) & Agent(e, x) & Patient(e, y)",
        "forall x y e. Tea(x) & Bergamot(y) & Infuse(e) & Agent(e, x) & Patient(e, y)"
        " -> EarlGrey(x) & ~CeylonTea(x)",
    ]
    claims = [
        "exists x. EarlGrey(x)",
        "exists x. CeylonTea(x)",
        "forall x. ~Tea(x)",
    ]
    report = Verifier(Z3Prover()).audit(knowledge, claims)
    assert [c.status for c in report.checks] == [
        ClaimStatus.ENTAILED,
        ClaimStatus.UNDETERMINED,
        ClaimStatus.CONTRADICTED,
    ]
    assert report.checks[0].proof.used_axioms == ["k1", "k2"]
    assert all(c.correctness is None and c.kind == "unjudged" for c in report.checks)


def test_kinds_sound_lucky_wrong() -> None:
    knowledge = ["exactly 1 of {a, b, c}", "~a"]
    truth = ["b", "~a", "~c"]
    report = Verifier(SatProver()).audit(knowledge, ["~a", "b", "c"], truth=truth)
    assert [c.kind for c in report.checks] == ["sound", "lucky", "wrong"]
    assert report.kind_counts == {"sound": 1, "lucky": 1, "wrong": 1}
    assert report.status_counts == {"ENTAILED": 1, "UNDETERMINED": 2}


def test_recall_counts_missed_entailed_facts() -> None:
    knowledge = ["exactly 1 of {a, b, c}", "a"]
    recall = Verifier(SatProver()).recall(knowledge, ["a", "~b", "~c", "b"], stated=["~b"])
    assert recall.entailed == ["a", "~b", "~c"]
    assert recall.stated == ["~b"]
    assert recall.missed == ["a", "~c"]
    assert recall.recall == pytest.approx(1 / 3)


def test_undecided_prover_gives_unknown_not_undetermined() -> None:
    # A first-order claim handed to the propositional backend cannot be checked.
    check = Verifier(SatProver()).check(["p"], "forall x. P(x)")
    assert check.status is ClaimStatus.UNKNOWN
    assert check.refutation is not None


def test_negated_claim_contradicted() -> None:
    check = Verifier(SatProver()).check(["p"], Not(Not(Not(atoms_p()))))
    assert check.status is ClaimStatus.CONTRADICTED


def atoms_p() -> Formula:
    from reasoning.syntax import parse_formula

    return parse_formula("p")
