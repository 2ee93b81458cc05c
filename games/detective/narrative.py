"""The prose of a generated case: the introduction (opening at the body), location cards that
tell their facts as scenes (what a witness says, what is found in a room, what an official
reports) and the solution, which walks through the reasoning.

Each fact sentence is a lead-in (a ``FRAMES`` template with ``{clause}``) around one clause of
``formalize.world.clauses``; each narration sentence names its card but no hour, weapon or
motive, so it asserts nothing about the evening. ``parse_sentence`` reads a sentence back into
the facts it states, which is how the tests check that the text is faithful to the facts.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from formalize.world.clauses import CLAUSES, capitalised, clause_templates, fill, parse_clause
from formalize.world.facts import (
    Fact,
    HasMotive,
    Held,
    KeyHolders,
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
from formalize.world.world import World

CardKind = Literal["witness", "room", "official"]
"""Who tells a card's facts: a member of the household, the room itself, or an outsider."""

FRAMES: dict[str, tuple[str, ...]] = {
    "witness": (
        "{speaker} tells you that {clause}.",
        "Pressed on the point, {speaker} admits that {clause}.",
        "{speaker} is quite certain that {clause}.",
        "According to {speaker}, {clause}.",
        "When you ask about the evening, {speaker} says that {clause}.",
        "{speaker} remembers one thing clearly: {clause}.",
        "After some hesitation {speaker} adds that {clause}.",
        "{speaker} swears that {clause}.",
    ),
    "room": (
        "A note left in the {place} shows that {clause}.",
        "A maid dusting the {place} tells you that {clause}.",
        "The household diary kept in the {place} records that {clause}.",
        "A letter you find in the {place} makes it plain that {clause}.",
        "A servant who was tidying the {place} confirms that {clause}.",
        "Among the papers in the {place} is a page stating that {clause}.",
        "The footman on duty by the {place} says that {clause}.",
        "A scrap of paper tucked behind a cushion in the {place} reveals that {clause}.",
    ),
    "official": (
        "{speaker} reports that {clause}.",
        "{speaker} has it on good authority that {clause}.",
        "From {speaker} you learn that {clause}.",
        "{speaker} confirms that {clause}.",
        "{speaker} points out that {clause}.",
        "{speaker} is prepared to swear that {clause}.",
        "{speaker} mentions, almost in passing, that {clause}.",
        "{speaker} has written down that {clause}.",
    ),
    "police": (
        "The police have already established that {clause}.",
        "The inspector's notes say that {clause}.",
        "A constable who questioned the household found that {clause}.",
        "It is already known that {clause}.",
    ),
}
"""Per kind of card (and ``police`` for the introduction), the lead-ins of fact sentences."""

SCENERY: dict[str, tuple[str, ...]] = {
    "witness": (
        "{speaker} agrees to answer your questions, though not for long.",
        "{speaker} looks pale and tired, as anyone would after such a night.",
        "{speaker} twists a handkerchief while talking to you.",
        "{speaker} asks more than once whether the police will be long.",
        "{speaker} speaks slowly, weighing every word.",
        "{speaker} glances at the door whenever footsteps pass.",
    ),
    "room": (
        "You search the {place} from end to end.",
        "The {place} is quiet when you step inside.",
        "A single lamp lights the {place}.",
        "The {place} feels colder than the rest of the house.",
        "Nothing in the {place} looks out of order at first glance.",
        "You go through the drawers and cupboards of the {place} one by one.",
    ),
    "official": (
        "You call on {speaker}, who receives you at once.",
        "{speaker} has been expecting you.",
        "{speaker} offers you a chair and a cup of tea.",
        "{speaker} keeps a careful record of everything.",
        "{speaker} is glad to help the investigation.",
        "{speaker} talks freely once the door is closed.",
    ),
}
"""Per kind of card, narration sentences; each names its card and states no fact."""

OFFICIALS: dict[str, str] = {
    "The police surgeon": "the police surgeon",
    "The village inn": "the landlord of the village inn",
    "The coroner's office": "the coroner's clerk",
    "The railway station": "the stationmaster",
    "The vicarage": "the vicar",
    "The local newspaper": "the editor of the local newspaper",
    "The chemist's shop": "the chemist",
    "The solicitor's chambers": "the family's solicitor in town",
}
"""The outsiders' locations and who speaks there."""


@dataclass(frozen=True, slots=True)
class CardSpec:
    """Who speaks on a card: its ``kind``, the ``speaker`` (witness or official) or the room's
    ``place`` name."""

    kind: CardKind
    speaker: str = ""
    place: str = ""


@dataclass(frozen=True, slots=True)
class Line:
    """A sentence and the facts it states (none for narration)."""

    text: str
    facts: tuple[Fact, ...] = ()


def _fact_line(
    frame: str,
    fact: Fact,
    setting: Setting,
    spec: CardSpec,
    rng: random.Random,
    after_opening: bool = False,
) -> Line:
    """The sentence stating ``fact`` in ``frame``; ``after_opening``: to follow a narration
    opening and ``, and`` (the frame's own first word then starts in lower case)."""
    clause = fill(rng.choice(clause_templates(fact)), fact, setting)
    if after_opening and not frame.startswith("{"):
        frame = frame[0].lower() + frame[1:]
    text = frame.format(speaker=spec.speaker, place=spec.place, clause=clause)
    return Line(text if after_opening else capitalised(text), (fact,))


def card_lines(
    spec: CardSpec, facts: Sequence[Fact], setting: Setting, words: int, rng: random.Random
) -> list[Line]:
    """A card's sentences: one per fact (each a different lead-in, the first after a narration
    opening), then narration up to ``words`` while fact sentences stay the majority."""
    frames = list(FRAMES[spec.kind])
    rng.shuffle(frames)
    scenery = [
        Line(capitalised(s.format(speaker=spec.speaker, place=spec.place)))
        for s in rng.sample(SCENERY[spec.kind], len(SCENERY[spec.kind]))
    ]
    opening = scenery.pop()
    if not facts:
        return [opening]
    lines = [
        _fact_line(frames[i % len(frames)], f, setting, spec, rng, after_opening=i == 0)
        for i, f in enumerate(facts)
    ]
    lines[0] = Line(f"{opening.text[:-1]}, and {lines[0].text}", lines[0].facts)
    while scenery and len(lines) < 2 * len(facts) - 1 and _words(lines) < words:
        lines.insert(rng.randrange(1, len(lines) + 1), scenery.pop())
    return lines


def _words(lines: Sequence[Line]) -> int:
    return sum(len(line.text.split()) for line in lines)


def body_line(fact: Seen, setting: Setting) -> Line:
    """The introduction's opening: where and when the body was found."""
    return Line(capitalised(fill(CLAUSES["body"][0], fact, setting) + "."), (fact,))


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
    setting: Setting,
    body: Seen,
    questions: Sequence[str],
    facts: Sequence[Fact],
    rng: random.Random,
) -> tuple[str, list[Line]]:
    """The case introduction (the body, the household, the house, the rules, the questions)
    and its fact sentences."""
    spec = setting.crimes[0]
    victim = setting.person(spec.victim)
    hours = setting.slots
    found = body_line(body, setting)
    frames = list(FRAMES["police"])
    rng.shuffle(frames)
    police = [
        _fact_line(frames[i % len(frames)], f, setting, CardSpec("official"), rng)
        for i, f in enumerate(facts)
    ]
    paras = [
        f"{found.text} {victim.name}, {victim.role}, lay quite still, and the local police "
        f"admit they are out of their depth; a telegram calls you to {setting.title}. The "
        f"household was at home the whole evening, from {hours[0]} until {hours[-1]}, and "
        f"nobody came or went. One of the people under that roof is a murderer.",
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
    if police:
        paras.append(" ".join(line.text for line in police))
    paras.append(
        "Visit the locations in any order you like. Each one may hold a clue, or nothing of use. "
        "Answer these questions: " + " ".join(f"({i}) {q}" for i, q in enumerate(questions, 1))
    )
    return "\n\n".join(paras), [found, *police]


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


def sentences(text: str) -> list[str]:
    """``text`` split into sentences (after a full stop followed by a capital)."""
    return [s for para in text.split("\n\n") for s in _SENTENCE_END.split(para.strip()) if s]


def _frame_regex(frame: str) -> re.Pattern[str]:
    pattern = re.escape(frame)
    for field, group in (
        ("opening", r"(?P<opening>.+?)"),
        ("speaker", r"(?P<speaker>.+?)"),
        ("place", r"(?P<place>.+?)"),
        ("clause", r"(?P<clause>.+)"),
    ):
        pattern = pattern.replace(re.escape("{" + field + "}"), group)
    return re.compile(pattern, re.IGNORECASE)


@lru_cache(maxsize=1)
def _frame_patterns() -> tuple[re.Pattern[str], ...]:
    frames = [f for group in FRAMES.values() for f in group]
    openings = [f"{{opening}}, and {f[0].lower()}{f[1:]}" for f in frames]
    return tuple(_frame_regex(f) for f in [*frames, *openings, "{clause}."])


def parse_sentence(text: str, setting: Setting) -> list[Fact]:
    """The facts a sentence states: its clause parsed after any lead-in, read independently of
    how the sentence was made (empty for narration)."""
    found: list[Fact] = []
    for pattern in _frame_patterns():
        m = pattern.fullmatch(text)
        if m is None:
            continue
        found += [f for f in parse_clause(m.group("clause"), setting) if f not in found]
    return found


_CONNECTORS = (
    "First",
    "Next",
    "Then",
    "Besides",
    "Moreover",
    "Further",
    "In addition",
    "Also",
    "What is more",
    "Beyond that",
    "Likewise",
    "On top of that",
)


def _consequence(fact: Fact, world: World) -> str:
    """What ``fact`` contributes once the crime is known."""
    s, crime = world.setting, world.crimes[0]
    victim, scene, hour = s.person(crime.victim).name, s.place(crime.place).name, crime.slot
    match fact:
        case Seen(person, _, t, True) if t == hour and person != crime.victim:
            name = s.person(person).name
            if person in crime.killers:
                return f"so {name} was in the {scene} at the very hour {victim} died"
            return f"so {name} was not in the {scene} when {victim} died, and is cleared"
        case Seen(person, _, t, True):
            return (
                f"and as nobody crosses more than one door in an hour, that limits where "
                f"{s.person(person).name} could have been an hour before or after {s.slots[t]}"
            )
        case Held(person, item, t, True) if t == hour:
            if item == crime.weapon:
                return f"so the {s.item(item).name} was in the killer's hands when the blow fell"
            return f"so the {s.item(item).name} was elsewhere at the fatal hour, not the weapon"
        case Held(person, item, t, True):
            return f"and nobody else held the {s.item(item).name} in that hour"
        case KeyHolders(key, _):
            return f"so nobody else could have been inside the room the {s.item(key).name} opens"
        case MotiveHolders(motive, _):
            return f"so {s.motive(motive).name} can only point at those named"
        case HasMotive(person, motive, True):
            return f"so {s.person(person).name} could have acted on it"
        case TimeAmong():
            return "which narrows down the hour of death"
        case SceneAmong():
            return "which narrows down the room of the attack"
        case MethodWas(_, method):
            able = [f"the {w.name}" for w in s.weapons if w.method == method]
            return f"and only {listing(able, 'or')} could have done that"
        case WeaponNot(_, item):
            return f"which rules out the {s.item(item).name}"
        case MotiveAmong():
            return "which narrows down the motive"
    return "and one more possibility falls away"


def solution_text(
    world: World,
    questions: Sequence[tuple[str, str]],
    steps: Sequence[Sequence[Fact]],
    rng: random.Random,
) -> str:
    """The solution: per question (its text and answer), the facts its answer rests on that no
    earlier question used, each with what follows from it, then the whole crime in a sentence."""
    s, crime = world.setting, world.crimes[0]
    paras: list[str] = []
    used: set[Fact] = set()
    for number, ((text, answer), facts) in enumerate(zip(questions, steps, strict=True), 1):
        new = [f for f in facts if f not in used]
        chain = []
        for i, fact in enumerate(new):
            word = _CONNECTORS[i % len(_CONNECTORS)] if i < len(new) - 1 or i == 0 else "Finally"
            clause = fill(rng.choice(clause_templates(fact)), fact, s)
            chain.append(capitalised(f"{word}, {clause}, {_consequence(fact, world)}."))
        again = f" As for question {number}, part of it rests on what was shown above."
        again = again if len(new) < len(facts) else ""
        paras.append(
            f"{text}{again} "
            + (" ".join(chain) if chain else f"Question {number} needs nothing more.")
            + f" Put together, this leaves one answer to question {number}: {answer}."
        )
        used.update(facts)
    paras.append(
        f"So {s.person(crime.killers[0]).name} killed {s.person(crime.victim).name} in the "
        f"{s.place(crime.place).name} at {s.slots[crime.slot]} with the "
        f"{s.item(crime.weapon).name}, out of {s.motive(crime.motive).name}."
    )
    return "\n\n".join(paras)
