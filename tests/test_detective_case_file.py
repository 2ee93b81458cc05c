"""The case file: it round-trips, and a malformed file gets one line naming file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.detective import Case, CaseError, CaseKnobs, dump_case, generate_case, load_case
from provers import SatProver, SatSession

runner = CliRunner()


@pytest.fixture(scope="module")
def case_text() -> str:
    knobs = CaseKnobs(locations=8, red_herrings=1, distractors=4, words_per_card=40)
    return dump_case(generate_case(1, SatProver(), SatSession, knobs))


def _line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_a_case_file_round_trips(tmp_path: Path, case_text: str) -> None:
    path = tmp_path / "case.json"
    path.write_text(case_text)
    case = load_case(path)
    assert case.checkable and dump_case(case) == case_text


def test_invalid_json_names_its_line(tmp_path: Path, case_text: str) -> None:
    broken = case_text.replace('"title":', '"title"', 1)
    path = tmp_path / "broken.json"
    path.write_text(broken)
    line = _line_of(broken, '"title"')
    with pytest.raises(CaseError, match=rf"broken.json:{line}:\d+: not valid JSON"):
        load_case(path)


@pytest.mark.parametrize(
    ("edit", "needle", "message"),
    [
        (
            lambda d: d["questions"][1]["slots"][0].update(answer="nobody"),
            '"answer": "nobody"',
            "questions.1.slots.0.answer",
        ),
        (lambda d: d["locations"][3].update(title=7), '"title": 7', "locations.3.title"),
        (lambda d: d["setting"]["people"][2].update(id="Bad Id"), '"Bad Id"', "people.2.id"),
        (lambda d: d["knobs"].update(questions=9), '"questions": 9', "knobs.questions"),
        (lambda d: d["locations"][2]["facts"].append("at_x &"), '"at_x &"', "not a formula"),
    ],
    ids=["answer-not-a-choice", "title-not-text", "bad-id", "knob-out-of-range", "bad-formula"],
)
def test_a_bad_field_names_its_line(
    tmp_path: Path, case_text: str, edit: object, needle: str, message: str
) -> None:
    data = json.loads(case_text)
    assert callable(edit)
    edit(data)
    text = json.dumps(data, indent=2)
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(CaseError) as info:
        load_case(path)
    line = _line_of(text, needle)
    assert str(info.value).startswith(f"{path}:{line}: ")
    assert message in str(info.value)


def test_cli_generate_then_check(tmp_path: Path) -> None:
    out = tmp_path / "case.json"
    options = ["--seed", "3", "--out", str(out), "--locations", "10", "--short-chains"]
    made = runner.invoke(app, ["detective", "generate", *options])
    assert made.exit_code == 0, made.output
    assert "best overall score" in made.output
    assert len(Case.model_validate_json(out.read_text()).locations) == 10
    checked = runner.invoke(app, ["detective", "check", str(out)])
    assert checked.exit_code == 0, checked.output
    assert "passes" in checked.output and "case: P" in checked.output


def test_cli_rejects_a_malformed_case_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n  "title": "x",\n  "questions": [\n')
    result = runner.invoke(app, ["detective", "check", str(path)])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
    assert result.output.startswith(f"error: {path}:4:1: not valid JSON")
    missing = runner.invoke(app, ["detective", "check", str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and "no such file" in missing.output


def test_cli_rejects_bad_knobs(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "detective",
            "generate",
            "--seed",
            "1",
            "--out",
            str(tmp_path / "c.json"),
            "--red-herrings",
            "20",
        ],
    )
    assert result.exit_code == 2
    assert "--red-herrings" in result.output


def test_cli_check_computes_missing_unlock_sets(tmp_path: Path, case_text: str) -> None:
    data = json.loads(case_text)
    for q in data["questions"]:
        q.pop("unlock_sets")
        for slot in q["slots"]:
            slot.pop("unlock_sets")
    path = tmp_path / "bare.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["detective", "check", str(path)])
    assert result.exit_code == 0, result.output
    assert "computing the missing unlock sets" in result.output and "passes" in result.output
