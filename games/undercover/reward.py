"""Exact rewards for an Undercover-V LLM seat's descriptions, in TRL's reward-function shape.

A dataset row of a recorded describe call has a ``position`` (``games.core.reward.CallPosition``:
the log up to the ``description`` event its reply made). A new reply is read as the LLM seat reads
one (the description, checked against the seat's word; the role belief and reasoning of the
Att-NLI agents) and takes the logged description's place; the game's audit judges it against the
speaker's card theory, which is also the truth: ENTAILED is sound, CONTRADICTED wrong (a broken
card), and a description the lexicon leaves open, or one without a logical form, is unjudged.

Every description is read as the game reads it (``games.undercover.reading``: the offline reader
of the pair's lexicon): what a decided reading asserts is judged; a description it cannot read is
unjudged, which Undercover-V's default weights score 0, and an unreadable reply -1. A formalizer,
an LLM (``formalize.davidsonian``; ``formalizer=``, bound with ``functools.partial``), gives a
description a logical form of its own, which the reading must confirm. Undercover-V defines no
recall, and its outcome (the vote) is another call, whose log event names no call: neither is
scored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from formalize.davidsonian.autoformalize import Autoformalizer
from games.core.replay import replay
from games.core.reward import (
    CallPosition,
    Reward,
    RewardWeights,
    events_before,
    rescore,
    trl_reward,
)
from games.undercover.checker import ConsistencyTest, ProverChecker
from games.undercover.engine import UndercoverState
from games.undercover.entry import ENTRY
from games.undercover.events import DescriptionEvent
from games.undercover.lexicon import Lexicon
from games.undercover.llm_agents import DescribeAnswer, describe_parser, formalized
from games.undercover.llm_schemas import describe_answer_model
from reasoning.llm import parse_answer

DEFAULT_WEIGHTS = RewardWeights(unjudged=0.0)
"""Sound +1, wrong -1 per description (never lucky: the card is the truth), a description
that cannot be tested 0, unreadable -1."""
ROLE_AGENTS = ("att-nli", "ns-att-nli")
"""The LLM agents whose describe replies state a role belief first."""


def restater(agent: str | None, formalizer: Autoformalizer | None) -> Any:
    """The reading of a reply in place of a describe call of ``agent``, formalized by
    ``formalizer`` where given."""
    uses_roles = agent is not None and agent.split("@")[0] in ROLE_AGENTS

    def restate(event: DescriptionEvent, text: str, position: CallPosition) -> DescriptionEvent:
        state: UndercoverState = replay(ENTRY, events_before(ENTRY, position))
        view = state.observation(event.seat).observation
        parse = describe_parser(view, uses_roles)
        answer = parse_answer(text, DescribeAnswer, parse, describe_answer_model(uses_roles))
        description = formalized(formalizer, answer.description, view)
        checker = ProverChecker(ConsistencyTest(Lexicon.load()))
        check = checker.check(state.game.words[event.seat], description)
        return event.model_copy(
            update={
                "text": description.text,
                "formula": description.logged_formula(),
                "outcome": check.outcome,
                "reading": check.reading,
            }
        )

    return restate


def score(
    position: str,
    text: str,
    columns: Mapping[str, Any] | None = None,
    weights: RewardWeights = DEFAULT_WEIGHTS,
    formalizer: Autoformalizer | None = None,
) -> Reward:
    """The reward of ``text`` answering the describe call at ``position`` (JSON), read as the
    row's ``agent`` reads its replies."""
    where = CallPosition.model_validate_json(position)
    agent = (columns or {}).get("agent")
    return rescore(ENTRY, where, text, restater(agent, formalizer), weights)


reward = trl_reward(
    "undercover",
    score,
    DEFAULT_WEIGHTS,
    """One exact reward per completion of an Undercover-V describe prompt (TRL's
    reward-function shape; None for rows of other games or without a position); bind a
    ``formalizer`` to judge descriptions through their logical form.""",
    options=("formalizer",),
)
