"""What a reader is asked to read: a question with typed slots, each with its options.

The same task goes to every reader; the offline reader also knows the world the options come
from (``formalize.reading.lexicon``), the LLM reader sees ``context`` (a few lines such as who
the victim is) next to the question.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

RESERVED: tuple[str, ...] = ("several", "none", "unsure")
"""The LLM reader's answers besides the options; no option's text may be one of them."""


class Option(BaseModel):
    """One value a slot can take (``value``, the id graded) and its words (``text``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    value: str = Field(min_length=1)
    text: str = Field(min_length=1)

    @field_validator("text")
    @classmethod
    def _not_reserved(cls, text: str) -> str:
        if text.strip().casefold() in RESERVED:
            raise ValueError(f"an option's text cannot be {text!r}: the reader answers with it")
        return text


class SlotSpec(BaseModel):
    """A typed part of the answer: its ``name``, its ``kind`` (``culprit``, ``motive``,
    ``time``, ...: which words the offline reader knows for it) and its options."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    kind: str = Field(min_length=1)
    options: list[Option] = Field(min_length=1)

    @field_validator("options")
    @classmethod
    def _distinct(cls, options: list[Option]) -> list[Option]:
        texts = [o.text.strip().casefold() for o in options]
        if len({o.value for o in options}) != len(options) or len(set(texts)) != len(texts):
            raise ValueError("options: values and texts must be distinct")
        return options

    def text_of(self, value: str) -> str:
        """The text of the option ``value``."""
        return next(o.text for o in self.options if o.value == value)


class ReadingTask(BaseModel):
    """A question whose answer in words is read into its slots."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    question: str = Field(min_length=1)
    slots: list[SlotSpec] = Field(min_length=1)
    context: str = ""

    @field_validator("slots")
    @classmethod
    def _names(cls, slots: list[SlotSpec]) -> list[SlotSpec]:
        names = [s.name for s in slots]
        if len(set(names)) != len(names):
            raise ValueError("slots: names must be distinct")
        return slots

    def only(self, names: set[str]) -> ReadingTask:
        """The task cut to the slots named ``names`` (in the task's order)."""
        return self.model_copy(update={"slots": [s for s in self.slots if s.name in names]})
