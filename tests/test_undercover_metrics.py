"""Undercover-V metrics: round weights, Attributional Soundness / Alignment / Score against hand
computations, game metrics and their summaries, and the offline MiniLM model."""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import cache

import numpy as np
import pytest

from games.core.log import GameLog
from games.undercover import (
    CheckOutcome,
    Lexicon,
    Side,
    UndercoverConfig,
    UndercoverEvent,
    UndercoverGame,
    builtin_pairs,
)
from games.undercover.events import GameStart
from games.undercover.metrics import (
    FEATURE,
    MiniLMSimilarity,
    attributional_alignment,
    attributional_soundness,
    by_agent_type,
    game_metrics,
    group_by,
    mean_of,
    round_weights,
    summarise,
)
from reasoning import embeddings
from tests.support.played import undercover_header

TEA = next(p for p in builtin_pairs() if p.id == "earl-grey-tea-ceylon-tea")


@cache
def lexicon() -> Lexicon:
    return Lexicon.load()


class TableSimilarity:
    """Similarities from a table (symmetric, 1 on the diagonal, ``default`` elsewhere)."""

    def __init__(self, table: dict[tuple[str, str], float], default: float = 0.5) -> None:
        self.table = {frozenset(k): v for k, v in table.items()}
        self.default = default
        self.embedded: list[str] = []

    def embed(self, texts: Iterable[str]) -> None:
        self.embedded.extend(texts)

    def similarity(self, a: str, b: str) -> float:
        if a == b:
            return 1.0
        return self.table.get(frozenset((a, b)), self.default)


def scripted_log() -> tuple[GameLog[UndercoverEvent], str, str]:
    """A 4-player game: seat 3 (a citizen) leaves in round 1, the spy in round 2.

    Returns its log and the citizens' and spy's definitions.
    """
    game = UndercoverGame(UndercoverConfig(players=4, tie_limit=3), TEA, 0)
    spy = game.spy_seat
    citizens = [s for s in range(4) if s != spy]
    names = {s: f"s{s}" for s in range(4)}
    for seat in range(4):
        game.describe(seat, f"r1 {names[seat]}", None, CheckOutcome.NOT_FORMALISED)
    gone = citizens[-1]
    game.vote({s: gone if s != gone else spy for s in range(4)})
    for seat in game.living:
        game.describe(seat, f"r2 {names[seat]}", None, CheckOutcome.NOT_FORMALISED)
    game.vote({s: spy if s != spy else citizens[0] for s in game.living})
    header = undercover_header(game, ["cit" if s != spy else "spy-type" for s in range(4)])
    return (
        GameLog.of_events(header, [game.start_event(), *game.events]),
        lexicon().definition(game.citizen_word),
        lexicon().definition(game.spy_word),
    )


def test_round_weights_are_proportional_to_the_round() -> None:
    assert round_weights([1, 2]) == pytest.approx({1: 1 / 3, 2: 2 / 3})
    assert round_weights([3]) == {3: 1.0}
    weights = round_weights([1, 2, 3, 4])
    assert sum(weights.values()) == pytest.approx(1.0)
    assert weights[4] == pytest.approx(4 * weights[1])
    with pytest.raises(ValueError, match="numbered from 1"):
        round_weights([0, 1])
    with pytest.raises(ValueError, match="numbered from 1"):
        round_weights([])


def test_soundness_and_alignment_by_hand() -> None:
    sim = TableSimilarity(
        {
            ("a0", "Dc"): 0.6,
            ("a0", "Ds"): 0.3,
            ("b0", "Dc"): 0.5,
            ("b0", "Ds"): 0.5,
            ("a0", "a1"): 0.9,
            ("a0", "a2"): 0.3,
            ("b0", "b1"): 0.8,
            ("b0", "b2"): 0.4,
        }
    )
    own = {1: "a0", 2: "b0"}
    # AS = 1/3 * 0.6/0.3 + 2/3 * 0.5/0.5 = 4/3
    assert attributional_soundness(own, "Dc", "Ds", sim) == pytest.approx(4 / 3)
    # AA = 1/3 * (0.9 + 0.3) / 2 + 2/3 * (0.8 + 0.4) / 2 = 0.6
    others = {1: ["a1", "a2"], 2: ["b1", "b2"]}
    assert attributional_alignment(own, others, sim) == pytest.approx(0.6)
    negative = TableSimilarity({("a0", "Ds"): -0.2})
    assert attributional_soundness({1: "a0"}, "Dc", "Ds", negative) is None
    with pytest.raises(ValueError, match="round 2"):
        attributional_alignment(own, {1: ["a1"]}, sim)


def test_game_metrics_by_hand() -> None:
    log, dc, ds = scripted_log()
    events = log.events
    start = events[0]
    assert isinstance(start, GameStart)
    spy = start.spy_seat
    citizens = [s for s in range(4) if s != spy]
    first, gone = citizens[0], citizens[-1]
    t = {s: (f"r1 s{s}", f"r2 s{s}") for s in range(4)}
    table = {
        (t[first][0], dc): 0.6,
        (t[first][0], ds): 0.3,
        (t[first][1], dc): 0.5,
        (t[first][1], ds): 0.5,
        (t[gone][0], dc): 0.4,
        (t[gone][0], ds): 0.8,
        (t[spy][0], ds): -0.1,
    }
    for other in range(4):
        if other != first:
            table[(t[first][0], t[other][0])] = {gone: 0.6, spy: 0.3}.get(other, 0.9)
    for other in (citizens[1], spy):
        table[(t[first][1], t[other][1])] = 0.8 if other != spy else 0.4
    table[(t[gone][0], t[citizens[1]][0])] = 0.2
    table[(t[gone][0], t[spy][0])] = 0.1
    sim = TableSimilarity(table)
    metrics = game_metrics(log, lexicon(), sim)
    assert set(sim.embedded) >= {dc, ds, *(t[s][0] for s in range(4))}
    assert metrics.winner is Side.CITIZENS and metrics.rounds == 2
    assert metrics.citizens == 3 and metrics.citizens_eliminated == 1
    assert metrics.citizen_elimination_rate == pytest.approx(1 / 3)
    assert metrics.spy_agent == "spy-type" and metrics.citizen_agents == ("cit",) * 3
    seats = {s.seat: s for s in metrics.seats}
    assert seats[first].rounds_described == 2 and not seats[first].eliminated
    assert seats[first].soundness == pytest.approx(4 / 3)
    assert seats[first].alignment == pytest.approx(0.6)
    assert seats[first].score == pytest.approx(0.8)
    assert seats[gone].rounds_described == 1 and seats[gone].eliminated
    assert seats[gone].soundness == pytest.approx(0.5)
    assert seats[gone].alignment == pytest.approx((0.6 + 0.2 + 0.1) / 3)
    assert seats[gone].score == pytest.approx(0.5 * 0.3)
    assert seats[spy].role is Side.SPY and seats[spy].soundness is None
    assert seats[spy].score is None and seats[spy].alignment is not None
    with pytest.raises(ValueError, match="whole log"):
        game_metrics(GameLog.of_events(log.header, events[:-1]), lexicon(), sim)


def test_summaries_over_games() -> None:
    log, _, _ = scripted_log()
    metrics = game_metrics(log, lexicon(), TableSimilarity({}, default=0.4))
    summary = summarise([metrics, metrics])
    assert summary.games == 2 and summary.average_rounds == 2
    assert summary.spy_win_rate == 0 and summary.citizen_elimination_rate == pytest.approx(1 / 3)
    assert summary.spy_score.mean == pytest.approx(0.4)
    assert summary.citizen_score.n == 6
    empty = summarise([])
    assert empty.games == 0 and empty.spy_win_rate is None and empty.spy_score.mean is None
    rows = {(r.agent, r.role): r for r in by_agent_type([metrics])}
    cit, spy = rows[("cit", Side.CITIZENS)], rows[("spy-type", Side.SPY)]
    assert cit.seats == 3 and cit.win_rate == 1.0 and cit.eliminated_rate == pytest.approx(1 / 3)
    assert spy.seats == 1 and spy.win_rate == 0.0 and spy.eliminated_rate == 1.0
    assert list(group_by([metrics], lambda g: g.pair)) == [TEA.id]
    assert mean_of([1.0, None, 3.0]).model_dump() == {"mean": 2.0, "n": 2, "skipped": 1}


def test_minilm_loads_offline_and_matches_a_hand_computation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    embeddings._loaded_model.cache_clear()
    model = embeddings.load_sentence_model(FEATURE)
    assert embeddings.load_sentence_model(FEATURE) is model
    assert "HF_HUB_OFFLINE" not in os.environ, "the offline switch leaked out of the model load"
    sim = MiniLMSimilarity()
    bergamot = "It is flavoured with oil of bergamot."
    earl, ceylon = lexicon().definition("Earl Grey Tea"), lexicon().definition("Ceylon Tea")
    assert sim.similarity(bergamot, bergamot) == pytest.approx(1.0, abs=1e-5)
    assert sim.similarity(bergamot, earl) > sim.similarity(bergamot, ceylon)
    vectors = model.encode([bergamot, earl, ceylon])
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    by_hand = float(unit[0] @ unit[1]) / float(unit[0] @ unit[2])
    assert attributional_soundness({1: bergamot}, earl, ceylon, sim) == pytest.approx(
        by_hand, rel=1e-4
    )
    log, _, _ = scripted_log()
    metrics = game_metrics(log, lexicon(), sim)
    assert all(s.alignment is not None for s in metrics.seats)
