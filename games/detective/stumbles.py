"""What a reader trips over in a case's text, found by patterns, and how its narration repeats.

The patterns (``PATTERNS``), each run on every sentence of the introduction, the locations and
the solution:

- ``self_quotation``: a speaker quoted on itself in the third person ("Silas says that Silas
  was in the drawing room"): one person's first name twice in a sentence that reports speech;
- ``nested_evidence``: two verbs of evidence in one sentence ("the diary records that the
  wounds show that ..."): two of "says that", "records that", "shows that", ...;
- ``relation_station``: a role that does not fit its person's name ("Basil, a wealthy widow")
  or a relation that does not fit the two people's stations ("the gardener is the widow's
  employer"), from ``formalize.world.stations``;
- ``loose_narration``: a location sentence that states no fact yet names an hour, a weapon, a
  motive, or a room or person its location's title does not name (the victim aside), so it
  says something of the evening it does not own.

``narration_frames`` says which narration template each sentence of a location came from (a
sentence no template makes counts as its own frame), so a bench can count how often a frame
comes back within a case and how much narration recurs across cases.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache

from pydantic import BaseModel, ConfigDict

from formalize.world.clauses import first_names
from formalize.world.setting import Setting
from formalize.world.stations import station_problems
from games.detective import prose_people as people
from games.detective import prose_rooms as rooms
from games.detective.case import Case, Location
from games.detective.narrative import sentences, template_pattern

PATTERNS = ("self_quotation", "nested_evidence", "relation_station", "loose_narration")
"""The stumbles looked for, in the order they are reported."""

EVIDENCE = re.compile(
    r"\b(?:says|said|saying|shows?|showed|records?|recorded|reveals?|confirms?|confirm|"
    r"states?|stating|reports?|swears?|swear|proves?|notes?|noting|reads|established|"
    r"found|written|tells? you|makes? it plain|see plainly|leaves? no doubt|points? out|"
    r"admits?)\s+that\b",
    re.IGNORECASE,
)
"""A verb of evidence introducing a clause ("records that", "the wounds show that")."""

SPEECH = re.compile(
    r"\u201c|\b(?:says|said|tells|told|admits|swears|insists|offers|repeats|adds|answers)\b",
    re.IGNORECASE,
)
"""A sign that a sentence reports speech."""


class Stumble(BaseModel):
    """One stumble: its pattern, where it is, and the sentence (or the setting's problem)."""

    model_config = ConfigDict(frozen=True)

    pattern: str
    where: str
    text: str


def _words(names: Sequence[str]) -> re.Pattern[str] | None:
    """A pattern finding any of ``names`` as whole words (None for no names)."""
    names = [n for n in names if n]
    if not names:
        return None
    joined = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True))
    return re.compile(rf"\b(?:{joined})\b", re.IGNORECASE)


def _texts(case: Case) -> Iterator[tuple[str, str]]:
    """Every sentence of the case's prose with where it is."""
    for text in sentences(case.introduction):
        yield "introduction", text
    for loc in case.locations:
        for text in sentences(loc.text):
            yield f"location '{loc.id}'", text
    for text in sentences(case.solution):
        yield "solution", text


def self_quoted(text: str, setting: Setting) -> bool:
    """Whether ``text`` reports speech and names one person twice by first name."""
    if not SPEECH.search(text):
        return False
    for name in first_names(setting).values():
        if len(re.findall(rf"\b{re.escape(name)}\b", text)) >= 2:
            return True
    return False


def nested_evidence(text: str) -> bool:
    """Whether ``text`` has two verbs of evidence, one inside the other's clause."""
    return len(EVIDENCE.findall(text)) >= 2


def _loose(loc: Location, setting: Setting) -> list[str]:
    """The sentences of ``loc`` that state no fact yet name the evening's words its title does
    not name (the name of the house aside: "Ravensmoor Hall" is no hall)."""
    victim = setting.person(setting.crimes[0].victim)
    title = loc.title.casefold()
    people_names = [
        n
        for p in setting.people
        if p.id != victim.id
        for n in (p.name, p.name.split()[0])
        if n.casefold() not in title
    ]
    words = [
        *setting.slots,
        *(w.name for w in setting.weapons),
        *(m.name for m in setting.motives),
        *(p.name for p in setting.places if p.name.casefold() not in title),
        *people_names,
    ]
    pattern = _words(words)
    if pattern is None:
        return []
    mapped = {s.text for s in loc.sentences if s.facts}
    return [
        t
        for t in sentences(loc.text)
        if t not in mapped and pattern.search(t.replace(setting.title, ""))
    ]


def stumbles(case: Case) -> list[Stumble]:
    """Every stumble of ``case`` (none for a case without a setting but the speech patterns)."""
    out: list[Stumble] = []
    setting = case.setting
    for where, text in _texts(case):
        if setting is not None and self_quoted(text, setting):
            out.append(Stumble(pattern="self_quotation", where=where, text=text))
        if nested_evidence(text):
            out.append(Stumble(pattern="nested_evidence", where=where, text=text))
    if setting is None:
        return out
    out += [
        Stumble(pattern="relation_station", where="setting", text=problem)
        for problem in station_problems(setting)
    ]
    for loc in case.locations:
        out += [
            Stumble(pattern="loose_narration", where=f"location '{loc.id}'", text=text)
            for text in _loose(loc, setting)
        ]
    return out


def narration_templates() -> list[str]:
    """Every narration template the writer draws location sentences from."""
    out: list[str] = []
    for room in rooms.ROOMS.values():
        out += room.sights
    for pool in (rooms.ROOM_OPENINGS, rooms.ROOM_LINES, rooms.ROOM_CLOSINGS):
        for group in pool.values():
            out += group
    for weather in rooms.WEATHER.values():
        out += [*weather["indoor"], *weather["outdoor"]]
    out += rooms.BODY_LINES
    for lines in (*people.ROLE_LINES.values(), *people.OFFICIAL_LINES.values()):
        out += lines
    out += [
        *people.WITNESS_OPENINGS,
        *people.WITNESS_LINES,
        *people.WITNESS_CLOSINGS,
        *people.OUTSIDER_LINES,
        *people.OFFICIAL_OPENINGS,
        *people.OFFICIAL_CLOSINGS,
    ]
    return list(dict.fromkeys(out))


@lru_cache(maxsize=1)
def _narration_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The templates as patterns, the most literal first (a sentence two templates can make,
    such as "The air at the orchard smells of ...", is the more specific one's)."""
    templates = sorted(narration_templates(), key=lambda t: -len(re.sub(r"\{\w+\}", "", t)))
    return tuple((t, template_pattern(t)) for t in templates)


def narration(case: Case) -> list[str]:
    """The narration sentences of the case's locations (those that state no fact)."""
    out = []
    for loc in case.locations:
        mapped = {s.text for s in loc.sentences if s.facts}
        out += [t for t in sentences(loc.text) if t not in mapped]
    return out


def narration_frames(case: Case) -> Counter[str]:
    """How many times each narration frame is used in the case's locations."""
    counts: Counter[str] = Counter()
    for text in narration(case):
        frame = next((t for t, p in _narration_patterns() if p.fullmatch(text)), text)
        counts[frame] += 1
    return counts


def shared_narration(cases: Sequence[Case]) -> float:
    """The share of the cases' narration sentences that also occur in another of them."""
    per_case = [set(narration(c)) for c in cases]
    seen: Counter[str] = Counter(t for texts in per_case for t in texts)
    total = sum(len(texts) for texts in per_case)
    return sum(1 for texts in per_case for t in texts if seen[t] > 1) / total if total else 0.0
