"""Exact rewards for a murder-mystery LLM seat's questions, in TRL's reward-function shape.

A dataset row of a recorded ask call has a ``position`` (``games.core.reward.CallPosition``: the
log up to the ``question`` event its reply made). A new reply is read as the LLM seat reads one
(``suspects`` per victim, ``games.mystery.llm_agents.stated_suspects``) and its suspect lists take
the logged ones' place; the game's audit grades every suspect dropped against what the seat could
know then (ENTAILED out: sound; not a killer: lucky; a real killer: wrong). The terms
(``games.core.reward``): the drops' mean judgement weight (sound +1, lucky 0, wrong -1), plus the
seat's recall over the game so far (entailed drops over those and the suspects kept that its
knowledge had ruled out); an unreadable reply -1. The vote that decides the game is another call,
whose log event names no call: not scored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.replay import replay
from games.core.reward import (
    CallPosition,
    Reward,
    RewardWeights,
    events_before,
    rescore,
    trl_reward,
)
from games.mystery.entry import ENTRY
from games.mystery.events import Asked
from games.mystery.llm_agents import MysteryAnswer, stated_suspects
from games.mystery.llm_schemas import decision_answer_model
from reasoning.llm import parse_answer

DEFAULT_WEIGHTS = RewardWeights()
"""Sound +1, lucky 0, wrong -1 per dropped suspect (averaged), recall +1, unreadable -1."""


def restater(agent: str | None) -> Any:
    """The reading of a reply in place of an ask call of ``agent`` (``llm-cot`` answers with its
    reasoning first)."""

    def restate(event: Asked, text: str, position: CallPosition) -> Asked:
        state = replay(ENTRY, events_before(ENTRY, position))
        view = state.observation(event.seat)
        model = decision_answer_model(view, cot=agent == "llm-cot")
        answer = parse_answer(text, MysteryAnswer, answer=model)
        return event.model_copy(update={"stated": stated_suspects(answer, view)})

    return restate


def score(
    position: str,
    text: str,
    columns: Mapping[str, Any] | None = None,
    weights: RewardWeights = DEFAULT_WEIGHTS,
) -> Reward:
    """The reward of ``text`` answering the ask call at ``position`` (JSON), read as the row's
    ``agent`` reads its replies."""
    where = CallPosition.model_validate_json(position)
    agent = (columns or {}).get("agent")
    return rescore(ENTRY, where, text, restater(agent), weights)


reward = trl_reward(
    "mystery",
    score,
    DEFAULT_WEIGHTS,
    """One exact reward per completion of a murder-mystery ask prompt (TRL's reward-function
    shape; None for rows of other games or without a position).""",
)
