"""`gumshoe prove` and `gumshoe audit trace` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.cli import app
from provers.eprover import eprover_available
from provers.model_eval import evaluate
from reasoning.sorts import infer_sorts
from reasoning.syntax import parse_formula
from reasoning.verdict import Countermodel

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
runner = CliRunner()


def _json(args: list[str]) -> dict[str, object]:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_tea_is_valid_with_used_axioms() -> None:
    data = _json(["prove", str(EXAMPLES / "tea.thy"), "--json"])
    assert data["verdict"] == "VALID"
    assert data["prover"] == "z3"
    assert data["countermodel"] is None
    assert data["used_axioms"] == ["fact_1", "rule_2"]
    assert isinstance(data["elapsed_s"], float)


def test_ceylon_is_invalid_with_a_countermodel_falsifying_the_goal() -> None:
    data = _json(["prove", str(EXAMPLES / "tea_ceylon.thy"), "--json"])
    assert data["verdict"] == "INVALID"
    model = Countermodel.model_validate(data["countermodel"])
    (goal,), _ = infer_sorts([parse_formula("exists x. CeylonTea(x)")])
    assert evaluate(goal, model) is False


def test_human_output_shows_countermodel() -> None:
    result = runner.invoke(app, ["prove", str(EXAMPLES / "tea_ceylon.thy")])
    assert result.exit_code == 0
    assert result.stdout.startswith("INVALID")
    assert "countermodel:" in result.stdout and "entity:" in result.stdout


@pytest.mark.skipif(not eprover_available(), reason="E prover (eprover) not installed")
def test_eprover_backend_from_cli() -> None:
    assert (
        _json(["prove", str(EXAMPLES / "tea.thy"), "--prover", "eprover", "--json"])["verdict"]
        == "VALID"
    )
    assert (
        _json(["prove", str(EXAMPLES / "tea_ceylon.thy"), "--prover", "eprover", "--json"])[
            "verdict"
        ]
        == "INVALID"
    )


def test_vote_backend_from_cli() -> None:
    data = _json(["prove", str(EXAMPLES / "tea.thy"), "--prover", "vote", "--json"])
    assert data["verdict"] == "VALID"
    assert data["prover"] == "vote"


def test_goal_less_file_checks_consistency(tmp_path: Path) -> None:
    path = tmp_path / "c.thy"
    path.write_text("axiom a: P(c)\naxiom b: ~P(c)\n")
    data = _json(["prove", str(path), "--json"])
    assert (data["verdict"], data["goal"]) == ("VALID", "consistency")


def test_malformed_file_exits_2_with_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.thy"
    path.write_text("# header\naxiom a: P(x) &\ngoal: Q\n")
    result = runner.invoke(app, ["prove", str(path)])
    assert result.exit_code == 2
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert lines[0].startswith(f"{path}:2:")


def test_missing_file_and_unknown_prover_exit_2(tmp_path: Path) -> None:
    assert runner.invoke(app, ["prove", str(tmp_path / "nope.thy")]).exit_code == 2
    result = runner.invoke(app, ["prove", str(EXAMPLES / "tea.thy"), "--prover", "nope"])
    assert result.exit_code == 2
    assert "unknown prover" in result.stderr


def test_audit_trace_json() -> None:
    data = _json(["audit", "trace", str(EXAMPLES / "trace.jsonl"), "--prover", "sat", "--json"])
    totals = data["totals"]
    assert isinstance(totals, dict)
    assert totals["claims"] == 4
    assert totals["kind"] == {"sound": 2, "lucky": 1, "wrong": 1}
