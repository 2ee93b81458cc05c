"""The structured-output models of the detective LLM agent's answers, built from the view.

A location choice is an enum of the unread locations' titles. An answer to a question is
``{"ANSWER": {part: option}}`` with one field per part of the question, keyed by the part's
name, each an enum of the part's options as the prompt lists them or ``unknown``
(``prompts.BLANK``). A filled model validates as the prompt's reply (``LocationReply``,
``AnswerReply``), so the agent reads it as it reads JSON text.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel

from games.detective.case import Question
from games.detective.prompts import BLANK
from reasoning.llm.answer_models import answer_model, keyed_model


@cache
def _location_model(titles: tuple[str, ...]) -> type[BaseModel]:
    return answer_model("LocationChoice", {"location": (Literal[titles], ...)})


@cache
def _answer_model(parts: tuple[tuple[str, tuple[str, ...]], ...]) -> type[BaseModel]:
    kinds = {name: Literal[(BLANK, *options)] for name, options in parts}
    return answer_model("QuestionAnswer", {"ANSWER": (keyed_model("QuestionParts", kinds), ...)})


def location_answer_model(titles: tuple[str, ...]) -> type[BaseModel]:
    """The choose-location answer: ``location``, one of ``titles``."""
    return _location_model(titles)


def question_answer_model(question: Question) -> type[BaseModel]:
    """The answer to ``question``: every part one of its options (as listed) or ``unknown``."""
    return _answer_model(tuple((s.name, tuple(c.text for c in s.choices)) for s in question.slots))


def largest_answer_models() -> list[type[BaseModel]]:
    """The location choice among all of a standard case's locations, the answer to each of its
    questions, and the LLM reader's reading of each answer in words (seed 0's case): the
    schemas a server is sent at their largest."""
    from formalize.reading.llm_schemas import reading_answer_model
    from games.detective.entry import ENTRY, game_case
    from games.detective.events import DetectiveConfig
    from games.detective.reading import question_task

    config = ENTRY.default_config(1)
    assert isinstance(config, DetectiveConfig)
    case = game_case(config, 0)
    titles = tuple(location.title for location in case.locations)
    readings = [reading_answer_model(question_task(q, case.setting)) for q in case.questions]
    return [
        location_answer_model(titles),
        *(question_answer_model(q) for q in case.questions),
        *readings,
    ]
