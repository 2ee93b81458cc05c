"""Reading a theory stops at its deadline: ``prove`` answers TIMEOUT instead of reading on."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from reasoning.theory import TheoryTimeout, parse_theory


def chain(n: int) -> str:
    """A propositional theory of ``n`` implication axioms whose goal follows from all of them."""
    lines = ["axiom start: p_0"]
    lines += [f"axiom a_{i}: p_{i} -> p_{i + 1} & (q_{i} | ~r_{i})" for i in range(n)]
    return "\n".join(lines) + f"\ngoal: p_{n}\n"


def test_passed_deadline_stops_reading_before_the_first_statement() -> None:
    with pytest.raises(TheoryTimeout) as caught:
        parse_theory(chain(50), deadline=time.monotonic() - 1)
    assert (caught.value.read, caught.value.total) == (0, 52)
    assert str(caught.value) == "0 of 52 statements read"


def test_distant_deadline_reads_everything() -> None:
    theory = parse_theory(chain(50), deadline=time.monotonic() + 3600)
    assert len(theory.axioms) == 51


def test_prove_answers_timeout_when_reading_runs_out(tmp_path: Path) -> None:
    path = tmp_path / "chain.thy"
    path.write_text(chain(3000), encoding="utf-8")
    result = CliRunner().invoke(app, ["prove", str(path), "--timeout", "0.001", "--json"])
    assert result.exit_code == 0, result.output
    assert '"verdict": "TIMEOUT"' in result.stdout
    assert "statements read); no prover ran" in result.stdout
