"""The structured-output model of the LLM reader's answer, built from the task.

Per slot, ``{"words": ..., "reading": ...}``: the words of the answer that decide the slot (free
text, no length limit) and the reading, an enum of the slot's option texts and ``several``,
``none``, ``unsure``. The schema stays small, so a grammar-constrained server (llama.cpp) can
build its grammar from it.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel

from formalize.reading.task import RESERVED, ReadingTask
from reasoning.llm.answer_models import answer_model, keyed_model


@cache
def _reading_model(parts: tuple[tuple[str, tuple[str, ...]], ...]) -> type[BaseModel]:
    kinds = {
        name: answer_model(
            f"Slot{i}Answer", {"words": (str, ...), "reading": (Literal[(*texts, *RESERVED)], ...)}
        )
        for i, (name, texts) in enumerate(parts)
    }
    return keyed_model("ReadingAnswer", kinds)


def reading_answer_model(task: ReadingTask) -> type[BaseModel]:
    """The LLM reader's answer to ``task``: per slot the deciding words and the reading."""
    return _reading_model(tuple((s.name, tuple(o.text for o in s.options)) for s in task.slots))
