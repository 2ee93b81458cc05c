"""Agreement of graders with human markers, as seed 001's Table 2 measures it.

A study is a file of answers (JSON lines: ``id``, ``question`` id, ``answer`` text) and a file
of human grades (CSV with the header ``answer_id,grader,grade``, grades 0-3). Each autograder
mode grades the same answers; the table gives, per comparison, the % of identical grades and
the RMS difference: Human-Human as the mean over every pair of markers, Mode m-Human as the mean
over markers. Bad files stop with one line naming the file and line.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from itertools import combinations
from pathlib import Path
from statistics import fmean

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from games.core.runlog import field_errors
from games.detective.autograder import agreement
from games.detective.case import Case
from reasoning.textfile import UserFileError, read_user_text


class StudyError(ValueError):
    """A study file that cannot be used; the message names the file and line."""


class GradedAnswer(BaseModel):
    """An answer to one question of the case, to be graded."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1)
    question: str = Field(min_length=1)
    answer: str


class HumanGrade(BaseModel):
    """One marker's grade of one answer."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    answer_id: str = Field(min_length=1)
    grader: str = Field(min_length=1)
    grade: int = Field(ge=0, le=3)


class SolverOrder(BaseModel):
    """The order in which one solver visited a case's locations."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    solver: str = Field(min_length=1)
    order: list[str]


class AgreementRow(BaseModel):
    """One comparison of Table 2."""

    model_config = ConfigDict(frozen=True)

    comparison: str
    pairs: int
    answers: int
    percent_exact: float
    rms: float


def _read(path: Path) -> str:
    try:
        return read_user_text(path)
    except UserFileError as err:
        raise StudyError(str(err)) from None


def load_answers(path: Path, case: Case) -> list[GradedAnswer]:
    """The answers of a study; each must name a question of ``case`` and have a unique id."""
    known = {q.id for q in case.questions}
    out: list[GradedAnswer] = []
    for number, line in enumerate(_read(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            answer = GradedAnswer.model_validate(json.loads(line))
        except json.JSONDecodeError as err:
            raise StudyError(f"{path}:{number}: not valid JSON: {err.msg}") from None
        except ValidationError as err:
            raise StudyError(f"{path}:{number}: {field_errors(err)}") from None
        if answer.question not in known:
            raise StudyError(f"{path}:{number}: unknown question {answer.question!r}")
        if any(a.id == answer.id for a in out):
            raise StudyError(f"{path}:{number}: answer id {answer.id!r} given twice")
        out.append(answer)
    if not out:
        raise StudyError(f"{path}:1: no answers")
    return out


def load_orders(path: Path, case: Case) -> list[list[str]]:
    """Other solvers' visiting orders (JSON lines ``{"solver", "order"}``), each naming only
    locations of ``case``, each once."""
    known = {loc.id for loc in case.locations}
    out: list[list[str]] = []
    for number, line in enumerate(_read(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            found = SolverOrder.model_validate(json.loads(line))
        except json.JSONDecodeError as err:
            raise StudyError(f"{path}:{number}: not valid JSON: {err.msg}") from None
        except ValidationError as err:
            raise StudyError(f"{path}:{number}: {field_errors(err)}") from None
        if not set(found.order) <= known or len(set(found.order)) != len(found.order):
            raise StudyError(f"{path}:{number}: order must name locations of the case, each once")
        out.append(found.order)
    if not out:
        raise StudyError(f"{path}:1: no orders")
    return out


def load_human_grades(path: Path, answers: Sequence[GradedAnswer]) -> list[HumanGrade]:
    """The human grades of a study; each names a known answer, once per marker (a quoted cell
    may hold a line break; a problem is reported at the last line of its row)."""
    text = _read(path)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        rows = [(reader.line_num, row) for row in reader]
    except csv.Error as err:
        raise StudyError(f"{path}:{reader.line_num}: not valid CSV: {err}") from None
    if not rows or [c.strip() for c in rows[0][1]] != ["answer_id", "grader", "grade"]:
        raise StudyError(f"{path}:1: the header must be answer_id,grader,grade")
    ids = {a.id for a in answers}
    out: list[HumanGrade] = []
    seen: set[tuple[str, str]] = set()
    for number, row in rows[1:]:
        if not row:
            continue
        if len(row) != 3:
            raise StudyError(f"{path}:{number}: expected 3 columns, got {len(row)}")
        if not row[2].strip().isdigit():
            raise StudyError(f"{path}:{number}: grade: not a number: {row[2]!r}")
        try:
            grade = HumanGrade(answer_id=row[0].strip(), grader=row[1].strip(), grade=int(row[2]))
        except ValidationError as err:
            raise StudyError(f"{path}:{number}: {field_errors(err)}") from None
        if grade.answer_id not in ids:
            raise StudyError(f"{path}:{number}: unknown answer id {grade.answer_id!r}")
        if (grade.answer_id, grade.grader) in seen:
            raise StudyError(f"{path}:{number}: {grade.grader} grades {grade.answer_id} twice")
        seen.add((grade.answer_id, grade.grader))
        out.append(grade)
    if not out:
        raise StudyError(f"{path}:2: no grades")
    return out


def _mean_row(
    name: str, pairs: Sequence[tuple[Mapping[str, int], Mapping[str, int]]]
) -> AgreementRow:
    found = []
    for a, b in pairs:
        common = sorted(set(a) & set(b))
        if common:
            found.append(agreement([a[i] for i in common], [b[i] for i in common]))
    if not found:
        raise ValueError(f"{name}: no answer graded by both sides")
    return AgreementRow(
        comparison=name,
        pairs=len(found),
        answers=sum(f.answers for f in found),
        percent_exact=fmean(f.percent_exact for f in found),
        rms=fmean(f.rms for f in found),
    )


def agreement_table(
    humans: Sequence[HumanGrade], machines: Mapping[str, Mapping[str, int]]
) -> list[AgreementRow]:
    """Table 2: Human-Human over every pair of markers (when there are two or more), then
    each machine grader (name -> answer id -> grade) against every marker."""
    by_marker: dict[str, dict[str, int]] = {}
    for g in humans:
        by_marker.setdefault(g.grader, {})[g.answer_id] = g.grade
    markers = list(by_marker.values())
    rows = []
    if len(markers) >= 2:
        rows.append(_mean_row("Human-Human", list(combinations(markers, 2))))
    rows += [
        _mean_row(f"{name}-Human", [(grades, m) for m in markers])
        for name, grades in machines.items()
    ]
    return rows
