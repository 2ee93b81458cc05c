"""A full 30-round, six-player Clue game of SmolLM2-135M-Instruct (llama-cpp-python server, one
thread, 4,096-token context, structured output on) in the verifier-assisted seat against five
random seats, replayed from its compressed recording through ``play clue --replay``: the model's
real replies are read again by the game, and the live run's metering shows the history that
was trimmed to fit the context."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.clue import (
    ENTRY,
    AccusationEvent,
    DeductionEvent,
    DeductionReviewEvent,
    GameEnd,
    TurnStart,
    read_clue_log,
)

RECORDED = Path(__file__).parent / "fixtures" / "llm" / "clue-live-30r"
CALLS = RECORDED / "llm" / "clue-seed0.seat0.jsonl.gz"
CONTEXT = 4096


def test_the_recorded_30_round_game_replays_to_the_same_log_and_metering(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["play", "clue", "--replay", str(RECORDED), "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    calls = [json.loads(line) for line in gzip.decompress(CALLS.read_bytes()).splitlines()]
    usage = next(line for line in result.output.splitlines() if line.startswith("P0 llm"))
    columns = usage.split()
    assert int(columns[2]) == len(calls) == 70
    assert columns[7:11] == ["0", "0", "0", "0"]  # retries, re-prompts, fallbacks, cut off
    assert "game over after 30 rounds: nobody wins (round_limit)" in result.output
    # the recording is a schema 1 log: read (and so migrated), it is the replayed game's log,
    # which also names the recorded call each stated deduction came from
    replayed, recorded = (ENTRY.read_log(d / "clue-seed0.jsonl") for d in (tmp_path, RECORDED))
    assert (replayed.header, without_calls(replayed.events), replayed.end) == (
        recorded.header,
        recorded.events,
        recorded.end,
    )
    stated = [e for e in replayed.events if isinstance(e, DeductionEvent)]
    assert stated and all(e.call is not None for e in stated)
    for event in stated:
        assert event.call is not None
        reply = calls[event.call]["reply"]["content"]
        assert all(d.card.name in reply for d in event.deductions)


def without_calls(events: list[Any]) -> list[Any]:
    """``events`` with the recorded call of each deduction event left out."""
    return [
        e.model_copy(update={"call": None}) if isinstance(e, DeductionEvent) else e for e in events
    ]


def test_the_llm_seat_stayed_in_and_its_prompts_stayed_within_the_context() -> None:
    events = read_clue_log(RECORDED / "clue-seed0.jsonl")
    assert isinstance(events[-1], GameEnd) and events[-1].rounds == 30
    own_turns = [e for e in events if isinstance(e, TurnStart) and e.seat == 0]
    assert len(own_turns) == 31  # 30 rounds and the final accusation
    accused = [e for e in events if isinstance(e, AccusationEvent) and e.seat == 0]
    assert [e.final for e in accused] == [True]
    withheld = [e for e in events if isinstance(e, DeductionReviewEvent) and e.withheld]
    assert len(withheld) >= 20
    calls = [json.loads(line) for line in gzip.decompress(CALLS.read_bytes()).splitlines()]
    prompts = [c["reply"]["prompt_tokens"] + c["reply"]["max_tokens"] for c in calls]
    assert max(prompts) <= CONTEXT
    # The recording keeps each conversation as the agent built it, before trimming: late in the
    # game it is far longer than the context (this tokenizer reads about 3.6 characters a token),
    # yet the server read under 4,096 tokens of it.
    asked = [sum(len(m["content"]) for m in c["messages"]) / 4 for c in calls[-10:]]
    sent = [c["reply"]["prompt_tokens"] for c in calls[-10:]]
    assert min(asked) > 1.4 * CONTEXT and max(sent) < CONTEXT


def test_a_missing_or_unreadable_recording_is_one_line_exit_2(tmp_path: Path) -> None:
    copy = tmp_path / "run"
    shutil.copytree(RECORDED, copy)
    calls = copy / "llm" / CALLS.name
    calls.write_bytes(b"not gzip")
    unreadable = CliRunner().invoke(app, ["play", "clue", "--replay", str(copy)])
    assert unreadable.exit_code == 2
    assert "not a readable recording: not gzip data (" in unreadable.output.strip()
    calls.unlink()
    missing = CliRunner().invoke(app, ["play", "clue", "--replay", str(copy)])
    assert missing.exit_code == 2 and len(missing.output.strip().splitlines()) == 1
    assert "no recording of this game's LLM calls at" in missing.output
