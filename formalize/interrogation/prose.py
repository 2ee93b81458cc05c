"""A character's script (or cover story, or the public introduction) as first-person prose whose
every sentence maps to the typed facts it states, and the way back from a sentence to its facts.

A room at an hour the script knows completely (who was there, and that nobody else was) is one
sentence; so are the weapons a person did not hold at an hour; every other fact is one clause of
``formalize.world.clauses``. A character's sentences open with a varied first-person lead-in,
chosen by a seeded RNG; public facts (the introduction everyone hears) are stated plainly, never
hedged as someone's memory. No sentence depends on another, so ``parse_prose`` reads each back on
its own.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from formalize.world.clauses import (
    capitalised,
    clause_templates,
    fill,
    parse_clause,
    template_regex,
)
from formalize.world.facts import Fact, Held, Seen
from formalize.world.render import listing
from formalize.world.setting import Setting

LEADS = ("{clause}.", "I remember that {clause}.", "As far as I know, {clause}.")
"""First-person lead-ins around a clause; the first, the bare clause, is also the public one."""
PUBLIC_LEADS = LEADS[:1]
"""Public facts are stated as facts, with no lead-in."""
ROOM = "at {when} the {where} held {people}, and nobody else"
"""The clause of one room at one hour: who was there, and that no one else was."""
EMPTY_HANDS = "at {when} {who} held none of these: {weapons}"
"""The clause of the weapons one person did not hold at one hour."""


@dataclass(frozen=True)
class Sentence:
    """One sentence and the facts it states."""

    text: str
    facts: tuple[Fact, ...]


def _room(setting: Setting, facts: Sequence[Fact]) -> dict[tuple[str, int], list[Seen]]:
    """The rooms at an hour that ``facts`` settle for every person, with their sightings."""
    rooms: dict[tuple[str, int], list[Seen]] = {}
    for f in facts:
        if isinstance(f, Seen):
            rooms.setdefault((f.place, f.slot), []).append(f)
    everyone = {p.id for p in setting.people}
    return {
        key: seen
        for key, seen in rooms.items()
        if {s.person for s in seen} == everyone and any(s.present for s in seen)
    }


def prose(
    setting: Setting, facts: Sequence[Fact], seed: str, *, public: bool = False
) -> list[Sentence]:
    """``facts`` as sentences (see the module docstring), in the order of their first fact;
    ``public`` facts without a first-person lead-in."""
    rng = random.Random(f"prose:{seed}")
    leads = PUBLIC_LEADS if public else LEADS
    rooms = _room(setting, facts)
    hands: dict[tuple[str, int], list[Held]] = {}
    for f in facts:
        if isinstance(f, Held) and not f.held:
            hands.setdefault((f.person, f.slot), []).append(f)
    out: list[Sentence] = []
    done: set[tuple[str, str | int, int]] = set()
    for f in facts:
        lead = rng.choice(leads)
        if isinstance(f, Seen) and (f.place, f.slot) in rooms:
            key = ("room", f.place, f.slot)
            if key in done:
                continue
            done.add(key)
            seen = rooms[(f.place, f.slot)]
            people = [setting.person(s.person).name for s in seen if s.present]
            clause = ROOM.format(
                when=setting.slots[f.slot],
                where=setting.place(f.place).name,
                people=listing(people),
            )
            out.append(Sentence(capitalised(lead.format(clause=clause)), tuple(seen)))
        elif isinstance(f, Held) and not f.held and len(hands[(f.person, f.slot)]) > 1:
            key = ("hands", f.person, f.slot)
            if key in done:
                continue
            done.add(key)
            empty = hands[(f.person, f.slot)]
            clause = EMPTY_HANDS.format(
                when=setting.slots[f.slot],
                who=setting.person(f.person).name,
                weapons=listing([f"the {setting.item(h.item).name}" for h in empty]),
            )
            out.append(Sentence(capitalised(lead.format(clause=clause)), tuple(empty)))
        else:
            clause = fill(rng.choice(clause_templates(f)), f, setting)
            out.append(Sentence(capitalised(lead.format(clause=clause)), (f,)))
    return out


def prose_text(sentences: Sequence[Sentence]) -> str:
    """The sentences as one paragraph."""
    return " ".join(s.text for s in sentences)


@lru_cache(maxsize=32)
def _group_patterns(setting_json: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    setting = Setting.model_validate_json(setting_json)
    names = "|".join(re.escape(p.name) for p in setting.people)
    slots = {
        "when": "|".join(re.escape(s) for s in setting.slots),
        "where": "|".join(re.escape(p.name) for p in setting.places),
        "who": names,
        "people": ".+?",
        "weapons": ".+?",
    }
    return (
        re.compile(template_regex(ROOM, slots), re.IGNORECASE),
        re.compile(template_regex(EMPTY_HANDS, slots), re.IGNORECASE),
    )


def _split(text: str) -> list[str]:
    head, sep, tail = text.rpartition(" and ")
    return [*head.split(", "), tail] if sep else [text]


def _group_facts(clause: str, setting: Setting) -> list[Fact] | None:
    room, hands = _group_patterns(setting.model_dump_json())
    hour = {label.casefold(): t for t, label in enumerate(setting.slots)}
    person = {p.name.casefold(): p.id for p in setting.people}
    if m := room.fullmatch(clause):
        place = next(p.id for p in setting.places if p.name.casefold() == m["where"].casefold())
        named = [n.casefold() for n in _split(m["people"])]
        if not all(n in person for n in named):
            return None
        there = {person[n] for n in named}
        slot = hour[m["when"].casefold()]
        return [Seen(p.id, place, slot, p.id in there) for p in setting.people]
    if m := hands.fullmatch(clause):
        weapon = {f"the {w.name}".casefold(): w.id for w in setting.weapons}
        items = [n.casefold() for n in _split(m["weapons"])]
        if not all(n in weapon for n in items):
            return None
        who, slot = person[m["who"].casefold()], hour[m["when"].casefold()]
        return [Held(who, weapon[n], slot, False) for n in items]
    return None


def parse_prose(text: str, setting: Setting) -> list[Fact]:
    """The facts one sentence of ``prose`` states, read from its words alone (empty for a
    sentence that states none)."""
    for lead in LEADS:
        head, _, tail = lead.partition("{clause}")
        if not (text.lower().startswith(head.lower()) and text.endswith(tail)):
            continue
        clause = text[len(head) : len(text) - len(tail)]
        grouped = _group_facts(clause, setting)
        if grouped is not None:
            return grouped
        found = list(parse_clause(clause, setting))
        if found:
            return found
    return []
