"""The propositional atoms of a mystery, named readably from setting ids.

Slots are 0-based indices; crimes are 1-based (``c1_...``), so one world can hold several.
"""

from __future__ import annotations

from formalize.world.setting import Setting
from reasoning.formula import Atom


def at(person: str, place: str, slot: int) -> Atom:
    """``person`` was in ``place`` during ``slot``."""
    return Atom(f"at_{person}_{place}_{slot}")


def holds(person: str, item: str, slot: int) -> Atom:
    """``person`` held weapon ``item`` during ``slot``."""
    return Atom(f"holds_{person}_{item}_{slot}")


def has_key(person: str, key: str) -> Atom:
    """``person`` had a copy of ``key`` (all evening)."""
    return Atom(f"key_{person}_{key}")


def has_motive(person: str, motive: str) -> Atom:
    """``person`` had ``motive`` against the victims."""
    return Atom(f"motive_{person}_{motive}")


def culprit(crime: int, person: str) -> Atom:
    """``person`` was one of the killers in crime ``crime``."""
    return Atom(f"c{crime}_culprit_{person}")


def scene(crime: int, place: str) -> Atom:
    """Crime ``crime`` happened in ``place``."""
    return Atom(f"c{crime}_scene_{place}")


def time(crime: int, slot: int) -> Atom:
    """Crime ``crime`` happened during ``slot``."""
    return Atom(f"c{crime}_time_{slot}")


def weapon(crime: int, item: str) -> Atom:
    """Crime ``crime`` was done with ``item``."""
    return Atom(f"c{crime}_weapon_{item}")


def method(crime: int, method_id: str) -> Atom:
    """Crime ``crime`` was done by ``method_id``."""
    return Atom(f"c{crime}_method_{method_id}")


def motive(crime: int, motive_id: str) -> Atom:
    """Crime ``crime`` was done for ``motive_id``."""
    return Atom(f"c{crime}_motive_{motive_id}")


def vocabulary(setting: Setting) -> frozenset[str]:
    """The name of every atom the setting's theory, facts and answers can speak of."""
    people = [p.id for p in setting.people]
    places = [p.id for p in setting.places]
    slots = range(len(setting.slots))
    names = [at(p, lid, t).pred for p in people for lid in places for t in slots]
    names += [holds(p, w.id, t).pred for p in people for w in setting.weapons for t in slots]
    names += [has_key(p, k.id).pred for p in people for k in setting.keys]
    names += [has_motive(p, m.id).pred for p in people for m in setting.motives]
    for c in range(1, len(setting.crimes) + 1):
        names += [culprit(c, p).pred for p in people]
        names += [scene(c, lid).pred for lid in places]
        names += [time(c, t).pred for t in slots]
        names += [weapon(c, w.id).pred for w in setting.weapons]
        names += [method(c, m.id).pred for m in setting.methods]
        names += [motive(c, m.id).pred for m in setting.motives]
    return frozenset(names)
