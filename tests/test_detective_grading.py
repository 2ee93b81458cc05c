"""Exact grading: the 0-3 rule from elements, I/P/F/O, and the per-element audit."""

from __future__ import annotations

import pytest

from games.detective import (
    Case,
    CaseKnobs,
    audit_answers,
    best_achievable,
    element_grade,
    generate_case,
    grade_answer,
    overall_performance,
    score_case,
)
from games.detective.autograder import sample_answers
from provers import SatProver, SatSession
from reasoning.claims import ClaimStatus, Correctness
from reasoning.verifier import Verifier


@pytest.mark.parametrize(
    ("n", "correct", "wrong", "grade"),
    [
        (1, 1, 0, 3),
        (1, 0, 1, 0),
        (1, 0, 0, 0),
        (2, 2, 0, 3),
        (2, 1, 0, 1),
        (2, 1, 1, 1),
        (2, 0, 2, 0),
        (3, 2, 0, 2),
        (3, 2, 1, 2),
        (3, 1, 2, 0),
        (3, 1, 0, 1),
        (4, 3, 1, 2),
        (4, 2, 2, 1),
        (4, 2, 0, 1),
        (4, 1, 3, 0),
    ],
)
def test_element_grade_rule(n: int, correct: int, wrong: int, grade: int) -> None:
    assert element_grade(n, correct, wrong) == grade


@pytest.fixture(scope="module")
def case() -> Case:
    return generate_case(2, SatProver(), SatSession, CaseKnobs(questions=2))


def test_grade_answer_counts_correct_wrong_and_missing(case: Case) -> None:
    q = case.questions[0]
    first, second = q.slots
    wrong = next(c.value for c in first.choices if c.value != first.answer)
    graded = grade_answer(q, {first.name: wrong, second.name: second.answer})
    assert (graded.correct, graded.wrong, graded.missing) == ([second.name], [first.name], [])
    assert graded.score == 1
    assert grade_answer(q, {second.name: second.answer}).missing == [first.name]
    assert grade_answer(q, {first.name: first.answer, second.name: second.answer}).score == 3
    assert grade_answer(q, {first.name: "no such value"}).wrong == [first.name]


@pytest.mark.parametrize("questions", [2, 3, 4, 5])
def test_every_grade_is_reachable_in_default_cases(questions: int) -> None:
    """Each plan has a question of three parts or more, whose sample answers earn 0, 1, 2, 3."""
    case = generate_case(4, SatProver(), SatSession, CaseKnobs(questions=questions))
    grades = {grade_answer(q, a).score for q in case.questions for a in sample_answers(q)}
    assert grades == {0, 1, 2, 3}


def test_progressive_counts_stage_zero_and_overall_is_the_mean_of_p_and_f(case: Case) -> None:
    right = {q.id: {s.name: s.answer for s in q.slots} for q in case.questions}
    stages = [{}, {}, right, right]
    score = score_case(case, stages)
    for q in score.questions:
        assert q.instantaneous == [0, 0, 3, 3]
        assert q.progressive == 1.5 and q.final == 3 and q.overall == 2.25
    assert score.overall == 2.25
    assert overall_performance([score, score_case(case, [{}])]) == pytest.approx(2.25 / 2)


def test_best_achievable_is_reached_late_not_early(case: Case) -> None:
    best = best_achievable(case)
    assert best.score.final == 3
    assert best.score.progressive < 3
    assert all(q.instantaneous[0] == 0 for q in best.score.questions)
    herrings = [loc.id for loc in case.locations if loc.red_herring]
    assert best.order[-len(herrings) :] == herrings


def test_audit_splits_elements_into_sound_lucky_and_wrong(case: Case) -> None:
    q = case.questions[0]
    culprit, motive = q.slots
    wrong_motive = next(c.value for c in motive.choices if c.value != motive.answer)
    everything = [loc.id for loc in case.locations]
    verifier = Verifier(SatProver())
    given = {q.id: {culprit.name: culprit.answer, motive.name: wrong_motive}}
    early = audit_answers(case, [], given, verifier)
    assert [(a.slot, a.kind) for a in early] == [("culprit", "lucky"), ("motive", "wrong")]
    assert early[0].check.status is ClaimStatus.UNDETERMINED
    assert early[1].check.correctness is Correctness.FALSE
    late = audit_answers(
        case,
        everything,
        {q.id: {culprit.name: culprit.answer, motive.name: wrong_motive}},
        verifier,
    )
    assert [a.kind for a in late] == ["sound", "wrong"]
    assert late[1].check.status is ClaimStatus.CONTRADICTED
