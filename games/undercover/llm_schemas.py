"""The structured-output models of Undercover-V's LLM answers, built from what is legal now.

Each model is flat, its fields the answer's labels lower-cased: a vote is an enum of the living
seats the player may vote for (``player 3``), a role is citizen or spy, a guess-update decision
keep or update, free text (reasoning, a guessed word) must not be empty, and a description is
one sentence starting "It" (``DESCRIPTION_PATTERN``); no text has a length bound in the schema
(the reply budget bounds it). A filled model is handed back as labelled lines, so the game's own
checks still run on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, Field

from games.undercover import prompts
from games.undercover.events import MAX_PLAYERS
from reasoning.llm.answer_models import answer_model, text_field

DESCRIPTION_PATTERN = r'^It [a-z][^."\\\n]{4,}[.]?$'
"""A description in structured answers: one sentence about the word as "It ...", so that a
grammar-constrained model starts with the pronoun rather than the word itself."""

_ROLE = (Literal["citizen", "spy"], ...)


def _description() -> Any:
    return (str, Field(pattern=DESCRIPTION_PATTERN))


def _field(label: str) -> str:
    return label.lower()


@cache
def describe_answer_model(uses_roles: bool) -> type[BaseModel]:
    """A description, after the reasoning and role belief for the Att-NLI agents."""
    if not uses_roles:
        return answer_model("DescribeAnswer", {_field(prompts.DESCRIPTION): _description()})
    return answer_model(
        "RoleDescribeAnswer",
        {
            _field(prompts.REASONING): text_field(),
            _field(prompts.ROLE): _ROLE,
            _field(prompts.DESCRIPTION): _description(),
        },
    )


@cache
def _vote_model(targets: tuple[int, ...], uses_roles: bool) -> type[BaseModel]:
    seats: Any = Literal[tuple(prompts.player(seat) for seat in targets)]
    if not uses_roles:
        return answer_model("VoteAnswer", {_field(prompts.VOTE): (seats, ...)})
    return answer_model(
        "RoleVoteAnswer",
        {
            _field(prompts.REASONING): text_field(),
            _field(prompts.ROLE): _ROLE,
            _field(prompts.VOTE): (seats, ...),
        },
    )


def vote_answer_model(targets: Sequence[int], uses_roles: bool) -> type[BaseModel]:
    """A vote for one of ``targets``, after the reasoning and role belief for the Att-NLI
    agents."""
    return _vote_model(tuple(targets), uses_roles)


@cache
def guess_answer_model() -> type[BaseModel]:
    """A first guess of the other side's word."""
    return answer_model("GuessAnswer", {_field(prompts.GUESS): text_field()})


@cache
def guess_update_answer_model() -> type[BaseModel]:
    """The guess-update answer: reasoning, role belief, keep or update, and the guess."""
    return answer_model(
        "GuessUpdateAnswer",
        {
            _field(prompts.REASONING): text_field(),
            _field(prompts.ROLE): _ROLE,
            _field(prompts.DECISION): (Literal["keep", "update"], ...),
            _field(prompts.GUESS): text_field(),
        },
    )


def largest_answer_models() -> list[type[BaseModel]]:
    """Every answer model, a vote among the most seats there can be, and the LLM reader's
    reading of a description with the most attributes of any word of the shipped lexicon: the
    schemas a server is sent at their largest."""
    from formalize.reading.llm_schemas import reading_answer_model
    from games.undercover.lexicon import Lexicon
    from games.undercover.reading import pair_vocabulary

    lexicon = Lexicon.load()
    vocabularies = [pair_vocabulary(lexicon, w) for pair in lexicon.pairs for w in pair.words]
    widest = max(vocabularies, key=lambda v: len(v.attributes))
    targets = tuple(range(1, MAX_PLAYERS))
    return [
        describe_answer_model(False),
        describe_answer_model(True),
        _vote_model(targets, False),
        _vote_model(targets, True),
        guess_answer_model(),
        guess_update_answer_model(),
        reading_answer_model(widest.task()),
    ]
