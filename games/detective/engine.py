"""The detective game (seed 001, Section 3.1) as a ``GameState``: one seat reads the introduction
and the questions and answers; then, until every location is read, it chooses a location,
reads it and answers again. Each answer is graded exactly when the case carries its logic.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import fmean
from typing import Any, Literal, overload

from pydantic import BaseModel

from formalize.reading.reading import Reading
from games.core.protocol import GameInfo, IllegalAction, SeatResult
from games.detective.case import Case, dump_case
from games.detective.events import AnswersEvent, CaseStart, GameEnd, StageAnswers, VisitEvent
from games.detective.grading import CaseScore, grade_answer, judged_case_score
from games.detective.planner import best_achievable

MAX_LOCATIONS = 40
"""The most locations a played case may have (a case file with more is refused)."""

INFO = GameInfo(
    name="detective",
    min_players=1,
    max_players=1,
    simultaneous=False,
    imperfect_information=True,
    max_decisions=2 * MAX_LOCATIONS + 1,
)
"""The detective game: one seat, answers at every stage and a choice of location between."""

Phase = Literal["answer", "choose"]


@dataclass(frozen=True)
class Visit:
    """Go to the location with id ``location`` and read it."""

    location: str


@dataclass(frozen=True)
class Answer:
    """A whole stage's answers: question id -> slot name -> value (None: left blank), and the
    recorded LLM call each question's answer came from (question id -> call index), if any.

    Answers given in words also carry each question's ``texts`` and their ``readings``; the
    values are then what the readings assert, and a question whose reading is not decisive
    gets no exact grade."""

    answers: Mapping[str, Mapping[str, str | None]]
    calls: Mapping[str, int] | None = field(default=None, compare=False)
    texts: Mapping[str, str] | None = field(default=None, compare=False)
    readings: Mapping[str, Reading] | None = field(default=None, compare=False)

    def plain(self) -> StageAnswers:
        """The answers as plain dictionaries, as logged."""
        return {q: dict(slots) for q, slots in self.answers.items()}


DetectiveAction = Visit | Answer


class AnswerSpace(Sequence[Answer]):
    """Every answer a stage allows: each slot blank or one of its choices. The space is indexed
    in mixed radix, so it is never built (its size is the product of the slots' options)."""

    def __init__(self, case: Case) -> None:
        self._slots = [(q.id, s.name) for q in case.questions for s in q.slots]
        self._options: list[list[str | None]] = [
            [None, *(c.value for c in s.choices)] for q in case.questions for s in q.slots
        ]
        self._questions = [q.id for q in case.questions]
        size = 1
        for options in self._options:
            size *= len(options)
        self._size = size

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> Answer: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Answer]: ...

    def __getitem__(self, index: int | slice) -> Answer | Sequence[Answer]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._size))]
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError(index)
        out: dict[str, dict[str, str | None]] = {q: {} for q in self._questions}
        for (qid, slot), options in zip(self._slots, self._options, strict=True):
            index, digit = divmod(index, len(options))
            out[qid][slot] = options[digit]
        return Answer(out)

    def __iter__(self) -> Iterator[Answer]:
        return (self[i] for i in range(self._size))

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Answer) or set(action.answers) != set(self._questions):
            return False
        given = {(q, s): v for q, slots in action.answers.items() for s, v in slots.items()}
        if set(given) != set(self._slots):
            return False
        return all(
            given[key] in options for key, options in zip(self._slots, self._options, strict=True)
        )


@dataclass(frozen=True)
class DetectiveView:
    """What the seat is given: the case (an LLM agent's prompts show only its introduction,
    questions and the locations read), the locations read in order, and whether it is asked to
    answer or to choose a location."""

    case: Case
    read: tuple[str, ...]
    phase: Phase

    @property
    def unread(self) -> list[str]:
        """The ids of the locations not read yet, in case order."""
        return [loc.id for loc in self.case.locations if loc.id not in self.read]


def stage_means(score: CaseScore) -> list[float]:
    """The mean grade over the questions at each stage."""
    return [
        fmean(grades) for grades in zip(*(q.instantaneous for q in score.questions), strict=True)
    ]


def case_digest(case: Case) -> str:
    """A short digest of the case's file form, so a log names exactly the case it played."""
    return hashlib.sha256(dump_case(case).encode()).hexdigest()[:16]


class DetectiveState:
    """One detective game in progress (see the module docstring)."""

    def __init__(self, case: Case) -> None:
        if len(case.locations) > MAX_LOCATIONS:
            raise ValueError(f"locations: a played case has at most {MAX_LOCATIONS}")
        self.case = case
        self.read: list[str] = []
        self.stages: list[StageAnswers] = []
        self.grades: list[dict[str, int | None]] = []
        self.phase: Phase = "answer"
        self._space = AnswerSpace(case)
        self._terminal = False
        self.score: CaseScore | None = None
        best = best_achievable(case).score if case.checkable else None
        self._events: list[BaseModel] = [
            CaseStart(
                title=case.title,
                digest=case_digest(case),
                questions=[q.id for q in case.questions],
                locations=[loc.id for loc in case.locations],
                best_overall=None if best is None else best.overall,
                best_by_stage=None if best is None else stage_means(best),
            )
        ]

    def current_players(self) -> Sequence[int]:
        """Seat 0 until every location is read and answered."""
        return [] if self._terminal else [0]

    def legal_actions(self, seat: int) -> Sequence[DetectiveAction]:
        """Every answer (``AnswerSpace``) or every unread location, as the phase asks."""
        if seat != 0 or self._terminal:
            return []
        if self.phase == "answer":
            return self._space
        return [Visit(lid) for lid in self._view().unread]

    def apply(self, actions: Mapping[int, Any]) -> None:
        """Record a stage's answers or visit a location; IllegalAction leaves the state as it
        was."""
        if self._terminal:
            raise IllegalAction("the game is over")
        if set(actions) != {0}:
            raise IllegalAction(f"seat 0 alone acts, got seats {sorted(actions)}")
        action = actions[0]
        if action not in self.legal_actions(0):
            raise IllegalAction(f"{action!r} is not a legal {self.phase} action")
        if isinstance(action, Visit):
            self.read.append(action.location)
            self._events.append(VisitEvent(stage=len(self.read), location=action.location))
            self.phase = "answer"
            return
        assert isinstance(action, Answer)
        stage = action.plain()
        readings = dict(action.readings) if action.readings is not None else None
        for qid, reading in (readings or {}).items():
            if stage.get(qid) != reading.values():
                raise IllegalAction(f"{qid}: the answer is not what its reading asserts")
        self.stages.append(stage)
        grades: list[int | None] | None = None
        if self.case.checkable:
            grades = [
                None
                if readings is not None and q.id in readings and not readings[q.id].decided
                else grade_answer(q, stage[q.id]).score
                for q in self.case.questions
            ]
            self.grades.append({q.id: g for q, g in zip(self.case.questions, grades, strict=True)})
        self._events.append(
            AnswersEvent(
                stage=len(self.read),
                read=list(self.read),
                answers=stage,
                grades=grades,
                calls=None if action.calls is None else dict(action.calls),
                texts=None if action.texts is None else dict(action.texts),
                readings=readings,
            )
        )
        if len(self.read) < len(self.case.locations):
            self.phase = "choose"
            return
        self._terminal = True
        if self.case.checkable:
            self.score = judged_case_score(
                {q.id: [g[q.id] for g in self.grades] for q in self.case.questions}
            )
        self._events.append(GameEnd(stages=len(self.stages), score=self.score))

    def _view(self) -> DetectiveView:
        return DetectiveView(self.case, tuple(self.read), self.phase)

    def observation(self, seat: int) -> DetectiveView:
        """The case, the locations read and the phase."""
        return self._view()

    def is_terminal(self) -> bool:
        """Whether every location has been read and answered."""
        return self._terminal

    def returns(self) -> Sequence[float]:
        """The case's overall score O once it is graded exactly (0.0 before, or ungraded)."""
        return [self.score.overall if self.score is not None else 0.0]

    def result(self) -> SeatResult:
        """The overall score, rank 1, and whether the case was graded exactly (``unjudged``: it
        has the logic, but no question's answers in words were all read decisively)."""
        if not self._terminal:
            raise ValueError("the game is still running")
        reason = "graded" if self.score is not None else "ungraded"
        if self.score is None and self.case.checkable:
            reason = "unjudged"
        return SeatResult(returns=tuple(self.returns()), ranks=(1,), reason=reason)

    def events(self) -> Sequence[BaseModel]:
        """The log events so far."""
        return self._events
