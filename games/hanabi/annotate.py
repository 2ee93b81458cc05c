"""Logs as datasets: every logged decision, each legal move valued by rollouts of an agent.

``decision_records`` turns a game log into one record per LLM decision (the seat's state, the
prompt, the response, the move ratings and the chosen move). ``annotate`` adds what the model's
own ratings cannot give: the value of every legal move, the mean final score when the move is
made and an in-house agent (``symbolic`` unless another is named) plays every seat afterwards,
over hidden hands of the deciding seat sampled from its exact knowledge (slot by slot, each from
its share of the consistent deals given the slots already drawn, so the hands are drawn jointly
and exactly) with the rest of the deck in a random order. Sampling goes on, one sampled hand at
a time and the same hands for every move, until the best move's 95% confidence interval lies
above the runner-up's (or a cap), and every value is written with its interval.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from functools import partial

from pydantic import BaseModel, ConfigDict

from formalize.hanabi.deck import NUM_IDENTITIES
from formalize.hanabi.knowledge import hand_knowledge, hint_masks, unseen_counts
from games.core.log import GameLog
from games.core.loop import decide
from games.hanabi.agents import HanabiAgentSettings, make_agent
from games.hanabi.engine import HanabiGame, HanabiObservation
from games.hanabi.events import HanabiEvent, HanabiMove
from games.hanabi.knowledge import visible_cards
from games.hanabi.position import Position, logged_decisions


class DecisionRecord(BaseModel):
    """One decision of a log as a dataset line, with the rollout value of each legal move."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: str
    turn: int
    seat: int
    agent: str
    state: dict[str, object]
    prompt: str
    response: str
    legal: tuple[int, ...]
    ratings: tuple[float, ...]
    chosen: int
    fallback: bool
    values: tuple[float, ...] = ()
    intervals: tuple[tuple[float, float], ...] = ()
    """Each value's 95% confidence interval (normal approximation over the samples)."""
    samples: int = 0
    """The hidden hands sampled for this decision's values."""
    separated: bool = False
    """Whether the best move's interval lies above the runner-up's (else the cap was hit)."""


def state_record(obs: HanabiObservation) -> dict[str, object]:
    """What the deciding seat saw, as plain data."""
    return {
        "players": obs.players,
        "tokens": obs.tokens,
        "lives": obs.lives,
        "fireworks": list(obs.fireworks),
        "deck_size": obs.deck_size,
        "discards": list(obs.discards),
        "hands": [list(hand) for hand in obs.hands],
        "color_masks": [list(m) for m in obs.color_masks],
        "rank_masks": [list(m) for m in obs.rank_masks],
    }


def sample_hand(obs: HanabiObservation, rng: random.Random) -> list[int]:
    """A hand the observing seat could hold, drawn with its exact probability."""
    masks = list(hint_masks(obs.color_masks[obs.seat], obs.rank_masks[obs.seat]))
    unseen = unseen_counts(visible_cards(obs))
    for slot in range(len(masks)):
        shares = hand_knowledge(masks, unseen).probabilities[slot]
        card = rng.choices(range(NUM_IDENTITIES), weights=shares)[0]
        masks[slot] = 1 << card
    return [mask.bit_length() - 1 for mask in masks]


def rollout(game: HanabiGame, action: int, policy: str = "symbolic") -> int:
    """The final score when ``action`` is made now and the agent named ``policy`` (a registry
    name that needs no LLM) plays every seat on."""
    game.apply({game.current: action})
    agents = [
        make_agent(policy, seat, game.seed, HanabiAgentSettings(scoring=game.config.scoring))
        for seat in range(game.players)
    ]
    while not game.is_terminal():
        seat = game.current
        obs = game.observation(seat)
        move = decide(agents[seat], obs, partial(tuple, obs.legal_actions))
        game.apply({seat: move.action if isinstance(move, HanabiMove) else move})
    return game.score()


Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


class MoveValues(BaseModel):
    """Every move's mean rollout score with its 95% interval, the samples drawn, and whether the
    best move's interval came to lie above the runner-up's."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    values: tuple[float, ...]
    intervals: tuple[tuple[float, float], ...]
    samples: int
    separated: bool


def interval(scores: Sequence[float]) -> tuple[float, float]:
    """The 95% confidence interval of the mean of ``scores`` (at least two): mean +- z s/sqrt(n)."""
    mean = statistics.fmean(scores)
    half = Z95 * statistics.stdev(scores) / math.sqrt(len(scores))
    return (mean - half, mean + half)


def separated(intervals: Sequence[tuple[float, float]], values: Sequence[float]) -> bool:
    """Whether the best value's interval lies wholly above the runner-up's (one move: True)."""
    if len(values) < 2:
        return True
    order = sorted(range(len(values)), key=lambda i: values[i], reverse=True)
    return intervals[order[0]][0] > intervals[order[1]][1]


def sample_until_separated(
    draw: Callable[[int], Sequence[float]], least: int, cap: int
) -> MoveValues:
    """Draw sample rows (``draw(k)``: the k-th sample's score of every move) until at least
    ``least`` are in and the best move's interval separates from the runner-up's, or ``cap``."""
    if not 2 <= least <= cap:
        raise ValueError(f"samples: need 2 <= least <= cap, got {least} and {cap}")
    rows: list[Sequence[float]] = []
    while True:
        rows.append(draw(len(rows)))
        columns = list(zip(*rows, strict=True))
        values = tuple(statistics.fmean(c) for c in columns)
        intervals = tuple(interval(c) for c in columns) if len(rows) > 1 else ()
        if len(rows) >= least and (separated(intervals, values) or len(rows) == cap):
            return MoveValues(
                values=values,
                intervals=intervals,
                samples=len(rows),
                separated=separated(intervals, values),
            )


def move_values(
    game: HanabiGame, least: int, cap: int, seed: int, policy: str = "symbolic"
) -> MoveValues:
    """The mean rollout score of every legal move of the seat to move, with its interval, over
    hands sampled from its knowledge (the same hands and deck orders for every move), from
    ``least`` samples until the best move separates or ``cap``."""
    seat = game.current
    obs = game.observation(seat)
    rng = random.Random(seed)

    def draw(_: int) -> tuple[float, ...]:
        hand, deck_seed = sample_hand(obs, rng), rng.getrandbits(32)
        return tuple(
            float(rollout(game.determinized(seat, hand, deck_seed), action, policy))
            for action in obs.legal_actions
        )

    return sample_until_separated(draw, least, cap)


def decision_records(
    log: GameLog[HanabiEvent],
    game_id: str,
    samples: int = 0,
    seed: int = 0,
    max_samples: int | None = None,
    policy: str = "symbolic",
) -> Iterator[DecisionRecord]:
    """Every decision of ``log`` as a record; with ``samples`` > 0, each legal move valued by at
    least that many rollouts, more until the best move separates or ``max_samples`` (default
    ``samples``). The log must replay (ReplayError names the line where it parts)."""
    for decision in logged_decisions(log):
        game = Position.model_validate(decision.position).game()
        valued = (
            move_values(game, samples, max_samples or samples, seed * 1000 + decision.turn, policy)
            if samples
            else None
        )
        yield DecisionRecord(
            **decision.model_dump(exclude={"reasoning", "position"}),
            game=game_id,
            state=state_record(game.observation(decision.seat)),
            values=() if valued is None else valued.values,
            intervals=() if valued is None else valued.intervals,
            samples=0 if valued is None else valued.samples,
            separated=valued is not None and valued.separated,
        )


def rank(values: Sequence[float]) -> list[float]:
    """Ranks from 1, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            ranks[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


class Correlation(BaseModel):
    """How the model's ratings agree with the rollout values over every rated legal move."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pairs: int
    pearson: float | None
    spearman: float | None
    chosen_best: float | None
    """The share of decisions whose chosen move has the highest rollout value."""


def correlation(records: Sequence[DecisionRecord]) -> Correlation:
    """Pearson and Spearman correlation of ratings with values (None when either is constant or
    too few), and how often the chosen move was a best one."""
    ratings: list[float] = []
    values: list[float] = []
    best = judged = 0
    for record in records:
        if not record.values:
            continue
        judged += 1
        best += record.values[record.legal.index(record.chosen)] == max(record.values)
        if len(record.ratings) == len(record.values):
            ratings += record.ratings
            values += record.values

    def corr(xs: list[float], ys: list[float]) -> float | None:
        if len(xs) < 2 or len(set(xs)) < 2 or len(set(ys)) < 2:
            return None
        return statistics.correlation(xs, ys)

    return Correlation(
        pairs=len(ratings),
        pearson=corr(ratings, values),
        spearman=corr(rank(ratings), rank(values)),
        chosen_best=best / judged if judged else None,
    )
