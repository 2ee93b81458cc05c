"""Murderers' cover stories: a made-up evening that keeps each killer away from its scenes.

Every murderer gets a cover walk: its real walk, changed only where it must be, that keeps out
of each of its crime scenes at the crime's time, moves only along passages, enters locked places
only with a key, and at every changed slot claims a place a civilian could refute (a civilian
was there, or in the murderer's real place). The cover world is the real one with every murderer
on its cover walk and the crime weapons out of every hand; a murderer's cover story is its view
of that world, so all lies agree with each other and with the rules of movement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from formalize.interrogation.script import view
from formalize.world.facts import Fact, Held
from formalize.world.world import World


def _cover_walk(world: World, person: str, civilians: Sequence[str]) -> tuple[str, ...] | None:
    setting = world.setting
    real = world.positions[person]
    keys = {k for k, holders in world.key_holders.items() if person in holders}
    allowed = [p.id for p in setting.places if p.key is None or p.key in keys]
    banned = {(c.slot, c.place) for c in world.crimes if person in c.killers}

    def refutable(slot: int, place: str) -> bool:
        return any(world.positions[c][slot] in (place, real[slot]) for c in civilians)

    def options(slot: int, previous: str | None) -> list[str]:
        near = allowed if previous is None else [previous, *setting.neighbours(previous)]
        fine = [p for p in near if p in allowed and (slot, p) not in banned]
        if real[slot] in fine:
            return [real[slot]]
        return [p for p in fine if refutable(slot, p)]

    def extend(path: list[str]) -> tuple[str, ...] | None:
        slot = len(path)
        if slot == len(real):
            return tuple(path)
        for place in options(slot, path[-1] if path else None):
            found = extend([*path, place])
            if found is not None:
                return found
        return None

    return extend([])


def cover_stories(world: World, players: Sequence[str]) -> dict[str, tuple[Fact, ...]] | None:
    """Each murderer's cover story, or None when some murderer has no refutable cover walk."""
    murderers = sorted({p for c in world.crimes for p in c.killers})
    civilians = [p for p in players if p not in murderers]
    crime_holds = {(c.weapon, c.slot) for c in world.crimes}
    holdings: Mapping[tuple[str, int], str] = {
        k: v for k, v in world.holdings.items() if k not in crime_holds
    }
    positions: dict[str, tuple[str, ...]] = dict(world.positions)
    for person in murderers:
        walk = _cover_walk(world, person, civilians)
        if walk is None:
            return None
        positions[person] = walk
    out: dict[str, tuple[Fact, ...]] = {}
    for person in murderers:
        motives = world.motives_of.get(person, frozenset())
        story = view(world.setting, positions, holdings, motives, person)
        out[person] = tuple(
            f for f in story if not (isinstance(f, Held) and (f.item, f.slot) in crime_holds)
        )
    return out
