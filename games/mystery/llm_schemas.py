"""The structured-output models of the interrogation game's LLM answers, built from the view.

One model per decision, its fields those the prompt asks to fill: to ask, ``suspects`` (for
each victim, the other players' names still suspected of killing them), ``expected`` (high /
medium / low for each other player), ``target`` (one of them) and ``questions`` (one typed
question for each: one shape per kind with every field that kind needs, every name, time and
weapon an enum of the setting's); to answer, ``say`` (the spoken answer); to vote, ``accused``
(one of the other players). ``llm-cot`` also fills ``reasoning`` first. Keys named after
players or victims are read and written as the names (``keyed_model``). A filled model
validates as the agent's ``MysteryAnswer``, whose own checks (the spoken answer read into a
legal reply) still run.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from formalize.world.setting import Setting
from games.mystery.engine import MysteryView
from reasoning.llm.answer_models import answer_model, keyed_model, text_field


def _with_reasoning(cot: bool, fields: dict[str, Any]) -> dict[str, Any]:
    if not cot:
        return fields
    return {"reasoning": text_field(), **fields}


@cache
def _ask_model(
    victims: tuple[str, ...],
    others: tuple[str, ...],
    people: tuple[str, ...],
    times: tuple[str, ...],
    weapons: tuple[str, ...],
    cot: bool,
) -> type[BaseModel]:
    person, time, item = (Literal[people], ...), (Literal[times], ...), (Literal[weapons], ...)
    # One shape per kind, each with every field its question needs.
    kinds: Any = (
        answer_model("Where", {"kind": (Literal["where"], ...), "about": person, "time": time})
        | answer_model(
            "Saw",
            {"kind": (Literal["saw"], ...), "about": person, "other": person, "time": time},
        )
        | answer_model("Held", {"kind": (Literal["held"], ...), "about": person, "item": item})
        | answer_model(
            "Related", {"kind": (Literal["related"], ...), "about": person, "other": person}
        )
    )
    question = Annotated[kinds, Field(discriminator="kind")]
    level = Literal["high", "medium", "low"]
    names: Any = Annotated[list[Literal[others]], Field(max_length=len(others))]  # type: ignore[valid-type]
    fields = {
        "suspects": (keyed_model("SuspectsPerVictim", dict.fromkeys(victims, names)), ...),
        "expected": (keyed_model("ExpectedGain", dict.fromkeys(others, level)), ...),
        "target": (Literal[others], ...),
        "questions": (keyed_model("QuestionPerPlayer", dict.fromkeys(others, question)), ...),
    }
    return answer_model("AskAnswer", _with_reasoning(cot, fields))


@cache
def _say_model(cot: bool) -> type[BaseModel]:
    fields = {"say": text_field()}
    return answer_model("SpokenAnswer", _with_reasoning(cot, fields))


@cache
def _vote_model(others: tuple[str, ...], cot: bool) -> type[BaseModel]:
    return answer_model("VoteAnswer", _with_reasoning(cot, {"accused": (Literal[others], ...)}))


def decision_answer_model(obs: MysteryView, cot: bool) -> type[BaseModel]:
    """The answer model of the decision ``obs`` asks for (see the module docstring)."""
    return _decision_model(obs.setting, obs.players, obs.seat, obs.phase, cot)


def _decision_model(
    s: Setting, players: Sequence[str], seat: int, phase: str, cot: bool
) -> type[BaseModel]:
    others = tuple(s.person(p).name for k, p in enumerate(players) if k != seat)
    if phase == "ask":
        return _ask_model(
            tuple(s.person(c.victim).name for c in s.crimes),
            others,
            tuple(p.name for p in s.people),
            tuple(s.slots),
            tuple(w.name for w in s.weapons),
            cot,
        )
    if phase == "answer":
        return _say_model(cot)
    return _vote_model(others, cot)


def largest_answer_models() -> list[type[BaseModel]]:
    """Every answer model of a game at the most seats (seed 0's scripts), with and without the
    chain of thought: the schemas a server is sent at their largest."""
    from games.mystery.entry import ENTRY, game_scripts

    scripts = game_scripts(ENTRY.default_config(ENTRY.info.max_players), 0)
    return [
        _decision_model(scripts.world.setting, scripts.players, 0, phase, cot)
        for phase in ("ask", "answer", "vote")
        for cot in (False, True)
    ]
