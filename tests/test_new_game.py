"""A new game is its package and one registry entry: Nim-21 (``tests/tiny_game``), registered
here, is played by the console's play command, shown by the demo and checked by the conformance
suite, with nothing else written for it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console import demo
from benchmarks.console.cli import COMMANDS, app, play_rows
from benchmarks.console.command_group import Generated, Group
from games.core.conformance import check_game
from games.core.play import play_game
from games.core.registry import game_names, get_game, register_game, unregister_game
from games.core.runlog import EventLog

runner = CliRunner()


@pytest.fixture
def nim() -> Iterator[str]:
    register_game("nim", "tests.tiny_game.entry")
    try:
        yield "nim"
    finally:
        unregister_game("nim")


def test_registering_adds_the_game_and_refuses_a_taken_name(nim: str) -> None:
    assert nim in game_names() and get_game(nim).info.name == nim
    register_game(nim, "tests.tiny_game.entry")  # the same module again: no change
    with pytest.raises(ValueError, match=r"already registered by games\.clue\.entry"):
        register_game("clue", "tests.tiny_game.entry")


def test_the_new_game_conforms(nim: str) -> None:
    check_game(get_game(nim))


def test_the_console_plays_the_new_game_with_its_options(
    nim: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the rows are read from the registry once, when ``play`` is first opened: as a console
    # started after the registration would, this one reads them afresh
    fresh = Group(COMMANDS["play"].summary, Generated(play_rows))
    monkeypatch.setitem(COMMANDS, "play", fresh)
    listed = runner.invoke(app, ["play", "--help"])
    assert listed.exit_code == 0 and nim in listed.output
    shown = runner.invoke(app, ["play", nim, "--help"])
    assert shown.exit_code == 0
    for option in ("--agents", "--seed", "--out", "--record", "--replay"):
        assert option in shown.output
    out = tmp_path / "run"
    played = runner.invoke(app, ["play", nim, "--agents", "greedy,random", "--out", str(out)])
    assert played.exit_code == 0, played.output
    assert "result: took the last counter" in played.output
    log = get_game(nim).read_log(out / "nim-seed0.jsonl")
    assert log.header is not None and [s.agent for s in log.header.seats] == ["greedy", "random"]
    both = runner.invoke(app, ["play", nim, "--record", "--replay", str(out)])
    assert both.exit_code == 2 and "--record and --replay" in both.output


def test_the_demo_shows_the_new_game(nim: str, monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[str] = []
    for name in list(demo.GAME_SECTIONS):
        monkeypatch.setitem(demo.GAME_SECTIONS, name, lambda name=name: shown.append(name))
    monkeypatch.setattr(demo, "tea_section", lambda: None)
    monkeypatch.setattr(demo, "audit_section", lambda: None)
    result = runner.invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    assert shown == [n for n in game_names() if n != nim]
    assert "== nim: random, random, seed 0 ==" in result.output
    assert "result: took the last counter" in result.output


def test_the_viewer_shows_the_new_game(nim: str, tmp_path: Path) -> None:
    log = tmp_path / "nim.jsonl"
    with EventLog(log) as sink:
        play_game(get_game(nim), ["greedy", "random"], 0, log=sink)
    viewed = runner.invoke(app, ["view", str(log)])
    assert viewed.exit_code == 0, viewed.output
    page = Path(viewed.stdout.strip())
    assert page.is_file() and "gumshoe-data" in page.read_text(encoding="utf-8")
