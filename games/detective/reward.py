"""Exact rewards for a detective LLM reader's answers, in TRL's reward-function shape.

A dataset row of a recorded answer call has a ``position`` (``games.core.reward.CallPosition``:
the log up to the ``answers`` event of its stage, and the question the call answered). A new
reply is read as the reader reads one (``{"ANSWER": {part: option}}``, an option per part or
blank), and every part it answers is judged as the game's audit judges that stage's answers
(``games.detective.audit.audit_answers``: against the locations read by then and against the
case's solution; only this question is audited again, not the whole log). The terms
(``games.core.reward``): the parts' mean judgement weight (sound +1, lucky 0, wrong -1), plus the
recall: the share of the question's parts answered soundly; an unreadable reply -1. The
detective's own outcome is its grade, which these judgements are.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from games.core.reward import CallPosition, Reward, RewardWeights, malformed, trl_reward
from games.core.reward import reward as weigh
from games.detective.agents import question_values
from games.detective.audit import AUDIT_PROVER, audit_answers
from games.detective.case import Case, Question
from games.detective.engine import case_digest
from games.detective.entry import game_case
from games.detective.events import AnswersEvent, CaseStart, DetectiveConfig
from games.detective.llm_schemas import question_answer_model
from games.detective.prompts import AnswerReply
from provers import get_prover
from reasoning.llm import MalformedAnswer, parse_answer
from reasoning.verifier import Verifier

DEFAULT_WEIGHTS = RewardWeights()
"""Sound +1, lucky 0, wrong -1 per part (averaged), recall +1, unreadable -1."""


@lru_cache(maxsize=8)
def _case(config: str, seed: int) -> Case:
    return game_case(DetectiveConfig.model_validate_json(config), seed)


def played_case(position: CallPosition) -> Case:
    """The case the game of ``position`` played (generated once per process); ValueError when
    it is not the one its ``case_start`` event names."""
    case = _case(json.dumps(position.header["config"]), int(position.header["seed"]))
    start = CaseStart.model_validate(position.events[0])
    if start.digest != case_digest(case):
        raise ValueError("position: its case is not the one its header names")
    return case


def asked(case: Case, position: CallPosition) -> Question:
    """The question the call of ``position`` answered; ValueError when the case has none such."""
    found = next((q for q in case.questions if q.id == position.part), None)
    if found is None:
        raise ValueError(f"position: the case has no question {position.part!r}")
    return found


def answer_of(question: Question, text: str) -> dict[str, str | None]:
    """The options ``text`` gives ``question``'s parts, read as the reader reads a reply
    (MalformedAnswer when it cannot)."""
    reply = parse_answer(text, AnswerReply, answer=question_answer_model(question))
    values = question_values(question, reply)
    return {s.name: v for s, v in zip(question.slots, values, strict=True)}


def score(
    position: str,
    text: str,
    columns: Mapping[str, Any] | None = None,
    weights: RewardWeights = DEFAULT_WEIGHTS,
) -> Reward:
    """The reward of ``text`` answering the question call at ``position`` (JSON)."""
    where = CallPosition.model_validate_json(position)
    case = played_case(where)
    question = asked(case, where)
    stage = AnswersEvent.model_validate(where.events[-1])
    try:
        answered = answer_of(question, text)
    except MalformedAnswer:
        return malformed(weights)
    verifier = Verifier(get_prover(AUDIT_PROVER))
    elements = audit_answers(case, stage.read, {question.id: answered}, verifier)
    judgements = [element.kind for element in elements]
    return weigh(judgements, weights, recall=judgements.count("sound") / len(question.slots))


reward = trl_reward(
    "detective",
    score,
    DEFAULT_WEIGHTS,
    """One exact reward per completion of a detective question prompt (TRL's reward-function
    shape; None for rows of other games or without a position).""",
)
