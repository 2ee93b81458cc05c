"""Private scripts of an interrogation game: what each living character saw, did and knows.

A character's view of a world is, for every slot, the room it was in and who was and was not
there, the weapons it saw held there, what it did not hold itself, and its own motives. Its
motives and the weapons it held itself are secret: a civilian may withhold them, never lie.
The introduction, known to all, is each crime's scene, time and method (the body tells them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from formalize.world.facts import (
    Fact,
    HasMotive,
    Held,
    MethodWas,
    SceneAmong,
    Seen,
    TimeAmong,
    holds_in,
)
from formalize.world.setting import Setting
from formalize.world.world import World


@dataclass(frozen=True, slots=True)
class Objective:
    """A goal of a character's script worth ``points`` (10 objective, 5 reasoning, 2 relation);
    ``crime`` (1-based) or ``about`` (a person id) name what it is about, so that it can be
    scored at the end (an objective with neither is shown but not scored)."""

    text: str
    points: int
    kind: str
    crime: int | None = None
    about: str | None = None


def view(
    setting: Setting,
    positions: Mapping[str, tuple[str, ...]],
    holdings: Mapping[tuple[str, int], str],
    motives: frozenset[str],
    person: str,
) -> tuple[Fact, ...]:
    """The facts ``person`` knows of a world given by ``positions`` and ``holdings``."""
    out: list[Fact] = []
    weapons = [w.id for w in setting.weapons]
    for slot in range(len(setting.slots)):
        here = positions[person][slot]
        room = [p.id for p in setting.people if positions[p.id][slot] == here]
        out += [Seen(p.id, here, slot, p.id in room) for p in setting.people]
        out += [Held(who, w, slot) for w in weapons if (who := holdings.get((w, slot))) in room]
        out += [Held(person, w, slot, False) for w in weapons if holdings.get((w, slot)) != person]
    out += [HasMotive(person, m) for m in sorted(motives)]
    return tuple(out)


def introduction(world: World) -> tuple[Fact, ...]:
    """What every player is told: each crime's scene, time and method."""
    out: list[Fact] = []
    for index, crime in enumerate(world.crimes, start=1):
        out += [
            SceneAmong(index, (crime.place,)),
            TimeAmong(index, (crime.slot,)),
            MethodWas(index, crime.method),
        ]
    return tuple(out)


def secrets_of(facts: tuple[Fact, ...], person: str) -> frozenset[Fact]:
    """The facts of ``person``'s script it may withhold: its motives and what it held."""
    return frozenset(
        f
        for f in facts
        if (isinstance(f, HasMotive) and f.person == person)
        or (isinstance(f, Held) and f.person == person and f.held)
    )


def objectives(world: World, person: str) -> tuple[Objective, ...]:
    """A character's goals: name each victim's killer (or escape it), the weapon of each crime
    it did not commit (a killer knows its own), a relation."""
    setting = world.setting
    murderer = any(person in c.killers for c in world.crimes)
    out: list[Objective] = []
    for index, crime in enumerate(world.crimes, start=1):
        victim = setting.person(crime.victim).name
        if murderer:
            goal = f"Do not get voted the killer of {victim}."
        else:
            goal = f"Find who killed {victim}."
        out.append(Objective(goal, 10, "objective", crime=index))
        if person not in crime.killers:
            weapon = f"Find out what weapon killed {victim}."
            out.append(Objective(weapon, 5, "reasoning", crime=index))
    for rel in setting.relations:
        if rel.a == person:
            other = setting.person(rel.b).name
            out.append(
                Objective(f"Learn who else stood close to {other}.", 2, "relation", about=rel.b)
            )
    return tuple(out)


@dataclass(frozen=True)
class Scripts:
    """A game's scripts: the world, who plays, the public introduction, every player's script,
    its secrets and objectives, and each murderer's cover story (the script it pretends to)."""

    world: World
    players: tuple[str, ...]
    intro: tuple[Fact, ...]
    scripts: Mapping[str, tuple[Fact, ...]]
    secrets: Mapping[str, frozenset[Fact]]
    objectives: Mapping[str, tuple[Objective, ...]]
    covers: Mapping[str, tuple[Fact, ...]]

    @property
    def murderers(self) -> frozenset[str]:
        """Every player who killed someone."""
        return frozenset(p for c in self.world.crimes for p in c.killers)

    @property
    def civilians(self) -> tuple[str, ...]:
        """The players who killed no one, in seat order."""
        return tuple(p for p in self.players if p not in self.murderers)

    def lies(self, person: str) -> tuple[Fact, ...]:
        """The facts of ``person``'s cover story that are false of the world."""
        return tuple(f for f in self.covers.get(person, ()) if not holds_in(f, self.world))


def true_scripts(world: World, players: tuple[str, ...]) -> dict[str, tuple[Fact, ...]]:
    """Every player's view of the real world."""
    return {
        p: view(
            world.setting,
            world.positions,
            world.holdings,
            world.motives_of.get(p, frozenset()),
            p,
        )
        for p in players
    }
