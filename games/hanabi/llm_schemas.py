"""The structured-output models of the Hanabi LLM agents' answers, built from the observation.

Each model has the fields of ``RatedAnswer`` (and Mycroft's of ``MycroftAnswer``) in the order
the answer rule lists them: the reasoning is free text that must not be empty; the ratings are
exactly one per legal move, each an enum of ``RATINGS``; the chosen move is an enum of the legal
indices; Mycroft's deductions are slot claims whose seat, slot, colours and ranks are enums (the
colours and ranks any non-empty subset, written in the deck's order), at most one claim per
card on the table. A filled model is validated as the game's schema
(``reasoning.llm.parse_answer``).

Every bound is an enum or an item count because those are what the grammars llama-cpp-python
builds from a schema keep to while decoding; a number's minimum and maximum are dropped, and
SmolLM2 rated moves 1.5, 2.6, ... when only told the range. The reasoning has no length bound
in the schema (a grammar writes a bound out character by character, and one of thousands
crashed llama-cpp-python): seed 003's models think at length, and the reply budget bounds them.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, Field

from formalize.hanabi.deck import COLORS, NUM_RANKS
from games.hanabi.config import HANABI_INFO
from games.hanabi.engine import HanabiObservation
from games.hanabi.events import HanabiConfig
from reasoning.llm.answer_models import answer_model, text_field

RANKS = "".join(str(rank + 1) for rank in range(NUM_RANKS))
"""The ranks as a claim writes them."""
RATINGS = tuple(round(tenths / 10, 1) for tenths in range(-10, 11))
"""The ratings a structured answer may give: [-1, 1] in steps of 0.1."""


def _one_of(values: tuple[object, ...]) -> Any:
    return Literal[values]


def _subsets(letters: str) -> tuple[str, ...]:
    return tuple(
        "".join(letter for i, letter in enumerate(letters) if mask >> i & 1)
        for mask in range(1, 1 << len(letters))
    )


def _move_fields(moves: int) -> dict[str, Any]:
    rating = _one_of(RATINGS)
    return {
        "ratings": (list[rating], Field(min_length=moves, max_length=moves)),  # type: ignore[valid-type]
        "chosen": (_one_of(tuple(range(moves))), ...),
    }


@cache
def _rated_model(moves: int) -> type[BaseModel]:
    return answer_model("HanabiRatedAnswer", {"reasoning": text_field(), **_move_fields(moves)})


@cache
def _claim_model(players: int, slots: int) -> type[BaseModel]:
    return answer_model(
        "HanabiSlotClaim",
        {
            "seat": (_one_of(tuple(range(players))), ...),
            "slot": (_one_of(tuple(range(slots))), ...),
            "colors": (_one_of(_subsets(COLORS)), ...),
            "ranks": (_one_of(_subsets(RANKS)), ...),
        },
    )


@cache
def _mycroft_model(moves: int, players: int, slots: int, cards: int) -> type[BaseModel]:
    claim = _claim_model(players, slots)
    return answer_model(
        "HanabiMycroftAnswer",
        {
            "reasoning": text_field(),
            "deductions": (list[claim], Field(max_length=cards)),  # type: ignore[valid-type]
            **_move_fields(moves),
        },
    )


def rated_answer_model(obs: HanabiObservation) -> type[BaseModel]:
    """Watson's and Sherlock's answer: reasoning, a rating per legal move, the chosen index."""
    return _rated_model(len(obs.legal_actions))


def mycroft_answer_model(obs: HanabiObservation) -> type[BaseModel]:
    """Mycroft's answer: reasoning, at most one claim per card on the table, a rating per legal
    move, the chosen index."""
    sizes = [len(hand) for hand in obs.hands]
    return _mycroft_model(len(obs.legal_actions), obs.players, max(sizes), sum(sizes))


def largest_answer_models() -> list[type[BaseModel]]:
    """Both answer models at each table size with the most legal moves there can be (every
    card played or discarded, every colour and rank hinted to every other seat): the schemas a
    server is sent at their largest."""
    models: list[type[BaseModel]] = []
    for players in range(HANABI_INFO.min_players, HANABI_INFO.max_players + 1):
        slots = HanabiConfig(players=players).hand_size
        moves = 2 * slots + (players - 1) * (len(COLORS) + NUM_RANKS)
        models += [_rated_model(moves), _mycroft_model(moves, players, slots, players * slots)]
    return models
