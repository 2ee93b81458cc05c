"""The LLM autograder of seed 001 (Section 3.2.2): a chat model grades one answer 0-3 and replies
``{"SCORE": n}``.

Every mode shows the introduction, the question, its model answer, the task and the answer to
grade; they differ in the rest:

1. the solution, the marking scheme and marking examples;
2. the same elements as mode 1 in a different order;
3. mode 1 without the solution;
4. the solution and a rubric the model writes first from the question, the model answer, the
   marking examples and the solution;
5. mode 4 with the rubric written without the solution (the solution still shown when grading).

Marking examples are built from the question's slots: answers with every element right, most,
some and none, each with its exact grade. Agreement with exact grades is measured as the seed's
Table 2 does: % of identical grades and the RMS difference.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from games.detective.case import Case, Question
from games.detective.grading import grade_answer
from reasoning.llm import ChatClient, FallbackCounter, ask_structured, system, user

MODES = (1, 2, 3, 4, 5)
"""The autograder's prompting modes."""

GRADER_SYSTEM = "You grade answers to detective case questions fairly and consistently."

SCHEME = (
    "Marking scheme, one grade per answer:\n"
    "0: no element is present and correct, or the answer is misleading or nonsensical.\n"
    "1: some elements are present and correct, but most are absent or incorrect.\n"
    "2: most elements are present and correct, but some are missing or incorrect.\n"
    "3: all elements are present and correct."
)

TASK = 'Grade the answer below. Reply with JSON only: {"SCORE": n} with n one of 0, 1, 2, 3.'


class ScoreReply(BaseModel):
    """The grader's reply."""

    model_config = ConfigDict(extra="forbid")

    SCORE: int = Field(ge=0, le=3)


class RubricReply(BaseModel):
    """The rubric the model writes for modes 4 and 5."""

    model_config = ConfigDict(extra="forbid")

    RUBRIC: str = Field(min_length=1)


def answer_text(question: Question, given: Mapping[str, str | None]) -> str:
    """An answer written out part by part (``unknown`` for a blank part)."""
    parts = []
    for slot in question.slots:
        value = given.get(slot.name)
        known = {c.value for c in slot.choices}
        text = slot.choice(value).text if value in known and value is not None else value
        parts.append(f"{slot.name}: {text if text is not None else 'unknown'}")
    return "; ".join(parts)


def sample_answers(question: Question) -> list[dict[str, str | None]]:
    """Answers of every quality for ``question``: for k = n..0 right elements, the first k
    right and the rest wrong, then the same with the rest blank (duplicates dropped)."""
    slots = question.slots
    out: list[dict[str, str | None]] = []
    for blank in (False, True):
        for right in range(len(slots), -1, -1):
            answer: dict[str, str | None] = {}
            for i, slot in enumerate(slots):
                wrong = next(c.value for c in slot.choices if c.value != slot.answer)
                answer[slot.name] = slot.answer if i < right else (None if blank else wrong)
            if answer not in out:
                out.append(answer)
    return out


def marking_examples(question: Question) -> str:
    """The sample answers with their exact grades, one a line."""
    return "\n".join(
        f"- {answer_text(question, a)} -> {grade_answer(question, a).score}"
        for a in sample_answers(question)
    )


class AutoGrader:
    """Grades answers with a chat model in one mode; rubrics (modes 4, 5) are written once per
    question and kept. Replies unusable after the re-prompts grade 0 and are counted."""

    def __init__(self, client: ChatClient, mode: int, *, seed: int = 0, max_reprompts: int = 3):
        if mode not in MODES:
            raise ValueError(f"mode: must be one of {', '.join(map(str, MODES))}, got {mode}")
        self.client = client
        self.mode = mode
        self._seed = seed
        self._max_reprompts = max_reprompts
        self._rubrics: dict[str, str] = {}
        self.fallbacks = FallbackCounter()

    def _rubric(self, case: Case, question: Question) -> str:
        key = f"{case.title}/{question.id}"
        if key not in self._rubrics:
            parts = [
                f"Question: {question.text}",
                f"Model answer: {question.model_answer}",
                f"Marking examples:\n{marking_examples(question)}",
            ]
            if self.mode == 4:
                parts.append(f"Case solution: {case.solution}")
            parts.append(
                "Write a detailed rubric for grading answers to this question 0-3: for each "
                "grade, when to award it, example answers at that grade, and how to treat "
                'partial answers and misspellings. Reply with JSON: {"RUBRIC": "..."}'
            )
            outcome = ask_structured(
                self.client,
                [system(GRADER_SYSTEM), user("\n\n".join(parts))],
                RubricReply,
                max_reprompts=self._max_reprompts,
                seed=self._seed,
            )
            if outcome.value is None:
                self.fallbacks.record("rubric", "unparsed")
            self._rubrics[key] = SCHEME if outcome.value is None else outcome.value.RUBRIC
        return self._rubrics[key]

    def prompt(self, case: Case, question: Question, answer: str) -> str:
        """The grading prompt of this mode."""
        intro = f"Case introduction:\n{case.introduction}"
        solution = f"Case solution:\n{case.solution}"
        asked = f"Question: {question.text}\nModel answer: {question.model_answer}"
        examples = f"Marking examples:\n{marking_examples(question)}"
        graded = f"{TASK}\nAnswer to grade: {answer}"
        if self.mode == 1:
            parts = [intro, solution, asked, SCHEME, examples, graded]
        elif self.mode == 2:
            parts = [asked, examples, SCHEME, intro, solution, graded]
        elif self.mode == 3:
            parts = [intro, asked, SCHEME, examples, graded]
        else:
            rubric = f"Rubric:\n{self._rubric(case, question)}"
            parts = [intro, solution, asked, rubric, graded]
        return "\n\n".join(parts)

    def grade(self, case: Case, question: Question, answer: str) -> int:
        """The grade the model gives ``answer`` (0 when no usable reply came back)."""
        outcome = ask_structured(
            self.client,
            [system(GRADER_SYSTEM), user(self.prompt(case, question, answer))],
            ScoreReply,
            max_reprompts=self._max_reprompts,
            seed=self._seed,
        )
        if outcome.value is None:
            self.fallbacks.record("grade", "unparsed")
            return 0
        return outcome.value.SCORE


class Agreement(BaseModel):
    """How often two graders gave the same grade, and the RMS of their differences."""

    model_config = ConfigDict(frozen=True)

    answers: int
    percent_exact: float
    rms: float


def agreement(exact: Sequence[int], other: Sequence[int]) -> Agreement:
    """% identical grades and the RMS difference between two equally long grade lists."""
    if len(exact) != len(other) or not exact:
        raise ValueError("agreement needs two non-empty grade lists of one length")
    same = sum(a == b for a, b in zip(exact, other, strict=True))
    square = sum((a - b) ** 2 for a, b in zip(exact, other, strict=True))
    return Agreement(
        answers=len(exact),
        percent_exact=100.0 * same / len(exact),
        rms=math.sqrt(square / len(exact)),
    )
