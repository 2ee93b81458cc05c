"""Exact rewards for a Clue LLM seat's deduction replies, in TRL's reward-function shape.

A dataset row of a recorded deduction call has a ``position`` (``games.core.reward.CallPosition``:
the log up to the ``deduction`` event its reply stated). A new reply is read as the LLM seat reads
one (JSON or labelled ``ANALYSIS`` / ``DEDUCTIONS``, ``games.clue.llm_answers``) and its
deductions take the logged ones' place; the game's audit judges each against what the seat knew
then and against the deal. The terms (``games.core.reward``): the claims' mean judgement weight
(sound +1, lucky 0, wrong -1), plus the seat's recall of entailed "player Q holds card C" facts
over the game so far; an unreadable reply -1. Replies stating nothing score their recall alone.
Clue's own outcome (an accusation) is another call, whose log event names no call: not scored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.clue.entry import ENTRY
from games.clue.events import ClueConfig, DeductionEvent
from games.clue.llm_answers import DeductionAnswer, parse_deduction_answer
from games.clue.llm_schemas import deductions_model
from games.core.reward import CallPosition, Reward, RewardWeights, rescore, trl_reward
from reasoning.llm import parse_answer

DEFAULT_WEIGHTS = RewardWeights()
"""Sound +1, lucky 0, wrong -1 per claim (averaged), recall +1, unreadable -1."""


def restate(event: DeductionEvent, text: str, position: CallPosition) -> DeductionEvent:
    """The deduction event with the deductions ``text`` states (MalformedAnswer when the seat
    could not read it)."""
    config = ClueConfig.model_validate(position.header["config"])
    deck = config.deck

    def parse(reply: str) -> DeductionAnswer:
        return parse_deduction_answer(reply, deck, config.players)

    answer = parse_answer(text, DeductionAnswer, parse, deductions_model(deck, config.players))
    return event.model_copy(update={"deductions": answer.deductions})


def score(
    position: str,
    text: str,
    columns: Mapping[str, Any] | None = None,
    weights: RewardWeights = DEFAULT_WEIGHTS,
) -> Reward:
    """The reward of ``text`` answering the deduction call at ``position`` (JSON)."""
    where = CallPosition.model_validate_json(position)
    return rescore(ENTRY, where, text, restate, weights)


reward = trl_reward(
    "clue",
    score,
    DEFAULT_WEIGHTS,
    """One exact reward per completion of a Clue deduction prompt (TRL's reward-function
    shape; None for rows of other games or without a position).""",
)
