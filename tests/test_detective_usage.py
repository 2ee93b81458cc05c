"""LLM usage of the detective's LLM agent, every question's player included: the footer of
``play detective`` and ``llm_usage`` of ``bench detective``."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.core.cli import USAGE_HEADING
from games.detective.case import CaseKnobs
from games.detective.entry import game_case
from games.detective.events import DetectiveConfig
from reasoning.llm.scripted_server import ScriptedChatServer
from tests.test_detective_llm import solver
from tests.test_hanabi_usage import usage_rows

runner = CliRunner()
SEED = 7
SMALL = ["--questions", "2", "--locations", "6"]
LLM = ["--model", "scripted", "--base-url"]
CASE = game_case(DetectiveConfig(knobs=CaseKnobs(questions=2, locations=6)), SEED)


def test_play_prints_the_llm_agents_calls() -> None:
    with ScriptedChatServer(solver(CASE)) as server:
        result = runner.invoke(
            app,
            [
                "play",
                "detective",
                "--seed",
                str(SEED),
                "--agents",
                "llm",
                *SMALL,
                *LLM,
                server.base_url,
            ],
        )
        asked = [r.last_user for r in server.requests]
    assert result.exit_code == 0, result.output
    answered = sum('"ANSWER"' in text for text in asked)
    assert 0 < answered < len(asked)
    rows = usage_rows(result.output)
    assert list(rows) == ["P0 llm", "total"]
    assert int(rows["P0 llm"][0]) == int(rows["total"][0]) == len(asked)
    assert rows["P0 llm"][6] == "0"  # no fallbacks


def test_play_with_the_prover_prints_no_usage() -> None:
    result = runner.invoke(app, ["play", "detective", "--seed", str(SEED), *SMALL])
    assert result.exit_code == 0, result.output
    assert USAGE_HEADING not in result.output


def test_bench_writes_llm_usage_per_agent_and_prints_its_table(tmp_path: Path) -> None:
    out = tmp_path / "run"
    with ScriptedChatServer(solver(CASE)) as server:
        result = runner.invoke(
            app,
            ["bench", "detective", "--cases", "1", "--first-seed", str(SEED), *SMALL, "--quiet",
             "--agents", "llm,prover", "--out", str(out), *LLM, server.base_url],
        )  # fmt: skip
        served = len(server.requests)
    assert result.exit_code == 0, result.output
    usage = json.loads((out / "summary.json").read_text())["llm_usage"]
    assert list(usage["seats"]) == ["llm"]
    assert usage["seats"]["llm"]["calls"] == usage["total"]["calls"] == served > 0
    table = result.output[result.output.index("LLM usage per agent") :].splitlines()
    assert table[2].split()[:2] == ["llm", str(served)]
    offline = runner.invoke(
        app,
        ["bench", "detective", "--cases", "1", *SMALL, "--out", str(tmp_path / "off"), "--quiet"],
    )
    assert offline.exit_code == 0, offline.output
    assert json.loads((tmp_path / "off" / "summary.json").read_text())["llm_usage"] is None
    assert "LLM usage" not in offline.output
