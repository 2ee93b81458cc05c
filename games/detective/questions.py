"""The questions a generated case asks and the typed answer slots each is made of."""

from __future__ import annotations

from formalize.world import atoms
from formalize.world.setting import Setting
from formalize.world.world import World
from games.detective.case import AnswerSlot, Choice
from reasoning.formula import Atom
from reasoning.syntax import format_formula

PLANS: dict[int, tuple[tuple[str, tuple[str, ...]], ...]] = {
    2: (
        ("who_why", ("culprit", "motive")),
        ("how_where_when", ("weapon", "method", "scene", "time")),
    ),
    3: (
        ("who_why", ("culprit", "motive")),
        ("where_when", ("scene", "time")),
        ("how", ("weapon", "method")),
    ),
    4: (
        ("who", ("culprit",)),
        ("why", ("motive",)),
        ("where_when", ("scene", "time")),
        ("how", ("weapon", "method")),
    ),
    5: (
        ("who", ("culprit",)),
        ("why", ("motive",)),
        ("where", ("scene",)),
        ("when", ("time",)),
        ("how", ("weapon", "method")),
    ),
}
"""For each number of questions, the questions (id and slot names) a case asks."""

_ASK: dict[str, str] = {
    "culprit": "who killed {victim}",
    "motive": "why",
    "weapon": "with what weapon",
    "method": "how",
    "scene": "in which room",
    "time": "at what hour",
}


def question_text(slots: tuple[str, ...], victim: str) -> str:
    """The question as asked: ``Who killed X, and why?``."""
    parts = [_ASK[s].format(victim=victim) for s in slots]
    if slots[0] != "culprit":
        parts[-1] = parts[-1] + f" was {victim} killed"
    text = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
    return text[0].upper() + text[1:] + "?"


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
