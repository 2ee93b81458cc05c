"""The propositional atoms of a mystery, named readably from setting ids.

Slots are 0-based indices; crimes are 1-based (``c1_...``), so one world can hold several.
"""

from __future__ import annotations

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
