"""`gumshoe prove` and `gumshoe audit trace` as a user runs them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
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


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e300", "0", "-1"])
def test_unusable_timeout_exits_2_with_one_line(value: str) -> None:
    result = runner.invoke(app, ["prove", str(EXAMPLES / "tea.thy"), "--timeout", value])
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert "--timeout" in line and "Traceback" not in result.output


def _fake_eprover(folder: Path, script: str) -> None:
    path = folder / "eprover"
    path.write_text("#!/bin/sh\n" + script + "\n")
    path.chmod(0o755)


@pytest.mark.parametrize("as_json", [False, True])
def test_syntax_error_exits_2_in_text_and_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    _fake_eprover(tmp_path, 'cat > /dev/null; echo "eprover: syntax error" >&2; exit 3')
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    args = ["prove", str(EXAMPLES / "tea.thy"), "--prover", "eprover"]
    result = runner.invoke(app, args + (["--json"] if as_json else []))
    assert result.exit_code == 2
    if as_json:
        assert json.loads(result.stdout)["verdict"] == "SYNTAX_ERROR"
    else:
        assert result.stdout.startswith("SYNTAX_ERROR")


def test_first_order_file_to_sat_is_unsupported_exit_2() -> None:
    result = runner.invoke(app, ["prove", str(EXAMPLES / "tea.thy"), "--prover", "sat", "--json"])
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["verdict"] == "UNSUPPORTED"
    assert "sat backend is propositional" in data["message"]


@pytest.mark.parametrize("script", ["exit 1", "echo 'not an address'", "echo garbage >&2; exit 7"])
def test_broken_isabelle_exits_2_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str
) -> None:
    fake = tmp_path / "isabelle"
    fake.write_text("#!/bin/sh\n" + script + "\n")
    fake.chmod(0o755)
    monkeypatch.setenv("GUMSHOE_ISABELLE", str(fake))
    result = runner.invoke(
        app, ["prove", str(EXAMPLES / "tea.thy"), "--prover", "isabelle", "--timeout", "5"]
    )
    assert result.exit_code == 2, result.output
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: ") and "Traceback" not in result.output


def test_missing_isabelle_in_the_variable_exits_2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUMSHOE_ISABELLE", "/no/such/isabelle")
    result = runner.invoke(app, ["prove", str(EXAMPLES / "tea.thy"), "--prover", "isabelle"])
    assert result.exit_code == 2
    assert "GUMSHOE_ISABELLE" in result.stderr


def test_cvc5_backend_from_cli() -> None:
    assert _json(["prove", str(EXAMPLES / "tea.thy"), "--prover", "cvc5", "--json"])["verdict"] == (
        "VALID"
    )
    data = _json(["prove", str(EXAMPLES / "tea_ceylon.thy"), "--prover", "cvc5", "--json"])
    assert data["verdict"] == "INVALID"
    assert data["countermodel"] is not None


def test_thirty_distinct_constants_answer_within_a_short_limit() -> None:
    data = _json(["prove", str(EXAMPLES / "distinct30.thy"), "--timeout", "1", "--json"])
    assert data["verdict"] == "INVALID"
    message = data["message"]
    assert isinstance(message, str)
    assert data["countermodel"] is not None or "not extracted" in message


def test_limit_spent_reading_the_file_is_a_timeout_naming_it() -> None:
    data = _json(["prove", str(EXAMPLES / "tea.thy"), "--timeout", "1e-9", "--json"])
    assert data["verdict"] == "TIMEOUT"
    message = data["message"]
    assert isinstance(message, str)
    assert "while reading" in message and "no prover ran" in message
