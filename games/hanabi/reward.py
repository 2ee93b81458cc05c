"""Exact rewards for Hanabi replies, Mycroft's above all.

Seed 003's released environment has an LLM judge grade the deduction block of Mycroft's reply;
here every stated deduction is judged exactly where it was stated (``games.hanabi.audit.
judge_claim``: against the exact knowledge of the seat whose card it is, and against the card
actually there), the recall counts the slots on the table given a complete, true claim, and the
chosen move may be valued by rollouts (``games.hanabi.annotate.move_values``) or by values a
dataset already holds. The terms and their weights are ``games.core.reward``'s; ``reward`` is
the same in TRL's reward-function shape, over the rows ``gumshoe export dataset`` writes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from formalize.hanabi.deck import COLORS, NUM_IDENTITIES, NUM_RANKS
from games.core.reward import Reward, RewardWeights, malformed, trl_reward
from games.core.reward import reward as weigh
from games.hanabi.annotate import move_values
from games.hanabi.audit import judge_claim, standard, tightest
from games.hanabi.engine import MAX_SCORE, HanabiGame
from games.hanabi.events import SlotClaim
from games.hanabi.llm_prompts import MycroftAnswer, RatedAnswer, decision_schema
from games.hanabi.position import Position
from reasoning.claims import Correctness, Judgement
from reasoning.llm import MalformedAnswer, parse_reply

DEFAULT_WEIGHTS = RewardWeights()
"""The weights ``decision_reward`` uses unless given others (``games.core.reward``)."""


def decision_reward(
    position: Position,
    reply: str,
    weights: RewardWeights = DEFAULT_WEIGHTS,
    *,
    tracking: bool = True,
    values: Sequence[float] | None = None,
    samples: int = 0,
    seed: int = 0,
    policy: str = "symbolic",
) -> Reward:
    """The reward of ``reply`` given by the seat to move in ``position``.

    ``tracking`` (Mycroft): the reply must state its deductions, which are judged, and recall is
    the share of every slot on the table given a complete, true claim; without it (Watson,
    Sherlock) only the move is scored. The value term uses ``values`` (one per legal move, as
    ``hanabi annotate`` writes them) when given, else, with ``samples`` > 0, rollouts of
    ``policy`` over that many hands sampled from the seat's knowledge; it is the chosen move's
    mean final score over 25.
    """
    game = position.game()
    if game.is_terminal():
        raise ValueError("position: the game is over, no seat decides")
    seat = game.current
    legal = game.observation(seat).legal_actions
    if values is not None and len(values) != len(legal):
        raise ValueError(f"values: {len(values)} given for {len(legal)} legal moves")
    schema = decision_schema(MycroftAnswer if tracking else RatedAnswer, len(legal))
    try:
        answer = parse_reply(reply, schema)
    except MalformedAnswer:
        return malformed(weights)
    judgements, recall = stated_claims(game, answer) if tracking else ([], None)
    if values is None and samples:
        values = move_values(game, samples, samples, seed, policy).values
    value = None if values is None else values[answer.chosen] / MAX_SCORE
    return weigh(judgements, weights, recall=recall, value=value)


TRACKING_AGENTS = ("mycroft",)
"""The agents whose replies state deductions (the others are scored on their move alone)."""


def score(
    position: str, text: str, columns: Mapping[str, Any], weights: RewardWeights = DEFAULT_WEIGHTS
) -> Reward:
    """The reward of ``text`` at a dataset row's ``position`` (``Position`` as JSON): deductions
    judged when the row's ``agent`` tracks them (Mycroft; every reply when the column is absent),
    the move valued by the row's ``values`` where ``hanabi annotate`` wrote them."""
    agent = columns.get("agent")
    tracking = agent is None or str(agent).split("@")[0] in TRACKING_AGENTS
    values = columns.get("values") or None
    return decision_reward(
        Position.model_validate_json(position), text, weights, tracking=tracking, values=values
    )


reward = trl_reward(
    "hanabi",
    score,
    DEFAULT_WEIGHTS,
    """One exact reward per completion of a Hanabi decision prompt, in TRL's reward-function
    shape (``GRPOTrainer(..., reward_funcs=[reward])``): sound deductions +1, lucky 0, wrong -1
    (averaged), plus the recall of the slots on the table, plus the chosen move's value over 25
    where the row has ``values``; an unreadable reply -1. None for rows of other games or
    without a position.""",
)


def stated_claims(game: HanabiGame, answer: RatedAnswer) -> tuple[list[Judgement], float]:
    """The judgement of every deduction ``answer`` states for the seat to move in ``game``, and
    the share of the slots on the table that got a complete, true claim."""
    seat, turn = game.current, len(game.history) + 1
    deductions = answer.deductions if isinstance(answer, MycroftAnswer) else []
    audits = [judge_claim(game, turn, seat, claim) for claim in deductions]
    complete = {
        (a.claim.seat, a.claim.slot)
        for a in audits
        if a.complete and a.correctness is Correctness.TRUE
    }
    tracked = sum(len(hand) for hand in game.hands)
    return [a.kind or "unjudged" for a in audits], len(complete) / tracked


def hull_claim(seat: int, slot: int, known: int) -> SlotClaim:
    """The narrowest claim about ``seat``'s ``slot`` that the identities ``known`` entail: their
    colours and their ranks."""
    cards = [card for card in range(NUM_IDENTITIES) if tightest(known) >> card & 1]
    colors = "".join(c for k, c in enumerate(COLORS) if any(i // NUM_RANKS == k for i in cards))
    ranks = "".join(str(r + 1) for r in range(NUM_RANKS) if any(i % NUM_RANKS == r for i in cards))
    return SlotClaim(seat=seat, slot=slot, colors=colors, ranks=ranks)


def exact_deductions(position: Position) -> list[SlotClaim]:
    """What a perfect tracker states in ``position``: for every slot on the table the hull of
    what the seat to move can know of it (``games.hanabi.audit.standard``), every claim sound
    and complete; a reference answer, or a target for supervised fine-tuning."""
    game = position.game()
    return [
        hull_claim(seat, slot, known)
        for seat in range(game.players)
        for slot, known in enumerate(standard(game, game.current, seat))
    ]
