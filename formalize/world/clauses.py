"""Facts as clauses with named slots, and the way back: a clause parsed into the fact it states.

Every phrasing of a fact is a template whose slots (``{who}``, ``{where}``, ``{when}``, ...) are
filled from the setting's names. Because the templates are data, a sentence can be parsed again
by matching the templates with each slot replaced by the setting's names; so a story built from
them can be checked for faithfulness: every clause gives back exactly the fact it was made from.
Clauses start in lower case where they can follow a lead-in ("a witness says that ..."); they
name people in full and never use pronouns, so no clause depends on its neighbours.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

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
from formalize.world.render import listing
from formalize.world.setting import Setting

CLAUSES: dict[str, tuple[str, ...]] = {
    "seen": (
        "{who} was in the {where} at {when}",
        "{who} spent the hour of {when} in the {where}",
        "{who} could be found in the {where} at {when}",
        "at {when} {who} was busy in the {where}",
        "{who} was seen in the {where} at {when}",
    ),
    "body": ("at {when} the body of {who} was found lying in the {where}",),
    "unseen": (
        "{who} was not in the {where} at {when}",
        "{who} never set foot in the {where} at {when}",
    ),
    "met": (
        "{who} and {other} were in one room together at {when}",
        "{who} kept company with {other} at {when}",
    ),
    "apart": ("{who} and {other} were in different rooms at {when}",),
    "held": (
        "{who} had the {weapon} at {when}",
        "the {weapon} was in the hands of {who} at {when}",
        "{who} was carrying the {weapon} at {when}",
    ),
    "unheld": ("{who} did not have the {weapon} at {when}",),
    "keys": (
        "the only copies of the {key} belonged to {people}",
        "nobody but {people} ever had a {key}",
    ),
    "motive": (
        "{who} had a motive: {motive}",
        "{who} had reason to want the victim dead: {motive}",
    ),
    "no_motive": ("{who} had no such motive as {motive}",),
    "motive_holders": (
        "of the whole household only {people} had {motive} as a motive",
        "{motive} gave a motive to {people} and to nobody else",
    ),
    "time_among": (
        "{victim} died at {hours}",
        "death came to {victim} at {hours}",
    ),
    "scene_among": (
        "{victim} was attacked in {rooms}",
        "the attack on {victim} took place in {rooms}",
    ),
    "method": (
        "{victim} was {method}",
        "the wounds show that {victim} was {method}",
    ),
    "weapon_not": (
        "the {weapon} was not used on {victim}",
        "whatever killed {victim}, it was not the {weapon}",
    ),
    "motive_among": ("whoever killed {victim} acted out of {motives}",),
}
"""Per kind of fact, its phrasings as templates with named slots (``body`` states a sighting of
a victim after death, and is only used for one)."""


def _kind(fact: Fact) -> str:
    """The key of ``CLAUSES`` for ``fact``."""
    match fact:
        case Seen(present=present):
            return "seen" if present else "unseen"
        case Met(together=together):
            return "met" if together else "apart"
        case Held(held=held):
            return "held" if held else "unheld"
        case KeyHolders():
            return "keys"
        case HasMotive(has=has):
            return "motive" if has else "no_motive"
        case MotiveHolders():
            return "motive_holders"
        case TimeAmong():
            return "time_among"
        case SceneAmong():
            return "scene_among"
        case MethodWas():
            return "method"
        case WeaponNot():
            return "weapon_not"
        case MotiveAmong():
            return "motive_among"


def _names(setting: Setting, people: Sequence[str]) -> list[str]:
    return [setting.person(p).name for p in people]


def _fields(fact: Fact, setting: Setting) -> dict[str, str]:
    """The slot values of ``fact``'s templates."""

    def victim(crime: int) -> str:
        return setting.person(setting.crimes[crime - 1].victim).name

    match fact:
        case Seen(person, place, slot, _):
            return {
                "who": setting.person(person).name,
                "where": setting.place(place).name,
                "when": setting.slots[slot],
            }
        case Met(a, b, slot, _):
            return {
                "who": setting.person(a).name,
                "other": setting.person(b).name,
                "when": setting.slots[slot],
            }
        case Held(person, item, slot, _):
            return {
                "who": setting.person(person).name,
                "weapon": setting.item(item).name,
                "when": setting.slots[slot],
            }
        case KeyHolders(key, people):
            return {"key": setting.item(key).name, "people": listing(_names(setting, people))}
        case HasMotive(person, motive, _):
            return {"who": setting.person(person).name, "motive": setting.motive(motive).name}
        case MotiveHolders(motive, people):
            return {
                "motive": setting.motive(motive).name,
                "people": listing(_names(setting, people)),
            }
        case TimeAmong(crime, slots):
            return {
                "victim": victim(crime),
                "hours": listing([setting.slots[t] for t in slots], "or"),
            }
        case SceneAmong(crime, places):
            names = [f"the {setting.place(p).name}" for p in places]
            return {"victim": victim(crime), "rooms": listing(names, "or")}
        case MethodWas(crime, method):
            return {"victim": victim(crime), "method": setting.method(method).name}
        case WeaponNot(crime, item):
            return {"victim": victim(crime), "weapon": setting.item(item).name}
        case MotiveAmong(crime, motives):
            whys = [setting.motive(m).name for m in motives]
            return {"victim": victim(crime), "motives": listing(whys, "or")}


def clause_templates(fact: Fact) -> tuple[str, ...]:
    """The phrasings ``fact`` can take."""
    return CLAUSES[_kind(fact)]


def fill(template: str, fact: Fact, setting: Setting) -> str:
    """``template`` with ``fact``'s slot values."""
    return template.format(**_fields(fact, setting))


def capitalised(text: str) -> str:
    """``text`` with its first letter in upper case."""
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class _Vocabulary:
    """Name to id, per kind of slot."""

    people: dict[str, str]
    places: dict[str, str]
    hours: dict[str, int]
    weapons: dict[str, str]
    keys: dict[str, str]
    motives: dict[str, str]
    methods: dict[str, str]
    victims: dict[str, int]


def _vocabulary(setting: Setting) -> _Vocabulary:
    return _Vocabulary(
        people={p.name: p.id for p in setting.people},
        places={p.name: p.id for p in setting.places},
        hours={label: t for t, label in enumerate(setting.slots)},
        weapons={w.name: w.id for w in setting.weapons},
        keys={k.name: k.id for k in setting.keys},
        motives={m.name: m.id for m in setting.motives},
        methods={m.name: m.id for m in setting.methods},
        victims={setting.person(c.victim).name: index for index, c in enumerate(setting.crimes, 1)},
    )


def _alternatives(names: Sequence[str]) -> str:
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))


def _split(text: str, last: str) -> list[str]:
    """The parts of a ``listing``."""
    head, sep, tail = text.rpartition(f" {last} ")
    return [*head.split(", "), tail] if sep else [text]


_FIELD = re.compile(r"\{(\w+)\}")


def template_regex(template: str, slots: dict[str, str]) -> str:
    """``template`` as a regular expression, each ``{slot}`` a named group matching
    ``slots[slot]`` (the rest matched literally)."""
    out, at = [], 0
    for m in _FIELD.finditer(template):
        out.append(re.escape(template[at : m.start()]))
        out.append(f"(?P<{m.group(1)}>{slots[m.group(1)]})")
        at = m.end()
    out.append(re.escape(template[at:]))
    return "".join(out)


@lru_cache(maxsize=32)
def _patterns(setting_json: str) -> list[tuple[str, re.Pattern[str]]]:
    setting = Setting.model_validate_json(setting_json)
    voc = _vocabulary(setting)
    one = {
        "who": _alternatives(list(voc.people)),
        "other": _alternatives(list(voc.people)),
        "where": _alternatives(list(voc.places)),
        "when": _alternatives(list(voc.hours)),
        "weapon": _alternatives(list(voc.weapons)),
        "key": _alternatives(list(voc.keys)),
        "motive": _alternatives(list(voc.motives)),
        "method": _alternatives(list(voc.methods)),
        "victim": _alternatives(list(voc.victims)),
    }
    many = {"people": ".+?", "hours": ".+?", "rooms": ".+?", "motives": ".+?"}
    slots = {**one, **many}
    return [
        (kind, re.compile(template_regex(t, slots), re.IGNORECASE))
        for kind, templates in CLAUSES.items()
        for t in templates
    ]


def _lookup(table: dict[str, str], name: str) -> str:
    folded = {k.casefold(): v for k, v in table.items()}
    return folded[name.casefold()]


def _build(kind: str, g: dict[str, str], setting: Setting) -> Fact | None:
    """The fact of ``kind`` with the parsed slot values ``g``; None if a listing names
    something the setting lacks."""
    voc = _vocabulary(setting)
    try:
        hour = {k.casefold(): v for k, v in voc.hours.items()}
        who = _lookup(voc.people, g["who"]) if "who" in g else ""
        builders: dict[str, Callable[[], Fact]] = {
            "seen": lambda: Seen(who, _lookup(voc.places, g["where"]), hour[g["when"].casefold()]),
            "body": lambda: Seen(who, _lookup(voc.places, g["where"]), hour[g["when"].casefold()]),
            "unseen": lambda: Seen(
                who, _lookup(voc.places, g["where"]), hour[g["when"].casefold()], False
            ),
            "met": lambda: Met(who, _lookup(voc.people, g["other"]), hour[g["when"].casefold()]),
            "apart": lambda: Met(
                who, _lookup(voc.people, g["other"]), hour[g["when"].casefold()], False
            ),
            "held": lambda: Held(
                who, _lookup(voc.weapons, g["weapon"]), hour[g["when"].casefold()]
            ),
            "unheld": lambda: Held(
                who, _lookup(voc.weapons, g["weapon"]), hour[g["when"].casefold()], False
            ),
            "keys": lambda: KeyHolders(
                _lookup(voc.keys, g["key"]),
                tuple(sorted(_lookup(voc.people, n) for n in _split(g["people"], "and"))),
            ),
            "motive": lambda: HasMotive(who, _lookup(voc.motives, g["motive"])),
            "no_motive": lambda: HasMotive(who, _lookup(voc.motives, g["motive"]), False),
            "motive_holders": lambda: MotiveHolders(
                _lookup(voc.motives, g["motive"]),
                tuple(sorted(_lookup(voc.people, n) for n in _split(g["people"], "and"))),
            ),
            "time_among": lambda: TimeAmong(
                voc.victims[g["victim"]],
                tuple(sorted(hour[h.casefold()] for h in _split(g["hours"], "or"))),
            ),
            "scene_among": lambda: SceneAmong(
                voc.victims[g["victim"]],
                tuple(
                    sorted(
                        _lookup(voc.places, r.removeprefix("the "))
                        for r in _split(g["rooms"], "or")
                    )
                ),
            ),
            "method": lambda: MethodWas(
                voc.victims[g["victim"]], _lookup(voc.methods, g["method"])
            ),
            "weapon_not": lambda: WeaponNot(
                voc.victims[g["victim"]], _lookup(voc.weapons, g["weapon"])
            ),
            "motive_among": lambda: MotiveAmong(
                voc.victims[g["victim"]],
                tuple(sorted(_lookup(voc.motives, m) for m in _split(g["motives"], "or"))),
            ),
        }
        return builders[kind]()
    except KeyError:
        return None


def parse_clause(text: str, setting: Setting) -> Iterator[Fact]:
    """Every fact ``text`` (a whole clause, without a full stop) states under some template:
    one for a clause made by ``fill``, none for text that states no fact."""
    found: list[Fact] = []
    for kind, pattern in _patterns(setting.model_dump_json()):
        m = pattern.fullmatch(text)
        if m is None:
            continue
        fact = _build(kind, {k: v for k, v in m.groupdict().items() if v is not None}, setting)
        if fact is not None and fact not in found:
            found.append(fact)
    yield from found
