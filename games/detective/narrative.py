"""The prose of a generated case: introduction, location cards and solution, from templates."""

from __future__ import annotations

import random
from collections.abc import Sequence

from formalize.world.render import listing
from formalize.world.setting import Setting

_FLAVOUR: tuple[str, ...] = (
    "A clock ticked somewhere behind the panelling.",
    "Rain tapped against the tall windows the whole time.",
    "The air smelled faintly of pipe smoke and floor polish.",
    "Someone had let the fire burn down to embers.",
    "A maid hurried past without meeting anyone's eye.",
    "The lamps had been turned low, as if to save oil.",
    "Heavy curtains kept out most of the grey daylight.",
    "Somewhere a dog barked twice and fell silent.",
    "Dust lay thick on the picture frames along the wall.",
    "A half-finished cup of tea had gone cold on a side table.",
    "The floorboards creaked at every other step.",
    "Outside, the wind moved the bare branches of the elms.",
    "The detective took careful notes and said little.",
    "A constable stood by the door, trying to look useful.",
    "The household spoke in low voices, as households do after a death.",
    "A faint draught stirred the pages of an open almanac.",
)

_OPENINGS: tuple[str, ...] = (
    "You arrive and look around carefully.",
    "You are shown in without ceremony.",
    "You spend some time here asking questions.",
    "You make a slow and careful search.",
)


def _words(text: str) -> int:
    return len(text.split())


def card_text(sentences: Sequence[str], words: int, rng: random.Random) -> str:
    """A location's text: an opening, its fact sentences among flavour lines, ``words`` long."""
    lines = [rng.choice(_OPENINGS), *sentences]
    flavour = list(_FLAVOUR)
    rng.shuffle(flavour)
    while flavour and _words(" ".join(lines)) < words:
        lines.insert(rng.randrange(1, len(lines) + 1), flavour.pop())
    return " ".join(lines)


def _map(setting: Setting) -> list[str]:
    out = []
    for place in setting.places:
        near = [f"the {setting.place(n).name}" for n in setting.neighbours(place.id)]
        out.append(f"From the {place.name} a door leads to {listing(near)}.")
    for place in setting.places:
        if place.key is not None:
            out.append(
                f"The {place.name} is always kept locked, and only someone holding the "
                f"{setting.item(place.key).name} can be inside it."
            )
    return out


def introduction(
    setting: Setting, questions: Sequence[str], facts: Sequence[str], rng: random.Random
) -> str:
    """The case introduction: the crime, the household, the house, the rules, the questions."""
    spec = setting.crimes[0]
    victim = setting.person(spec.victim)
    hours = setting.slots
    paras = [
        f"A telegram calls you to {setting.title}. {victim.name}, {victim.role}, has been found "
        f"dead, and the local police admit they are out of their depth. The household was at "
        f"home the whole evening, from {hours[0]} until {hours[-1]}, and nobody came or went. "
        f"One of the people under that roof is a murderer.",
        "The household: "
        + " ".join(
            f"{p.name} is {p.role}."
            + "".join(
                f" {p.name.split()[0]} is {setting.person(r.b).name.split()[0]}'s {r.kind}."
                for r in setting.relations
                if r.a == p.id
            )
            for p in setting.suspects
        ),
        "The house: " + " ".join(_map(setting)),
        f"How to reason about the evening: it is divided into the hours {listing(hours)}. During "
        f"each hour every person was in exactly one room, and between one hour and the next a "
        f"person either stayed put or walked through one door into a neighbouring room. A "
        f"weapon is in the hands of at most one person in any hour. The killer was in the room "
        f"of the crime at the hour of the crime, holding the weapon, and had a motive for it. "
        f"The body was not moved: from the hour of death on, {victim.name.split()[0]} lay in the "
        f"room where the crime happened.",
        "The weapons that could have been used: "
        + listing(
            [
                f"the {w.name} (the victim would have been {setting.method(w.method or '').name})"
                for w in setting.weapons
            ]
        )
        + ". The motives anyone in the house could have had: "
        + listing([m.name for m in setting.motives])
        + ".",
    ]
    if facts:
        paras.append("What the police already established: " + " ".join(facts))
    paras.append(
        "Visit the locations in any order you like. Each one may hold a clue, or nothing of use. "
        "Answer these questions: " + " ".join(f"({i}) {q}" for i, q in enumerate(questions, 1))
    )
    flavour = list(_FLAVOUR)
    rng.shuffle(flavour)
    paras.insert(1, " ".join(flavour[:4]))
    return "\n\n".join(paras)
