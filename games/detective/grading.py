"""Exact grading of detective answers from their elements, and the case scores built on it.

An answer is a value (or nothing) per slot of its question; each slot's reference value is one
element. With n elements, c given correctly and w given wrongly (a value other than the
reference; a slot left empty is missing, not wrong):

- 3: all elements correct (c = n);
- 0: none correct (c = 0), or misleading: more wrong elements than correct ones (w > c);
- 2: most correct, meaning more than half (2c > n);
- 1: some correct (0 < c, 2c <= n).

So a two-element answer scores 3, 1 or 0, and a one-element answer 3 or 0. Stages run from
t = 0 (after the introduction, before any location) to t = N (every location read); all N + 1
stages count towards the progressive score P, the final score F is the grade at t = N, and the
overall score is O = (P + F) / 2, per question, averaged per case and over cases.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import fmean

from pydantic import BaseModel, ConfigDict

from games.detective.case import Case, Question

Answers = Mapping[str, Mapping[str, str | None]]
"""One stage's answers: question id -> slot name -> the value given (None or absent: nothing)."""


def element_grade(n: int, correct: int, wrong: int) -> int:
    """The 0-3 grade of an answer with ``n`` elements, ``correct`` right and ``wrong`` wrong."""
    if correct == n:
        return 3
    if correct == 0 or wrong > correct:
        return 0
    return 2 if 2 * correct > n else 1


class AnswerGrade(BaseModel):
    """One answer's grade with the slots it got right, got wrong and left out."""

    model_config = ConfigDict(frozen=True)

    question: str
    score: int
    correct: list[str]
    wrong: list[str]
    missing: list[str]


def grade_answer(question: Question, given: Mapping[str, str | None]) -> AnswerGrade:
    """Grade the values ``given`` per slot name against the question's reference elements."""
    correct, wrong, missing = [], [], []
    for slot in question.slots:
        value = given.get(slot.name)
        if value is None:
            missing.append(slot.name)
        elif value == slot.answer:
            correct.append(slot.name)
        else:
            wrong.append(slot.name)
    score = element_grade(len(question.slots), len(correct), len(wrong))
    return AnswerGrade(
        question=question.id, score=score, correct=correct, wrong=wrong, missing=missing
    )


class QuestionScore(BaseModel):
    """One question's grades per stage (I(q, t) for t = 0..N) and its P, F and O."""

    model_config = ConfigDict(frozen=True)

    question: str
    instantaneous: list[int]
    progressive: float
    final: int
    overall: float


class CaseScore(BaseModel):
    """Per-question scores and the case's means of P, F and O over its questions."""

    model_config = ConfigDict(frozen=True)

    questions: list[QuestionScore]
    progressive: float
    final: float
    overall: float


def question_score(question: str, grades: Sequence[int]) -> QuestionScore:
    """P, F and O of one question from its grades at stages 0..N."""
    if not grades:
        raise ValueError(f"{question}: no stages to score")
    progressive = fmean(grades)
    final = grades[-1]
    return QuestionScore(
        question=question,
        instantaneous=list(grades),
        progressive=progressive,
        final=final,
        overall=(progressive + final) / 2,
    )


def case_score(per_question: Sequence[QuestionScore]) -> CaseScore:
    """The case's scores: the means of its questions' P, F and O."""
    return CaseScore(
        questions=list(per_question),
        progressive=fmean(q.progressive for q in per_question),
        final=fmean(q.final for q in per_question),
        overall=fmean(q.overall for q in per_question),
    )


def judged_case_score(grades: Mapping[str, Sequence[int | None]]) -> CaseScore | None:
    """The case's scores over the questions graded exactly at every stage (``grades``: question
    id -> grade per stage, None where the answer was unjudged); None when there is none."""
    judged = [
        question_score(qid, [g for g in stages if g is not None])
        for qid, stages in grades.items()
        if stages and all(g is not None for g in stages)
    ]
    return case_score(judged) if judged else None


def score_case(case: Case, stages: Sequence[Answers]) -> CaseScore:
    """Grade every stage's answers (stage 0 after the introduction) and score the case."""
    return case_score(
        [
            question_score(q.id, [grade_answer(q, stage.get(q.id, {})).score for stage in stages])
            for q in case.questions
        ]
    )


def overall_performance(scores: Sequence[CaseScore]) -> float:
    """The mean overall score over every question of every case."""
    return fmean(q.overall for s in scores for q in s.questions)
