"""A new game is its package and one registry entry: Nim-21 (``tests/tiny_game``), registered
here, is played, benchmarked, audited, viewed, exported as a dataset and evaluated as an
inspect_ai task, shown by the demo and checked by the conformance suite, with nothing written for
it outside its own package."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console import cli, demo
from benchmarks.console.cli import COMMANDS, app, audit_rows, bench_rows, play_rows
from benchmarks.console.command_group import Generated, Group
from games.core.conformance import check_game
from games.core.registry import game_names, get_game, register_game, unregister_game

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def nim(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Nim-21 registered, and the ``play``, ``bench`` and ``audit`` groups read afresh (as a
    console started after the registration would read them)."""
    register_game("nim", "tests.tiny_game.entry")
    monkeypatch.setitem(COMMANDS, "play", Group(COMMANDS["play"].summary, Generated(play_rows)))
    monkeypatch.setitem(COMMANDS, "bench", Group(COMMANDS["bench"].summary, Generated(bench_rows)))
    monkeypatch.setitem(COMMANDS, "audit", Group(COMMANDS["audit"].summary, Generated(audit_rows)))
    try:
        yield "nim"
    finally:
        unregister_game("nim")


def test_nothing_outside_the_games_package_names_it() -> None:
    for package in ("reasoning", "formalize", "provers", "games", "benchmarks"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "tiny_game" not in text and '"nim"' not in text, path


def test_registering_adds_the_game_and_refuses_a_taken_name(nim: str) -> None:
    assert nim in game_names() and get_game(nim).info.name == nim
    register_game(nim, "tests.tiny_game.entry")  # the same module again: no change
    with pytest.raises(ValueError, match=r"already registered by games\.clue\.entry"):
        register_game("clue", "tests.tiny_game.entry")


def test_the_new_game_conforms(nim: str) -> None:
    check_game(get_game(nim))


def test_play_audit_view_bench_and_export(nim: str, tmp_path: Path) -> None:
    listed = runner.invoke(app, ["play", "--help"])
    assert listed.exit_code == 0 and nim in listed.output
    shown = runner.invoke(app, ["play", nim, "--help"])
    assert shown.exit_code == 0
    for option in ("--agents", "--seed", "--seats", "--out", "--record", "--replay", "--pile"):
        assert option in shown.output
    out = tmp_path / "play"
    played = runner.invoke(app, ["play", nim, "--agents", "greedy,random", "--out", str(out)])
    assert played.exit_code == 0, played.output
    assert "result: took the last counter" in played.output
    log = out / "nim-seed0.jsonl"
    assert [s.agent for s in get_game(nim).read_log(log).header.seats] == ["greedy", "random"]
    small = runner.invoke(app, ["play", nim, "--pile", "5", "--out", str(tmp_path / "small")])
    assert small.exit_code == 0, small.output
    bad = runner.invoke(app, ["play", nim, "--pile", "0"])
    assert bad.exit_code == 2 and "option '--pile'" in bad.output

    audited = runner.invoke(app, ["audit", nim, str(log), "--json"])
    assert audited.exit_code == 0, audited.output
    record = json.loads(audited.stdout)
    assert record["game"] == nim and record["figures"]["winner"] in (0, 1)

    viewed = runner.invoke(app, ["view", str(log)])
    assert viewed.exit_code == 0, viewed.output
    page = Path(viewed.stdout.strip())
    assert page.is_file() and "gumshoe-data" in page.read_text(encoding="utf-8")

    run = tmp_path / "run"
    args = ["bench", nim, "--games", "4", "--agents", "greedy,random", "--out", str(run)]
    benched = runner.invoke(app, [*args, "--json", "--quiet"])
    assert benched.exit_code == 0, benched.output
    summary = json.loads(benched.stdout)
    assert summary["finished"] == 4 and {r["agent"] for r in summary["per_agent"]} == {
        "greedy",
        "random",
    }
    assert sum(r["wins"] for r in summary["per_agent"]) == 4
    again = runner.invoke(app, [*args, "--quiet"])
    assert again.exit_code == 0 and "4 games finished" in again.output

    exported = runner.invoke(app, ["export", "dataset", str(run), "--out", str(tmp_path / "ds")])
    assert exported.exit_code == 0, exported.output
    assert (tmp_path / "ds" / "README.md").is_file()


def test_an_inspect_task_plays_it_with_the_model_at_its_llm_seat(nim: str, tmp_path: Path) -> None:
    pytest.importorskip("inspect_ai", reason="inspect_ai (the [inspect] extra) is not installed")
    from inspect_ai import eval as inspect_eval

    from benchmarks.inspect_eval.tasks import any_game
    from tests.test_inspect_eval import mock_model

    assert get_game(nim).model_seats() == "llm,random"
    (log,) = inspect_eval(
        any_game(game=nim, seeds=2), model=mock_model(), log_dir=str(tmp_path), display="none"
    )
    assert log.status == "success" and log.samples is not None and len(log.samples) == 2
    for sample in log.samples:
        assert any(e.event == "model" for e in sample.events)
        assert sample.scores and sample.scores["gumshoe_audit"].value["fallbacks"] > 0


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


def test_the_bench_group_lists_a_generic_bench_only_for_games_without_one(nim: str) -> None:
    rows = bench_rows()
    assert rows[nim].target == "benchmarks.game_bench:game_bench_command"
    for name in game_names():
        if name != nim:
            assert rows[name] is cli.BENCHES[name]
