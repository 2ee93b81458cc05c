"""Logs as datasets: decision records, hands sampled from exact knowledge, rollout values."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.hanabi.annotate import (
    Z95,
    DecisionRecord,
    correlation,
    interval,
    move_values,
    rank,
    sample_hand,
    sample_until_separated,
)
from games.hanabi.engine import HanabiGame
from games.hanabi.events import HanabiConfig
from games.hanabi.knowledge import seat_knowledge
from games.hanabi.symbolic import SymbolicAgent
from reasoning.llm.scripted_server import ScriptedChatServer
from tests.test_hanabi_llm import scripted

runner = CliRunner()


def played(players: int, seed: int, moves: int) -> HanabiGame:
    game = HanabiGame(HanabiConfig(players=players), seed)
    agents = [SymbolicAgent(s) for s in range(players)]
    for _ in range(moves):
        if game.is_terminal():
            break
        game.apply({game.current: agents[game.current].act(game.observation(game.current))})
    return game


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 5), st.integers(0, 500), st.integers(0, 40), st.integers(0, 99))
def test_sampled_hands_are_consistent_with_exact_knowledge(
    players: int, seed: int, moves: int, draw: int
) -> None:
    game = played(players, seed, moves)
    if game.is_terminal():
        return
    obs = game.observation(game.current)
    hand = sample_hand(obs, random.Random(draw))
    exact = seat_knowledge(obs).exact
    assert all(mask >> card & 1 for mask, card in zip(exact, hand, strict=True))
    copy = game.determinized(game.current, hand, draw)
    assert copy.hands[game.current] == hand and sum(copy.deck) == sum(game.deck)
    assert game.hands[game.current] != hand or copy.deck == game.deck


def test_move_values_are_repeatable_scores_one_per_legal_move_with_intervals() -> None:
    game = played(2, 0, 36)
    seat = game.current
    before = (list(game.hands[seat]), list(game.deck), len(game.history))
    valued = move_values(game, 2, 3, 0)
    assert valued == move_values(game, 2, 3, 0)
    assert valued != move_values(game, 2, 2, 1)
    assert len(valued.values) == len(valued.intervals) == len(game.legal_actions(seat))
    assert 2 <= valued.samples <= 3
    assert all(0.0 <= v <= 25.0 for v in valued.values) and len(set(valued.values)) > 1
    assert all(lo <= v <= hi for v, (lo, hi) in zip(valued.values, valued.intervals, strict=True))
    assert (list(game.hands[seat]), list(game.deck), len(game.history)) == before


def test_sampling_stops_once_the_best_separates_and_at_the_cap_on_a_tie() -> None:
    tie = sample_until_separated(lambda k: (10.0 + k % 3, 10.0 + k % 3, 4.0), 3, 9)
    assert tie.samples == 9 and not tie.separated
    assert tie.intervals[0] == tie.intervals[1] and tie.values[0] == tie.values[1]
    rng = random.Random(0)
    apart = sample_until_separated(lambda k: (20 + rng.random(), 10 + rng.random()), 3, 50)
    assert apart.samples == 3 and apart.separated
    assert apart.intervals[0][0] > apart.intervals[1][1]
    close = random.Random(1)
    slow = sample_until_separated(lambda k: (close.gauss(12, 3), close.gauss(11, 3)), 3, 400)
    assert slow.samples > 3 and (slow.separated or slow.samples == 400)
    assert interval([1.0, 3.0]) == pytest.approx((2 - Z95, 2 + Z95))
    with pytest.raises(ValueError, match="least"):
        sample_until_separated(lambda k: (1.0,), 1, 5)


def test_rank_and_correlation() -> None:
    assert rank([3.0, 1.0, 3.0, 2.0]) == [3.5, 1.0, 3.5, 2.0]
    record = DecisionRecord(
        game="g",
        turn=1,
        seat=0,
        agent="a",
        state={},
        prompt="",
        response="",
        legal=(0, 1, 2),
        ratings=(-1.0, 0.0, 1.0),
        chosen=2,
        fallback=False,
        values=(10.0, 12.0, 15.0),
    )
    agreement = correlation([record])
    assert agreement.pairs == 3 and agreement.chosen_best == 1.0
    assert agreement.spearman == 1.0 and agreement.pearson is not None


def test_annotate_writes_one_line_per_decision_with_move_values(tmp_path: Path) -> None:
    run = tmp_path / "run"
    with ScriptedChatServer(scripted) as server:
        result = runner.invoke(
            app,
            [
                "bench",
                "hanabi",
                "--players",
                "2",
                "--seeds",
                "1",
                "--agents",
                "sherlock",
                "--base-url",
                server.base_url,
                "--model",
                "scripted",
                "--record",
                "--out",
                str(run),
                "--quiet",
            ],
        )
    assert result.exit_code == 0, result.output
    lines = (run / "games" / "hanabi-p2-seed0.jsonl").read_text().splitlines()
    short = tmp_path / "short.jsonl"
    short.write_text("\n".join(lines[:6]) + "\n")
    args = ["hanabi", "annotate", str(short), "--samples", "2", "--max-samples", "2"]
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    text = (tmp_path / "decisions.jsonl").read_text()
    records = [json.loads(x) for x in text.splitlines()]
    assert len(records) == 2
    for record in records:
        assert len(record["values"]) == len(record["legal"]) == len(record["ratings"])
        assert len(record["intervals"]) == len(record["values"]) and record["samples"] == 2
        assert all(
            lo <= v <= hi for v, (lo, hi) in zip(record["values"], record["intervals"], strict=True)
        )
        assert record["prompt"].startswith("You are P") and record["response"]
        assert record["chosen"] in record["legal"] and "fireworks" in record["state"]
    assert "ratings vs rollout values over" in done.output and "spearman" in done.output
    assert "95% interval separated" in done.output
    bad = runner.invoke(app, ["hanabi", "annotate", str(short), "--max-samples", "3"])
    assert bad.exit_code == 2 and "--max-samples" in bad.output


def test_annotate_a_folder_without_logs_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["hanabi", "annotate", str(tmp_path)])
    assert result.exit_code == 2 and "no game logs" in result.output
