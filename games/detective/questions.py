"""The questions a generated case asks and the typed answer slots each is made of."""

from __future__ import annotations

import random

from formalize.world import atoms
from formalize.world.setting import Setting
from formalize.world.world import World
from games.detective.case import AnswerSlot, Choice
from reasoning.formula import Atom
from reasoning.syntax import format_formula

PLANS: dict[int, tuple[tuple[str, tuple[str, ...]], ...]] = {
    2: (
        ("who_why", ("culprit", "motive")),
        ("how_when", ("weapon", "method", "time")),
    ),
    3: (
        ("who_why", ("culprit", "motive")),
        ("how_when", ("weapon", "method", "time")),
        ("whole", ("culprit", "weapon", "motive", "time")),
    ),
    4: (
        ("who_how", ("culprit", "weapon")),
        ("why_when", ("motive", "time")),
        ("how_when", ("weapon", "method", "time")),
        ("whole", ("culprit", "weapon", "motive", "time")),
    ),
    5: (
        ("who", ("culprit",)),
        ("who_why", ("culprit", "motive")),
        ("how", ("weapon", "method")),
        ("how_when", ("weapon", "method", "time")),
        ("whole", ("culprit", "weapon", "motive", "time")),
    ),
}
"""For each number of questions, the questions (id and slot names) a case asks. The room of
the crime is no question: the case opens where the body lies. Most questions have several
parts (every one but a five-question case's first), and every plan has one of three or more,
so over a set of cases an answer earns each grade 0-3."""

ASKED: dict[str, tuple[str, ...]] = {
    "who": (
        "Who killed {victim}?",
        "Who had access to {first} in the {scene} at the fatal hour, and struck the blow?",
        "Which member of the household is the murderer of {victim}?",
    ),
    "how": (
        "How did {victim} die, and by what weapon?",
        "What weapon was used on {victim}, and how did {first} die?",
    ),
    "who_why": (
        "Who killed {victim}, and what was the motive?",
        "Who killed {first} in the {scene}, and why?",
        "Which member of the household murdered {victim}, and for what reason?",
    ),
    "who_how": (
        "Who killed {victim}, and with what weapon?",
        "Which member of the household struck {first} down in the {scene}, and with what?",
    ),
    "why_when": (
        "Why was {victim} killed, and at what hour?",
        "What drove the killer to murder {first}, and when was it done?",
    ),
    "how_when": (
        "How did {victim} die: with what weapon, by what means, and at what hour?",
        "When and how was {victim} killed, and with which weapon?",
        "At what hour did {first} die in the {scene}, by what means, and with what weapon?",
    ),
    "whole": (
        "Tell the whole story: who killed {victim}, with what weapon, for what motive, and "
        "at what hour?",
        "Put it all together: who murdered {first}, with what, why, and when?",
    ),
}
"""Per question id, the ways it can be asked (``{victim}``, ``{first}`` and ``{scene}`` are
filled from the case)."""


def question_text(qid: str, victim: str, scene: str, rng: random.Random) -> str:
    """Question ``qid`` as asked, in one of its phrasings."""
    template = rng.choice(ASKED[qid])
    return template.format(victim=victim, first=victim.split()[0], scene=scene)


def _choice(value: str, text: str, atom: Atom) -> Choice:
    return Choice(value=value, text=text, formula=format_formula(atom))


def answer_slot(name: str, world: World, crime: int = 1) -> AnswerSlot:
    """The slot ``name`` of crime ``crime``: every value it could take, the true one marked."""
    s: Setting = world.setting
    truth = world.crimes[crime - 1]
    choices: list[Choice]
    match name:
        case "culprit":
            choices = [
                _choice(p.id, f"{p.name} ({p.role})", atoms.culprit(crime, p.id))
                for p in s.suspects
            ]
            answer = truth.killers[0]
        case "motive":
            choices = [_choice(m.id, m.name, atoms.motive(crime, m.id)) for m in s.motives]
            answer = truth.motive
        case "weapon":
            choices = [_choice(w.id, f"the {w.name}", atoms.weapon(crime, w.id)) for w in s.weapons]
            answer = truth.weapon
        case "method":
            choices = [_choice(m.id, m.name, atoms.method(crime, m.id)) for m in s.methods]
            answer = truth.method
        case "scene":
            choices = [_choice(p.id, f"the {p.name}", atoms.scene(crime, p.id)) for p in s.places]
            answer = truth.place
        case "time":
            choices = [
                _choice(f"t{t}", label, atoms.time(crime, t)) for t, label in enumerate(s.slots)
            ]
            answer = f"t{truth.slot}"
        case _:
            raise ValueError(f"unknown answer slot {name!r}")
    return AnswerSlot(name=name, kind=name, choices=choices, answer=answer)
