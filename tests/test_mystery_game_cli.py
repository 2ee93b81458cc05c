"""``gumshoe play mystery`` and ``gumshoe bench mystery``: output, logs and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.mystery.entry import ENTRY


def test_play_prints_the_game_its_reveal_and_audit_and_writes_a_replayable_log(
    tmp_path: Path,
) -> None:
    result = CliRunner().invoke(app, ["play", "mystery", "--seed", "3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "reveal: the murderers were" in result.output
    assert "audit pruning of stated suspects" in result.output
    log = ENTRY.read_log(tmp_path / "mystery-seed3.jsonl")
    assert log.end is not None and log.end.status == "finished"


def test_bench_json_prover_agents_win_and_resume(tmp_path: Path) -> None:
    args = [
        "bench",
        "mystery",
        "--games",
        "3",
        "--agents",
        "prover",
        "--json",
        "--quiet",
        "--no-quiz",
    ]
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["win_rate"] == 1.0 and summary["finished"] == 3
    assert summary["pruning"].keys() <= {"entailed"}
    assert (tmp_path / "ig_per_round.png").is_file()
    assert (tmp_path / "summary.json").is_file()
    again = CliRunner().invoke(app, [*args, "--out", str(tmp_path)])
    assert json.loads(again.output)["ig_per_round"] == summary["ig_per_round"]


def test_bad_options_are_one_line_exit_2(tmp_path: Path) -> None:
    for args in (
        ["play", "mystery", "--agents", "nobody"],
        ["play", "mystery", "--agents", "prover*2"],
        ["bench", "mystery", "--agents", "prover*9", "--out", str(tmp_path)],
    ):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, args
        assert result.output.startswith("error:") and "Traceback" not in result.output


def test_the_demo_section_shows_a_short_game_and_its_pruning_audit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks.console.demo import mystery_section

    mystery_section()
    out = capsys.readouterr().out
    assert "round 2" in out and "round 3" not in out
    assert "audit pruning of stated suspects" in out and "reveal:" in out
