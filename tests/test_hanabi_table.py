"""``bench hanabi --seeds LIST`` and ``bench hanabi-table``: runs merged per seats and count."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from benchmarks.console.cli import app

runner = CliRunner()


def _bench(out: Path, seeds: str, agents: str = "hat") -> None:
    args = ["bench", "hanabi", "--players", "2,3", "--seeds", seeds, "--agents", agents]
    result = runner.invoke(app, [*args, "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output


def test_a_seed_list_plays_those_seeds(tmp_path: Path) -> None:
    _bench(tmp_path, "2,7,3")
    names = sorted(p.name for p in (tmp_path / "games").glob("*.jsonl"))
    assert names == [f"hanabi-p{n}-seed{s}.jsonl" for n in (2, 3) for s in (2, 3, 7)]
    bad = runner.invoke(app, ["bench", "hanabi", "--seeds", "2,x", "--out", str(tmp_path / "b")])
    assert bad.exit_code == 2 and "--seeds" in bad.output and "Traceback" not in bad.output


def test_runs_are_merged_per_seats_and_player_count(tmp_path: Path) -> None:
    _bench(tmp_path / "a", "2")
    _bench(tmp_path / "b", "2,3")
    _bench(tmp_path / "c", "1", "symbolic")
    runs = [str(tmp_path / name) for name in ("a", "b", "c")]
    result = runner.invoke(app, ["bench", "hanabi-table", *runs, "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["rows"]
    assert [(r["seats"], r["players"], r["games"], r["runs"]) for r in rows] == [
        ("hat", 2, 4, 2),
        ("hat", 3, 4, 2),
        ("symbolic", 2, 1, 1),
        ("symbolic", 3, 1, 1),
    ]
    assert all(0 <= r["perfect"] <= r["games"] and r["bomb_outs"] == 0 for r in rows)
    low, high = rows[0]["mean_ci"]
    assert low <= rows[0]["mean"] <= high


def test_a_seed_in_two_runs_of_one_row_is_refused(tmp_path: Path) -> None:
    _bench(tmp_path / "a", "2")
    _bench(tmp_path / "b", "1")
    runs = [str(tmp_path / "a"), str(tmp_path / "b")]
    result = runner.invoke(app, ["bench", "hanabi-table", *runs])
    assert result.exit_code == 2 and "seed 0 at 2 players is in two runs" in result.output
    missing = runner.invoke(app, ["bench", "hanabi-table", str(tmp_path / "none")])
    assert missing.exit_code == 2 and "config.json" in missing.output
