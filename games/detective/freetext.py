"""Seed 001's game with free-text answers (Section 3.1, Appendix B.1): after the introduction
and after every location the model answers all questions in one prompt, in its own words,
making its best guess when unsure (``{"1": "...", "2": "..."}``); between, it chooses the next
location. Each answer is graded 0-3 by the autograder and, where the question has a logic form
(typed slots), also exactly, from its reading (``games.detective.reading``): only when every
slot's reading is decided; otherwise the answer is unjudged and counted.

This plays any case, including a user's transcribed case whose questions have no slots; the
typed game (``engine``) asks per part with options instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, RootModel

from formalize.reading.reader import Reader
from formalize.reading.reading import Reading
from games.detective.autograder import AutoGrader
from games.detective.case import Case
from games.detective.grading import CaseScore, case_score, judged_case_score, question_score
from games.detective.prompts import SYSTEM, LocationReply, location_prompt, questions_block, recap
from games.detective.reading import make_reader, read_answer, reading_grade
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


def ask_free_answers(
    client: ChatClient, case: Case, read: Sequence[str], seed: int
) -> dict[str, str] | None:
    """Every question's answer in words after reading ``read`` (question id -> text, blank
    where the reply has none); None when the reply stays unusable after the re-prompts."""
    outcome = ask_structured(
        client,
        [system(SYSTEM), user(free_answer_prompt(case, read))],
        FreeAnswers,
        seed=seed,
    )
    if outcome.value is None:
        return None
    given = outcome.value.root
    return {q.id: given.get(str(i), "").strip() for i, q in enumerate(case.questions, 1)}


def play_free_text(case: Case, client: ChatClient, seed: int = 0) -> FreePlay:
    """Play ``case`` to the end: answers after the introduction and after every location."""
    rng = random.Random(seed)
    counter = FallbackCounter()
    read: list[str] = []
    stages: list[FreeStage] = []
    while True:
        answers = ask_free_answers(client, case, read, seed)
        if answers is None:
            counter.record("answer", "unparsed")
            answers = {q.id: "" for q in case.questions}
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


class FreeGrades(BaseModel):
    """A play graded: per stage and question the autograder's grade and, for questions with a
    logic form, the reading of the answer and its exact grade (None: unjudged, a slot's reading
    unsure); the scores P, F and O from each (exact: over the questions judged at every stage,
    None when there is none), how many answers were unjudged, and the reader's LLM calls."""

    model_config = ConfigDict(frozen=True)

    mode: int
    reader: str
    auto: list[dict[str, int]]
    exact: list[dict[str, int | None]]
    readings: list[dict[str, Reading]]
    auto_score: CaseScore
    exact_score: CaseScore | None
    unjudged: int
    reader_calls: int


def grade_play(
    case: Case, play: FreePlay, grader: AutoGrader, reader: Reader | None = None
) -> FreeGrades:
    """Grade every stage's answers with ``grader`` and, where the reading is decisive, exactly
    (``reader``: the offline reader by default)."""
    reader = reader if reader is not None else make_reader(case.setting)
    auto = [
        {q.id: grader.grade(case, q, stage.answers[q.id] or "(no answer)") for q in case.questions}
        for stage in play.stages
    ]
    typed = [q for q in case.questions if q.slots]
    readings = [
        {q.id: read_answer(reader, case, q, stage.answers[q.id]) for q in typed}
        for stage in play.stages
    ]
    exact = [{q.id: reading_grade(q, found[q.id]) for q in typed} for found in readings]
    auto_score = case_score([question_score(q.id, [s[q.id] for s in auto]) for q in case.questions])
    return FreeGrades(
        mode=grader.mode,
        reader=reader.name,
        auto=auto,
        exact=exact,
        readings=readings,
        auto_score=auto_score,
        exact_score=judged_case_score({q.id: [s[q.id] for s in exact] for q in typed}),
        unjudged=sum(g is None for stage in exact for g in stage.values()),
        reader_calls=sum(r.calls for found in readings for r in found.values()),
    )
