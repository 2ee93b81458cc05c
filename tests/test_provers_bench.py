"""The prover benchmark: direct z3 answers like the backends; rows carry CPU and wall time."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from benchmarks.problems import build_problem, chain_spec, neo_davidsonian_problem
from benchmarks.provers_bench import COLUMNS, DIRECT, backend_names, direct_z3, run
from provers.z3_prover import Z3Prover
from reasoning.verdict import Verdict


@pytest.mark.parametrize("size", [2, 7, 20])
@pytest.mark.parametrize("valid", [True, False])
def test_direct_z3_states_the_same_problem(size: int, valid: bool) -> None:
    spec = chain_spec(size, valid, seed=size)
    problem = build_problem(spec)
    assert problem == neo_davidsonian_problem(size, valid, seed=size)
    assert len(problem.axioms) == size
    expected = Verdict.VALID if valid else Verdict.INVALID
    assert direct_z3(spec, 10.0) is expected
    assert Z3Prover().prove(problem.axioms, problem.goal).verdict is expected


def test_rows_for_every_backend_with_cpu_and_wall() -> None:
    rows = run(sizes=(4,), problems_per_size=2)
    assert [r["backend"] for r in rows] == [DIRECT, *backend_names()]
    for row in rows:
        assert set(COLUMNS) <= set(row)
        assert row["right"] == 2, row
        assert row["cpu_median_ms"] >= 0 and row["wall_median_ms"] > 0
    assert rows[0]["cpu_x_direct"] == 1.0


@pytest.mark.parametrize("option", ["--problems", "--repeats"])
@pytest.mark.parametrize("value", ["0", "-3"])
def test_bench_counts_below_one_exit_2_with_one_line(option: str, value: str) -> None:
    result = CliRunner().invoke(app, ["bench", "provers", option, value])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {option} must be at least 1, got {value}"
    ]
