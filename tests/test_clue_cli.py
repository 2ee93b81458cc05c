"""Smoke tests of `gumshoe play clue`, `gumshoe audit clue` and `gumshoe bench clue`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from benchmarks.console.cli import app

runner = CliRunner()


def test_play_prints_turns_and_audit_and_writes_a_log(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "clue", "--seed", "4", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "round 1" in result.output and "suggests" in result.output
    assert "game over after" in result.output
    assert "clue audit of" in result.output and "recall" in result.output
    log = tmp_path / "clue-seed4.jsonl"
    assert log.exists()

    audited = runner.invoke(app, ["audit", "clue", str(log)])
    assert audited.exit_code == 0, audited.output
    assert "prover" in audited.output and "random" in audited.output

    as_json = runner.invoke(app, ["audit", "clue", str(log), "--json", "--seat", "0"])
    assert as_json.exit_code == 0, as_json.output
    payload = json.loads(as_json.output)
    assert [s["seat"] for s in payload["seats"]] == [0]
    assert {r["seat"] for r in payload["rows"]} <= {0}
    assert payload["seats"][0]["false"] == 0


def test_play_rejects_unknown_agents() -> None:
    result = runner.invoke(app, ["play", "clue", "--agents", "prover,psychic,random"])
    assert result.exit_code == 2
    assert "unknown agent 'psychic'" in result.output


def test_audit_reports_the_bad_line(tmp_path: Path) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text('{"type": "turn_start", "seq": 1, "round": 1, "turn": 1, "player": 0}\n')
    result = runner.invoke(app, ["audit", "clue", str(log)])
    assert result.exit_code == 2
    assert "bad.jsonl:1:" in result.output and "opens with its header" in result.output
    missing = runner.invoke(app, ["audit", "clue", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2


def test_bench_json_on_two_games_and_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["bench", "clue", "--games", "2", "--agents", "prover*5,random", "--out", str(out)]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 2
    agents = {row["agent"]: row for row in summary["per_agent"]}
    assert set(agents) == {"prover", "random"}
    for row in agents.values():
        for key in ("wins", "mean_rank", "accusation_accuracy", "deductions_incorrect"):
            assert key in row
    assert agents["prover"]["deductions_incorrect"] == 0
    assert agents["prover"]["seat_games"] == 10
    assert sum(row["wins"] for row in agents.values()) == 2
    assert (out / "cards_known.png").stat().st_size > 0
    assert len(list((out / "games").glob("*.jsonl"))) == 2

    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    assert "finished earlier" in again.stderr
    assert "deductions_correct" in again.stdout
