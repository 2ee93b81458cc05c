"""Seed 001's game with free-text answers (Section 3.1, Appendix B.1): after the introduction
and after every location the model answers all questions in one prompt, in its own words,
making its best guess when unsure (``{"1": "...", "2": "..."}``); between, it chooses the next
location. Each answer is graded 0-3 by the autograder and, where the question has a logic form
(typed slots), also exactly, from the options its text names.

This plays any case, including a user's transcribed case whose questions have no slots; the
typed game (``engine``) asks per part with options instead.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, RootModel

from games.detective.autograder import AutoGrader
from games.detective.case import AnswerSlot, Case, Question
from games.detective.grading import CaseScore, case_score, grade_answer, question_score
from games.detective.prompts import SYSTEM, LocationReply, location_prompt, questions_block, recap
from reasoning.llm import (
    ChatClient,
    FallbackCounter,
    ask_structured,
    choose_with_fallback,
    system,
    user,
)


class FreeAnswers(RootModel[dict[str, str]]):
    """The answer prompt's reply: question number (from 1) -> the answer in words."""


def free_answer_prompt(case: Case, read: Sequence[str]) -> str:
    """Ask for the most likely answer to every question, in words, from what has been read."""
    n = len(case.questions)
    example = ", ".join(f'"{i}": "your answer"' for i in range(1, n + 1))
    return "\n\n".join(
        [
            recap(case, tuple(read)),
            f"## From the case so far, give the most likely answer to each of the {n} "
            "questions below. If you are unsure, make your best guess. Answer briefly in your "
            "own words, without explanations, in JSON whose keys are the question numbers: "
            f"{{{example}}}",
            f"## The questions are:\n{questions_block(case)}",
        ]
    )


class FreeStage(BaseModel):
    """One stage: the locations read so far and each question's answer (by id)."""

    model_config = ConfigDict(frozen=True)

    read: list[str]
    answers: dict[str, str]


class FreePlay(BaseModel):
    """A played case: every stage's answers, the order of visits and the fallbacks counted
    (an unusable answer reply leaves the stage's answers blank; an unusable choice visits a
    random unread location)."""

    model_config = ConfigDict(frozen=True)

    title: str
    stages: list[FreeStage]
    fallbacks: int

    @property
    def order(self) -> list[str]:
        """The locations in the order visited."""
        return self.stages[-1].read


def play_free_text(case: Case, client: ChatClient, seed: int = 0) -> FreePlay:
    """Play ``case`` to the end: answers after the introduction and after every location."""
    rng = random.Random(seed)
    counter = FallbackCounter()
    read: list[str] = []
    stages: list[FreeStage] = []
    while True:
        outcome = ask_structured(
            client,
            [system(SYSTEM), user(free_answer_prompt(case, read))],
            FreeAnswers,
            seed=seed,
        )
        if outcome.value is None:
            counter.record("answer", "unparsed")
        given = {} if outcome.value is None else outcome.value.root
        answers = {q.id: given.get(str(i), "").strip() for i, q in enumerate(case.questions, 1)}
        stages.append(FreeStage(read=list(read), answers=answers))
        unread = [loc.id for loc in case.locations if loc.id not in read]
        if not unread:
            break
        reply = ask_structured(
            client,
            [system(SYSTEM), user(location_prompt(case, tuple(read), unread))],
            LocationReply,
            seed=seed,
        )
        key = None if reply.value is None else reply.value.LOCATION.strip().casefold()
        proposed = next(
            (lid for lid in unread if key in (case.location(lid).title.casefold(), lid)), None
        )
        chosen, _ = choose_with_fallback(proposed, unread, rng, counter=counter, phase="choose")
        read.append(chosen)
    return FreePlay(title=case.title, stages=stages, fallbacks=counter.count())


def _names(slot: AnswerSlot, value: str) -> list[str]:
    """The ways an answer may name a choice: its text, without a parenthesis or a leading
    ``the``, and its value."""
    text = slot.choice(value).text.casefold()
    bare = re.sub(r"\s*\(.*?\)", "", text)
    return sorted({text, bare, bare.removeprefix("the "), value.casefold()}, key=len, reverse=True)


def read_elements(question: Question, text: str) -> dict[str, str | None]:
    """Per slot of ``question``, the option a free-text answer names (the first named, by
    position; None when it names none)."""
    folded = f" {' '.join(text.casefold().split())} "
    out: dict[str, str | None] = {}
    for slot in question.slots:
        found: list[tuple[int, str]] = []
        for choice in slot.choices:
            spots = [
                m.start()
                for name in _names(slot, choice.value)
                for m in re.finditer(rf"(?<![a-z]){re.escape(name)}(?![a-z])", folded)
            ]
            if spots:
                found.append((min(spots), choice.value))
        out[slot.name] = min(found)[1] if found else None
    return out


class FreeGrades(BaseModel):
    """A play graded: per stage and question the autograder's grade and, for questions with a
    logic form, the exact grade; the scores P, F and O from each (exact: None when no question
    has a logic form)."""

    model_config = ConfigDict(frozen=True)

    mode: int
    auto: list[dict[str, int]]
    exact: list[dict[str, int]]
    auto_score: CaseScore
    exact_score: CaseScore | None


def grade_play(case: Case, play: FreePlay, grader: AutoGrader) -> FreeGrades:
    """Grade every stage's answers with ``grader`` and, where possible, exactly."""
    auto = [
        {q.id: grader.grade(case, q, stage.answers[q.id] or "(no answer)") for q in case.questions}
        for stage in play.stages
    ]
    typed = [q for q in case.questions if q.slots]
    exact = [
        {q.id: grade_answer(q, read_elements(q, stage.answers[q.id])).score for q in typed}
        for stage in play.stages
    ]
    auto_score = case_score([question_score(q.id, [s[q.id] for s in auto]) for q in case.questions])
    exact_score = (
        case_score([question_score(q.id, [s[q.id] for s in exact]) for q in typed])
        if typed
        else None
    )
    return FreeGrades(
        mode=grader.mode, auto=auto, exact=exact, auto_score=auto_score, exact_score=exact_score
    )
