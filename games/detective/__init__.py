"""Detective cases: generated cases with prover-checked answers, exact grading, the ideal player.

Each name is imported from its module on first use, so importing one submodule stays cheap.
"""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from games.detective.audit import ElementAudit as ElementAudit
    from games.detective.audit import audit_answers as audit_answers
    from games.detective.case import AnswerSlot as AnswerSlot
    from games.detective.case import Case as Case
    from games.detective.case import CaseError as CaseError
    from games.detective.case import CaseKnobs as CaseKnobs
    from games.detective.case import Choice as Choice
    from games.detective.case import Location as Location
    from games.detective.case import Question as Question
    from games.detective.case import dump_case as dump_case
    from games.detective.case import load_case as load_case
    from games.detective.case import parse_case as parse_case
    from games.detective.generator import GenerationError as GenerationError
    from games.detective.generator import generate_case as generate_case
    from games.detective.grading import AnswerGrade as AnswerGrade
    from games.detective.grading import Answers as Answers
    from games.detective.grading import CaseScore as CaseScore
    from games.detective.grading import QuestionScore as QuestionScore
    from games.detective.grading import element_grade as element_grade
    from games.detective.grading import grade_answer as grade_answer
    from games.detective.grading import overall_performance as overall_performance
    from games.detective.grading import score_case as score_case
    from games.detective.knowledge import CaseKnowledge as CaseKnowledge
    from games.detective.planner import BestScore as BestScore
    from games.detective.planner import ProverPlayer as ProverPlayer
    from games.detective.planner import best_achievable as best_achievable
    from games.detective.planner import best_order as best_order
    from games.detective.unlock import minimal_unlock_sets as minimal_unlock_sets
    from games.detective.unlock import with_unlock_sets as with_unlock_sets
    from games.detective.verify import case_knowledge as case_knowledge
    from games.detective.verify import verify_case as verify_case

_HOMES = {
    "AnswerGrade": "games.detective.grading",
    "AnswerSlot": "games.detective.case",
    "Answers": "games.detective.grading",
    "BestScore": "games.detective.planner",
    "Case": "games.detective.case",
    "CaseError": "games.detective.case",
    "CaseKnobs": "games.detective.case",
    "CaseKnowledge": "games.detective.knowledge",
    "CaseScore": "games.detective.grading",
    "Choice": "games.detective.case",
    "ElementAudit": "games.detective.audit",
    "GenerationError": "games.detective.generator",
    "Location": "games.detective.case",
    "ProverPlayer": "games.detective.planner",
    "Question": "games.detective.case",
    "QuestionScore": "games.detective.grading",
    "audit_answers": "games.detective.audit",
    "best_achievable": "games.detective.planner",
    "best_order": "games.detective.planner",
    "case_knowledge": "games.detective.verify",
    "dump_case": "games.detective.case",
    "element_grade": "games.detective.grading",
    "generate_case": "games.detective.generator",
    "grade_answer": "games.detective.grading",
    "load_case": "games.detective.case",
    "minimal_unlock_sets": "games.detective.unlock",
    "overall_performance": "games.detective.grading",
    "parse_case": "games.detective.case",
    "score_case": "games.detective.grading",
    "verify_case": "games.detective.verify",
    "with_unlock_sets": "games.detective.unlock",
}

__all__ = sorted(_HOMES)
__getattr__ = lazy_exports(__name__, _HOMES)
