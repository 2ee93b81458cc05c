"""The LLM autograder through the scripted chat server: what each mode shows, rubrics written
once, {"SCORE": n} read or counted as unusable, the agreement measures, and the bench's
agreement table (a fixed rule answering, not a model)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.detective import Case, CaseKnobs
from games.detective.autograder import (
    RUBRIC_TASK,
    STOCK_RUBRIC,
    AutoGrader,
    RubricReply,
    agreement,
    answer_text,
    sample_answers,
)
from games.detective.entry import game_case
from games.detective.events import DetectiveConfig
from games.detective.grading import grade_answer
from reasoning.llm import LLMSettings, make_client
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer, Step

runner = CliRunner()
KNOBS = CaseKnobs(locations=6, questions=2, red_herrings=1, distractors=3, words_per_card=30)


@pytest.fixture(scope="module")
def case() -> Case:
    return game_case(DetectiveConfig(knobs=KNOBS), 7)


def grader(url: str, mode: int) -> AutoGrader:
    return AutoGrader(make_client(LLMSettings(base_url=url, model="scripted")), mode)


RUBRIC = RubricReply(rubric=STOCK_RUBRIC).model_dump_json(by_alias=True)


def test_each_mode_shows_what_seed_001_lists(case: Case) -> None:
    q = case.questions[0]
    answer = answer_text(q, {s.name: s.answer for s in q.slots})
    with ScriptedChatServer(lambda _: RUBRIC) as server:
        prompts = {m: grader(server.base_url, m).prompt(case, q, answer) for m in range(1, 6)}
        rubric_requests = [r.last_user for r in server.requests]
    for mode, prompt in prompts.items():
        assert q.text in prompt and q.model_answer in prompt and answer in prompt
        assert case.introduction not in prompt
        assert (case.solution in prompt) == (mode in (1, 2))
        assert ("Marking examples" in prompt) == (mode <= 3)
        assert ('"step_by_step_application"' in prompt) == (mode >= 4)
    assert prompts[1] != prompts[2] and sorted(prompts[1].split()) == sorted(prompts[2].split())
    assert len(rubric_requests) == 2
    assert case.solution in rubric_requests[0] and case.solution not in rubric_requests[1]
    assert all(q.model_answer in r and "Marking examples" in r for r in rubric_requests)


def test_a_rubric_is_written_once_per_question(case: Case) -> None:
    def script(request: ChatRequest) -> Step:
        return RUBRIC if RUBRIC_TASK in request.last_user else '{"SCORE": 2}'

    with ScriptedChatServer(script) as server:
        autograder = grader(server.base_url, 5)
        q = case.questions[0]
        grades = [autograder.grade(case, q, answer_text(q, a)) for a in sample_answers(q)]
        calls = len(server.requests)
    assert grades == [2] * len(grades) and calls == len(grades) + 1


def test_an_unusable_reply_is_re_prompted_then_grades_zero_counted(case: Case) -> None:
    q = case.questions[0]
    with ScriptedChatServer(["no idea", '{"SCORE": 7}', '{"SCORE": 3}']) as server:
        autograder = grader(server.base_url, 1)
        assert autograder.grade(case, q, "anything") == 3
    with ScriptedChatServer(lambda _: "no idea") as server:
        autograder = grader(server.base_url, 1)
        assert autograder.grade(case, q, "anything") == 0
        assert len(server.requests) == 4
    assert autograder.fallbacks.count() == 1


def test_sample_answers_span_the_grades(case: Case) -> None:
    for q in case.questions:
        grades = {grade_answer(q, a).score for a in sample_answers(q)}
        assert {0, 3} <= grades and len(grades) >= 3


def test_agreement_is_percent_identical_and_rms() -> None:
    found = agreement([3, 2, 1, 0], [3, 2, 2, 2])
    assert found.percent_exact == 50.0 and math.isclose(found.rms, math.sqrt(5 / 4))
    with pytest.raises(ValueError):
        agreement([1], [1, 2])


def test_bench_reports_the_scripted_graders_agreement(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "bench", "detective", "--cases", "2", "--first-seed", "7", "--questions", "2",
            "--locations", "6", "--autograde-modes", "1,3,5", "--scripted-grader",
            "--out", str(tmp_path / "run"), "--json", "--quiet",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["scripted_grader"] is True
    assert [m["mode"] for m in summary["autograder"]] == [1, 3, 5]
    for mode in summary["autograder"]:
        assert mode["agreement"]["answers"] > 0 and mode["unusable_replies"] == 0
        assert 0.0 <= mode["agreement"]["percent_exact"] <= 100.0
    (row,) = summary["agents"]
    assert row["agent"] == "prover" and row["at_best"] == row["cases"] == 2
    assert Path(summary["plot"]).is_file()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--autograde-modes", "1,9"], "--autograde-modes"),
        (["--agents", "sherlock"], "unknown agent"),
        (["--questions", "7"], "questions"),
        (["--record", "--replay", "x"], "--record and --replay"),
    ],
)
def test_bad_bench_options_are_one_line(tmp_path: Path, args: list[str], needle: str) -> None:
    result = runner.invoke(
        app, ["bench", "detective", "--cases", "1", "--out", str(tmp_path / "r"), *args]
    )
    assert result.exit_code == 2 and needle in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
