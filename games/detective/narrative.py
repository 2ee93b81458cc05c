"""Reading a generated case's prose back, and its solution.

Every fact sentence of a case is a frame (``FACT_FRAMES``: a witness's words, a written thing in
a room, the body, an outsider's report, the police) around one clause of
``formalize.world.clauses``, and narration states no fact. ``parse_sentence`` reads a sentence
back into the facts it states, independently of how it was written (a witness's first person
read as the witness the sentence names), which is how the tests check that the text is faithful
to the facts; ``stated_facts`` does so for a whole text. The solution walks through the
reasoning.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from functools import lru_cache

from formalize.world.clauses import (
    capitalised,
    clause_templates,
    fill,
    first_names,
    parse_clause,
    template_regex,
)
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
from games.detective import prose_people as people
from games.detective import prose_rooms as rooms

FACT_FRAMES: dict[str, tuple[str, ...]] = {
    "witness": people.WITNESS_FRAMES,
    "official": people.OFFICIAL_FRAMES,
    "examiner": people.EXAMINER_FRAMES,
    "police": people.POLICE_FRAMES,
    "document": rooms.DOCUMENT_FRAMES,
    "body": rooms.BODY_FRAMES,
    "plain": ("{clause}.",),
}
"""Every frame a fact sentence is written in, by who speaks it (``plain``: the body as the
introduction first reports it)."""

_SENTENCE_END = re.compile("(?:(?<=[.!?])|(?<=[.!?]\u201d))\\s+(?=[A-Z(\u201c])")


def sentences(text: str) -> list[str]:
    """``text`` split into sentences (after a full stop, or a full stop closing a quotation,
    followed by a capital or an opening quotation mark)."""
    return [s for para in text.split("\n\n") for s in _SENTENCE_END.split(para.strip()) if s]


def template_pattern(template: str) -> re.Pattern[str]:
    """``template`` as a pattern matching any sentence written from it: each slot a named
    group (``clause`` as long as it can be, the others as short)."""
    slots = {f: ".+" if f == "clause" else ".+?" for f in re.findall(r"\{(\w+)\}", template)}
    return re.compile(template_regex(template, slots), re.IGNORECASE)


@lru_cache(maxsize=1)
def _frame_patterns() -> tuple[re.Pattern[str], ...]:
    return tuple(template_pattern(f) for group in FACT_FRAMES.values() for f in group)


def _speaker(name: str, setting: Setting) -> str | None:
    """The person a sentence names as its speaker (by full name or own first name)."""
    known = {p.name.casefold(): p.id for p in setting.people}
    known |= {n.casefold(): pid for pid, n in first_names(setting).items()}
    return known.get(name.strip().casefold())


def parse_sentence(text: str, setting: Setting) -> list[Fact]:
    """The facts a sentence states: its clause parsed after any frame, in the first person
    when the frame names a speaker, read independently of how the sentence was made (empty
    for narration)."""
    found: list[Fact] = []
    for pattern in _frame_patterns():
        m = pattern.fullmatch(text)
        if m is None:
            continue
        groups = m.groupdict()
        speaker = _speaker(groups["name"], setting) if "name" in groups else None
        found += [f for f in parse_clause(groups["clause"], setting, speaker) if f not in found]
    return found


def stated_facts(text: str, setting: Setting) -> list[Fact]:
    """Every fact the sentences of ``text`` state (``parse_sentence`` of each)."""
    out: list[Fact] = []
    for sentence in sentences(text):
        out += [f for f in parse_sentence(sentence, setting) if f not in out]
    return out


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
        if not new:
            paras.append(
                f"{text} Everything question {number} needs was shown above, so it has one "
                f"answer: {answer}."
            )
        else:
            again = f" As for question {number}, part of it rests on what was shown above."
            paras.append(
                f"{text}{again if len(new) < len(facts) else ''} "
                + " ".join(chain)
                + f" Put together, this leaves one answer to question {number}: {answer}."
            )
        used.update(facts)
    paras.append(
        f"So {s.person(crime.killers[0]).name} killed {s.person(crime.victim).name} in the "
        f"{s.place(crime.place).name} at {s.slots[crime.slot]} with the "
        f"{s.item(crime.weapon).name}, out of {s.motive(crime.motive).name}."
    )
    return "\n\n".join(paras)
