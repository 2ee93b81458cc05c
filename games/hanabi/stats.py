"""Score statistics of a set of Hanabi games: mean, std, IQM with bootstrap 95% CIs, and more."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

from games.hanabi.config import Scoring
from games.hanabi.engine import MAX_SCORE, HanabiGame
from reasoning.bootstrap import percentile_interval, trimmed_mean

BOOTSTRAP_RESAMPLES = 2000
"""Resamples for the percentile bootstrap of the confidence intervals."""


class ScoreStats(BaseModel):
    """Scores of ``games`` games at one player count, in one scoring mode."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: int
    scoring: Scoring
    games: int
    mean: float
    std: float
    mean_ci: tuple[float, float]
    iqm: float
    iqm_ci: tuple[float, float]
    perfect: int
    bomb_outs: int
    mean_turns: float


def iqm(values: Sequence[float]) -> float:
    """The interquartile mean: the mean of the middle half, a quarter cut from each end
    (``reasoning.bootstrap.trimmed_mean``)."""
    return float(trimmed_mean(values, 0.25))


def bootstrap_ci(
    values: Sequence[float],
    statistic: Literal["mean", "iqm"],
    seed: int = 0,
    resamples: int = BOOTSTRAP_RESAMPLES,
) -> tuple[float, float]:
    """The percentile-bootstrap 95% confidence interval of ``mean`` or ``iqm``
    (``reasoning.bootstrap``, resampled by a generator seeded with ``seed``)."""
    import numpy as np

    data = np.asarray(values, dtype=float)
    if data.size == 0:
        raise ValueError("values: at least one is needed")
    if np.ptp(data) == 0:  # every resample is the same (one value, or all equal)
        return float(data[0]), float(data[0])

    def measure(sample: np.ndarray, axis: int) -> np.ndarray:
        if statistic == "mean":
            return np.asarray(np.mean(sample, axis=axis))
        return np.asarray(trimmed_mean(sample, 0.25, axis=axis))

    return percentile_interval([data], measure, resamples=resamples, seed=seed)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What the statistics need of one finished game."""

    score: int
    perfect: bool
    bomb_out: bool
    turns: int


def game_record(game: HanabiGame) -> GameRecord:
    """The record of a finished game."""
    return GameRecord(
        score=game.score(),
        perfect=sum(game.fireworks) == MAX_SCORE,
        bomb_out=game.lives == 0,
        turns=len(game.history),
    )


def record_stats(
    players: int, scoring: Scoring, records: Sequence[GameRecord], seed: int = 0
) -> ScoreStats:
    """The statistics of finished games at ``players`` seats scored in ``scoring`` mode."""
    if not records:
        raise ValueError("games: at least one finished game is needed")
    scores = [float(r.score) for r in records]
    return ScoreStats(
        players=players,
        scoring=scoring,
        games=len(records),
        mean=statistics.fmean(scores),
        std=statistics.pstdev(scores),
        mean_ci=bootstrap_ci(scores, "mean", seed),
        iqm=iqm(scores),
        iqm_ci=bootstrap_ci(scores, "iqm", seed),
        perfect=sum(r.perfect for r in records),
        bomb_outs=sum(r.bomb_out for r in records),
        mean_turns=statistics.fmean(r.turns for r in records),
    )


def score_stats(games: Sequence[HanabiGame], seed: int = 0) -> ScoreStats:
    """The statistics of finished games, all with the same player count and scoring mode."""
    if not games:
        raise ValueError("games: at least one finished game is needed")
    config = games[0].config
    if any(game.config != config for game in games):
        raise ValueError("games: all games must share one configuration")
    return record_stats(config.players, config.scoring, [game_record(g) for g in games], seed)
