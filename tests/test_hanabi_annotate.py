"""Logs as datasets: decision records, hands sampled from exact knowledge, rollout values."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.hanabi.annotate import (
    DecisionRecord,
    MoveValues,
    correlation,
    interval,
    move_values,
    race,
    rank,
    sample_hand,
    t95,
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
    legal = game.legal_actions(seat)
    assert len(valued.values) == len(valued.intervals) == len(valued.counts) == len(legal)
    assert 2 <= valued.samples <= 3 and max(valued.counts) == valued.samples
    assert all(valued.counts[m] == valued.samples for m in valued.best)
    assert all(0.0 <= v <= 25.0 for v in valued.values) and len(set(valued.values)) > 1
    assert all(lo <= v <= hi for v, (lo, hi) in zip(valued.values, valued.intervals, strict=True))
    assert (list(game.hands[seat]), list(game.deck), len(game.history)) == before


def _raced(rows: list[tuple[float, ...]], least: int, cap: int, margin: float) -> MoveValues:
    """``race`` over precomputed sample rows, checking it asks only for the moves in the race."""
    dropped: set[int] = set()
    asked: list[int] = []

    def draw(k: int, live: Sequence[int]) -> list[float]:
        assert not dropped & set(live), "a move out of the race is sampled again"
        dropped.update(m for m in asked if m not in live)
        asked[:] = live
        return [rows[k][m] for m in live]

    return race(draw, len(rows[0]), least, cap, margin)


def test_the_race_stops_at_separation_within_the_margin_or_at_the_cap() -> None:
    noise = random.Random(0)
    shared = [noise.gauss(0, 3) for _ in range(40)]
    tie = [(10 + e, 10 + e, 10 + e + noise.gauss(0, 0.1), 4 + e) for e in shared]
    tied = _raced(tie, 3, 40, 1.0)
    assert tied.stop == "indifferent" and tied.samples == 3 and 3 not in tied.best
    assert tied.counts[3] == 3 and sorted(tied.best) == [0, 1, 2]
    apart = _raced([(20 + e, 10 + e + noise.gauss(0, 1)) for e in shared], 3, 40, 1.0)
    assert apart.stop == "separated" and apart.samples == 3 and apart.best == (0,)
    close = [(12 + noise.gauss(0, 3), 11 + noise.gauss(0, 3)) for _ in range(40)]
    capped = _raced(close, 3, 8, 0.5)
    assert capped.stop == "cap" and capped.samples == 8 and len(capped.best) == 2
    assert interval([1.0, 3.0]) == pytest.approx((2 - t95(1), 2 + t95(1)))
    assert t95(1) == pytest.approx(12.706, abs=1e-3)
    with pytest.raises(ValueError, match="least"):
        race(lambda k, live: [1.0], 1, 1, 5)
    with pytest.raises(ValueError, match="margin"):
        race(lambda k, live: [1.0], 1, 2, 5, -1.0)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 6),
    st.integers(0, 10**6),
    st.integers(2, 5),
    st.integers(0, 8),
    st.sampled_from([0.0, 0.5, 2.0]),
)
def test_race_bookkeeping(moves: int, seed: int, least: int, extra: int, margin: float) -> None:
    rng = random.Random(seed)
    means = [rng.choice([10.0, 12.0, 20.0]) for _ in range(moves)]
    rows = [tuple(m + rng.choice([-2.0, 0.0, 2.0]) for m in means) for _ in range(least + extra)]
    raced = _raced(rows, least, least + extra, margin)
    assert least <= raced.samples <= least + extra
    assert all(least <= n <= raced.samples for n in raced.counts)
    assert all(raced.counts[m] == raced.samples for m in raced.best)
    columns = [[row[m] for row in rows[: raced.counts[m]]] for m in range(moves)]
    assert raced.values == pytest.approx(tuple(sum(c) / len(c) for c in columns))
    leader = raced.best[0]
    assert raced.values[leader] == max(raced.values[m] for m in raced.best)
    if raced.stop == "separated":
        assert len(raced.best) == 1
    elif raced.stop == "cap":
        assert raced.samples == least + extra and len(raced.best) > 1


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
    done = runner.invoke(app, args, env={"TTY_COMPATIBLE": "1"})
    assert done.exit_code == 0, done.output
    assert "valuing decisions" in done.stderr and " rollouts" in done.stderr, "the bar's counts"
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
    assert "stopped with one move left in" in done.output and "s a decision" in done.output
    assert all(r["stop"] in ("separated", "indifferent", "cap") for r in records)
    assert all(r["best"] and set(r["best"]) <= set(r["legal"]) for r in records)
    bad = runner.invoke(app, [*args[:3], "--samples", "4", "--max-samples", "3"])
    assert bad.exit_code == 2 and "--max-samples" in bad.output


def test_annotate_a_folder_without_logs_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["hanabi", "annotate", str(tmp_path)])
    assert result.exit_code == 2 and "no game logs" in result.output
