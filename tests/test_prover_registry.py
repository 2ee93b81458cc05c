"""One table lists the backends, and everything that lists backends reads it: the factory, the
vote, the trace audit's incremental sessions, the provers bench, Undercover-V and the docs."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from benchmarks.provers_bench import backend_names
from games.undercover.pipeline import PipelineSettings
from provers import registry
from provers.registry import (
    BACKENDS,
    FIRST_ORDER_NAMES,
    INCREMENTAL_NAMES,
    PROVER_NAMES,
    Backend,
    get_prover,
    markdown_table,
    vote_members,
)
from provers.trace_cli import session_factory
from reasoning.prover import ProverUnavailable
from reasoning.trace import parse_sorted_trace

PAGE = (Path(__file__).resolve().parents[1] / "docs" / "provers.md").read_text(encoding="utf-8")


def test_the_readme_table_is_the_registry_table() -> None:
    assert markdown_table() in PAGE
    assert [b.name for b in BACKENDS] == list(PROVER_NAMES)


def test_each_backend_builds_under_its_own_name_or_says_how_to_install_it() -> None:
    for row in BACKENDS:
        if not row.available():
            with pytest.raises(ProverUnavailable):
                row.build()
            continue
        assert get_prover(row.name).name == row.name


def test_an_unknown_backend_is_named_with_the_choices() -> None:
    with pytest.raises(ValueError, match="unknown prover 'z4'; choose one of z3, cvc5, sat"):
        get_prover("z4")


def test_a_new_row_joins_the_vote_the_bench_and_undercover(monkeypatch: pytest.MonkeyPatch) -> None:
    extra = Backend(
        "z3bis", "provers.z3_prover:Z3Prover", "z3 again", "a test row", True, in_vote=True
    )
    rows = (*BACKENDS[:-1], extra, BACKENDS[-1])
    monkeypatch.setattr(registry, "BACKENDS", rows)
    assert len(vote_members()) == len([b for b in BACKENDS if b.in_vote and b.available()]) + 1
    assert "z3bis" in backend_names() and backend_names()[-1] == "vote"
    monkeypatch.setattr(registry, "FIRST_ORDER_NAMES", (*FIRST_ORDER_NAMES, "z3bis"))
    monkeypatch.setattr("games.undercover.pipeline.FIRST_ORDER_NAMES", registry.FIRST_ORDER_NAMES)
    assert PipelineSettings(backend="z3bis").backend == "z3bis"


def test_undercover_takes_the_first_order_backends_and_auto() -> None:
    for name in ("auto", *FIRST_ORDER_NAMES):
        assert PipelineSettings(backend=name).backend == name
    with pytest.raises(ValidationError, match="must be one of auto, z3, cvc5, eprover"):
        PipelineSettings(backend="sat")


def test_the_incremental_backends_audit_on_a_session() -> None:
    _, trace = parse_sorted_trace('{"kind": "step", "observe": ["p"], "claims": ["p"]}\n')
    assert {n for n in PROVER_NAMES if session_factory(n, trace) is not None} == set(
        INCREMENTAL_NAMES
    )
