"""The trace benchmark: both first-order engines side by side, the Z3 cap, the scaling table."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from benchmarks.trace_bench import TraceForm, run, scaling

runner = CliRunner()


@pytest.mark.parametrize("form", ["quantified", "undercover"])
def test_engines_agree_side_by_side(form: TraceForm) -> None:
    rows = run([12], 0, form)
    assert [(r["method"], r["engine"]) for r in rows] == [("epr-sat", "epr-sat"), ("z3", "z3")]
    assert rows[1]["same_verdicts"] is True
    assert rows[0]["claims"] == 12


def test_z3_stops_at_its_cap_and_skips_longer_traces() -> None:
    rows = run([6, 100, 200], 0, "quantified", z3_cap=0.0)
    methods = [(r["steps"], r["method"]) for r in rows]
    assert methods == [(6, "epr-sat"), (6, "z3"), (100, "epr-sat"), (200, "epr-sat")]
    assert str(rows[1]["same_verdicts"]).startswith("stopped at step")
    (ratio,) = scaling(rows)
    assert (ratio["method"], ratio["longest"]) == ("epr-sat", 200)
    assert ratio["ratio"] == ratio["ms_per_step_longest"] / ratio["ms_per_step_100"]


def test_bad_undercover_lengths_exit_2_with_one_line() -> None:
    result = runner.invoke(app, ["bench", "trace", "--undercover-lengths", "10,x"])
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: --undercover-lengths:")
