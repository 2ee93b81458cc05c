"""LLM usage of interrogation-game seats, their formaliser's calls included: the footer of
``play mystery`` and ``llm_usage`` of ``bench mystery``."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.core.cli import USAGE_HEADING
from reasoning.llm.scripted_server import ScriptedChatServer
from tests.test_hanabi_usage import usage_rows
from tests.test_mystery_game_llm import answer

runner = CliRunner()
AGENTS = "questum,prover,prover,prover,prover"


def test_play_prints_the_llm_seats_calls_with_its_formalisations() -> None:
    with ScriptedChatServer(answer) as server:
        result = runner.invoke(
            app,
            [
                "play",
                "mystery",
                "--agents",
                AGENTS,
                "--base-url",
                server.base_url,
                "--model",
                "scripted",
            ],
        )
        asked = [r.last_user for r in server.requests]
    assert result.exit_code == 0, result.output
    formalised = sum(text.startswith("Sentence:") for text in asked)
    assert 0 < formalised < len(asked)
    rows = usage_rows(result.output)
    assert list(rows) == ["P0 questum", "total"]
    assert int(rows["P0 questum"][0]) == int(rows["total"][0]) == len(asked)


def test_play_without_llm_seats_prints_no_usage() -> None:
    result = runner.invoke(app, ["play", "mystery", "--agents", "prover"])
    assert result.exit_code == 0, result.output
    assert USAGE_HEADING not in result.output


def test_bench_writes_llm_usage_per_agent_and_prints_its_table(tmp_path: Path) -> None:
    out = tmp_path / "run"
    base = ["bench", "mystery", "--games", "1", "--no-quiz", "--quiet"]
    with ScriptedChatServer(answer) as server:
        llm = ["--base-url", server.base_url, "--model", "scripted"]
        result = runner.invoke(app, [*base, "--out", str(out), "--agents", AGENTS, *llm])
        served = len(server.requests)
    assert result.exit_code == 0, result.output
    usage = json.loads((out / "summary.json").read_text())["llm_usage"]
    assert list(usage["seats"]) == ["questum"]
    assert usage["seats"]["questum"]["calls"] == usage["total"]["calls"] == served > 0
    table = result.output[result.output.index("LLM usage per agent") :].splitlines()
    assert table[2].split()[:2] == ["questum", str(served)]
    offline = runner.invoke(app, [*base, "--agents", "prover", "--out", str(tmp_path / "off")])
    assert offline.exit_code == 0, offline.output
    assert json.loads((tmp_path / "off" / "summary.json").read_text())["llm_usage"] is None
    assert "LLM usage" not in offline.output
