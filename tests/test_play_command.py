"""One table drives the one ``gumshoe play <game>`` through every game (and Nim-21, registered
here, which brings nothing but its entry): the shared options and the game's own in the help,
one name filling every seat, the exit codes (2 bad input, 1 a game that fails, 130 Ctrl-C), and
an LLM seat recorded against the scripted chat server and replayed to the same log."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import COMMANDS, app, play_rows
from benchmarks.console.command_group import Generated, Group
from games.core.registry import get_game, register_game, unregister_game
from reasoning.llm.scripted_server import Fail, ScriptedChatServer

runner = CliRunner()


@dataclass(frozen=True)
class Game:
    """One row: the game, its own options (with a bad value of one), a fast offline game, one
    offline name and the seats it fills, and a seat list with an LLM seat."""

    name: str
    own: tuple[str, ...]
    bad: tuple[str, str, str]
    quick: tuple[str, ...]
    one: str
    seats: int
    llm: tuple[str, ...] | None


GAMES = (
    Game(
        "clue",
        ("--rounds",),
        ("--rounds", "0", "--rounds"),
        ("--rounds", "2"),
        "prover",
        6,
        ("--agents", "llm,random,random", "--rounds", "2"),
    ),
    Game(
        "hanabi",
        ("--players", "--scoring", "--view", "--sherlock-view", "--best-of", "--invalid"),
        ("--scoring", "best", "--scoring"),
        ("--players", "2"),
        "symbolic",
        2,
        ("--players", "2", "--agents", "watson,symbolic"),
    ),
    Game(
        "undercover",
        (
            "--pair",
            "--spy-agent",
            "--prover",
            "--timeout",
            "--pairs-file",
            "--lexicon",
            "--scores",
            "--reader",
        ),
        ("--pair", "Tea/Coffee", "no word pair 'Tea/Coffee'"),
        (),
        "plain",
        6,
        ("--agents", "prover*5,nli"),
    ),
    Game(
        "detective",
        ("--case", "--questions", "--locations", "--autograde"),
        ("--autograde", "9", "--autograde"),
        ("--questions", "2", "--locations", "6"),
        "prover",
        1,
        ("--agents", "llm", "--questions", "2", "--locations", "6"),
    ),
    Game(
        "mystery",
        ("--script", "--alibis"),
        ("--script", "no-such-script.json", "no-such-script.json"),
        (),
        "prover",
        5,
        ("--agents", "llm-random,prover*4"),
    ),
    Game("nim", (), ("--seed", "-1", "--seed"), (), "greedy", 2, None),
)
IDS = [g.name for g in GAMES]


@pytest.fixture(autouse=True)
def nim(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Nim-21 registered, and the ``play`` group read afresh so that it lists it."""
    register_game("nim", "tests.tiny_game.entry")
    fresh = Group(COMMANDS["play"].summary, Generated(play_rows))
    monkeypatch.setitem(COMMANDS, "play", fresh)
    try:
        yield
    finally:
        unregister_game("nim")


def play(game: Game, *args: str) -> Any:
    return runner.invoke(app, ["play", game.name, *args])


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_help_lists_the_shared_options_and_the_games_own(game: Game) -> None:
    shown = play(game, "--help")
    assert shown.exit_code == 0, shown.output
    shared = ("--agents", "--seed", "--out", "--model", "--base-url", "--reasoning-effort")
    for option in (*shared, "--record", "--replay", *game.own):
        assert option in shown.output, option
    assert ("--seats" in shown.output) == (get_game(game.name).info.max_players > 1)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_one_name_fills_every_seat(game: Game, tmp_path: Path) -> None:
    played = play(game, *game.quick, "--agents", game.one, "--out", str(tmp_path))
    assert played.exit_code == 0, played.output
    (path,) = tmp_path.glob(f"{game.name}-*.jsonl")
    assert played.output.rstrip().endswith(f"log: {path}")
    seats = get_game(game.name).read_log(path).header.seats
    assert [s.agent for s in seats] == [game.one] * game.seats


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_bad_input_exits_2_in_one_line(game: Game, tmp_path: Path) -> None:
    flag, value, named = game.bad
    for args, said in (
        ((flag, value), named),
        (("--agents", "psychic"), "unknown agent 'psychic'"),
        (("--record",), "--record needs --out"),
        (("--seed", "1", "--replay", str(tmp_path)), "holds no game log"),
    ):
        result = play(game, *args)
        assert result.exit_code == 2, (args, result.output)
        assert said in result.output and result.output.count("\n") == 1, result.output


@pytest.mark.parametrize("game", [g for g in GAMES if g.llm is not None], ids=lambda g: g.name)
def test_a_failing_endpoint_exits_1_and_an_llm_seat_without_one_exits_2(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert game.llm is not None
    with ScriptedChatServer(lambda request: Fail(400, "refused")) as server:
        failed = play(game, *game.llm, "--base-url", server.base_url, "--model", "m")
    assert failed.exit_code == 1, failed.output
    last = failed.output.splitlines()[-1]
    assert last.startswith("error: chat endpoint") and last.endswith("refused")
    for variable in ("GUMSHOE_LLM_BASE_URL", "GUMSHOE_LLM_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(variable, raising=False)
    missing = play(game, *game.llm)
    assert missing.exit_code == 2 and "needs an LLM endpoint" in missing.output


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_ctrl_c_exits_130(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module("games.core.play"), "play_game", interrupted)
    result = play(game, *game.quick)
    assert result.exit_code == 130 and result.stderr.startswith("interrupted")


@pytest.mark.parametrize("game", [g for g in GAMES if g.llm is not None], ids=lambda g: g.name)
def test_a_recorded_llm_game_replays_to_the_same_log(game: Game, tmp_path: Path) -> None:
    """The scripted server answers nothing usable: every LLM decision falls back to a counted
    random legal action, and the replay, with no endpoint, repeats each call and each move."""
    assert game.llm is not None
    out, again = tmp_path / "recorded", tmp_path / "again"
    with ScriptedChatServer(lambda request: "no idea") as server:
        endpoint = ("--base-url", server.base_url, "--model", "m")
        recorded = play(game, *game.llm, "--seed", "1", "--out", str(out), "--record", *endpoint)
        assert recorded.exit_code == 0, recorded.output
        assert server.requests
    replayed = play(game, "--replay", str(out), "--out", str(again))
    assert replayed.exit_code == 0, replayed.output
    (log,) = out.glob(f"{game.name}-*.jsonl")
    assert (again / log.name).read_text() == log.read_text()
    assert list((out / "llm").glob("*.jsonl"))
