"""The hidden truth over a setting: where everyone was, who held what, and what each crime was."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from formalize.world import atoms
from formalize.world.setting import Setting
from reasoning.formula import Atom, Formula, Not


@dataclass(frozen=True, slots=True)
class Crime:
    """What really happened in one crime: who, with what, how, where, when and why."""

    victim: str
    killers: tuple[str, ...]
    weapon: str
    method: str
    place: str
    slot: int
    motive: str


@dataclass(frozen=True)
class World:
    """A setting with its truth: ``positions[p][t]`` is p's place at slot t, ``holdings`` maps
    (weapon, slot) to its holder (absent when nobody held it), ``key_holders`` and
    ``motives_of`` say who had which key and which motive, ``crimes`` follow the setting's order.
    """

    setting: Setting
    positions: Mapping[str, tuple[str, ...]]
    holdings: Mapping[tuple[str, int], str]
    key_holders: Mapping[str, frozenset[str]]
    motives_of: Mapping[str, frozenset[str]]
    crimes: tuple[Crime, ...]

    def true_atoms(self) -> frozenset[Atom]:
        """Every theory atom that holds in this world."""
        out: set[Atom] = set()
        for person, places in self.positions.items():
            out.update(atoms.at(person, lid, t) for t, lid in enumerate(places))
        out.update(atoms.holds(p, w, t) for (w, t), p in self.holdings.items())
        for key, people in self.key_holders.items():
            out.update(atoms.has_key(p, key) for p in people)
        for person, motives in self.motives_of.items():
            out.update(atoms.has_motive(person, m) for m in motives)
        for index, crime in enumerate(self.crimes, start=1):
            out.update(atoms.culprit(index, p) for p in crime.killers)
            out |= {
                atoms.scene(index, crime.place),
                atoms.time(index, crime.slot),
                atoms.weapon(index, crime.weapon),
                atoms.method(index, crime.method),
                atoms.motive(index, crime.motive),
            }
        return frozenset(out)

    def literals(self) -> list[Formula]:
        """Every theory atom, negated where it is false: the world as a conjunction's parts."""
        true = self.true_atoms()
        return [a if a in true else Not(a) for a in self.all_atoms()]

    def all_atoms(self) -> list[Atom]:
        """Every atom the background theory speaks of, in a fixed order."""
        s = self.setting
        slots = range(len(s.slots))
        out = [atoms.at(p.id, lid.id, t) for p in s.people for lid in s.places for t in slots]
        out += [atoms.holds(p.id, w.id, t) for p in s.people for w in s.weapons for t in slots]
        out += [atoms.has_key(p.id, k.id) for p in s.people for k in s.keys]
        out += [atoms.has_motive(p.id, m.id) for p in s.people for m in s.motives]
        for index in range(1, len(s.crimes) + 1):
            out += [atoms.culprit(index, p.id) for p in s.people]
            out += [atoms.scene(index, lid.id) for lid in s.places]
            out += [atoms.time(index, t) for t in slots]
            out += [atoms.weapon(index, w.id) for w in s.weapons]
            out += [atoms.method(index, m.id) for m in s.methods]
            out += [atoms.motive(index, m.id) for m in s.motives]
        return out
