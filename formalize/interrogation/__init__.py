"""The interrogation game's scripts: private scripts, cover stories, typed questions, testimony
as formulas, the scripts' acceptance checks, the WellPlay-style quiz, and scripts as prose."""

from formalize.interrogation.acceptance import check_scripts
from formalize.interrogation.cover import cover_stories
from formalize.interrogation.prose import Sentence, parse_prose, prose
from formalize.interrogation.questions import HeldItem, Question, Related, Saw, Where, answer_from
from formalize.interrogation.quiz import QuizQuestion, accuracy, quiz
from formalize.interrogation.script import Objective, Scripts
from formalize.interrogation.script_generate import (
    ScriptConfig,
    ScriptGenerationError,
    generate_scripts,
)
from formalize.interrogation.testimony import as_heard

__all__ = [
    "HeldItem",
    "Objective",
    "Question",
    "QuizQuestion",
    "Related",
    "Saw",
    "ScriptConfig",
    "ScriptGenerationError",
    "Scripts",
    "Sentence",
    "Where",
    "accuracy",
    "answer_from",
    "as_heard",
    "check_scripts",
    "cover_stories",
    "generate_scripts",
    "parse_prose",
    "prose",
    "quiz",
]
