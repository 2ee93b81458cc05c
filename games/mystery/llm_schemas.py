"""The structured-output models of the interrogation game's LLM answers, built from the view.

One model per decision, its fields those the prompt asks to fill: to ask, ``suspects`` (other
players' names), ``expected`` (high / medium / low for each other player), ``target`` (one of
them) and ``questions`` (one typed question for each, every name, time and weapon an enum of the
setting's); to answer, ``say`` (the spoken answer); to vote, ``accused`` (one of the other
players). ``llm-cot`` also fills ``reasoning`` first. Keys named after players are fields with
the name as alias. A filled model validates as the agent's ``MysteryAnswer``, whose own checks
(the spoken answer read into a legal reply) still run.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from games.mystery.engine import MysteryView

MAX_REASONING = 600
"""Characters of the chain-of-thought field."""
MAX_SAY = 400
"""Characters of a spoken answer: one or two sentences."""

_FORBID = ConfigDict(extra="forbid")
_BY_ALIAS = ConfigDict(extra="forbid", serialize_by_alias=True, validate_by_name=False)


def _model(name: str, fields: dict[str, Any], config: ConfigDict = _FORBID) -> type[BaseModel]:
    model: type[BaseModel] = create_model(name, __config__=config, **fields)
    return model


def _per_player(name: str, players: tuple[str, ...], kind: Any) -> type[BaseModel]:
    """One required field of ``kind`` per player, keyed by the player's name."""
    fields = {f"p_{i}": (kind, Field(alias=player)) for i, player in enumerate(players)}
    return _model(name, fields, _BY_ALIAS)


def _with_reasoning(cot: bool, fields: dict[str, Any]) -> dict[str, Any]:
    if not cot:
        return fields
    return {"reasoning": (str, Field(min_length=1, max_length=MAX_REASONING)), **fields}


@cache
def _ask_model(
    others: tuple[str, ...],
    people: tuple[str, ...],
    times: tuple[str, ...],
    weapons: tuple[str, ...],
    cot: bool,
) -> type[BaseModel]:
    question = _model(
        "TypedQuestion",
        {
            "kind": (Literal["where", "saw", "held", "related"], ...),
            "about": (Literal[people], ...),
            "other": (Literal[people] | None, None),
            "time": (Literal[times] | None, None),
            "item": (Literal[weapons] | None, None),
        },
    )
    level = Literal["high", "medium", "low"]
    fields = {
        "suspects": (list[Literal[others]], Field(max_length=len(others))),  # type: ignore[valid-type]
        "expected": (_per_player("ExpectedGain", others, level), ...),
        "target": (Literal[others], ...),
        "questions": (_per_player("QuestionPerPlayer", others, question), ...),
    }
    return _model("AskAnswer", _with_reasoning(cot, fields))


@cache
def _say_model(cot: bool) -> type[BaseModel]:
    fields = {"say": (str, Field(min_length=1, max_length=MAX_SAY))}
    return _model("SpokenAnswer", _with_reasoning(cot, fields))


@cache
def _vote_model(others: tuple[str, ...], cot: bool) -> type[BaseModel]:
    return _model("VoteAnswer", _with_reasoning(cot, {"accused": (Literal[others], ...)}))


def answer_model(obs: MysteryView, cot: bool) -> type[BaseModel]:
    """The answer model of the decision ``obs`` asks for (see the module docstring)."""
    s = obs.setting
    others = tuple(s.person(p).name for k, p in enumerate(obs.players) if k != obs.seat)
    if obs.phase == "ask":
        return _ask_model(
            others,
            tuple(p.name for p in s.people),
            tuple(s.slots),
            tuple(w.name for w in s.weapons),
            cot,
        )
    if obs.phase == "answer":
        return _say_model(cot)
    return _vote_model(others, cot)
