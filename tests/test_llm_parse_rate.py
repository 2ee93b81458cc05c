"""The parse-rate measurement: labels read from the games' answer formats, JSON handed back as
labelled lines to the games' own parsers, asks tallied by type (against the scripted server)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.llm_parse_rate import (
    Choices,
    LabelledJSONClient,
    asked_labels,
    clue_choices,
    format_labels,
    main,
    results,
    run_game,
)
from games.clue.events import ClueConfig
from games.clue.llm_prompts import DEDUCTION_FORMAT, MOVE_FORMAT, SHOW_FORMAT
from games.undercover.prompts import NLI_DESCRIBE_TASK, NLI_VOTE_TASK
from reasoning.llm import LLMSettings
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer, Step

JSON_ANSWERS = {
    ("ANALYSIS", "DEDUCTIONS"): {"analysis": "Nothing is known yet.", "deductions": []},
    ("SUMMARY", "REASONING", "SUGGESTION", "ACCUSATION"): {
        "summary": "s",
        "reasoning": "r",
        "suggestion": "Miss Scarlet, Rope, Kitchen",
        "accusation": "NONE",
    },
}


def test_labels_come_from_the_answer_format() -> None:
    assert format_labels("State...\n" + DEDUCTION_FORMAT) == ("ANALYSIS", "DEDUCTIONS")
    assert format_labels(MOVE_FORMAT) == ("SUMMARY", "REASONING", "SUGGESTION", "ACCUSATION")
    assert format_labels(SHOW_FORMAT) == ("REASONING", "SHOW")
    assert format_labels(NLI_DESCRIBE_TASK) == ("DESCRIPTION",)
    assert format_labels(NLI_VOTE_TASK) == ("VOTE",)
    assert format_labels("Say anything.") == ()
    free = Choices().model(("REASONING", "SHOW")).model_json_schema()
    assert free["required"] == ["reasoning", "show"]
    assert free["properties"]["show"] == {"title": "Show", "type": "string"}
    clue = clue_choices(ClueConfig(players=3)).model(("ANALYSIS", "DEDUCTIONS"))
    deductions = clue.model_json_schema()["properties"]["deductions"]
    assert deductions["maxItems"] == 6 and "P2 holds Rope" in deductions["items"]["enum"]


def scripted(request: ChatRequest) -> Step:
    """JSON for the two turn asks; anything else gets a reply no parser takes."""
    labels = asked_labels(str(m["content"]) for m in request.messages if m["role"] == "user")
    answer = JSON_ANSWERS.get(labels)
    return json.dumps(answer) if answer is not None else "I pass."


def test_a_clue_game_asks_for_json_and_the_game_parser_reads_it(tmp_path: Path) -> None:
    with ScriptedChatServer(scripted) as srv:
        settings = LLMSettings(base_url=srv.base_url, model="scripted-model")
        client = run_game("clue", "on", 4, settings, record_dir=tmp_path)
    assert all(r.format_type == "json_schema" for r in srv.requests)
    deduce, move = client.tallies["clue deduction"], client.tallies["clue move"]
    final = client.tallies["clue final accusation"]  # after the last round, with a deduction
    assert move.asks == move.first_try == move.calls == move.format_first == 3
    assert final.asks == 1
    assert deduce.asks == deduce.first_try == deduce.calls == 4 and deduce.rate == 1.0
    assert final.first_try == 0 and final.calls == 4
    shows = client.tallies.get("clue show card")
    assert shows is None or (shows.first_try == 0 and shows.calls == 4 * shows.asks)
    replayed = run_game("clue", "on", 4, settings, replay_dir=tmp_path)
    assert replayed.tallies == client.tallies
    rows = results({"on": [client]})
    assert [r.answer_type for r in rows][:3] == [
        "clue deduction",
        "clue final accusation",
        "clue move",
    ]


def test_with_structured_output_off_calls_pass_through() -> None:
    with ScriptedChatServer(scripted) as srv:
        settings = LLMSettings(base_url=srv.base_url, model="scripted-model")
        client = run_game("clue", "off", 4, settings)
    assert all(r.format_type is None for r in srv.requests)
    assert isinstance(client, LabelledJSONClient)
    move = client.tallies["clue move"]
    # JSON is no labelled text, but the agent reads a JSON object that fills its answer model.
    assert move.format_first == 0 and move.first_try == move.asks == 3


def test_bad_options_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["--out", str(tmp_path), "--modes", "sometimes"]) == 2
    assert "--modes: 'sometimes' is not on or off" in capsys.readouterr().err


def test_a_missing_recording_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["--out", str(tmp_path), "--replay", str(tmp_path), "--games", "clue"]) == 2
    assert "clue-structured-on-seed1.jsonl" in capsys.readouterr().err


FIXTURES = Path(__file__).parent / "fixtures" / "llm"


@pytest.mark.parametrize(
    ("game", "seeds", "expected"),
    [
        (
            "clue",
            "2",
            {"clue deduction": (1, 1, 1), "clue move": (1, 1, 1), "clue show card": (4, 4, 4)},
        ),
        ("undercover", "6,7", {"undercover describe": (4, 4, 2), "undercover vote": (4, 4, 4)}),
    ],
)
def test_recorded_live_games_replay_to_their_parse_rates(
    tmp_path: Path, game: str, seeds: str, expected: dict[str, tuple[int, int, int]]
) -> None:
    """Games played against SmolLM2-135M with the games' answer models, replayed exactly: the
    asks, first replies that fill the model, and first replies the game accepted."""
    argv = ["--out", str(tmp_path), "--modes", "on", "--seeds", seeds, "--games", game]
    assert main([*argv, "--clue-rounds", "5", "--replay", str(FIXTURES)]) == 0
    report = json.loads((tmp_path / "parse_rate.json").read_text())
    found = {
        t["answer_type"]: (t["asks"], t["format_first"], t["first_try"]) for t in report["types"]
    }
    assert found == expected
