"""The structured-output models of the Clue LLM agent's answers, built from the observation.

Each model is flat, its fields the answer's labels lower-cased, and every name the game checks
is an enum: a suggestion is any suspect, weapon, room triple; an accusation is NONE or a full
triple on a normal turn and a full triple at the final accusation; the card to show is one of
the cards matching the suggestion; deductions take the four forms over the game's players and
cards. Free-text fields must not be empty (the reply budget bounds their length). A filled model
is handed back as labelled lines, so the game's own parser still checks it
(``reasoning.llm.parse_answer``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, Field

from games.clue.agent import ClueObservation, Phase
from games.clue.cards import Card, Deck
from games.clue.events import ClueConfig, Deduction, DeductionKind
from games.clue.llm_answers import format_deduction
from reasoning.llm.answer_models import answer_model, text_field

MAX_DEDUCTIONS = 12
"""Deductions one answer may state."""
NONE = "NONE"
"""The accusation of a player who does not accuse this turn."""

_PLAYER_KINDS: tuple[DeductionKind, ...] = ("holds", "not_holds")
_ENVELOPE_KINDS: tuple[DeductionKind, ...] = ("in_envelope", "not_in_envelope")


def _one_of(values: tuple[str, ...]) -> Any:
    return Literal[values]


def _triples(
    suspects: Sequence[str], weapons: Sequence[str], rooms: Sequence[str]
) -> tuple[str, ...]:
    return tuple(f"{s}, {w}, {r}" for s in suspects for w in weapons for r in rooms)


@cache
def _deduction_model(cards: tuple[Card, ...], players: int) -> type[BaseModel]:
    forms = [
        Deduction(kind=kind, card=card, player=seat)
        for kind in _PLAYER_KINDS
        for seat in range(players)
        for card in cards
    ] + [Deduction(kind=kind, card=card) for kind in _ENVELOPE_KINDS for card in cards]
    listed = _one_of(tuple(format_deduction(d) for d in forms))
    return answer_model(
        "ClueDeductionAnswer",
        {
            "analysis": text_field(),
            "deductions": (list[listed], Field(max_length=MAX_DEDUCTIONS)),  # type: ignore[valid-type]
        },
    )


@cache
def _move_model(triples: tuple[str, ...], final: bool) -> type[BaseModel]:
    if final:
        fields = {
            "summary": text_field(),
            "reasoning": text_field(),
            "accusation": (_one_of(triples), ...),
        }
        return answer_model("ClueFinalAnswer", fields)
    fields = {
        "summary": text_field(),
        "reasoning": text_field(),
        "suggestion": (_one_of(triples), ...),
        "accusation": (_one_of((NONE, *triples)), ...),
    }
    return answer_model("ClueMoveAnswer", fields)


@cache
def _show_model(matching: tuple[str, ...]) -> type[BaseModel]:
    return answer_model(
        "ClueShowAnswer", {"reasoning": text_field(), "show": (_one_of(matching), ...)}
    )


def deduction_answer_model(obs: ClueObservation) -> type[BaseModel]:
    """The deduction phase's answer: ANALYSIS and a list of DEDUCTIONS in the four forms."""
    return deductions_model(obs.deck(), obs.n_players)


def deductions_model(deck: Deck, players: int) -> type[BaseModel]:
    """The deduction phase's answer in a game of ``deck`` between ``players``."""
    return _deduction_model(deck.cards, players)


def move_answer_model(obs: ClueObservation) -> type[BaseModel]:
    """The action phase's answer (SUMMARY, REASONING, SUGGESTION, ACCUSATION or NONE), or at the
    final accusation SUMMARY, REASONING and a full ACCUSATION."""
    triples = _triples(obs.suspects, obs.weapons, obs.rooms)
    return _move_model(triples, obs.phase is Phase.FINAL_ACCUSATION)


def show_answer_model(obs: ClueObservation) -> type[BaseModel]:
    """The show-card phase's answer: REASONING and a card to SHOW among the matching ones."""
    return _show_model(tuple(card.name for card in obs.matching))


def largest_answer_models() -> list[type[BaseModel]]:
    """Every answer model of a standard game at the most seats: the schemas a server is sent
    at their largest (a suggestion matches at most three cards)."""
    from games.clue.engine import INFO

    config = ClueConfig(players=INFO.max_players)
    cards = config.deck.cards
    triples = _triples(config.suspects, config.weapons, config.rooms)
    return [
        _deduction_model(cards, config.players),
        _move_model(triples, False),
        _move_model(triples, True),
        _show_model((config.suspects[0], config.weapons[0], config.rooms[0])),
    ]
