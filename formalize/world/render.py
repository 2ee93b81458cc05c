"""Facts to English with templates: a few phrasings per kind of fact, chosen by a seeded RNG."""

from __future__ import annotations

import random
from collections.abc import Sequence

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
)
from formalize.world.setting import Setting


def listing(words: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` (with ``or`` when asked)."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def _person(setting: Setting, pid: str) -> str:
    return setting.person(pid).name


def _place(setting: Setting, lid: str) -> str:
    return f"the {setting.place(lid).name}"


def _slot(setting: Setting, slot: int) -> str:
    return setting.slots[slot]


def _victim(setting: Setting, crime: int) -> str:
    return _person(setting, setting.crimes[crime - 1].victim)


def _people(setting: Setting, people: Sequence[str]) -> str:
    return listing([_person(setting, p) for p in people])


def phrasings(fact: Fact, setting: Setting) -> list[str]:
    """Every English sentence ``render_fact`` may state ``fact`` with."""
    options: list[str]
    match fact:
        case Seen(person, place, slot, True):
            who, where, when = (
                _person(setting, person),
                _place(setting, place),
                _slot(setting, slot),
            )
            options = [
                f"{who} was in {where} at {when}.",
                f"At {when}, {who} was seen in {where}.",
                f"{who} spent the hour of {when} in {where}.",
            ]
        case Seen(person, place, slot, False):
            who, where, when = (
                _person(setting, person),
                _place(setting, place),
                _slot(setting, slot),
            )
            options = [
                f"{who} was not in {where} at {when}.",
                f"Whatever else is true, {who} was nowhere near {where} at {when}.",
            ]
        case Met(a, b, slot, True):
            pair, when = _people(setting, (a, b)), _slot(setting, slot)
            options = [f"{pair} were together at {when}.", f"At {when}, {pair} were in one room."]
        case Met(a, b, slot, False):
            pair, when = _people(setting, (a, b)), _slot(setting, slot)
            options = [f"{pair} were not in the same room at {when}."]
        case Held(person, item, slot, True):
            who, what = _person(setting, person), setting.item(item).name
            options = [
                f"{who} had the {what} in hand at {_slot(setting, slot)}.",
                f"At {_slot(setting, slot)}, the {what} was in the keeping of {who}.",
            ]
        case Held(person, item, slot, False):
            who, what = _person(setting, person), setting.item(item).name
            options = [f"{who} did not have the {what} at {_slot(setting, slot)}."]
        case KeyHolders(key, people):
            what = setting.item(key).name
            options = [
                f"Only {_people(setting, people)} ever had a copy of the {what}.",
                f"No one but {_people(setting, people)} held a {what}.",
            ]
        case HasMotive(person, motive, True):
            options = [
                f"{_person(setting, person)} had a motive: {setting.motive(motive).name}.",
                f"It is known that {_person(setting, person)} had reason to kill: "
                f"{setting.motive(motive).name}.",
            ]
        case HasMotive(person, motive, False):
            options = [
                f"{_person(setting, person)} had no motive of {setting.motive(motive).name}.",
            ]
        case MotiveHolders(motive, people):
            what = setting.motive(motive).name
            options = [
                f"Of everyone in the house, only {_people(setting, people)} had {what} "
                "as a motive.",
                f"The motive of {what} applied to {_people(setting, people)} and to no one else.",
            ]
        case TimeAmong(crime, slots):
            hours = listing([_slot(setting, t) for t in slots], "or")
            options = [
                f"{_victim(setting, crime)} died at {hours}.",
                f"The time of {_victim(setting, crime)}'s death was {hours}.",
            ]
        case SceneAmong(crime, places):
            rooms = listing([_place(setting, lid) for lid in places], "or")
            options = [
                f"{_victim(setting, crime)} was killed in {rooms}.",
                f"The attack on {_victim(setting, crime)} took place in {rooms}.",
            ]
        case MethodWas(crime, method):
            options = [
                f"{_victim(setting, crime)} was {setting.method(method).name}.",
                f"The body shows that {_victim(setting, crime)} was {setting.method(method).name}.",
            ]
        case WeaponNot(crime, item):
            what = setting.item(item).name
            options = [
                f"The {what} was not used on {_victim(setting, crime)}.",
                f"Whatever killed {_victim(setting, crime)}, it was not the {what}.",
            ]
        case MotiveAmong(crime, motives):
            whys = listing([setting.motive(m).name for m in motives], "or")
            options = [f"Whoever killed {_victim(setting, crime)} acted out of {whys}."]
    return [text[0].upper() + text[1:] for text in options]


def render_fact(fact: Fact, setting: Setting, rng: random.Random) -> str:
    """One English sentence stating ``fact``; ``rng`` picks among equivalent phrasings."""
    return rng.choice(phrasings(fact, setting))
