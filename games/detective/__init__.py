"""Detective cases: generated cases with prover-checked answers, exact grading, the ideal player."""

from games.detective.audit import ElementAudit, audit_answers
from games.detective.case import (
    AnswerSlot,
    Case,
    CaseError,
    CaseKnobs,
    Choice,
    Location,
    Question,
    dump_case,
    load_case,
    parse_case,
)
from games.detective.generator import GenerationError, generate_case
from games.detective.grading import (
    AnswerGrade,
    Answers,
    CaseScore,
    QuestionScore,
    element_grade,
    grade_answer,
    overall_performance,
    score_case,
)
from games.detective.knowledge import CaseKnowledge
from games.detective.planner import BestScore, ProverPlayer, best_achievable, best_order
from games.detective.unlock import minimal_unlock_sets, with_unlock_sets
from games.detective.verify import case_knowledge, verify_case

__all__ = [
    "AnswerGrade",
    "AnswerSlot",
    "Answers",
    "BestScore",
    "Case",
    "CaseError",
    "CaseKnobs",
    "CaseKnowledge",
    "CaseScore",
    "Choice",
    "ElementAudit",
    "GenerationError",
    "Location",
    "ProverPlayer",
    "Question",
    "QuestionScore",
    "audit_answers",
    "best_achievable",
    "best_order",
    "case_knowledge",
    "dump_case",
    "element_grade",
    "generate_case",
    "grade_answer",
    "load_case",
    "minimal_unlock_sets",
    "overall_performance",
    "parse_case",
    "score_case",
    "verify_case",
    "with_unlock_sets",
]
