"""The mystery world model: a public setting, a hidden world, its background theory and facts."""

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
from formalize.mystery.render import listing, render_fact
from formalize.mystery.setting import CrimeSpec, Item, Named, Person, Place, Relation, Setting
from formalize.mystery.theory import background_theory
from formalize.mystery.world import Crime, World

__all__ = [
    "Crime",
    "CrimeSpec",
    "Fact",
    "HasMotive",
    "Held",
    "Item",
    "KeyHolders",
    "Met",
    "MethodWas",
    "MotiveAmong",
    "MotiveHolders",
    "Named",
    "Person",
    "Place",
    "Relation",
    "SceneAmong",
    "Seen",
    "Setting",
    "TimeAmong",
    "WeaponNot",
    "World",
    "WorldConfig",
    "WorldGenerationError",
    "background_theory",
    "fact_formula",
    "generate_world",
    "holds_in",
    "listing",
    "render_fact",
]
