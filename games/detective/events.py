"""The detective game's config and log events: the case, every stage's answers, every visit, the
end with the case's scores."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    model_serializer,
)

from formalize.reading.reading import Reading
from games.core.llm_call import LLMCallsRef
from games.detective.case import CaseKnobs
from games.detective.grading import CaseScore

StageAnswers = dict[str, dict[str, str | None]]
"""One stage's answers as logged: question id -> slot name -> value (None: left blank)."""


class DetectiveConfig(BaseModel):
    """A game's case: generated from the game's seed with ``knobs`` (the number of questions is
    ``knobs.questions``), or read from ``case_file``: a log names it relative to the log's own
    folder, so the log audits from any working folder and moves with its case."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: int = Field(default=1, strict=True, ge=1, le=1)
    """The detective plays alone."""
    knobs: CaseKnobs = CaseKnobs()
    case_file: str | None = None
    case_folder: str | None = Field(default=None, exclude=True)
    """The folder a relative ``case_file`` is relative to (the log's, when the game is played
    into a log or read from one; never logged itself); None: the working folder."""

    def case_path(self) -> Path | None:
        """Where the case file is (None for a generated case)."""
        if self.case_file is None:
            return None
        folder = Path(self.case_folder) if self.case_folder is not None else Path()
        return folder / self.case_file

    def logged_from(self, log_folder: Path) -> DetectiveConfig:
        """This config, as read from a log in ``log_folder``: a relative case path is taken from
        there (or, for a log written before case paths were logged relative to the log, from
        the working folder, where only that finds the file)."""
        if self.case_file is None or Path(self.case_file).is_absolute():
            return self
        beside = log_folder / self.case_file
        if not os.path.lexists(beside) and os.path.lexists(self.case_file):
            return self
        return self.model_copy(update={"case_folder": str(log_folder)})

    def logged_into(self, log_folder: Path) -> DetectiveConfig:
        """This config for a game played into a log in ``log_folder``: the case file named
        relative to that folder."""
        path = self.case_path()
        if path is None:
            return self
        relative = os.path.relpath(path.resolve(), log_folder.resolve())
        return self.model_copy(update={"case_file": relative, "case_folder": str(log_folder)})


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CaseStart(_Event):
    """The case in play: its title, a digest of its file form, its questions and locations, and
    what an ideal reader reaches on the best visiting order: the overall score and the mean
    grade per stage (None when the case has no logic)."""

    type: Literal["case_start"] = "case_start"
    title: str
    digest: str
    questions: list[str]
    locations: list[str]
    best_overall: float | None
    best_by_stage: list[float] | None


class AnswersEvent(_Event, LLMCallsRef):
    """The answers given after reading ``read`` (stage = how many locations were read), with
    each question's exact grade when the case can be graded exactly (None for an answer in
    words whose reading is not decisive: unjudged), and the recorded LLM call each question's
    answer came from (for an LLM reader that records its calls).

    An agent that answers in words also logs each question's ``texts`` and their ``readings``
    (``formalize.reading``: per slot the outcome, the option, and the character spans of the
    words that decided it); ``answers`` then holds the options the readings assert. Both are
    left out of the JSON when absent, so typed answers are written as before."""

    type: Literal["answers"] = "answers"
    stage: int = Field(ge=0)
    read: list[str]
    answers: StageAnswers
    grades: list[int | None] | None
    texts: dict[str, str] | None = None
    readings: dict[str, Reading] | None = None

    @model_serializer(mode="wrap")
    def _without_absent(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict):
            for key in ("texts", "readings", "calls"):
                value = data.pop(key, None)
                if value is not None:
                    data[key] = value
        return data


class VisitEvent(_Event):
    """The location visited next."""

    type: Literal["visit"] = "visit"
    stage: int = Field(ge=0)
    location: str


class GameEnd(_Event):
    """Every location read: the case's exact scores (None when it can only be autograded)."""

    type: Literal["game_end"] = "game_end"
    stages: int
    score: CaseScore | None


DetectiveEvent = Annotated[
    CaseStart | AnswersEvent | VisitEvent | GameEnd, Field(discriminator="type")
]
"""Any event of a detective log."""

DETECTIVE_EVENT: TypeAdapter[DetectiveEvent] = TypeAdapter(DetectiveEvent)
"""Validates one detective event."""
