"""The Hanabi benchmark commands: small runs write their JSON, bad options exit with status 2."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
import typer
from typer.testing import CliRunner

from benchmarks import (
    hanabi_agent_bench,
    hanabi_annotate_bench,
    hanabi_engine_bench,
    hanabi_knowledge_bench,
)
from games.hanabi.engine import HanabiGame
from games.hanabi.events import HanabiConfig
from games.hanabi.symbolic import SymbolicAgent


def _app(command: Callable[..., None]) -> typer.Typer:
    app = typer.Typer()
    app.command()(command)
    return app


@pytest.mark.parametrize(
    ("module", "args"),
    [
        (hanabi_agent_bench, ["--agent", "nobody"]),
        (hanabi_agent_bench, ["--scoring", "points"]),
        (hanabi_engine_bench, ["--players", "2,x"]),
        (hanabi_knowledge_bench, ["--players", "6"]),
        (hanabi_annotate_bench, ["--max-samples", "2", "--samples", "3"]),
        (hanabi_annotate_bench, ["--run", "nowhere"]),
    ],
)
def test_bad_options_exit_2_with_one_line(
    module: ModuleType, args: list[str], tmp_path: Path
) -> None:
    result = CliRunner().invoke(_app(module.main), [*args, "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert args[0] in result.output
    assert "Traceback" not in result.output


def test_agent_bench_writes_its_table(tmp_path: Path) -> None:
    args = ["--seeds", "2", "--players", "2", "--out", str(tmp_path)]
    result = CliRunner().invoke(_app(hanabi_agent_bench.main), args)
    assert result.exit_code == 0, result.output
    rows = json.loads((tmp_path / "hanabi_symbolic.json").read_text())["rows"]
    assert [(row["players"], row["games"], row["scoring"]) for row in rows] == [(2, 2, "fireworks")]


def test_engine_bench_times_every_engine(tmp_path: Path) -> None:
    args = ["--games", "2", "--careful", "2", "--players", "3", "--out", str(tmp_path)]
    result = CliRunner().invoke(_app(hanabi_engine_bench.main), args)
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "hanabi_engine.json").read_text())
    rows = report["rows"]
    assert {row["engine"] for row in rows} == {"gumshoe", "openspiel", "hle"}
    assert all(row["status"] in ("ok", "absent") for row in rows)
    careful = report["careful_rows"]
    engines = {"gumshoe", "openspiel", "hle", "gumshoe+hat rollout"}
    assert {row["engine"] for row in careful} == engines
    replayed = {row["moves_per_game"] for row in careful[:3] if row["status"] == "ok"}
    assert len(replayed) == 1 and replayed.pop() > 40


def test_bench_hanabi_on_the_runner_reports_every_player_count(tmp_path: Path) -> None:
    from benchmarks.console.cli import app

    out = tmp_path / "run"
    args = ["bench", "hanabi", "--players", "2,3", "--seeds", "2", "--out", str(out), "--quiet"]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    rows = summary["rows"]
    assert [r["players"] for r in rows] == [2, 3] and summary["config"]["scoring"] == "fireworks"
    assert all(r["games"] == 2 and len(r["scores"]) == 2 for r in rows)
    assert all(r["iqm_ci"][0] <= r["iqm"] <= r["iqm_ci"][1] for r in rows)
    assert rows[0]["fallbacks"] == 0 and rows[0]["tracking_accuracy"] is None
    assert (out / "scores.png").read_bytes()[:4] == b"\x89PNG"
    assert len(list((out / "games").glob("hanabi-p*-seed*.jsonl"))) == 4
    table = CliRunner().invoke(app, args)
    assert table.exit_code == 0 and "scoring fireworks" in table.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "2,7"], "--players"),
        (["--agents", "nobody"], "unknown agent 'nobody'"),
        (["--agents", "symbolic,random", "--players", "3"], "2 seats named for 3 players"),
        (["--scoring", "points"], "scoring"),
        (["--sherlock-view", "all"], "view"),
        (["--view", "exact"], "--view is now --sherlock-view"),
        (["--agents", "watson"], "needs an LLM endpoint"),
    ],
)
def test_bench_hanabi_bad_options_exit_2(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from benchmarks.console.cli import app

    for name in ("GUMSHOE_LLM_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    result = CliRunner().invoke(app, ["bench", "hanabi", *args, "--out", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_annotate_bench_counts_samples_rollouts_and_stops() -> None:
    game = HanabiGame(HanabiConfig(players=2), 1)
    agents = [SymbolicAgent(seat) for seat in range(2)]
    while game.deck_size > 2:
        game.apply({game.current: agents[game.current].act(game.observation(game.current))})
    legal = len(game.legal_actions(game.current))
    row = hanabi_annotate_bench.measure([game], "race", 2, 3, 1.0)
    assert row["decisions"] == 1 and row["separated"] + row["indifferent"] + row["cap"] == 1
    assert 2 <= row["samples_per_decision"] <= 3
    assert 2 <= row["rollouts_per_decision"] / legal <= row["samples_per_decision"]
    assert row["cpu_per_decision_s"] == pytest.approx(row["cpu_s"], abs=0.01)
