"""`gumshoe play detective` and `gumshoe audit detective`: a played case with its grades and
scores, its log audited element by element, a user's case without logic graded by the
autograder only, bad input as one line with exit status 2; and the demo's detective section."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from benchmarks.console.demo import detective_section
from games.detective import CaseKnobs, dump_case
from games.detective.entry import game_case
from games.detective.events import DetectiveConfig
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer, Step

runner = CliRunner()
SMALL = ["--questions", "2", "--locations", "6"]


def test_play_then_audit_a_log(tmp_path: Path) -> None:
    log = tmp_path / "detective-seed7.jsonl"
    played = runner.invoke(
        app, ["play", "detective", "--seed", "7", *SMALL, "--out", str(tmp_path)]
    )
    assert played.exit_code == 0, played.output
    assert "stage 0:" in played.output and "best achievable O" in played.output
    audited = runner.invoke(app, ["audit", "detective", str(log)])
    assert audited.exit_code == 0, audited.output
    assert "detective audit of" in audited.output and "sound" in audited.output
    as_json = runner.invoke(app, ["audit", "detective", str(log), "--json"])
    (seat,) = json.loads(as_json.output)["seats"]
    assert seat["stated"] == seat["sound"] > 0 and seat["lucky"] == seat["wrong"] == 0


def test_a_tampered_or_broken_log_is_one_line(tmp_path: Path) -> None:
    log = tmp_path / "detective-seed7.jsonl"
    runner.invoke(app, ["play", "detective", "--seed", "7", *SMALL, "--out", str(tmp_path)])
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["seed"] = 8
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    result = runner.invoke(app, ["audit", "detective", str(log)])
    assert result.exit_code == 2 and "detective-seed7.jsonl:2" in result.output
    log.write_text("{not json\n")
    result = runner.invoke(app, ["audit", "detective", str(log)])
    assert result.exit_code == 2 and "detective-seed7.jsonl:1" in result.output
    assert "Traceback" not in result.output


def without_logic(tmp_path: Path) -> Path:
    """A generated case stripped of its setting and formulas, as a user might write one."""
    knobs = CaseKnobs(locations=6, questions=2, red_herrings=1, distractors=3, words_per_card=30)
    data: dict[str, Any] = json.loads(dump_case(game_case(DetectiveConfig(knobs=knobs), 7)))
    for key in ("setting", "intro_facts", "intro_sentences", "knobs", "seed"):
        data.pop(key, None)
    for loc in data["locations"]:
        loc.pop("facts", None)
        loc.pop("sentences", None)
    for q in data["questions"]:
        for slot in q["slots"]:
            for choice in slot["choices"]:
                choice.pop("formula", None)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data, indent=2))
    return path


def test_a_case_without_logic_is_graded_by_the_autograder_only(tmp_path: Path) -> None:
    case = without_logic(tmp_path)

    def script(request: ChatRequest) -> Step:
        if '"SCORE"' in request.last_user:
            return '{"SCORE": 1}'
        if '"LOCATION"' in request.last_user:
            return "not JSON at all"
        return '{"ANSWER": {}}'

    with ScriptedChatServer(script) as server:
        result = runner.invoke(
            app,
            ["play", "detective", "--case", str(case), "--agents", "llm", "--autograde", "5",
             "--base-url", server.base_url, "--model", "scripted"],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "grades ungraded" in result.output and "score: P" not in result.output
    assert result.output.count("autograder mode 5:") == 2
    assert "final answer 1" in result.output
    assert "fallbacks: 5" in result.output  # every choice but the forced last one


def test_bad_play_input_is_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"title": "x",\n "questions": []}\n')
    for args in (
        ["--case", str(broken)],
        ["--agents", "sherlock"],
        ["--autograde", "6"],
        ["--locations", "2"],
    ):
        result = runner.invoke(app, ["play", "detective", *args])
        assert result.exit_code == 2, (args, result.output)
        assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output
    short = runner.invoke(app, ["play", "detective", "--locations", "4"])
    assert short.exit_code == 2
    assert "4 locations less 3 red herrings leave 1 for clues; it must be 2 to 16" in short.output


def test_the_demo_section_plays_a_case_to_the_best_achievable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    detective_section()
    out = capsys.readouterr().out
    scores = re.search(r"O (\d\.\d\d); best achievable O (\d\.\d\d)", out)
    assert scores is not None and scores.group(1) == scores.group(2)
    assert "after the introduction" in out and " lucky, 0 wrong" in out
