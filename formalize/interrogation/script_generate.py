"""Seeded generation of interrogation scripts, each accepted only when a prover passes it.

A draw is a world (``generate_world``) whose living people are the players, their scripts, the
introduction and the murderers' cover stories; draws repeat until one passes ``check_scripts``.
"""

from __future__ import annotations

import random

from pydantic import BaseModel, ConfigDict, Field

from formalize.interrogation.acceptance import check_scripts
from formalize.interrogation.cover import cover_stories
from formalize.interrogation.script import (
    Scripts,
    introduction,
    objectives,
    secrets_of,
    true_scripts,
)
from formalize.world.generate import WorldConfig, WorldGenerationError, generate_world
from reasoning.prover import Prover


class ScriptGenerationError(RuntimeError):
    """No draw passed the acceptance checks within the attempt budget."""


class ScriptConfig(BaseModel):
    """The shape of generated scripts; a bad value names its field."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: int = Field(default=5, ge=4, le=8)
    max_victims: int = Field(default=2, ge=1, le=4)
    two_killers: bool = Field(default=True, description="Allow two killers of one victim.")
    places: int = Field(default=8, ge=6, le=12)
    slots: int = Field(default=4, ge=3, le=6)
    weapons: int = Field(default=3, ge=2, le=6)


def _world_config(rng: random.Random, config: ScriptConfig) -> WorldConfig:
    victims = rng.randint(1, config.max_victims)
    pairs = config.two_killers and config.players >= 5
    killers = tuple(2 if pairs and rng.random() < 0.3 else 1 for _ in range(victims))
    return WorldConfig(
        suspects=config.players,
        places=config.places,
        slots=config.slots,
        weapons=config.weapons,
        locked=1,
        motives=3,
        killers=killers,
    )


def draw_scripts(seed: int, config: ScriptConfig) -> Scripts | None:
    """One draw for ``seed`` (unchecked), or None when it has too many murderers or no cover."""
    rng = random.Random(f"mystery-scripts:{seed}")
    shape = _world_config(rng, config)
    try:
        world = generate_world(rng.randrange(2**32), shape, attempts=20)
    except WorldGenerationError:
        return None
    players = tuple(p.id for p in world.setting.suspects)
    murderers = {p for c in world.crimes for p in c.killers}
    if 2 * len(murderers) >= len(players):
        return None
    covers = cover_stories(world, players)
    if covers is None:
        return None
    scripts = true_scripts(world, players)
    return Scripts(
        world=world,
        players=players,
        intro=introduction(world),
        scripts=scripts,
        secrets={p: secrets_of(f, p) for p, f in scripts.items()},
        objectives={p: objectives(world, p) for p in players},
        covers=covers,
    )


def generate_scripts(
    seed: int, prover: Prover, config: ScriptConfig | None = None, attempts: int = 60
) -> Scripts:
    """The scripts of game ``seed``: the first draw that ``prover`` accepts."""
    cfg = config or ScriptConfig()
    for attempt in range(attempts):
        scripts = draw_scripts(seed * 1000 + attempt, cfg)
        if scripts is not None and not check_scripts(scripts, prover, first=True):
            return scripts
    raise ScriptGenerationError(f"seed {seed}: no accepted scripts in {attempts} draws")
