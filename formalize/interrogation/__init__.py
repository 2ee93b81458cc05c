"""The interrogation game's scripts: private scripts, cover stories, typed questions, testimony
as formulas, the scripts' acceptance checks, the WellPlay-style quiz, and scripts as prose.

Each name is imported from its module on first use, so importing one submodule stays cheap.
"""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from formalize.interrogation.acceptance import check_scripts as check_scripts
    from formalize.interrogation.cover import cover_stories as cover_stories
    from formalize.interrogation.prose import Sentence as Sentence
    from formalize.interrogation.prose import parse_prose as parse_prose
    from formalize.interrogation.prose import prose as prose
    from formalize.interrogation.questions import HeldItem as HeldItem
    from formalize.interrogation.questions import Question as Question
    from formalize.interrogation.questions import Related as Related
    from formalize.interrogation.questions import Saw as Saw
    from formalize.interrogation.questions import Where as Where
    from formalize.interrogation.questions import answer_from as answer_from
    from formalize.interrogation.quiz import QuizQuestion as QuizQuestion
    from formalize.interrogation.quiz import accuracy as accuracy
    from formalize.interrogation.quiz import quiz as quiz
    from formalize.interrogation.script import Objective as Objective
    from formalize.interrogation.script import Scripts as Scripts
    from formalize.interrogation.script_generate import ScriptConfig as ScriptConfig
    from formalize.interrogation.script_generate import (
        ScriptGenerationError as ScriptGenerationError,
    )
    from formalize.interrogation.script_generate import generate_scripts as generate_scripts
    from formalize.interrogation.testimony import as_heard as as_heard

_HOMES = {
    "HeldItem": "formalize.interrogation.questions",
    "Objective": "formalize.interrogation.script",
    "Question": "formalize.interrogation.questions",
    "QuizQuestion": "formalize.interrogation.quiz",
    "Related": "formalize.interrogation.questions",
    "Saw": "formalize.interrogation.questions",
    "ScriptConfig": "formalize.interrogation.script_generate",
    "ScriptGenerationError": "formalize.interrogation.script_generate",
    "Scripts": "formalize.interrogation.script",
    "Sentence": "formalize.interrogation.prose",
    "Where": "formalize.interrogation.questions",
    "accuracy": "formalize.interrogation.quiz",
    "answer_from": "formalize.interrogation.questions",
    "as_heard": "formalize.interrogation.testimony",
    "check_scripts": "formalize.interrogation.acceptance",
    "cover_stories": "formalize.interrogation.cover",
    "generate_scripts": "formalize.interrogation.script_generate",
    "parse_prose": "formalize.interrogation.prose",
    "prose": "formalize.interrogation.prose",
    "quiz": "formalize.interrogation.quiz",
}

__all__ = sorted(_HOMES)
__getattr__ = lazy_exports(__name__, _HOMES)
