"""A full 30-round, six-player Clue game of SmolLM2-135M-Instruct (llama-cpp-python server, one
thread, 4,096-token context, structured output on) in the verifier-assisted seat against five
random seats, replayed from its compressed recording through ``play clue --replay``: the model's
real replies are read again by the game, and the live run's metering shows the history that
was trimmed to fit the context. The committed log is that replay's (schema 3, each stated
deduction naming its call) with the recording's provenance in its header; the game's first log,
of schema 1, is kept under ``tests/fixtures/clue/`` and is the same game."""

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
FIRST_LOG = Path(__file__).parent / "fixtures" / "clue" / "schema1-llm-verified-30r.jsonl"
"""The live game's log as it was first written, in log schema 1."""
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
    # the committed log is the replayed one with the recording's provenance in its header, and
    # the game's first (schema 1) log, migrated, is the same game without the call references
    replayed, recorded = (ENTRY.read_log(d / "clue-seed0.jsonl") for d in (tmp_path, RECORDED))
    assert recorded.header is not None and replayed.header is not None
    assert recorded.header.provenance is not None and replayed.header.provenance is None
    assert (replayed.header, replayed.events, replayed.end) == (
        recorded.header.model_copy(update={"provenance": None}),
        recorded.events,
        recorded.end,
    )
    first = ENTRY.read_log(FIRST_LOG)
    assert (first.header, first.events, first.end) == (
        replayed.header,
        without_calls(replayed.events),
        replayed.end,
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
