"""The detective game on the core: its stages, its legal actions, its log rules, and the
prover-backed agent reaching the best achievable score on every generated case."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.runner import MemoryLog
from games.core.play import play_game
from games.core.protocol import IllegalAction
from games.core.runlog import LogError
from games.detective import CaseKnobs, best_achievable
from games.detective.engine import Answer, AnswerSpace, DetectiveState, Visit
from games.detective.entry import ENTRY, game_case
from games.detective.events import DetectiveConfig

SMALL = CaseKnobs(locations=8, questions=2, red_herrings=1, distractors=4, words_per_card=40)


@pytest.mark.parametrize(
    ("seed", "knobs"),
    [
        (0, CaseKnobs()),
        (1, CaseKnobs()),
        (2, CaseKnobs(long_chains=False)),
        (3, CaseKnobs(questions=5)),
        (4, SMALL),
    ],
)
def test_the_prover_agent_reaches_the_best_achievable_score(seed: int, knobs: CaseKnobs) -> None:
    config = DetectiveConfig(knobs=knobs)
    state = play_game(ENTRY, ["prover"], seed, config=config).state
    assert isinstance(state, DetectiveState)
    best = best_achievable(state.case).score
    assert state.score is not None
    assert math.isclose(state.score.overall, best.overall)
    assert math.isclose(state.score.progressive, best.progressive)
    assert state.score.final == best.final == 3.0
    assert state.result().returns == (state.score.overall,)


def test_answers_come_after_the_introduction_and_after_every_location() -> None:
    case = game_case(DetectiveConfig(knobs=SMALL), 4)
    state = DetectiveState(case)
    assert state.phase == "answer" and len(state.legal_actions(0)) > 1
    blank = Answer({q.id: {s.name: None for s in q.slots} for q in case.questions})
    state.apply({0: blank})
    assert state.observation(0).phase == "choose"
    assert state.legal_actions(0) == [Visit(loc.id) for loc in case.locations]
    with pytest.raises(IllegalAction):
        state.apply({0: blank})
    first = case.locations[0].id
    state.apply({0: Visit(first)})
    state.apply({0: blank})
    assert Visit(first) not in state.legal_actions(0)
    with pytest.raises(IllegalAction):
        state.apply({0: Visit(first)})
    for loc in case.locations[1:]:
        state.apply({0: Visit(loc.id)})
        state.apply({0: blank})
    assert state.is_terminal() and len(state.stages) == len(case.locations) + 1
    assert state.score is not None and state.score.overall == 0.0


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_the_answer_space_is_every_blank_or_choice_per_slot(data: st.DataObject) -> None:
    case = game_case(DetectiveConfig(knobs=SMALL), 4)
    space = AnswerSpace(case)
    assert len(space) == math.prod(len(s.choices) + 1 for q in case.questions for s in q.slots)
    index = data.draw(st.integers(0, len(space) - 1))
    answer = space[index]
    assert answer in space
    q = case.questions[0]
    slot = q.slots[0]
    odd = {**answer.answers, q.id: {**answer.answers[q.id], slot.name: "no such value"}}
    assert Answer(odd) not in space
    short = {**answer.answers, q.id: {}}
    assert Answer(short) not in space


def test_a_log_that_breaks_the_detective_rules_names_its_line(tmp_path: Path) -> None:
    log = MemoryLog()
    play_game(ENTRY, ["prover"], 4, log=log)
    lines = log.lines
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert ENTRY.read_log(path).end is not None
    swapped = [lines[0], lines[1], lines[3], lines[2], *lines[4:]]
    path.write_text("\n".join(swapped) + "\n")
    with pytest.raises(LogError, match=r"game.jsonl:3: .*visit must follow"):
        ENTRY.read_log(path)
