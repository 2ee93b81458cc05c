"""Seats files, ``--reasoning-effort`` and ``--invalid`` on ``play hanabi`` and ``bench hanabi``,
through the scripted chat server: a two-model table in one run, each seat's model and endpoint
recorded; every bad seats file is one line naming file and field, exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.hanabi.entry import ENTRY
from reasoning.llm.pytest_plugin import StartServer
from tests.test_hanabi_llm import SEAT, scripted

runner = CliRunner()


def write_jsonl(path: Path, entries: list[dict[str, str]]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    return path


def test_a_seats_file_puts_two_models_at_one_table(
    tmp_path: Path, scripted_chat: StartServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seat 0 asks model-a at the command's endpoint, seat 1 model-b at its own endpoint with
    its own key; the log's seats name each seat's model."""
    shared, own = scripted_chat(scripted), scripted_chat(scripted)
    monkeypatch.setenv("SEAT1_KEY", "key-of-seat-1")
    seats = write_jsonl(
        tmp_path / "seats.jsonl",
        [
            {"agent": "sherlock", "model": "model-a"},
            {
                "agent": "watson",
                "model": "model-b",
                "base_url": own.base_url,
                "api_key_env": "SEAT1_KEY",
            },
        ],
    )
    out = tmp_path / "run"
    args = ["bench", "hanabi", "--seats", str(seats), "--seeds", "1", "--out", str(out)]
    result = runner.invoke(app, [*args, "--base-url", shared.base_url, "--quiet"])
    assert result.exit_code == 0, result.output
    assert {(SEAT.search(r.last_user)[1], r.model) for r in shared.requests} == {("0", "model-a")}  # type: ignore[index]
    assert {(SEAT.search(r.last_user)[1], r.model) for r in own.requests} == {("1", "model-b")}  # type: ignore[index]
    assert {r.headers["authorization"] for r in own.requests} == {"Bearer key-of-seat-1"}
    log = ENTRY.read_log(out / "games" / "hanabi-p2-seed0.jsonl")
    assert log.header is not None
    assert [s.agent for s in log.header.seats] == ["sherlock@model-a", "watson@model-b"]


def test_play_takes_a_json_seats_file_and_the_reasoning_effort(
    tmp_path: Path, scripted_chat: StartServer
) -> None:
    server = scripted_chat(scripted)
    seats = tmp_path / "seats.json"
    seats.write_text(json.dumps({"seats": [{"agent": "watson", "model": "m1"}, {"agent": "hat"}]}))
    args = ["play", "hanabi", "--seats", str(seats), "--seed", "1", "--base-url", server.base_url]
    result = runner.invoke(app, [*args, "--reasoning-effort", "low"])
    assert result.exit_code == 0, result.output
    assert "2 players" in result.output and "watson@m1, hat" in result.output
    assert server.requests and {r.body["reasoning_effort"] for r in server.requests} == {"low"}
    assert {r.model for r in server.requests} == {"m1"}


def test_bench_sends_the_reasoning_effort(tmp_path: Path, scripted_chat: StartServer) -> None:
    server = scripted_chat(scripted)
    args = ["bench", "hanabi", "--players", "2", "--seeds", "1", "--agents", "watson@m,hat"]
    args += ["--base-url", server.base_url, "--out", str(tmp_path), "--quiet"]
    result = runner.invoke(app, [*args, "--reasoning-effort", "high"])
    assert result.exit_code == 0, result.output
    assert server.requests and {r.body["reasoning_effort"] for r in server.requests} == {"high"}
    bad = runner.invoke(app, [*args[:-3], "--out", str(tmp_path / "b"), "--reasoning-effort", "x"])
    assert bad.exit_code == 2 and "reasoning_effort" in bad.output
    assert len(bad.output.strip().splitlines()) == 1


def test_play_hanabi_reprompts_under_the_invalid_policy(scripted_chat: StartServer) -> None:
    """``--invalid reprompt`` on play: an answer that stays invalid is asked again up to the
    bound and the game ends in one line, never with a random move; ``fallback`` plays on."""
    server = scripted_chat(lambda request: "no JSON here")
    args = ["play", "hanabi", "--players", "2", "--agents", "watson@m,hat", "--seed", "1"]
    args += ["--base-url", server.base_url]
    result = runner.invoke(app, [*args, "--invalid", "reprompt"])
    assert result.exit_code == 1 and "no valid answer in 11 asks" in result.output
    assert len(server.requests) == 11
    fallback = runner.invoke(app, [*args, "--invalid", "fallback"])
    assert fallback.exit_code == 0, fallback.output
    wrong = runner.invoke(app, [*args, "--invalid", "never"])
    assert wrong.exit_code == 2 and "option '--invalid'" in wrong.output


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            "s.json",
            '{"seats": [{"agent": "hat"}, {"agent": "nobody"}]}',
            "s.json:1: field 'seats.1.agent'",
        ),
        (
            "s.json",
            '{"seats": [\n{"agent": "hat"},\n{"agent": "hat", "model": "m"}]}',
            "s.json:3: field 'seats.1.model': agent 'hat' asks no LLM",
        ),
        ("s.json", '{"seats": [{"agent": "hat"}]}', "s.json: 1 seats; a table has 2 to 5"),
        ("s.json", '{"seats": [{"agent": "hat"}, {"agent": "hat"},', "s.json:1:"),
        (
            "s.jsonl",
            '{"agent": "hat"}\n{"agent": "watson", "base_url": "ftp://x"}\n',
            "s.jsonl:2: field 'base_url'",
        ),
        (
            "s.jsonl",
            '{"agent": "hat"}\n{"agent": "watson", "api_key_env": "NO_SUCH_GUMSHOE_KEY"}\n',
            "s.jsonl:2: field 'api_key_env': environment variable NO_SUCH_GUMSHOE_KEY is not set",
        ),
        ("s.jsonl", '{"agent": "hat"}\n', "s.jsonl: 1 seats; a table has 2 to 5"),
        (
            "s.jsonl",
            '{"agent": "hat"}\n{"agent": "sherlock@m"}\n',
            "s.jsonl:2: field 'agent': one agent name",
        ),
        ("s.jsonl", '{"agent": "hat"}\n{"agent": "hat", "seat": 1}\n', "s.jsonl:2: field 'seat'"),
    ],
)
def test_a_bad_seats_file_is_one_line_naming_file_and_field(
    tmp_path: Path, name: str, text: str, expected: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    for command in (["play", "hanabi"], ["bench", "hanabi", "--out", str(tmp_path / "run")]):
        result = runner.invoke(app, [*command, "--seats", str(path)])
        assert result.exit_code == 2, result.output
        assert result.output.count("\n") == 1 and expected in result.output, result.output


def test_seats_and_agents_or_another_player_count_are_refused(tmp_path: Path) -> None:
    seats = write_jsonl(tmp_path / "s.jsonl", [{"agent": "hat"}, {"agent": "symbolic"}])
    both = runner.invoke(app, ["play", "hanabi", "--seats", str(seats), "--agents", "hat"])
    assert both.exit_code == 2 and "--agents and --seats" in both.output
    count = runner.invoke(app, ["play", "hanabi", "--seats", str(seats), "--players", "3"])
    assert count.exit_code == 2 and "names 2 seats" in count.output
    args = ["bench", "hanabi", "--seats", str(seats), "--players", "2,3", "--out", str(tmp_path)]
    assert "names 2 seats" in runner.invoke(app, args).output
