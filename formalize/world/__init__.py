"""The shared mystery world model: a public setting, a hidden world, its background theory and
facts, and their English rendering; detective cases and interrogations both build on it.

Each name is imported from its module on first use, so importing one submodule stays cheap.
"""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from formalize.world.facts import Fact as Fact
    from formalize.world.facts import HasMotive as HasMotive
    from formalize.world.facts import Held as Held
    from formalize.world.facts import KeyHolders as KeyHolders
    from formalize.world.facts import Met as Met
    from formalize.world.facts import MethodWas as MethodWas
    from formalize.world.facts import MotiveAmong as MotiveAmong
    from formalize.world.facts import MotiveHolders as MotiveHolders
    from formalize.world.facts import SceneAmong as SceneAmong
    from formalize.world.facts import Seen as Seen
    from formalize.world.facts import TimeAmong as TimeAmong
    from formalize.world.facts import WeaponNot as WeaponNot
    from formalize.world.facts import fact_formula as fact_formula
    from formalize.world.facts import holds_in as holds_in
    from formalize.world.generate import WorldConfig as WorldConfig
    from formalize.world.generate import WorldGenerationError as WorldGenerationError
    from formalize.world.generate import generate_world as generate_world
    from formalize.world.render import listing as listing
    from formalize.world.render import render_fact as render_fact
    from formalize.world.setting import CrimeSpec as CrimeSpec
    from formalize.world.setting import Item as Item
    from formalize.world.setting import Named as Named
    from formalize.world.setting import Person as Person
    from formalize.world.setting import Place as Place
    from formalize.world.setting import Relation as Relation
    from formalize.world.setting import Setting as Setting
    from formalize.world.theory import background_theory as background_theory
    from formalize.world.world import Crime as Crime
    from formalize.world.world import World as World

_HOMES = {
    "Crime": "formalize.world.world",
    "CrimeSpec": "formalize.world.setting",
    "Fact": "formalize.world.facts",
    "HasMotive": "formalize.world.facts",
    "Held": "formalize.world.facts",
    "Item": "formalize.world.setting",
    "KeyHolders": "formalize.world.facts",
    "Met": "formalize.world.facts",
    "MethodWas": "formalize.world.facts",
    "MotiveAmong": "formalize.world.facts",
    "MotiveHolders": "formalize.world.facts",
    "Named": "formalize.world.setting",
    "Person": "formalize.world.setting",
    "Place": "formalize.world.setting",
    "Relation": "formalize.world.setting",
    "SceneAmong": "formalize.world.facts",
    "Seen": "formalize.world.facts",
    "Setting": "formalize.world.setting",
    "TimeAmong": "formalize.world.facts",
    "WeaponNot": "formalize.world.facts",
    "World": "formalize.world.world",
    "WorldConfig": "formalize.world.generate",
    "WorldGenerationError": "formalize.world.generate",
    "background_theory": "formalize.world.theory",
    "fact_formula": "formalize.world.facts",
    "generate_world": "formalize.world.generate",
    "holds_in": "formalize.world.facts",
    "listing": "formalize.world.render",
    "render_fact": "formalize.world.render",
}

__all__ = sorted(_HOMES)
__getattr__ = lazy_exports(__name__, _HOMES)
