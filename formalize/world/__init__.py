"""The shared mystery world model: a public setting, a hidden world, its background theory and
facts, and their English rendering; detective cases and interrogations both build on it."""

from formalize.world.facts import (
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
from formalize.world.generate import WorldConfig, WorldGenerationError, generate_world
from formalize.world.render import listing, render_fact
from formalize.world.setting import CrimeSpec, Item, Named, Person, Place, Relation, Setting
from formalize.world.theory import background_theory
from formalize.world.world import Crime, World

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
