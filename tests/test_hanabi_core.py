"""Hanabi on the game core: logs with the common header and end, replay, the play command."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from benchmarks.runner import MemoryLog
from formalize.hanabi.deck import mask_of, parse_card
from games.core import get_game, replay
from games.core.play import play_game
from games.core.runlog import LogError
from games.hanabi.events import GameEnd
from games.hanabi.render import knowledge_text, mask_text

runner = CliRunner()


def test_a_logged_game_ends_with_its_score_and_replays(tmp_path: Path) -> None:
    entry = get_game("hanabi")
    log = MemoryLog()
    result = play_game(entry, ("symbolic",) * 3, 5, log=log).result
    path = tmp_path / "game.jsonl"
    path.write_text("".join(line + "\n" for line in log.lines))
    read = entry.read_log(path)
    last = read.events[-1]
    assert isinstance(last, GameEnd)
    assert read.end is not None and read.end.returns == (float(last.score),) * 3
    assert result.returns == read.end.returns and read.end.reason == last.reason
    assert replay(entry, read).is_terminal()


def test_a_log_with_a_changed_move_does_not_replay(tmp_path: Path) -> None:
    entry = get_game("hanabi")
    log = MemoryLog()
    play_game(entry, ("random",) * 2, 1, log=log)
    lines = list(log.lines)
    lines[3] = lines[3].replace('"turn":2', '"turn":7')
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    with pytest.raises(LogError, match=r"bad.jsonl:4: turn 7 where 2 was due"):
        entry.read_log(path)


def test_card_sets_print_short() -> None:
    r1, y2, g5 = parse_card("R1"), parse_card("Y2"), parse_card("G5")
    assert mask_text(mask_of([r1])) == "R1"
    assert mask_text(mask_of([r1, y2])) == "R1|Y2"
    assert mask_text((1 << 25) - 1 - (1 << g5)) == "[RYGWB][12345] but G5"


def test_play_prints_each_turn_with_the_acting_seats_knowledge(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "hanabi", "--seed", "3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "turn   1  P0 (symbolic)" in result.output
    assert "P2 knows (exact): 0:[RYGWB][1] 1-2:[RYGWB][2345] 3:[RYGWB][1]" in result.output
    assert "score (fireworks): " in result.output
    assert (tmp_path / "hanabi-p3-seed3.jsonl").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "6"], "players"),
        (["--agents", "cheater"], "unknown agent 'cheater'"),
        (["--players", "3", "--agents", "symbolic,random"], "agents: 2 seats named for 3 players"),
        (["--view", "all"], "--view"),
        (["--scoring", "best"], "scoring"),
    ],
)
def test_bad_play_options_exit_2_in_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", "hanabi", *args])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_neighbouring_slots_with_one_set_share_an_entry() -> None:
    from formalize.hanabi.knowledge import HandKnowledge

    r1, y2 = mask_of([parse_card("R1")]), mask_of([parse_card("Y2")])
    knowledge = HandKnowledge(
        hints=(r1, r1, y2, r1), exact=(r1, r1, y2, y2), probabilities=(), deals=1
    )
    assert knowledge_text(knowledge, "hints") == "0-1:R1 2:Y2 3:R1"
    assert knowledge_text(knowledge, "exact") == "0-1:R1 2-3:Y2"
