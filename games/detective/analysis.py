"""Seed 001's supplementary analyses: repeat runs summarised with a mean and a bootstrap
confidence interval (Sections 3.3.2-3.3.3), induction / deduction / abduction ratings per
question (Section 3.3.1), and the correlation of two solvers' location orders (Table 7).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations
from statistics import fmean, pstdev
from typing import Literal

from pydantic import BaseModel, ConfigDict

from games.detective.case import Case, Question
from games.detective.prompts import recap
from reasoning.bootstrap import percentile_interval
from reasoning.llm import ChatClient, ask_structured, system, user

IDA_LEVELS = ("very low", "low", "medium", "high", "very high")
"""The rating words, scored 0-4 in this order."""

Level = Literal["very low", "low", "medium", "high", "very high"]


class MeanCI(BaseModel):
    """A mean with a bootstrap confidence interval."""

    model_config = ConfigDict(frozen=True)

    mean: float
    low: float
    high: float
    level: float


def bootstrap_ci(
    scores: Sequence[Sequence[float]], resamples: int = 2000, level: float = 0.95, seed: int = 0
) -> MeanCI:
    """The mean of ``scores[run][question]`` and a percentile bootstrap interval
    (``reasoning.bootstrap``) resampling both runs and questions with replacement."""
    import numpy as np

    if not scores or not scores[0] or any(len(r) != len(scores[0]) for r in scores):
        raise ValueError("scores: one equally long, non-empty row per run")
    table = np.asarray(scores, dtype=float)
    mean = float(table.mean())
    moving = [axis for axis, size in enumerate(table.shape) if size > 1]
    if not moving:  # one run of one question: every resample is the same
        return MeanCI(mean=mean, low=mean, high=mean, level=level)

    def resampled_mean(*picked: np.ndarray, axis: int = -1) -> np.ndarray:
        index = [np.zeros(1, dtype=int), np.zeros(1, dtype=int)]
        for dim, chosen in zip(moving, picked, strict=True):
            index[dim] = np.asarray(chosen, dtype=int)
        rows, cols = index
        return np.asarray(table[rows[..., :, None], cols[..., None, :]].mean(axis=(-2, -1)))

    low, high = percentile_interval(
        [np.arange(table.shape[axis]) for axis in moving],
        resampled_mean,
        resamples=resamples,
        level=level,
        seed=seed,
    )
    return MeanCI(mean=mean, low=low, high=high, level=level)


def order_correlation(one: Sequence[str], other: Sequence[str]) -> float:
    """The Pearson correlation of the turns at which two solvers visited the locations both
    visited (a rank correlation, as turns are ranks); NaN with fewer than two in common."""
    common = [lid for lid in one if lid in other]
    if len(common) < 2:
        return math.nan
    xs = [float(one.index(lid)) for lid in common]
    ys = [float(other.index(lid)) for lid in common]
    mx, my = fmean(xs), fmean(ys)
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    if sx == 0 or sy == 0:
        return math.nan
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / (sx * sy)


def pairwise_correlation(orders: Sequence[Sequence[str]]) -> tuple[float, float]:
    """Mean and standard deviation of ``order_correlation`` over every pair of orders."""
    values = [order_correlation(a, b) for a, b in combinations(orders, 2)]
    values = [v for v in values if not math.isnan(v)]
    if not values:
        return math.nan, math.nan
    return fmean(values), pstdev(values)


class IdaReply(BaseModel):
    """The rater's reply for one question: a discussion and three ratings."""

    model_config = ConfigDict(extra="forbid")

    discussion: str
    induction: Level
    deduction: Level
    abduction: Level


class IdaRating(BaseModel):
    """One question's ratings, 0 (very low) to 4 (very high)."""

    model_config = ConfigDict(frozen=True)

    question: str
    induction: int
    deduction: int
    abduction: int


def ida_prompt(case: Case, question: Question, intro_only: bool = False) -> str:
    """Ask how much induction, deduction and abduction answering ``question`` needs, given the
    whole case (every location and the solution) or only the introduction."""
    read = () if intro_only else tuple(loc.id for loc in case.locations)
    parts = [recap(case, read)]
    if not intro_only:
        parts.append(f"$$ Solution\n{case.solution}")
    parts += [
        f"## Question: {question.text}\n## Its answer: {question.model_answer}",
        "## Discuss the reasoning needed to answer this question correctly. Then rate how "
        "important each kind of reasoning is for it: induction (generalising from observations "
        "or common knowledge), deduction (what must follow from the facts) and abduction (the "
        f"best explanation of the facts), each one of: {', '.join(IDA_LEVELS)}.",
        '## Reply in JSON: {"discussion": "...", "induction": "...", "deduction": "...", '
        '"abduction": "..."}',
    ]
    return "\n\n".join(parts)


def rate_ida(
    client: ChatClient, case: Case, intro_only: bool = False, seed: int = 0
) -> list[IdaRating | None]:
    """Each question's ratings (None where no usable reply came back)."""
    out: list[IdaRating | None] = []
    for q in case.questions:
        outcome = ask_structured(
            client,
            [system("You analyse detective cases."), user(ida_prompt(case, q, intro_only))],
            IdaReply,
            seed=seed,
        )
        r = outcome.value
        out.append(
            None
            if r is None
            else IdaRating(
                question=q.id,
                induction=IDA_LEVELS.index(r.induction),
                deduction=IDA_LEVELS.index(r.deduction),
                abduction=IDA_LEVELS.index(r.abduction),
            )
        )
    return out


def cross_correlation(
    ones: Sequence[Sequence[str]], others: Sequence[Sequence[str]]
) -> tuple[float, float]:
    """Mean and standard deviation of ``order_correlation`` over every pair of one order from
    each group (a model's runs against humans, as Table 7 compares them)."""
    values = [order_correlation(a, b) for a in ones for b in others]
    values = [v for v in values if not math.isnan(v)]
    if not values:
        return math.nan, math.nan
    return fmean(values), pstdev(values)
