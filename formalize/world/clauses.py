"""Facts as clauses with named slots, and the way back: a clause parsed into the fact it states.

Every phrasing of a fact is a template whose slots (``{who}``, ``{where}``, ``{when}``, ...) are
filled from the setting's names. Because the templates are data, a sentence can be parsed again
by matching the templates with each slot replaced by the setting's names; so a story built from
them can be checked for faithfulness: every clause gives back exactly the fact it was made from.
Clauses start in lower case where they can follow a lead-in ("a witness says that ..."); they
name people in full (or, ``short``, by a first name the setting gives no one else) and never use
pronouns, so no clause depends on its neighbours. A witness speaks of itself in the first person
(``FIRST_PERSON``): such a clause is read with the speaker named by the sentence around it.
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

FIRST_PERSON: dict[str, tuple[tuple[str, str], ...]] = {
    "seen": (
        ("who", "I was in the {where} at {when}"),
        ("who", "I spent the hour of {when} in the {where}"),
        ("who", "at {when} I was in the {where}"),
    ),
    "unseen": (
        ("who", "I was not in the {where} at {when}"),
        ("who", "I never set foot in the {where} at {when}"),
    ),
    "met": (
        ("who", "I kept company with {other} at {when}"),
        ("who", "I was in one room with {other} at {when}"),
        ("other", "{who} kept company with me at {when}"),
        ("other", "{who} was in one room with me at {when}"),
    ),
    "apart": (
        ("who", "I was in a different room from {other} at {when}"),
        ("other", "{who} was in a different room from me at {when}"),
    ),
    "held": (
        ("who", "I had the {weapon} at {when}"),
        ("who", "the {weapon} was in my hands at {when}"),
    ),
    "unheld": (("who", "I did not have the {weapon} at {when}"),),
    "motive": (
        ("who", "I had a motive, and I will not deny it: {motive}"),
        ("who", "I had reason enough to wish the victim dead: {motive}"),
    ),
    "no_motive": (("who", "I had no such motive as {motive}"),),
}
"""Per kind of fact, the phrasings a speaker uses of a fact about itself: the field the
speaker fills (``who`` or ``other``) and a template without it."""


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


def first_names(setting: Setting) -> dict[str, str]:
    """Person id to first name, for the people whose first name no one else in the setting
    has (first or full name), so it names them alone."""
    firsts = {p.id: p.name.split()[0] for p in setting.people if p.name.split()}
    taken = [*firsts.values(), *(p.name for p in setting.people)]
    return {pid: n for pid, n in firsts.items() if taken.count(n) == 1}


def person_name(setting: Setting, pid: str, short: bool = False) -> str:
    """How a clause names person ``pid``: in full, or by a first name no one else has."""
    if short:
        first = first_names(setting).get(pid)
        if first is not None:
            return first
    return setting.person(pid).name


def _fields(fact: Fact, setting: Setting, short: bool = False) -> dict[str, str]:
    """The slot values of ``fact``'s templates (people by first name when ``short``)."""

    def name(pid: str) -> str:
        return person_name(setting, pid, short)

    def victim(crime: int) -> str:
        return name(setting.crimes[crime - 1].victim)

    match fact:
        case Seen(person, place, slot, _):
            return {
                "who": name(person),
                "where": setting.place(place).name,
                "when": setting.slots[slot],
            }
        case Met(a, b, slot, _):
            return {"who": name(a), "other": name(b), "when": setting.slots[slot]}
        case Held(person, item, slot, _):
            return {
                "who": name(person),
                "weapon": setting.item(item).name,
                "when": setting.slots[slot],
            }
        case KeyHolders(key, people):
            return {"key": setting.item(key).name, "people": listing([name(p) for p in people])}
        case HasMotive(person, motive, _):
            return {"who": name(person), "motive": setting.motive(motive).name}
        case MotiveHolders(motive, people):
            return {
                "motive": setting.motive(motive).name,
                "people": listing([name(p) for p in people]),
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


def speaker_field(fact: Fact, speaker: str) -> str | None:
    """The field of ``fact``'s templates person ``speaker`` fills (``who`` or ``other``), or
    None when the fact does not name the speaker there."""
    match fact:
        case Seen(person=p) | Held(person=p) | HasMotive(person=p) if p == speaker:
            return "who"
        case Met(a, b) if speaker in (a, b):
            return "who" if a == speaker else "other"
    return None


def first_person_templates(fact: Fact, speaker: str) -> tuple[str, ...]:
    """The phrasings ``speaker`` can state ``fact`` about itself with (none if it cannot)."""
    field = speaker_field(fact, speaker)
    if field is None:
        return ()
    return tuple(t for f, t in FIRST_PERSON.get(_kind(fact), ()) if f == field)


def fill(template: str, fact: Fact, setting: Setting, short: bool = False) -> str:
    """``template`` with ``fact``'s slot values (people by first name when ``short``)."""
    return template.format(**_fields(fact, setting, short))


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
    firsts = first_names(setting)
    return _Vocabulary(
        people={p.name: p.id for p in setting.people} | {n: p for p, n in firsts.items()},
        places={p.name: p.id for p in setting.places},
        hours={label: t for t, label in enumerate(setting.slots)},
        weapons={w.name: w.id for w in setting.weapons},
        keys={k.name: k.id for k in setting.keys},
        motives={m.name: m.id for m in setting.motives},
        methods={m.name: m.id for m in setting.methods},
        victims={
            name: index
            for index, c in enumerate(setting.crimes, 1)
            for name in (setting.person(c.victim).name, firsts.get(c.victim))
            if name is not None
        },
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
    ``slots[slot]`` (a slot used again must repeat its first text; the rest is matched
    literally)."""
    out, at = [], 0
    named: set[str] = set()
    for m in _FIELD.finditer(template):
        out.append(re.escape(template[at : m.start()]))
        name = m.group(1)
        out.append(f"(?P={name})" if name in named else f"(?P<{name}>{slots[name]})")
        named.add(name)
        at = m.end()
    out.append(re.escape(template[at:]))
    return "".join(out)


def _slot_patterns(setting: Setting) -> dict[str, str]:
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
    return {**one, **many}


@lru_cache(maxsize=32)
def _patterns(setting_json: str) -> list[tuple[str, re.Pattern[str]]]:
    slots = _slot_patterns(Setting.model_validate_json(setting_json))
    return [
        (kind, re.compile(template_regex(t, slots), re.IGNORECASE))
        for kind, templates in CLAUSES.items()
        for t in templates
    ]


@lru_cache(maxsize=32)
def _first_person_patterns(setting_json: str) -> list[tuple[str, str, re.Pattern[str]]]:
    slots = _slot_patterns(Setting.model_validate_json(setting_json))
    return [
        (kind, field, re.compile(template_regex(t, slots), re.IGNORECASE))
        for kind, templates in FIRST_PERSON.items()
        for field, t in templates
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


def parse_clause(text: str, setting: Setting, speaker: str | None = None) -> Iterator[Fact]:
    """Every fact ``text`` (a whole clause, without a full stop) states under some template:
    one for a clause made by ``fill``, none for text that states no fact. With ``speaker`` (a
    person id), the first-person phrasings are read too, as that person's words."""
    found: list[Fact] = []
    key = setting.model_dump_json()
    matches: list[tuple[str, dict[str, str]]] = []
    for kind, pattern in _patterns(key):
        m = pattern.fullmatch(text)
        if m is not None:
            matches.append((kind, {k: v for k, v in m.groupdict().items() if v is not None}))
    if speaker is not None:
        for kind, field, pattern in _first_person_patterns(key):
            m = pattern.fullmatch(text)
            if m is not None:
                groups = {k: v for k, v in m.groupdict().items() if v is not None}
                matches.append((kind, groups | {field: setting.person(speaker).name}))
    for kind, groups in matches:
        fact = _build(kind, groups, setting)
        if fact is not None and fact not in found:
            found.append(fact)
    yield from found
