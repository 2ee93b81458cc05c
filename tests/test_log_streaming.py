"""A long log is read line by line and its events read again from the file when asked for, so
audit and view take memory for the game's state, not the log's size: a streamed log audits and
draws exactly as a held one, a log changed while it is being read is refused, and a Clue seat's
knowledge keeps an observation seen again once."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.log_memory_bench import write_clue_log
from benchmarks.viewer.game import pack, view_log
from formalize.clue import ClueKnowledge
from games.clue.entry import ENTRY
from games.clue.events import ClueConfig
from games.clue.knowledge import clue_setup
from games.core.runlog import LogError
from provers.sat_session import SatSession


def test_a_streamed_log_audits_and_draws_as_a_held_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "clue-seed0.jsonl"
    events = write_clue_log(log, 0.2)
    held = ENTRY.read_log(log)
    record, page = ENTRY.audit(held), pack(view_log(log))
    monkeypatch.setattr("games.core.log.CACHED_EVENTS", 50)
    streamed = ENTRY.read_log(log)
    assert len(streamed.events) == len(held.events) == events
    assert streamed.events == held.events and streamed.events[-1] == held.events[-1]
    assert list(streamed.lines) == list(held.lines)
    assert ENTRY.audit(streamed) == record
    assert pack(view_log(log)) == page
    with log.open("a") as file:
        file.write("\n")
    with pytest.raises(LogError, match="changed while it was being read"):
        list(streamed.events)


def test_an_observation_seen_again_is_kept_once() -> None:
    setup = clue_setup(ClueConfig(players=3))
    knowledge = ClueKnowledge(setup, SatSession, 0)
    try:
        cards = ("Miss Scarlet", "Knife", "Hall")
        knowledge.passed(1, cards)
        size = len(knowledge.formulas)
        for _ in range(50):
            knowledge.passed(1, cards)
            knowledge.refuted(2, ("Mrs. White", "Rope", "Study"))
        assert len(knowledge.formulas) == size + 1
    finally:
        knowledge.close()
