"""Prose from facts: a location card is its voice and its facts, and the writer renders it.

``Card`` is what a case keeps of a location before it has words: who tells it (a ``Voice``) and
the facts it tells. ``TemplateWriter`` writes a case's prose from the prose pools
(``prose_rooms``, ``prose_people``): each card opens, tells each fact in one sentence of its
voice (a witness in its own words, the first person for what it did itself; a written thing
found in a room; the body; an outsider's report) and is narrated up to the length asked, then
closes; the introduction opens at the body and sets the scene; the house plan is a card of
its own. One writer serves one case and keeps count of the frames it has used, so no sentence
repeats and no frame comes back more than twice (a written clue's frame, never). A writer that
rewrites a card's prose (from a model, say) replaces ``card`` and keeps the facts attached.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from formalize.world.clauses import (
    CLAUSES,
    capitalised,
    clause_templates,
    fill,
    first_person_templates,
)
from formalize.world.facts import Fact, Seen
from formalize.world.render import listing
from formalize.world.setting import Person, Setting
from formalize.world.stations import feminine
from games.detective import prose_people as people
from games.detective import prose_rooms as rooms
from games.detective.case import Provenance
from games.detective.voices import OUTSIDERS, PHYSICAL, Voice

WEATHERS = tuple(rooms.WEATHER)
"""The weathers a case's morning can have."""

OWN_LINES = {"room": 3, "scene": 2, "witness": 3, "official": 3}
"""How many sentences a card takes from its own room's, role's or outsider's narration before
its kind's (the room of the body after three at the body), so a room met again in another case
reads differently; the rest of its own come after its kind's run out."""


@dataclass(frozen=True, slots=True)
class Line:
    """A sentence and the facts it states (none for narration)."""

    text: str
    facts: tuple[Fact, ...] = ()


@dataclass(frozen=True, slots=True)
class Card:
    """A location before it has words: who tells it and the facts it tells."""

    voice: Voice
    facts: tuple[Fact, ...]


_OPEN_QUOTE = re.compile("\u201c([a-z])")


def tidy(text: str) -> str:
    """``text`` with a capital at its start and after each opening quotation mark."""
    return capitalised(_OPEN_QUOTE.sub(lambda m: "\u201c" + m.group(1).upper(), text))


def pronouns(woman: bool) -> dict[str, str]:
    """The pronoun slots ``sub``, ``obj`` and ``pos`` for a woman or a man."""
    if woman:
        return {"sub": "she", "obj": "her", "pos": "her"}
    return {"sub": "he", "obj": "him", "pos": "his"}


def person_pronouns(name: str) -> dict[str, str]:
    """The pronoun slots for the person called ``name`` (a name of no known sex as a woman's)."""
    return pronouns(feminine(name) is not False)


def plain_clauses(fact: Fact) -> tuple[str, ...]:
    """``fact``'s third-person phrasings that carry no evidence verb of their own ("the wounds
    show that ..."), so a lead-in's verb is the only one in its sentence."""
    return tuple(t for t in clause_templates(fact) if " that " not in f" {t} ")


_RELATED: dict[str, str] = {
    "servant": "has been in {b}'s service for years",
    "employee": "is employed by {b}",
    "confidant": "is {b}'s confidant",
    "creditor": "once lent {b} a good deal of money",
    "solicitor": "has looked after {b}'s affairs for years",
    "cousin": "is {b}'s cousin",
    "old friend": "is an old friend of {b}'s",
    "rival": "has long been {b}'s rival",
    "former fiance": "was once engaged to {b}",
    "former fiancee": "was once engaged to {b}",
}


def relation_phrase(kind: str, a: Person, b: Person) -> str:
    """What ``a`` is to ``b`` as the rest of a sentence about ``a``."""
    if kind == "sibling":
        return f"is {b.name.split()[0]}'s {'sister' if feminine(a.name) else 'brother'}"
    template = _RELATED.get(kind, "is {b}'s " + kind)
    return template.format(b=b.name.split()[0])


@dataclass(frozen=True, slots=True)
class _Pools:
    """The narration a card draws from: openings, its own lines, its kind's, closings."""

    openings: Sequence[str]
    own: list[str]
    kind: Sequence[str]
    closings: Sequence[str]


@dataclass
class Usage:
    """The frames a case's prose has used and the sentences it has written."""

    counts: Counter[str] = field(default_factory=Counter)
    written: set[str] = field(default_factory=set)

    def take(
        self,
        templates: Sequence[str],
        render: Callable[[str], str],
        rng: random.Random,
        limit: int = 2,
    ) -> str | None:
        """A sentence from one of ``templates`` (rendered), least used first and at most
        ``limit`` times each, never a sentence already written; None when none is left."""
        order = list(templates)
        rng.shuffle(order)
        order.sort(key=lambda t: self.counts[t])
        for template in order:
            if self.counts[template] >= limit:
                break
            text = tidy(render(template))
            if text in self.written:
                continue
            self.counts[template] += 1
            self.written.add(text)
            return text
        return None


def _words(lines: Sequence[Line]) -> int:
    return sum(len(line.text.split()) for line in lines)


class Writer(Protocol):
    """What writes a case's prose from its facts: each card's sentences, each sentence with
    the facts it states (together exactly the card's), and the introduction."""

    def card(self, card: Card) -> list[Line]:
        """The card's sentences."""
        ...

    def introduction(
        self, body: Seen, questions: Sequence[str], facts: Sequence[Fact]
    ) -> tuple[str, list[Line]]:
        """The introduction's text, opening at ``body``, and its fact sentences."""
        ...

    def provenance(self) -> Provenance | None:
        """Who wrote the cards, for the case file (None: the templates, as every case)."""
        ...


WriterFactory = Callable[[Setting, random.Random, int], Writer]
"""Makes the writer of one case from its setting, its prose's random stream and the words a
card should have (``TemplateWriter`` is one)."""


class TemplateWriter:
    """Writes one case's prose from the pools: cards of about ``words`` words, the
    introduction and the house plan, all with ``rng`` and one count of frames."""

    def __init__(self, setting: Setting, rng: random.Random, words: int) -> None:
        self.setting = setting
        self.rng = rng
        self.words = words
        self.usage = Usage()
        self.weather = rng.choice(WEATHERS)
        victim = setting.person(setting.crimes[0].victim)
        self._victim = {
            "victim": victim.name.split()[0],
            **{f"v{k}": v for k, v in person_pronouns(victim.name).items()},
            "house": setting.title,
            "family": victim.name.split()[-1],
        }

    def _say(self, template: str, slots: dict[str, str]) -> str:
        return template.format(**self._victim, **slots)

    # Fact sentences.

    def _fact(
        self,
        fact: Fact,
        frames: Sequence[str],
        slots: dict[str, str],
        speaker: str | None = None,
    ) -> Line:
        """``fact`` in one of ``frames`` (a written clue's frames at most once a case)."""
        own = first_person_templates(fact, speaker) if speaker is not None else ()
        clause = fill(
            self.rng.choice(own or plain_clauses(fact)),
            fact,
            self.setting,
            short=speaker is not None,
        )
        limit = 1 if frames is rooms.DOCUMENT_FRAMES else 2
        text = None
        while text is None:
            text = self.usage.take(
                frames, lambda t: t.format(clause=clause, **slots), self.rng, limit
            )
            limit += 1
        return Line(text, (fact,))

    def _fact_lines(self, card: Card, slots: dict[str, str]) -> list[Line]:
        voice = card.voice
        out = []
        furniture: list[str] = []
        for fact in card.facts:
            physical = isinstance(fact, PHYSICAL)
            match voice.kind:
                case "witness":
                    out.append(self._fact(fact, people.WITNESS_FRAMES, slots, voice.key))
                case "official":
                    examiner = OUTSIDERS[voice.key].knows == "body" and physical
                    frames = people.EXAMINER_FRAMES if examiner else people.OFFICIAL_FRAMES
                    out.append(self._fact(fact, frames, slots))
                case "scene" if physical:
                    out.append(self._fact(fact, rooms.BODY_FRAMES, slots))
                case _:
                    if not furniture:
                        furniture = list(_room(self.setting, voice.key).furniture)
                        self.rng.shuffle(furniture)
                    where = {"furniture": furniture.pop()}
                    out.append(self._fact(fact, rooms.DOCUMENT_FRAMES, slots | where))
        return out

    # Narration.

    def _pools(self, voice: Voice) -> _Pools:
        """A voice's openings, its own narration (shuffled), narration of its kind, closings."""
        match voice.kind:
            case "witness":
                role = self.setting.person(voice.key).role
                own = list(people.ROLE_LINES.get(role, ()))
                pools = _Pools(
                    people.WITNESS_OPENINGS, own, people.WITNESS_LINES, people.WITNESS_CLOSINGS
                )
            case "official":
                own = list(people.OFFICIAL_LINES.get(voice.key, ()))
                pools = _Pools(
                    people.OFFICIAL_OPENINGS,
                    own,
                    people.OUTSIDER_LINES,
                    people.OFFICIAL_CLOSINGS,
                )
            case _:
                room = _room(self.setting, voice.key)
                where = "outdoor" if room.outdoor else "indoor"
                own = list(room.sights)
                kind = [*rooms.ROOM_LINES[where], *rooms.WEATHER[self.weather][where]]
                if room.windowless:
                    own = [t for t in own if not any(w in t for w in rooms.WINDOW_WORDS)]
                    kind = [t for t in kind if not any(w in t for w in rooms.WINDOW_WORDS)]
                pools = _Pools(rooms.ROOM_OPENINGS[where], own, kind, rooms.ROOM_CLOSINGS[where])
        self.rng.shuffle(pools.own)
        if voice.kind == "scene":
            body = list(rooms.BODY_LINES)
            if _room(self.setting, voice.key).windowless:
                body = [t for t in body if not any(w in t for w in rooms.WINDOW_WORDS)]
            pools.own[:0] = self.rng.sample(body, 3)
        return pools

    def _slots(self, voice: Voice) -> dict[str, str]:
        match voice.kind:
            case "witness":
                person = self.setting.person(voice.key)
                return {"name": person.name.split()[0], **person_pronouns(person.name)}
            case "official":
                who = OUTSIDERS[voice.key]
                return {"title": who.named, "short": who.short, **pronouns(who.woman)}
        room = _room(self.setting, voice.key)
        return {
            "place": self.setting.place(voice.key).name,
            "smell": self.rng.choice(room.smells),
            "sound": self.rng.choice(room.sounds),
            "furniture": self.rng.choice(room.furniture),
        }

    def _narration(
        self, templates: Sequence[str], slots: dict[str, str], limit: int
    ) -> Line | None:
        text = self.usage.take(templates, lambda t: self._say(t, slots), self.rng, limit)
        return None if text is None else Line(text)

    def card(self, card: Card) -> list[Line]:
        """The card's sentences: an opening, one sentence per fact among narration of the
        voice (a few of its own first, then its kind's, then the rest of its own, each frame
        once, then twice), up to about ``words`` words, and a closing (unless the opening and
        the facts already fill them)."""
        slots = self._slots(card.voice)
        pools = self._pools(card.voice)
        facts = self._fact_lines(card, slots)
        first = self._narration(pools.openings, slots, 2)
        length = _words([line for line in (first,) if line is not None] + facts)
        last = self._narration(pools.closings, slots, 2) if length < self.words else None
        told: list[Line] = []
        length += _words([last] if last is not None else [])
        few = OWN_LINES[card.voice.kind] + (3 if card.voice.kind == "scene" else 0)
        passes = (
            (pools.own[:few], 1),
            (pools.kind, 1),
            (pools.own[few:], 1),
            ([*pools.own, *pools.kind], 2),
        )
        for templates, limit in passes:
            while length + _words(told) < self.words:
                line = self._narration(templates, slots, limit)
                if line is None:
                    break
                told.append(line)
        body = _interleave(facts, told, self.rng)
        return [*([first] if first else []), *body, *([last] if last else [])]

    # The introduction and the house plan.

    def introduction(
        self, body: Seen, questions: Sequence[str], facts: Sequence[Fact]
    ) -> tuple[str, list[Line]]:
        """The introduction (opening at the body) and its fact sentences."""
        s = self.setting
        victim = s.person(s.crimes[0].victim)
        found = Line(tidy(fill(CLAUSES["body"][0], body, s) + "."), (body,))
        scene = s.place(body.place).name
        opening = [
            found.text,
            f"The {scene} was shut up at once and left for the police, and nobody has been "
            f"in since but the inspector and the surgeon.",
            f"The news went through {s.title} in minutes, and nobody in the house has slept "
            f"much since.",
        ]
        arrival = [
            *self._picks(rooms.WEATHER[self.weather]["arrival"], 1),
            *self._picks(people.ARRIVAL_LINES, 1),
            *self._picks(people.HOUSE_LINES, 2),
        ]
        life = people.VICTIM_LINES.get(victim.role, people.VICTIM_LINES["gentry"])
        story = [f"{victim.name} was {victim.role}.", *self._picks(life, 2)]
        household = self._picks(people.HOUSEHOLD_LINES, 1)
        for person in s.suspects:
            related = [r for r in s.relations if r.a == person.id]
            what = ", and ".join(relation_phrase(r.kind, person, s.person(r.b)) for r in related)
            household.append(f"{person.name}, {person.role}" + (f", {what}." if what else "."))
            sketch = people.ROLE_LINES.get(person.role, ())
            if sketch:
                slots = {"name": person.name.split()[0], **person_pronouns(person.name)}
                line = self._narration(sketch, slots, 1)
                if line is not None:
                    household.append(line.text)
        hours = s.slots
        police = [self._fact(f, people.POLICE_FRAMES, {}) for f in facts]
        evening = [
            f"The household was at home the whole evening, from {hours[0]} until {hours[-1]}, "
            f"and nobody came or went.",
            "One of the people under that roof is a murderer.",
            *(line.text for line in police),
        ]
        task = [
            f"The inspector has drawn a plan of {s.title} and written down what is known of "
            f"the evening; you will find both with the case.",
            "Visit the locations in any order you like: each may hold a clue, or nothing of use.",
            "These are the questions you must answer: "
            + " ".join(f"({i}) {q}" for i, q in enumerate(questions, 1)),
        ]
        paras = [opening, arrival, story, household, evening, task]
        return "\n\n".join(" ".join(p) for p in paras), [found, *police]

    def provenance(self) -> Provenance | None:
        """None: every text comes from the templates."""
        return None

    def _picks(self, templates: Sequence[str], n: int) -> list[str]:
        """``n`` sentences of the introduction's narration from ``templates``, each frame once."""
        picked = (
            self.usage.take(templates, lambda t: self._say(t, {}), self.rng, 1) for _ in range(n)
        )
        return [t for t in picked if t is not None]


def _interleave(facts: list[Line], told: list[Line], rng: random.Random) -> list[Line]:
    """The narration with the fact sentences spread evenly through it."""
    out = list(told)
    step = (len(told) + 1) / (len(facts) + 1)
    for n, fact in reversed(list(enumerate(facts, 1))):
        at = min(len(told), max(0, round(n * step - rng.random())))
        out.insert(at, fact)
    return out


def _room(setting: Setting, place: str) -> rooms.Room:
    return rooms.ROOMS[setting.place(place).name]


def house_plan(setting: Setting) -> str:
    """The house plan card: the doors and the locked rooms, then the inspector's notes on the
    evening (the hours, how people and weapons move, the weapons and the motives)."""
    s = setting
    victim = s.person(s.crimes[0].victim).name.split()[0]
    doors = []
    for place in s.places:
        near = [f"the {s.place(n).name}" for n in s.neighbours(place.id)]
        doors.append(f"From the {place.name} a door leads to {listing(near)}.")
    for place in s.places:
        if place.key is not None:
            doors.append(
                f"The {place.name} is always kept locked, and only someone holding the "
                f"{s.item(place.key).name} can be inside it."
            )
    notes = [
        f"The inspector's notes on the evening divide it into the hours {listing(s.slots)}.",
        "During each hour every person was in exactly one room, and between one hour and the "
        "next a person either stayed put or walked through one door into a neighbouring room.",
        "A weapon is in the hands of at most one person in any hour.",
        "The killer was in the room of the crime at the hour of the crime, holding the weapon, "
        "and had a motive for it.",
        f"The body was not moved: from the hour of death on, {victim} lay in the room where "
        "the crime happened.",
    ]
    weapons = listing(
        [
            f"the {w.name} (the victim would have been {s.method(w.method or '').name})"
            for w in s.weapons
        ]
    )
    means = [
        f"The weapons that could have been used: {weapons}.",
        "The motives anyone in the house could have had: "
        + listing([m.name for m in s.motives])
        + ".",
    ]
    return "\n\n".join(
        [f"The inspector's plan of {s.title}: " + " ".join(doors), " ".join(notes), " ".join(means)]
    )
