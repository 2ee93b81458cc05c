"""The incremental trace audit: same verdicts as proving from scratch, and inconsistent
knowledge reported instead of silently making every claim sound."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from benchmarks.console.cli import app
from provers.sat_prover import SatProver
from provers.trace_cli import epr_trace, grounded_session, session_factory, warnings, z3_session
from provers.z3_prover import Z3Prover
from reasoning.formula import Formula
from reasoning.prover import Prover
from reasoning.session import EntailmentSessionFactory
from reasoning.strategies import fol_formulas, propositional_formulas
from reasoning.syntax import format_formula
from reasoning.trace import (
    TraceAudit,
    audit_trace,
    audit_trace_incremental,
    parse_sorted_trace,
)
from reasoning.verifier import Verifier

Step = tuple[list[Formula], list[Formula]]
runner = CliRunner()


def _text(truth: list[Formula], steps: list[Step]) -> str:
    lines = [{"kind": "truth", "formulas": [format_formula(f) for f in truth]}] if truth else []
    lines += [
        {
            "kind": "step",
            "observe": [format_formula(f) for f in observe],
            "claims": [format_formula(f) for f in claims],
        }
        for observe, claims in steps
    ]
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def _summary(audit: TraceAudit) -> list[object]:
    steps = [
        (a.step, a.knowledge_consistent, [(c.claim, c.status, c.correctness) for c in a.checks])
        for a in audit.steps
    ]
    return [steps, audit.knowledge_consistent, audit.truth_consistent]


def _traces(formulas: st.SearchStrategy[Formula]) -> st.SearchStrategy[str]:
    step = st.tuples(st.lists(formulas, max_size=2), st.lists(formulas, max_size=2))
    return st.builds(_text, st.lists(formulas, max_size=2), st.lists(step, min_size=1, max_size=4))


def _same(text: str, prover: Prover, expect: str, *others: EntailmentSessionFactory) -> TraceAudit:
    """The chosen session, and each of ``others``, agree with ``prover`` from scratch."""
    _, trace = parse_sorted_trace(text)
    sessions = session_factory("z3", trace)
    assert sessions is not None
    assert sessions().name == expect
    incremental = audit_trace_incremental(sessions, trace, 20.0)
    assert incremental.engine == expect
    scratch = audit_trace(Verifier(prover, 20.0), trace)
    assert _summary(incremental) == _summary(scratch)
    for other in others:
        assert _summary(audit_trace_incremental(other, trace, 20.0)) == _summary(scratch)
    return incremental


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_traces(propositional_formulas(max_leaves=5)))
def test_propositional_incremental_equals_from_scratch(text: str) -> None:
    _same(text, SatProver(), "sat", grounded_session, z3_session)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_traces(fol_formulas(max_depth=0, equality=False)))
def test_ground_incremental_equals_z3_from_scratch(text: str) -> None:
    _same(text, Z3Prover(), "sat", grounded_session, z3_session)


def _well_sorted(text: str) -> bool:
    try:
        parse_sorted_trace(text)
    except ValueError:
        return False
    return True


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_traces(fol_formulas(max_depth=2)).filter(_well_sorted))
def test_first_order_incremental_equals_z3_from_scratch(text: str) -> None:
    _, trace = parse_sorted_trace(text)
    if trace.ground:
        return
    if epr_trace(trace):
        _same(text, Z3Prover(), "epr-sat", z3_session)
    else:
        _same(text, Z3Prover(), "z3")


INCONSISTENT = (
    '{"kind": "truth", "formulas": ["p"]}\n'
    '{"kind": "step", "observe": ["p"], "claims": ["q"]}\n'
    '{"kind": "step", "observe": ["~p"], "claims": ["q"]}\n'
)


@pytest.mark.parametrize("incremental", [True, False])
def test_inconsistent_observations_are_reported(incremental: bool) -> None:
    _, trace = parse_sorted_trace(INCONSISTENT)
    if incremental:
        sessions = session_factory("sat", trace)
        assert sessions is not None
        audit = audit_trace_incremental(sessions, trace)
    else:
        audit = audit_trace(Verifier(SatProver()), trace)
    assert [a.knowledge_consistent for a in audit.steps] == [True, False]
    assert audit.knowledge_consistent is False
    assert audit.truth_consistent is False
    assert audit.steps[1].checks[0].kind == "sound"
    (note,) = warnings(audit)
    assert "inconsistent from step 2" in note


def test_truth_contradicting_observations_is_reported() -> None:
    text = (
        '{"kind": "truth", "formulas": ["~p"]}\n'
        '{"kind": "step", "observe": ["p"], "claims": ["p"]}\n'
    )
    _, trace = parse_sorted_trace(text)
    sessions = session_factory("sat", trace)
    assert sessions is not None
    audit = audit_trace_incremental(sessions, trace)
    assert (audit.knowledge_consistent, audit.truth_consistent) == (True, False)
    assert any("truth lines contradict" in n for n in warnings(audit))


def test_sat_refuses_a_trace_outside_the_epr_fragment() -> None:
    _, trace = parse_sorted_trace('{"kind": "step", "observe": ["forall x. exists y. R(x, y)"]}\n')
    with pytest.raises(ValueError, match="--prover z3"):
        session_factory("sat", trace)
    assert session_factory("eprover", trace) is None
    _, trace = parse_sorted_trace('{"kind": "step", "observe": ["exists y. forall x. R(x, y)"]}\n')
    assert session_factory("sat", trace) is grounded_session


def test_cli_warns_about_inconsistent_observations(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(INCONSISTENT)
    text = runner.invoke(app, ["audit", "trace", str(path)])
    assert text.exit_code == 0
    assert "(inconsistent knowledge)" in text.stdout
    assert "warning: the observations are inconsistent from step 2" in text.stdout
    result = runner.invoke(app, ["audit", "trace", str(path), "--json"])
    data = json.loads(result.stdout)
    assert data["knowledge_consistent"] is False
    assert [s["knowledge_consistent"] for s in data["steps"]] == [True, False]
    assert len(data["warnings"]) == 1
    assert data["engine"] == "sat"
    assert "engine: sat" in text.stdout
