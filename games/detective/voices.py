"""Who tells a location's facts, and which facts each can tell.

A location is a *voice*: a member of the household who talks (``witness``), a room where
things are found (``room``), the room where the body lies (``scene``, which carries the
physical evidence), or an outsider who reports (``official``: the police surgeon, the vicar,
...). ``fit`` scores how naturally a voice tells a fact: the body's room and the doctors tell
what the body shows, the vicar and the bank what people had against the victim, a witness
what it did itself (in the first person) and what it saw of others; ``None`` when a voice must
not tell a fact at all (a witness's own words that would convict it, or a list naming it that
it could only say of itself in the third person). The generator lays the facts out by these
scores; the prose is written afterwards from the voice and the facts alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from formalize.world.clauses import speaker_field
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
from formalize.world.world import Crime

VoiceKind = Literal["witness", "room", "scene", "official"]
"""Who tells a location's facts."""

Knows = Literal["body", "motives", "gossip"]
"""What an outsider can tell of: the body (it examined it), motives (people confide in it), or
a little of motives (it hears gossip); nothing else at all."""


@dataclass(frozen=True, slots=True)
class Outsider:
    """Someone from outside the house: the location's ``title``, how a sentence names the
    person met there (``named``, ``short``), whether a woman, and what it ``knows``."""

    title: str
    named: str
    short: str
    woman: bool
    knows: Knows


OUTSIDERS: dict[str, Outsider] = {
    "surgeon": Outsider("The police surgeon", "the police surgeon", "the surgeon", False, "body"),
    "coroner": Outsider("The coroner's office", "the coroner's clerk", "the clerk", False, "body"),
    "inn": Outsider(
        "The village inn", "the landlord of the village inn", "the landlord", False, "motives"
    ),
    "vicarage": Outsider("The vicarage", "the vicar", "the vicar", False, "motives"),
    "newspaper": Outsider(
        "The local newspaper", "the editor of the local newspaper", "the editor", False, "motives"
    ),
    "bank": Outsider("The bank", "the manager of the bank", "the manager", False, "motives"),
    "post": Outsider("The post office", "the postmistress", "the postmistress", True, "motives"),
    "doctor": Outsider("The doctor's house", "the family doctor", "the doctor", False, "gossip"),
    "dressmaker": Outsider(
        "The dressmaker's", "the village dressmaker", "the dressmaker", True, "gossip"
    ),
    "chemist": Outsider("The chemist's shop", "the chemist", "the chemist", False, "gossip"),
    "station": Outsider(
        "The railway station", "the stationmaster", "the stationmaster", False, "gossip"
    ),
}
"""The outsiders a case's locations can visit, by id."""

PHYSICAL = (MethodWas, WeaponNot, TimeAmong)
"""Facts the body shows: how and when the victim died, and what did not kill it."""

_MOTIVES = (HasMotive, MotiveHolders, MotiveAmong)


@dataclass(frozen=True, slots=True)
class Voice:
    """A location as a voice: its ``kind``, the id of its person, place or official
    (``key``) and its title."""

    kind: VoiceKind
    key: str
    title: str


def location_id(title: str) -> str:
    """The id of the location titled ``title``: its words, lower case, joined by ``_``
    (without "the")."""
    words = "".join(ch if ch.isalnum() else " " for ch in title.lower()).split()
    return "_".join(w for w in words if w != "the")


def voice_options(setting: Setting, scene: str) -> list[Voice]:
    """Every voice a case's locations can have but the room of the body (``scene``): the
    suspects, the other rooms, the outsiders."""
    out = [Voice("witness", p.id, f"{p.name}, {p.role}") for p in setting.suspects]
    out += [Voice("room", p.id, f"The {p.name}") for p in setting.places if p.id != scene]
    out += [Voice("official", key, o.title) for key, o in OUTSIDERS.items()]
    return out


def scene_voice(setting: Setting, scene: str) -> Voice:
    """The room where the body lies, as a location."""
    return Voice("scene", scene, f"The {setting.place(scene).name}")


def names(fact: Fact, person: str) -> bool:
    """Whether ``fact`` speaks of ``person``."""
    match fact:
        case Seen(person=p) | Held(person=p) | HasMotive(person=p):
            return p == person
        case Met(a, b):
            return person in (a, b)
        case KeyHolders(people=people) | MotiveHolders(people=people):
            return person in people
    return False


def convicts(fact: Fact, crime: Crime) -> bool:
    """Whether ``fact`` puts someone at the scene at the hour of the crime or puts the weapon
    in someone's hands then (what a killer would not say of itself)."""
    match fact:
        case Seen(_, place, slot, True):
            return place == crime.place and slot == crime.slot
        case Held(_, item, slot, True):
            return item == crime.weapon and slot == crime.slot
    return False


def fit(fact: Fact, voice: Voice, crime: Crime) -> int | None:
    """How naturally ``voice`` tells ``fact`` (higher is better, 0 a last resort; the body's
    room tells what the body shows before anyone else), or None when it must not."""
    physical, motive = isinstance(fact, PHYSICAL), isinstance(fact, _MOTIVES)
    match voice.kind:
        case "witness":
            if names(fact, voice.key):
                own = speaker_field(fact, voice.key) is not None
                return 2 if own and not convicts(fact, crime) else None
            return 0 if physical or isinstance(fact, SceneAmong) else 1
        case "scene":
            return 4 if physical else 0
        case "room":
            return 0 if physical else 1
        case "official":
            knows = OUTSIDERS[voice.key].knows
            if knows == "body" and physical:
                return 3
            if knows != "body" and motive:
                return 2 if knows == "motives" else 1
            return None
    return 0
