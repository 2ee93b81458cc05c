"""Logs as datasets: every logged decision, each legal move valued by rollouts of an agent.

``decision_records`` turns a game log into one record per LLM decision (the seat's state, the
prompt, the response, the move ratings and the chosen move). ``annotate`` adds what the model's
own ratings cannot give: the value of every legal move, the mean final score when the move is
made and an in-house agent (``symbolic`` unless another is named) plays every seat afterwards,
over hidden hands of the deciding seat sampled from its exact knowledge (slot by slot, each from
its share of the consistent deals given the slots already drawn, so the hands are drawn jointly
and exactly) with the rest of the deck in a random order. The moves race (``race``): one sampled
hand at a time, the same hands for every move still in the race, a move leaves once the leader
is shown better (successive elimination on paired differences), and sampling stops when one move
is left, when the rest are shown within an indifference margin of the leader, or at a cap. Every
value is written with its interval and the samples behind it.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from functools import cache, partial
from typing import Literal

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
from reasoning.student_t import t_quantile


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
    """Each value's 95% confidence interval (Student's t over its samples)."""
    counts: tuple[int, ...] = ()
    """The samples behind each value (a move out of the race is sampled no more)."""
    samples: int = 0
    """The hidden hands sampled for this decision's values."""
    stop: Stop | None = None
    """Why sampling stopped (``race``); None without rollouts."""
    best: tuple[int, ...] = ()
    """The legal moves still in the race when it stopped, the leader first."""


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


Stop = Literal["separated", "indifferent", "cap"]
"""Why sampling a decision stopped: one move left in the race, the moves left all within the
indifference margin of the leader, or the cap."""

MARGIN = 1.0
"""The default indifference margin, in points of final score: moves whose values are shown to
lie within it of the best one are not told apart (a point is one card on the fireworks)."""
SAMPLES = 2
"""The default least number of sampled hands per decision (``--samples``)."""
MAX_SAMPLES = 4
"""The default cap of sampled hands per decision (``--max-samples``)."""


class MoveValues(BaseModel):
    """Every move's mean rollout score with its 95% interval and the samples behind it, the
    sample rows drawn, why sampling stopped and the moves still in the race then (indices into
    the moves, the leader first)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    values: tuple[float, ...]
    intervals: tuple[tuple[float, float], ...]
    counts: tuple[int, ...]
    samples: int
    stop: Stop
    best: tuple[int, ...]


@cache
def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom."""
    return t_quantile(0.975, df)


def interval(scores: Sequence[float]) -> tuple[float, float]:
    """The 95% confidence interval of the mean of ``scores`` (at least two): mean +- t s/sqrt(n),
    Student's t with n - 1 degrees of freedom (honest for the few samples a race starts with)."""
    mean = statistics.fmean(scores)
    half = t95(len(scores) - 1) * statistics.stdev(scores) / math.sqrt(len(scores))
    return (mean - half, mean + half)


def _standing(
    scores: Sequence[Sequence[float]], live: Sequence[int], margin: float
) -> tuple[list[int], bool]:
    """The moves still in the race after one elimination round (the leader first), and whether
    every other one is shown within ``margin`` of the leader.

    Moves are compared with the leader by paired differences (they share their sampled hands),
    each difference's 95% interval from the variance pooled over every live move's differences
    (Student's t on the pooled degrees of freedom): at the few samples a race starts with, one
    pair's own variance is too often zero by chance.
    """
    leader = max(live, key=lambda m: statistics.fmean(scores[m]))
    diffs = {
        move: [a - b for a, b in zip(scores[leader], scores[move], strict=True)]
        for move in live
        if move != leader
    }
    df = sum(len(d) - 1 for d in diffs.values())
    squares = sum((x - statistics.fmean(d)) ** 2 for d in diffs.values() for x in d)
    spread = t95(df) * math.sqrt(squares / df) if df else math.inf
    kept, close = [leader], True
    for move, d in diffs.items():
        mean, half = statistics.fmean(d), spread / math.sqrt(len(d))
        if mean - half > 0:
            continue
        kept.append(move)
        close = close and mean + half <= margin
    return kept, close


def race(
    draw: Callable[[int, Sequence[int]], Sequence[float]],
    moves: int,
    least: int,
    cap: int,
    margin: float = MARGIN,
) -> MoveValues:
    """Successive elimination with an indifference margin over ``moves`` moves.

    ``draw(k, live)`` gives the k-th sample's score of each move in ``live`` (the same sampled
    hand for all, so moves are compared by paired differences). After ``least`` rows and every
    row after, the leader is the live move with the best mean; a move whose difference from the
    leader has a 95% interval above 0 (``_standing``) is out of the race and sampled no more. The
    race stops when one move is left (``separated``), when every other live move's difference
    from the leader is shown to be at most ``margin`` (``indifferent``: values that close are
    not told apart, so equal moves, which never separate, stop early), or at ``cap`` rows.
    Separation alone is not a stopping rule: two moves of equal value keep their intervals
    overlapping for ever.
    """
    if not 2 <= least <= cap:
        raise ValueError(f"samples: need 2 <= least <= cap, got {least} and {cap}")
    if margin < 0:
        raise ValueError(f"margin: must be at least 0, got {margin}")
    scores: list[list[float]] = [[] for _ in range(moves)]
    live = list(range(moves))
    rows = 0
    while True:
        for move, score in zip(live, draw(rows, live), strict=True):
            scores[move].append(score)
        rows += 1
        if rows < least:
            continue
        live, close = _standing(scores, live, margin)
        stop: Stop | None = None
        if len(live) == 1:
            stop = "separated"
        elif close:
            stop = "indifferent"
        elif rows >= cap:
            stop = "cap"
        if stop is not None:
            return MoveValues(
                values=tuple(statistics.fmean(s) for s in scores),
                intervals=tuple(interval(s) for s in scores),
                counts=tuple(len(s) for s in scores),
                samples=rows,
                stop=stop,
                best=tuple(live),
            )


def move_values(
    game: HanabiGame,
    least: int,
    cap: int,
    seed: int,
    policy: str = "symbolic",
    margin: float = MARGIN,
    on_sample: Callable[[int], None] | None = None,
) -> MoveValues:
    """The mean rollout score of every legal move of the seat to move, with its interval, over
    hands sampled from its knowledge (the same hands and deck orders for every move), raced from
    ``least`` samples to ``cap`` (``race``); ``on_sample(rollouts)`` is told of each row."""
    seat = game.current
    obs = game.observation(seat)
    rng = random.Random(seed)

    def draw(_: int, live: Sequence[int]) -> tuple[float, ...]:
        hand, deck_seed = sample_hand(obs, rng), rng.getrandbits(32)
        row = tuple(
            float(rollout(game.determinized(seat, hand, deck_seed), obs.legal_actions[m], policy))
            for m in live
        )
        if on_sample is not None:
            on_sample(len(live))
        return row

    return race(draw, len(obs.legal_actions), least, cap, margin)


def decision_records(
    log: GameLog[HanabiEvent],
    game_id: str,
    samples: int = 0,
    seed: int = 0,
    max_samples: int | None = None,
    policy: str = "symbolic",
    margin: float = MARGIN,
    on_sample: Callable[[int], None] | None = None,
) -> Iterator[DecisionRecord]:
    """Every decision of ``log`` as a record; with ``samples`` > 0, each legal move valued by
    rollouts raced from that many samples to ``max_samples`` (default ``samples``) with the
    indifference ``margin`` (``race``). The log must replay (ReplayError names the line where
    it parts)."""
    for decision in logged_decisions(log):
        game = Position.model_validate(decision.position).game()
        values: dict[str, object] = {}
        if samples:
            cap = max_samples or samples
            valued = move_values(
                game, samples, cap, seed * 1000 + decision.turn, policy, margin, on_sample
            )
            values = valued.model_dump(exclude={"best"})
            values["best"] = tuple(decision.legal[m] for m in valued.best)
        yield DecisionRecord.model_validate(
            {
                **decision.model_dump(exclude={"reasoning", "position"}),
                **values,
                "game": game_id,
                "state": state_record(game.observation(decision.seat)),
            }
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
