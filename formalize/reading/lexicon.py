"""The words that name each option of a question's slots, from the options' own texts and,
when the case's world is known, from its people (names, surnames, roles, how they stand to the
victim) and from the generator's vocabulary (other words for weapons, methods, motives and
hours: ``formalize.world.vocabulary``).

A phrase two options share ("gun" with a revolver and a rifle in the case, "cousin" for two
cousins) names both: the reader then cannot tell which, and says so.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from formalize.reading.task import Option, ReadingTask, SlotSpec
from formalize.reading.text import fold, tokens
from formalize.reading.words import COMMON
from formalize.world import vocabulary as vocab
from formalize.world.setting import Person, Setting

Phrase = tuple[str, ...]
"""A phrase as folded tokens."""

PERSON_KINDS = frozenset({"culprit", "killer", "person", "suspect", "accomplice"})
"""Slot kinds whose options are people."""

LETTER_KIND = "letter"
"""The kind of a slot whose options are letters of a multiple-choice question (``a``-``e``),
named by their letter or their text."""

_NUMBERS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)
_TITLES = ("mr", "mrs", "miss", "ms", "dr", "master", "mister", "madam")
_ARTICLES = ("the", "a", "an")


def phrase(text: str) -> Phrase:
    """``text`` as the reader's tokens."""
    return tuple(t.word for t in tokens(fold(text)))


def _bare(text: str) -> str:
    """``text`` without a parenthesis or a leading article."""
    cut = re.sub(r"\s*\(.*?\)", "", text).strip()
    for article in _ARTICLES:
        if cut.casefold().startswith(article + " "):
            return cut[len(article) + 1 :]
    return cut


def _forms(text: str) -> set[Phrase]:
    """A text's phrases: as written, without its parenthesis, and without its article."""
    found = {phrase(text), phrase(_bare(text))}
    inner = re.findall(r"\((.*?)\)", text)
    found |= {phrase(_bare(part)) for part in inner}
    return {p for p in found if p}


def hour_forms(hour: int) -> tuple[set[Phrase], set[Phrase]]:
    """The ways to write a time on the 24-hour clock ``hour``: phrases that name it alone, and
    bare numbers that name it only after "at", "around"... (``eight``, ``8``)."""
    twelve = hour % 12 or 12
    word, digit = _NUMBERS[twelve], str(twelve)
    evening = hour >= 12 or hour == 0
    half = ("pm", "p.m.", "p.m") if evening else ("am", "a.m.", "a.m")
    clock = [f"{hour:02d}:00", f"{hour}:00", f"{hour:02d}.00", f"{hour:02d}00 hours"]
    if hour == 0:
        clock += ["24:00", "12 midnight", "twelve midnight", "midnight", "twelve at night"]
    texts = [f"{n} o'clock" for n in (word, digit)] + [f"{n} oclock" for n in (word, digit)]
    texts += [f"{n} {h}" for n in (word, digit) for h in half] + [f"{digit}{half[0]}"]
    texts += [f"{digit}:00", f"{digit}.00", f"{digit}:00{half[0]}"]
    texts += [f"{digit}:00 {h}" for h in half]
    if evening and hour:
        texts += [f"{n} in the evening" for n in (word, digit)]
        texts += [f"{n} at night" for n in (word, digit)] + [f"{n} that evening" for n in (word,)]
    else:
        texts += [f"{n} in the morning" for n in (word, digit)] + [f"{word} at night"]
    return {phrase(t) for t in texts + clock}, {phrase(word), phrase(digit)}


@dataclass
class SlotLexicon:
    """One slot's phrases: each phrase and the options it names; ``bare`` phrases (numbers)
    count only where a time is expected; ``outsiders`` name people who are not options, and
    ``victims`` the victims (whom answers name all the time, never as an option)."""

    slot: str
    kind: str
    phrases: dict[Phrase, set[str]] = field(default_factory=lambda: defaultdict(set))
    bare: dict[Phrase, set[str]] = field(default_factory=lambda: defaultdict(set))
    outsiders: set[Phrase] = field(default_factory=set)
    victims: set[Phrase] = field(default_factory=set)

    def add(self, option: str, forms: Iterable[Phrase]) -> None:
        """``forms`` name ``option`` (a lone common word, as "will" left of "the will", never
        does)."""
        for form in forms:
            if form and not (len(form) == 1 and form[0] in COMMON):
                self.phrases[form].add(option)

    @property
    def longest(self) -> int:
        """The most tokens a phrase has."""
        every = [*self.phrases, *self.bare, *self.outsiders, *self.victims]
        return max((len(p) for p in every), default=1)


def person_forms(person: Person, setting: Setting | None) -> set[Phrase]:
    """The ways an answer may name ``person``: the name, first name, surname (with a title),
    the role and its other words, and how the person stands to the victim."""
    parts = person.name.split()
    forms = {phrase(person.name), phrase(parts[0]), phrase(parts[-1])}
    forms |= {phrase(f"{t} {parts[-1]}") for t in _TITLES}
    if person.role:
        forms |= _forms(person.role)
        forms |= {phrase(w) for w in vocab.ROLE_WORDS.get(person.role, ())}
    if setting is not None:
        victims = setting.victims
        for rel in setting.relations:
            if rel.a == person.id and rel.b in victims:
                forms.add(phrase(rel.kind))
                forms |= {phrase(w) for w in vocab.RELATION_WORDS.get(rel.kind, ())}
    return forms


def _text_person(text: str) -> set[Phrase]:
    """A person option without a world: its text's forms and, for a name, its first and last
    words."""
    forms = _forms(text)
    name = _bare(text).split()
    if len(name) >= 2 and all(w[:1].isupper() for w in name):
        forms |= {phrase(name[0]), phrase(name[-1])}
    return forms


def slot_lexicon(slot: SlotSpec, setting: Setting | None) -> SlotLexicon:
    """The phrases of ``slot``'s options (see the module docstring)."""
    lex = SlotLexicon(slot.name, slot.kind)
    people = {p.id: p for p in setting.people} if setting is not None else {}
    items = {i.id: i for i in setting.items} if setting is not None else {}
    for option in slot.options:
        value, text = option.value, option.text
        lex.add(value, _forms(text))
        if slot.kind == LETTER_KIND:
            for written in (value, f"option {value}", f"({value})", f"{value})", f"{value}."):
                lex.phrases[phrase(written)].add(value)
        elif slot.kind in PERSON_KINDS:
            if value in people:
                lex.add(value, person_forms(people[value], setting))
            else:
                lex.add(value, _text_person(text))
        elif slot.kind == "weapon":
            name = items[value].name if value in items else _bare(text)
            lex.add(value, {phrase(w) for w in vocab.WEAPON_WORDS.get(name, ())})
        elif slot.kind == "method":
            lex.add(value, {phrase(w) for w in vocab.METHOD_WORDS.get(value, ())})
            if value in vocab.METHOD_WORDS:
                lex.add(value, {phrase(value)})
        elif slot.kind == "motive":
            lex.add(value, {phrase(w) for w in vocab.MOTIVE_WORDS.get(value, ())})
            if value in vocab.MOTIVE_WORDS:
                lex.add(value, {phrase(value)})
        elif slot.kind == "time" and text in vocab.HOUR_CLOCK:
            named, bare = hour_forms(vocab.HOUR_CLOCK[text])
            lex.add(value, named)
            for form in bare:
                lex.bare[form].add(value)
    if slot.kind in PERSON_KINDS and setting is not None:
        options = {o.value for o in slot.options}
        for person in setting.people:
            if person.id in setting.victims:
                lex.victims |= person_forms(person, None) - set(lex.phrases)
            elif person.id not in options:
                lex.outsiders |= person_forms(person, None) - set(lex.phrases)
    return lex


def _world_slot(kind: str, named: Iterable[tuple[str, str]]) -> SlotSpec | None:
    """A slot of ``kind`` whose options are the world's ``named`` things (id, name), the first of
    each name kept; None when there are none."""
    options: dict[str, Option] = {}
    for value, text in named:
        options.setdefault(text.strip().casefold(), Option(value=value, text=text))
    return SlotSpec(name=kind, kind=kind, options=list(options.values())) if options else None


def world_lexicons(setting: Setting | None) -> list[SlotLexicon]:
    """The phrases that name the case's people, weapons, methods, motives, hours and places,
    whatever the question asks: an answer speaks of them ("Hugo shot her with the revolver" to a
    question about the killer) and the reader's grammar needs to know what they are."""
    if setting is None:
        return []
    slots = [
        _world_slot(
            "person", [(p.id, p.name) for p in setting.people if p.id not in setting.victims]
        ),
        _world_slot("weapon", [(i.id, i.name) for i in setting.items if i.kind == "weapon"]),
        _world_slot("method", [(m.id, m.name) for m in setting.methods]),
        _world_slot("motive", [(m.id, m.name) for m in setting.motives]),
        _world_slot("time", [(f"hour{n}", t) for n, t in enumerate(setting.slots)]),
        _world_slot("place", [(p.id, p.name) for p in setting.places]),
    ]
    return [slot_lexicon(s, setting) for s in slots if s is not None]


def world_words(setting: Setting | None, task: ReadingTask) -> frozenset[str]:
    """The words that name something of the case: the words of its names, roles, places, items,
    methods, motives and hours and of the task's options, and every one-word phrase of the
    vocabulary. An answer may use these without saying something the reader cannot place; a
    word only part of a longer phrase ("money" of "owed money") is not among them."""
    texts: list[str] = [o.text for s in task.slots for o in s.options]
    singles: list[str] = []
    if setting is not None:
        texts += [p.name for p in setting.people] + [p.role for p in setting.people]
        texts += [r.kind for r in setting.relations]
        texts += [p.name for p in setting.places] + [i.name for i in setting.items]
        texts += [m.name for m in setting.methods] + [m.name for m in setting.motives]
        texts += [m.id for m in setting.methods] + [m.id for m in setting.motives]
        texts += [*setting.slots, setting.title]
        for person in setting.people:
            singles += list(vocab.ROLE_WORDS.get(person.role, ()))
        for rel in setting.relations:
            singles += list(vocab.RELATION_WORDS.get(rel.kind, ()))
        for item in setting.items:
            singles += list(vocab.WEAPON_WORDS.get(item.name, ()))
        for method in setting.methods:
            singles += list(vocab.METHOD_WORDS.get(method.id, ()))
        for motive in setting.motives:
            singles += list(vocab.MOTIVE_WORDS.get(motive.id, ()))
    words = {w for t in texts for w in phrase(t)}
    words |= {p[0] for p in map(phrase, singles) if len(p) == 1}
    for slot in task.slots:
        lex = slot_lexicon(slot, setting)
        every = [*lex.phrases, *lex.bare, *lex.outsiders, *lex.victims]
        words |= {p[0] for p in every if len(p) == 1}
    return frozenset(words)
