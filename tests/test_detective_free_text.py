"""A free-text case played end to end through the scripted chat server: all questions answered
in one prompt in words, graded by the autograder in modes 1-5 and, where a question has a logic
form, exactly; a file of human grades gives seed 001's Table 2; repeat runs get a bootstrap
interval, questions IDA ratings, and visiting orders a correlation."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.detective.analysis import bootstrap_ci, order_correlation, pairwise_correlation, rate_ida
from games.detective.autograder import RUBRIC_TASK, STOCK_RUBRIC, AutoGrader, RubricReply
from games.detective.case import Case, CaseKnobs, parse_case
from games.detective.entry import game_case
from games.detective.events import DetectiveConfig
from games.detective.freetext import grade_play, play_free_text
from games.detective.human_grades import (
    StudyError,
    agreement_table,
    load_answers,
    load_human_grades,
)
from games.detective.reading import make_reader, read_answer, reading_grade
from reasoning.llm import LLMSettings, make_client
from reasoning.llm.scripted_server import ChatRequest, Step

runner = CliRunner()

CASE = {
    "title": "The vicar's tea",
    "introduction": "The vicar was found dead in his study after tea. Three people called.",
    "questions": [
        {
            "id": "how",
            "text": "How did the vicar die?",
            "model_answer": "arsenic in his tea",
            "marking_examples": [
                {"answer": "arsenic in the tea", "grade": 3},
                {"answer": "poison", "grade": 2},
                {"answer": "a fall", "grade": 0},
            ],
        },
        {
            "id": "who",
            "text": "Who killed the vicar, and why?",
            "model_answer": "Ada Orme, for the will",
            "slots": [
                {
                    "name": "culprit",
                    "kind": "culprit",
                    "answer": "ada",
                    "choices": [
                        {"value": "ada", "text": "Ada Orme (the cook)"},
                        {"value": "basil", "text": "Basil Ashby (the verger)"},
                    ],
                },
                {
                    "name": "motive",
                    "kind": "motive",
                    "answer": "will",
                    "choices": [
                        {"value": "will", "text": "the will"},
                        {"value": "debt", "text": "a debt"},
                    ],
                },
            ],
        },
    ],
    "locations": [
        {"id": "kitchen", "title": "The kitchen", "text": "Ada bought arsenic on Monday."},
        {"id": "study", "title": "The study", "text": "The cup smells of almonds."},
        {"id": "church", "title": "The church", "text": "Ada inherits under the new will."},
    ],
    "solution": "Ada poisoned the tea with arsenic to inherit.",
}


@pytest.fixture
def case() -> Case:
    return parse_case(json.dumps(CASE))


def script(request: ChatRequest) -> Step:
    """Answers by how much has been read; the first unvisited location; a stock rubric; a
    grade by a rule (3 if the answer is in the model answer, 1 if it shares a word, else 0)."""
    prompt = request.last_user
    if "your own words" in prompt:
        read = prompt.count("$$ Location:")
        if read == 0:
            return '{"1": "a fall", "2": "Basil Ashby, for a debt"}'
        if read == 1:
            return '{"1": "poison", "2": "Ada Orme, for a debt"}'
        return '{"1": "arsenic in his tea", "2": "Ada Orme, for the will"}'
    if '"LOCATION"' in prompt:
        first = re.search(r"not visited yet are:\n- (.*)", prompt)
        return json.dumps({"LOCATION": first.group(1) if first else ""})
    if RUBRIC_TASK in prompt:
        return RubricReply(rubric=STOCK_RUBRIC).model_dump_json(by_alias=True)
    if '"discussion"' in prompt:
        return '{"discussion": "d", "induction": "low", "deduction": "high", "abduction": "medium"}'
    answer = re.search(r"^Answer to grade: (.*)$", prompt, re.MULTILINE)
    model = re.search(r"^Model answer: (.*)$", prompt, re.MULTILINE)
    assert answer and model
    given, wanted = answer.group(1).casefold(), model.group(1).casefold()
    if given in wanted:
        return '{"SCORE": 3}'
    shared = set(re.findall(r"[a-z]+", given)) & set(re.findall(r"[a-z]+", wanted))
    return f'{{"SCORE": {1 if shared - {"the", "a", "for"} else 0}}}'


def test_a_free_text_case_plays_and_is_graded_in_every_mode(case: Case, scripted_chat) -> None:  # type: ignore[no-untyped-def]
    server = scripted_chat(script)
    client = make_client(LLMSettings(base_url=server.base_url, model="scripted"))
    play = play_free_text(case, client, seed=1)
    assert play.fallbacks == 0 and play.order == ["kitchen", "study", "church"]
    assert [s.answers["how"] for s in play.stages] == [
        "a fall",
        "poison",
        "arsenic in his tea",
        "arsenic in his tea",
    ]
    first = server.requests[0].last_user
    assert "best guess" in first and "1. How did the vicar die?" in first
    for mode in range(1, 6):
        grades = grade_play(case, play, AutoGrader(client, mode))
        assert [s["how"] for s in grades.auto][-1] == 3
        assert grades.exact == [{"who": 0}, {"who": 1}, {"who": 3}, {"who": 3}]
        assert grades.exact_score is not None and grades.exact_score.final == 3
        assert grades.auto_score.final == 3
    prompts = [r.last_user for r in server.requests]
    assert any("arsenic in the tea -> 3" in p for p in prompts)
    assert sum(RUBRIC_TASK in p for p in prompts) == 4


def test_free_text_answers_are_read_into_elements(case: Case) -> None:
    q = case.questions[1]
    reader = make_reader(case.setting)

    def read(text: str) -> dict[str, str]:
        reading = read_answer(reader, case, q, text)
        return {s.slot: s.option or s.outcome for s in reading.slots}

    assert read("Ada, not Basil; the will") == {"culprit": "ada", "motive": "will"}
    assert read("basil ashby over a debt") == {"culprit": "basil", "motive": "debt"}
    assert read("no idea") == {"culprit": "none", "motive": "none"}
    assert read("Ada or Basil, for the will") == {"culprit": "several", "motive": "will"}
    assert read("not Basil") == {"culprit": "rejected", "motive": "none"}


def test_human_grades_give_table_2(case: Case, tmp_path: Path, scripted_chat) -> None:  # type: ignore[no-untyped-def]
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        "\n".join(
            json.dumps({"id": f"a{i}", "question": q, "answer": text})
            for i, (q, text) in enumerate(
                [
                    ("how", "arsenic in his tea"),
                    ("how", "a fall"),
                    ("how", "poison in his tea"),
                    ("who", "Ada Orme, for the will"),
                ]
            )
        )
    )
    grades = tmp_path / "grades.csv"
    grades.write_text(
        "answer_id,grader,grade\n"
        "a0,h1,3\na1,h1,0\na2,h1,2\na3,h1,3\n"
        "a0,h2,3\na1,h2,0\na2,h2,1\na3,h2,3\n"
    )
    study = load_answers(answers, case)
    humans = load_human_grades(grades, study)
    server = scripted_chat(script)
    client = make_client(LLMSettings(base_url=server.base_url, model="scripted"))
    machines = {}
    for mode in range(1, 6):
        grader = AutoGrader(client, mode)
        machines[f"Mode {mode}"] = {
            a.id: grader.grade(
                case, case.questions[[q.id for q in case.questions].index(a.question)], a.answer
            )
            for a in study
        }
    table = agreement_table(humans, machines)
    assert [r.comparison for r in table] == [
        "Human-Human",
        *(f"Mode {m}-Human" for m in range(1, 6)),
    ]
    human = table[0]
    assert human.percent_exact == 75.0 and math.isclose(human.rms, 0.5)
    # the rule grades a0 3, a1 0, a2 1 (shares "tea"), a3 3
    mode1 = table[1]
    assert mode1.pairs == 2 and math.isclose(mode1.percent_exact, (75.0 + 100.0) / 2)


def test_a_quoted_line_break_stays_in_its_cell(case: Case, tmp_path: Path) -> None:
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"id": "a0", "question": "how", "answer": "x"}) + "\n")
    grades = tmp_path / "grades.csv"
    grades.write_text('answer_id,grader,grade\na0,"Dr\nOrme",1\na0,h1,3\n')
    found = load_human_grades(grades, load_answers(answers, case))
    assert [(g.grader, g.grade) for g in found] == [("Dr\nOrme", 1), ("h1", 3)]


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("answer,grader,grade\n", "header"),
        ("answer_id,grader,grade\na0,h1,7\n", "grade"),
        ("answer_id,grader,grade\nzz,h1,1\n", "unknown answer id"),
        ("answer_id,grader,grade\na0,h1,x\n", "not a number"),
        ("answer_id,grader,grade\na0,h1,1\na0,h1,2\n", "twice"),
        ('answer_id,grader,grade\na0,"Dr\nOrme",1\na0,h1,5\n', ":4: field 'grade'"),
        ('answer_id,grader,grade\na0,"h1,1\n', "not valid CSV"),
    ],
)
def test_bad_grade_files_name_the_line(
    case: Case, tmp_path: Path, content: str, needle: str
) -> None:
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"id": "a0", "question": "how", "answer": "x"}) + "\n")
    grades = tmp_path / "grades.csv"
    grades.write_text(content)
    with pytest.raises(StudyError, match=re.escape(needle)) as err:
        load_human_grades(grades, load_answers(answers, case))
    assert str(err.value).startswith(f"{grades}:")


def test_repeat_runs_ida_and_orders(case: Case, scripted_chat) -> None:  # type: ignore[no-untyped-def]
    ci = bootstrap_ci([[3.0, 1.0], [2.0, 2.0], [3.0, 0.0]], resamples=500)
    assert ci.low <= ci.mean <= ci.high and ci.low < ci.high
    assert math.isclose(ci.mean, 11 / 6)
    assert order_correlation(["a", "b", "c"], ["a", "b", "c"]) == pytest.approx(1.0)
    assert order_correlation(["a", "b", "c"], ["c", "b", "a"]) == pytest.approx(-1.0)
    mean, sd = pairwise_correlation([["a", "b", "c"], ["a", "b", "c"], ["c", "b", "a"]])
    assert mean == pytest.approx(-1 / 3) and sd > 0
    server = scripted_chat(script)
    client = make_client(LLMSettings(base_url=server.base_url, model="scripted"))
    ratings = rate_ida(client, case)
    assert [(r.induction, r.deduction, r.abduction) for r in ratings if r] == [(1, 3, 2)] * 2
    assert case.solution in server.requests[0].last_user
    rate_ida(client, case, intro_only=True)
    assert "The cup smells" not in server.requests[-1].last_user


def _study(tmp_path: Path, case_data: dict[str, object]) -> tuple[Path, Path, Path]:
    case_file = tmp_path / "case.json"
    case_file.write_text(json.dumps(case_data))
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        json.dumps({"id": "a0", "question": "how", "answer": "arsenic in his tea"})
        + "\n"
        + json.dumps({"id": "a1", "question": "who", "answer": "Basil Ashby, for a debt"})
        + "\n"
    )
    grades = tmp_path / "grades.csv"
    grades.write_text("answer_id,grader,grade\na0,h1,3\na1,h1,0\na0,h2,3\na1,h2,1\n")
    return case_file, answers, grades


def test_the_bench_commands_play_and_grade(tmp_path: Path, scripted_chat) -> None:  # type: ignore[no-untyped-def]
    case_file, answers, grades = _study(tmp_path, CASE)
    server = scripted_chat(script)
    llm = ["--base-url", server.base_url, "--model", "scripted"]
    orders = tmp_path / "orders.jsonl"
    orders.write_text(
        json.dumps({"solver": "h1", "order": ["kitchen", "study", "church"]})
        + "\n"
        + json.dumps({"solver": "h2", "order": ["church", "study", "kitchen"]})
        + "\n"
    )
    played = runner.invoke(
        app,
        ["bench", "detective-free", "--case", str(case_file), "--runs", "2", "--ida",
         "--orders", str(orders), "--out", str(tmp_path / "free"), *llm],
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    result = json.loads((tmp_path / "free" / "detective_free.json").read_text())
    assert [r["F"] for r in result["runs"]] == [3.0, 3.0]
    assert result["order_correlation"]["mean"] == pytest.approx(1.0)
    compared = result["order_comparison"]
    assert compared["Other-Other"]["mean"] == pytest.approx(-1.0)
    assert compared["Model-Other"]["mean"] == pytest.approx(0.0)
    assert compared["Model-Other"]["sd"] == pytest.approx(1.0)
    assert "95% bootstrap CI" in played.output and "IDA (intro) how" in played.output
    graded = runner.invoke(
        app,
        ["bench", "detective-agreement", "--case", str(case_file), "--answers", str(answers),
         "--grades", str(grades), "--out", str(tmp_path / "agree"), *llm],
    )  # fmt: skip
    assert graded.exit_code == 0, graded.output
    table = json.loads((tmp_path / "agree" / "detective_agreement.json").read_text())["table"]
    names = [r["comparison"] for r in table]
    assert names == ["Human-Human", *(f"Mode {m}-Human" for m in range(1, 6)), "Exact-Human"]
    assert table[0]["percent_exact"] == 50.0


def test_a_bad_study_file_is_one_line(tmp_path: Path) -> None:
    case_file, answers, grades = _study(tmp_path, CASE)
    grades.write_text("answer_id,grader,grade\na0,h1,9\n")
    result = runner.invoke(
        app,
        ["bench", "detective-agreement", "--case", str(case_file), "--answers", str(answers),
         "--grades", str(grades), "--base-url", "http://127.0.0.1:9", "--model", "m"],
    )  # fmt: skip
    assert result.exit_code == 2 and f"{grades}:2:" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_generated_cases_model_answers_read_back_as_full_marks() -> None:
    """A generated question's logic form grades its own model answer, written in words, 3."""
    for seed in (1, 2):
        generated = game_case(DetectiveConfig(knobs=CaseKnobs(questions=5)), seed)
        reader = make_reader(generated.setting)
        for q in generated.questions:
            reading = read_answer(reader, generated, q, q.model_answer)
            assert reading_grade(q, reading) == 3, (q.model_answer, reading)
