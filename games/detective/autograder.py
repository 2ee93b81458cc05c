"""The LLM autograder of seed 001 (Section 3.2.2 and Appendix A.1): a chat model grades one
answer 0-3 and replies ``{"SCORE": n}``.

The modes differ in what the grading prompt shows, as in the seed's prompts:

1. the case solution, the question, its model answer, marking examples, the answer, and the
   task with the marking scheme;
2. the same elements in another order (the grade definitions first);
3. mode 1 without the solution;
4. the question, its model answer, a rubric and the answer (not the solution): the rubric is
   written first by the model from the solution, the question, the model answer and the
   marking examples;
5. mode 4 with the rubric written without the solution.

A rubric is structured JSON: for each grade 0-3 a definition, example answers and edge-case
guidance, and step-by-step instructions for applying it. Marking examples are the question's
own (a user's marker's graded answers) or, for a question with typed slots, sample answers with
every element right, most, some and none, each with its exact grade. Agreement is measured as
the seed's Table 2 does: % of identical grades and the RMS difference.
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

TASK = (
    "Compare the answer to grade with the model answer and give it a grade 0-3. Reply with "
    'JSON only: {"SCORE": n} with n one of 0, 1, 2, 3.'
)

RUBRIC_TASK = (
    "Write a marking rubric for grading answers to this question 0-3, tailored to this case. "
    "For each grade give a definition of when to award it, two or three example answers at "
    "that grade, and guidance on edge cases (partial answers, other names for the same thing, "
    "small misspellings, which should not cost marks when the meaning is clear). Add "
    '"step_by_step_application": how to apply the rubric, step by step. Reply with JSON only: '
    '{"rubric": {"0": {"definition": "...", "examples": ["..."], "edge_case_guidance": "..."}, '
    '"1": {...}, "2": {...}, "3": {...}, "step_by_step_application": "..."}}'
)


class ScoreReply(BaseModel):
    """The grader's reply."""

    model_config = ConfigDict(extra="forbid")

    SCORE: int = Field(ge=0, le=3)


class RubricGrade(BaseModel):
    """What a rubric says of one grade."""

    model_config = ConfigDict(extra="forbid")

    definition: str = Field(min_length=1)
    examples: list[str]
    edge_case_guidance: str


class Rubric(BaseModel):
    """A rubric as seed 001's rubric writer returns it: one entry per grade, and how to apply
    them."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    grade0: RubricGrade = Field(alias="0")
    grade1: RubricGrade = Field(alias="1")
    grade2: RubricGrade = Field(alias="2")
    grade3: RubricGrade = Field(alias="3")
    step_by_step_application: str = Field(min_length=1)


class RubricReply(BaseModel):
    """The rubric writer's reply (modes 4 and 5)."""

    model_config = ConfigDict(extra="forbid")

    rubric: Rubric


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
    """The question's marking examples with their grades, one a line: a marker's own where the
    question has them, else sample answers from its slots with their exact grades."""
    if question.marking_examples:
        return "\n".join(f"- {e.answer} -> {e.grade}" for e in question.marking_examples)
    if not question.slots:
        return "(none given)"
    return "\n".join(
        f"- {answer_text(question, a)} -> {grade_answer(question, a).score}"
        for a in sample_answers(question)
    )


STOCK_RUBRIC = Rubric.model_validate(
    {
        **{
            str(grade): {
                "definition": line.split(": ", 1)[1],
                "examples": [],
                "edge_case_guidance": "",
            }
            for grade, line in enumerate(SCHEME.splitlines()[1:])
        },
        "step_by_step_application": "Count the elements of the model answer the answer gets right.",
    }
)
"""The rubric used when the writer's reply was unusable: the marking scheme itself."""


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
        self._rubrics: dict[str, Rubric] = {}
        self.fallbacks = FallbackCounter()

    def rubric_prompt(self, case: Case, question: Question) -> str:
        """The rubric writer's prompt (modes 4 and 5; only mode 4 shows the solution)."""
        parts = [f"Case solution:\n{case.solution}"] if self.mode == 4 else []
        parts += [
            f"Question: {question.text}",
            f"Model answer: {question.model_answer}",
            f"Marking examples:\n{marking_examples(question)}",
            RUBRIC_TASK,
        ]
        return "\n\n".join(parts)

    def rubric(self, case: Case, question: Question) -> Rubric:
        """The rubric of ``question`` in this mode, written on first use."""
        key = f"{case.title}/{question.id}"
        if key not in self._rubrics:
            outcome = ask_structured(
                self.client,
                [system(GRADER_SYSTEM), user(self.rubric_prompt(case, question))],
                RubricReply,
                max_reprompts=self._max_reprompts,
                seed=self._seed,
            )
            if outcome.value is None:
                self.fallbacks.record("rubric", "unparsed")
            self._rubrics[key] = STOCK_RUBRIC if outcome.value is None else outcome.value.rubric
        return self._rubrics[key]

    def prompt(self, case: Case, question: Question, answer: str) -> str:
        """The grading prompt of this mode."""
        solution = f"Case solution:\n{case.solution}"
        asked = f"Question: {question.text}\nModel answer: {question.model_answer}"
        examples = f"Marking examples:\n{marking_examples(question)}"
        graded = f"Answer to grade: {' '.join(answer.split())}"
        if self.mode == 1:
            parts = [solution, asked, examples, graded, f"{TASK}\n{SCHEME}"]
        elif self.mode == 2:
            parts = [SCHEME, solution, asked, examples, graded, TASK]
        elif self.mode == 3:
            parts = [asked, examples, graded, f"{TASK}\n{SCHEME}"]
        else:
            rubric = self.rubric(case, question).model_dump_json(by_alias=True, indent=1)
            parts = [asked, f"Marking rubric:\n{rubric}", graded, f"{TASK} Apply the rubric."]
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
