"""Testimony as formulas: what a statement tells a listener who cannot rule out a lie.

Only murderers lie, so a statement ``f`` by ``speaker`` tells the listener "the speaker is a
killer of some crime, or f": the case split between an honest and a lying speaker, in one clause.
"""

from __future__ import annotations

from collections.abc import Iterable

from formalize.world import atoms
from formalize.world.facts import Fact, fact_formula
from formalize.world.setting import Setting
from reasoning.formula import Formula, Or, conj, disj


def is_murderer(setting: Setting, person: str) -> Formula:
    """``person`` killed in at least one crime."""
    return disj(atoms.culprit(i, person) for i in range(1, len(setting.crimes) + 1))


def as_heard(setting: Setting, speaker: str, facts: Iterable[Fact]) -> Formula:
    """What hearing ``speaker`` state ``facts`` tells: the speaker is a murderer, or they hold."""
    return Or((is_murderer(setting, speaker), conj(fact_formula(f, setting) for f in facts)))


def solution(setting: Setting, killers: Iterable[tuple[int, str]]) -> Formula:
    """The formula that names the killers: ``(crime, person)`` pairs are culprits."""
    return conj(atoms.culprit(i, p) for i, p in killers)
