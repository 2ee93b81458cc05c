"""A user's time limit bounds the whole call: `gumshoe detective check --time-limit` gives up
in one line even when a single step (reading the case, building its theory) would run past it,
and ``reasoning.deadline.time_limit`` keeps within, and puts back, an alarm set outside it."""

from __future__ import annotations

import contextlib
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.detective import CaseKnobs, dump_case
from games.detective.entry import game_case
from games.detective.events import DetectiveConfig
from reasoning.deadline import time_limit

runner = CliRunner()


class Late(Exception):
    """The error the tests' limits raise."""


def test_a_block_past_its_limit_is_stopped_and_an_outer_alarm_kept() -> None:
    with pytest.raises(Late), time_limit(0.2, Late):
        time.sleep(30)
    rang: list[int] = []
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: rang.append(signum))
    try:
        signal.setitimer(signal.ITIMER_REAL, 30)
        with time_limit(5, Late):
            pass
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 0 < left <= 30 and not rang
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        with pytest.raises(Late), time_limit(30, Late):
            time.sleep(30)
        time.sleep(0.5)
        assert not rang  # the block's error stands for the outer limit too: one error
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_detective_check_gives_up_inside_a_long_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    knobs = CaseKnobs(locations=6, questions=2, red_herrings=1, distractors=3, words_per_card=30)
    case = tmp_path / "case.json"
    case.write_text(dump_case(game_case(DetectiveConfig(knobs=knobs), 7)))

    def slow_theory(*args: Any, **kwargs: Any) -> Any:
        time.sleep(60)
        raise AssertionError("the time limit did not stop the check")

    monkeypatch.setattr("games.detective.check.case_knowledge", slow_theory)
    result = runner.invoke(app, ["detective", "check", str(case), "--time-limit", "2"])
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert f"{case}: gave up after 2 s while building the case's theory" in lines[0]


def test_a_limit_whose_error_was_swallowed_rings_again() -> None:
    with pytest.raises(Late), time_limit(0.2, Late):
        with contextlib.suppress(Late):  # as Python does with an error in a gc callback
            time.sleep(30)
        time.sleep(30)
