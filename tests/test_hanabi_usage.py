"""LLM usage of Hanabi seats: the footer of ``play hanabi``, ``llm_usage`` of ``bench hanabi``,
and a seat's proposers pooled into its usage."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from benchmarks.console.cli import app
from benchmarks.llm_usage import SeatUsage
from games.core.agents import agent_meters
from games.core.cli import USAGE_HEADING
from games.hanabi.agents import AGENTS, HanabiAgentSettings
from games.hanabi.engine import HanabiGame
from games.hanabi.events import HanabiConfig
from reasoning.llm import LLMSettings
from reasoning.llm.scripted_server import ScriptedChatServer
from tests.test_hanabi_llm import scripted

runner = CliRunner()


def usage_rows(output: str) -> dict[str, list[str]]:
    """The rows of the usage table after ``USAGE_HEADING``, by seat label."""
    lines = output[output.index(USAGE_HEADING) :].splitlines()[1:]
    assert re.split(r"\s{2,}", lines[0].strip())[:2] == ["seat", "calls"]
    rows = {}
    for line in lines[1:]:
        cells = re.split(r"\s{2,}", line.strip())
        rows[cells[0]] = cells[1:]
        if cells[0] == "total":
            break
    return rows


def test_play_prints_the_llm_seats_calls_under_the_transcript() -> None:
    with ScriptedChatServer(scripted) as server:
        result = runner.invoke(
            app,
            [
                "play",
                "hanabi",
                "--players",
                "2",
                "--agents",
                "watson,symbolic",
                "--base-url",
                server.base_url,
                "--model",
                "scripted",
            ],
        )
        served = len(server.requests)
    assert result.exit_code == 0, result.output
    rows = usage_rows(result.output)
    assert list(rows) == ["P0 watson", "total"]
    assert served > 5
    assert int(rows["P0 watson"][0]) == int(rows["total"][0]) == served
    assert rows["P0 watson"][6] == "0"  # no fallbacks


def test_play_without_llm_seats_prints_no_usage() -> None:
    result = runner.invoke(app, ["play", "hanabi", "--players", "2", "--agents", "symbolic"])
    assert result.exit_code == 0, result.output
    assert USAGE_HEADING not in result.output


def test_bench_writes_llm_usage_per_agent_and_prints_its_table(tmp_path: Path) -> None:
    out = tmp_path / "run"
    with ScriptedChatServer(scripted) as server:
        result = runner.invoke(
            app,
            [
                "bench",
                "hanabi",
                "--players",
                "2",
                "--seeds",
                "2",
                "--agents",
                "watson,symbolic",
                "--base-url",
                server.base_url,
                "--model",
                "scripted",
                "--out",
                str(out),
                "--quiet",
            ],
        )
        served = len(server.requests)
    assert result.exit_code == 0, result.output
    usage = json.loads((out / "summary.json").read_text())["llm_usage"]
    assert list(usage["seats"]) == ["watson"]
    assert usage["seats"]["watson"]["calls"] == usage["total"]["calls"] == served > 5
    assert usage["total"]["prompt_tokens"] > 0 and usage["total"]["fallbacks"] == 0
    assert "LLM usage per agent" in result.output
    table = result.output[result.output.index("LLM usage per agent") :].splitlines()
    assert table[2].split()[:2] == ["watson", str(served)]


def test_bench_without_llm_seats_has_no_usage(tmp_path: Path) -> None:
    args = ["bench", "hanabi", "--players", "2", "--seeds", "1", "--out", str(tmp_path)]
    result = runner.invoke(app, [*args, "--quiet"])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "summary.json").read_text())["llm_usage"] is None
    assert "LLM usage" not in result.output


def test_a_mixture_seat_pools_its_proposers_and_final_choice() -> None:
    with ScriptedChatServer(scripted) as server:
        llm = LLMSettings(base_url=server.base_url, model="scripted", max_retries=0)
        settings = HanabiAgentSettings(llm=llm, mixture=True)
        agent = AGENTS.make("sherlock", 1, 2, settings)
        game = HanabiGame(HanabiConfig(players=2), 2)
        game.apply({0: game.legal_actions(0)[0]})
        agent.act(game.observation(1))
        served = len(server.requests)
    meters = agent_meters(agent)
    assert len(meters) == served == 5, "four specialists (no history analyst at 2) and the final"
    usage = SeatUsage.of(*meters)
    assert usage.usage.calls == len(usage.latencies) == served
