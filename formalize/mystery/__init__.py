"""The mystery world model: a public setting, a hidden world, its background theory and facts;
and the interrogation game's scripts, cover stories, typed questions and WellPlay-style quiz."""

from formalize.mystery.acceptance import check_scripts
from formalize.mystery.cover import cover_stories
from formalize.mystery.facts import (
    Fact,
    HasMotive,
    Held,
    KeyHolders,
    Met,
    MethodWas,
    MotiveAmong,
    MotiveHolders,
    SceneAmong,
    Seen,
    TimeAmong,
    WeaponNot,
    fact_formula,
    holds_in,
)
from formalize.mystery.generate import WorldConfig, WorldGenerationError, generate_world
from formalize.mystery.questions import HeldItem, Question, Related, Saw, Where, answer_from
from formalize.mystery.quiz import QuizQuestion, accuracy, quiz
from formalize.mystery.render import listing, render_fact
from formalize.mystery.script import Objective, Scripts
from formalize.mystery.script_generate import (
    ScriptConfig,
    ScriptGenerationError,
    generate_scripts,
)
from formalize.mystery.setting import CrimeSpec, Item, Named, Person, Place, Relation, Setting
from formalize.mystery.testimony import as_heard
from formalize.mystery.theory import background_theory
from formalize.mystery.world import Crime, World

__all__ = [
    "Crime",
    "CrimeSpec",
    "Fact",
    "HasMotive",
    "Held",
    "HeldItem",
    "Item",
    "KeyHolders",
    "Met",
    "MethodWas",
    "MotiveAmong",
    "MotiveHolders",
    "Named",
    "Objective",
    "Person",
    "Place",
    "Question",
    "QuizQuestion",
    "Related",
    "Relation",
    "Saw",
    "SceneAmong",
    "ScriptConfig",
    "ScriptGenerationError",
    "Scripts",
    "Seen",
    "Setting",
    "TimeAmong",
    "WeaponNot",
    "Where",
    "World",
    "WorldConfig",
    "WorldGenerationError",
    "accuracy",
    "answer_from",
    "as_heard",
    "background_theory",
    "check_scripts",
    "cover_stories",
    "fact_formula",
    "generate_scripts",
    "generate_world",
    "holds_in",
    "listing",
    "quiz",
    "render_fact",
]
