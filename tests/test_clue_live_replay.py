"""A six-player Clue game played by SmolLM2-135M-Instruct (llama-cpp-python server, 4,096-token
context, structured output on) against five prover seats, replayed from its recording through
``play clue --replay``: the model's real, messy replies are read again by the game."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from benchmarks.cli import app

RECORDED = Path(__file__).parent / "fixtures" / "llm" / "clue-live-6p"
CALLS = RECORDED / "llm" / "clue-seed0.seat0.jsonl"


def test_the_recorded_live_game_replays_to_the_same_end_and_metering() -> None:
    result = CliRunner().invoke(app, ["play", "clue", "--replay", str(RECORDED)])
    assert result.exit_code == 0, result.output
    calls = [json.loads(line) for line in CALLS.read_text().splitlines()]
    usage = next(line for line in result.output.splitlines() if line.startswith("P0 llm"))
    columns = usage.split()
    assert int(columns[2]) == len(calls) == 15
    assert columns[7:11] == ["0", "9", "2", "0"]  # retries, re-prompts, fallbacks, cut off
    assert "game over after 4 rounds: P3 (prover) wins (correct_accusation)" in result.output
    assert "fallbacks per seat: 2, 0, 0, 0, 0, 0" in result.output
    assert all(call["reply"]["finish_reason"] == "stop" for call in calls)
