"""LLM agents of the interrogation game, all through the core's ``LLMPlayer``.

``questum`` follows seed 004: each time it asks, the model states a suspect list per victim
(H = the sum over victims of ln n_k, n_k the size of victim k's list), rates each other
character's expected information gain high / medium / low (+1 / 0 / -1) and proposes one typed
question for each. The IG a round brings (H before the agent's previous question minus H now) is
credited to the character that question went to; a character's weighted IG averages its credits
with weights e^-(i-k) (i the current round, k the credited one); Score = beta * IG_weighted +
(1 - beta) * E[IG], beta = 0.2, and the character asked is the best Score among those on a
suspect list (every other character when the lists are empty), or with probability epsilon = 0.1
a random one. ``llm-random`` asks a random
character (the seed's random-asking baseline); ``llm-cot`` reasons step by step and picks the
character itself (chain of thought). An answer is the model's own words, one or two sentences;
``games.mystery.spoken`` formalises them and matches them to a legal reply while the answer is
validated, so a text that cannot be read is sent back with the reason like any malformed answer,
and only the matched reply's typed facts are what everyone hears.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr, model_validator

from formalize.interrogation.prose import prose, prose_text
from formalize.interrogation.questions import (
    HeldItem,
    Question,
    Related,
    Saw,
    Where,
    render_question,
)
from formalize.reading.offline import OfflineReader
from formalize.reading.task import Option, ReadingTask, SlotSpec
from formalize.world.facts import Fact, Seen
from formalize.world.render import listing, render_fact
from formalize.world.setting import Setting
from games.mystery.engine import Action, Ask, MysteryView, Reply, Vote
from games.mystery.llm_schemas import decision_answer_model
from games.mystery.spoken import AnswerReader

BETA = 0.2
"""Weight of the historical IG against the expected IG in Questum's score."""
EPSILON = 0.1
"""Questum's chance of asking a random character."""
GAIN_VALUES = {"high": 1.0, "medium": 0.0, "low": -1.0}
"""The expected-IG levels the model answers with, as numbers."""

Variant = Literal["questum", "llm-random", "llm-cot"]


class QuestionSpec(BaseModel):
    """A typed question: ``kind`` where / saw / held / related; ``about`` and ``other`` are
    names, ``time`` one of the setting's times, ``item`` a weapon's name."""

    model_config = ConfigDict(extra="ignore")

    kind: Literal["where", "saw", "held", "related"]
    about: str
    other: str | None = None
    time: str | None = None
    item: str | None = None


class MysteryAnswer(BaseModel):
    """The model's answer for any decision; each prompt says which fields to fill."""

    model_config = ConfigDict(extra="ignore")

    reasoning: str = ""
    suspects: dict[str, list[str]] = {}
    expected: dict[str, Literal["high", "medium", "low"]] = {}
    target: str | None = None
    questions: dict[str, QuestionSpec] = {}
    say: str = ""
    accused: str | None = None
    _reply: Reply | None = PrivateAttr(default=None)

    @property
    def matched(self) -> Reply | None:
        """The legal reply the spoken answer was matched to (None before matching)."""
        return self._reply


def spoken_schema(read: Callable[[str], Reply]) -> type[MysteryAnswer]:
    """A ``MysteryAnswer`` whose validation reads ``say`` into a legal reply with ``read``
    (which raises ValueError saying why it cannot)."""

    class SpokenAnswer(MysteryAnswer):
        @model_validator(mode="after")
        def _read(self) -> SpokenAnswer:
            self._reply = read(self.say)
            return self

    return SpokenAnswer


@lru_cache(maxsize=16)
def _name_reader(setting_json: str) -> tuple[OfflineReader, ReadingTask]:
    """The offline reader of a setting's people and the task of naming one of them."""
    setting = Setting.model_validate_json(setting_json)
    options = [Option(value=p.id, text=p.name) for p in setting.people]
    task = ReadingTask(
        question="Who?", slots=[SlotSpec(name="person", kind="person", options=options)]
    )
    return OfflineReader(setting), task


def _person_id(setting: Setting, text: str | None) -> str | None:
    """The person a name field names, read as an answer in words (``formalize.reading``: the
    name, first name or surname, the role, a misspelling); None unless it asserts one."""
    if text is None:
        return None
    reader, task = _name_reader(setting.model_dump_json())
    return reader.read(task, text).values()["person"]


def parse_question(setting: Setting, spec: QuestionSpec) -> Question | None:
    """The typed question a spec names, or None when a name, time or item is unknown."""
    about = _person_id(setting, spec.about)
    other = _person_id(setting, spec.other)
    slot = next((i for i, s in enumerate(setting.slots) if s == (spec.time or "").strip()), None)
    item = next(
        (w.id for w in setting.weapons if (spec.item or "").strip().lower() in (w.id, w.name)),
        None,
    )
    if about is None:
        return None
    if spec.kind == "where" and slot is not None:
        return Where(about, slot)
    if spec.kind == "saw" and other is not None and slot is not None:
        return Saw(about, other, slot)
    if spec.kind == "held" and item is not None:
        return HeldItem(about, item)
    if spec.kind == "related" and other is not None:
        return Related(about, other)
    return None


def say_facts(setting: Setting, facts: Sequence[Fact]) -> str:
    """Facts in English, phrased the same way every time; the facts of one room at one time
    (who was there, and that no one else was) make one sentence."""
    rng = random.Random(0)
    rooms: dict[tuple[str, int], list[str]] = {}
    for f in facts:
        if isinstance(f, Seen) and f.present:
            rooms.setdefault((f.place, f.slot), []).append(setting.person(f.person).name)
    closed = {
        key
        for key in rooms
        if {p.id for p in setting.people}
        == {f.person for f in facts if isinstance(f, Seen) and (f.place, f.slot) == key}
    }
    out: list[str] = []
    for f in facts:
        if not isinstance(f, Seen) or (f.place, f.slot) not in rooms:
            out.append(render_fact(f, setting, rng))
            continue
        key = (f.place, f.slot)
        if key not in closed:
            if f.present:
                out.append(render_fact(f, setting, rng))
        elif f.present and rooms[key][0] == setting.person(f.person).name:
            where, verb = setting.place(f.place).name, "were" if len(rooms[key]) > 1 else "was"
            when = setting.slots[f.slot]
            out.append(f"At {when}, {listing(rooms[key])} {verb} in the {where}, no one else.")
    return " ".join(out)


def _name(setting: Setting, pid: str) -> str:
    return setting.person(pid).name


RULES: dict[str, str] = {
    "one_place": "At every hour each person is in exactly one room.",
    "moves": "From one hour to the next a person either stays in the same room or walks along "
    "one passage into a neighbouring room, never further.",
    "locks": "No one is ever inside a locked room without holding a copy of its key.",
    "one_holder": "At any hour a weapon is in the hands of at most one person.",
    "roles": "Each victim died in exactly one room, at exactly one hour, by exactly one weapon, "
    "one method and one motive, killed by exactly the stated number of killers, never by "
    "themselves.",
    "presence": "Every killer of a victim was in the room of the death at the hour of the death.",
    "body": "A victim's body lies in the room of the death from the hour of the death on.",
    "armed": "At the hour of a death one of its killers held the weapon.",
    "means": "The weapon gives the method (see the weapons above), and the method narrows the "
    "weapon to those that give it.",
    "motive": "One of the killers had the motive of the crime.",
}
"""The rules of ``formalize.world.theory`` (which the audit reasons with) in English, by the
kind of axiom: an axiom ``crime<i>_<kind>`` or ``<kind>``."""


def rule_kind(axiom: str) -> str:
    """The kind of a background-theory axiom, the key of its sentence in ``RULES``."""
    head, _, kind = axiom.partition("_")
    return kind if head.startswith("crime") and head[5:].isdigit() else axiom


def house_rules(setting: Setting) -> str:
    """The house plan, the locked rooms, the weapons and crimes, and every rule the exact audit
    assumes, as the lines of a system prompt."""
    room = {p.id: p.name for p in setting.places}
    locked = [
        f"the {p.name} (opened only by the {setting.item(p.key).name})"
        for p in setting.places
        if p.key is not None
    ]
    killers = {1: "one person", 2: "two people together"}
    victims = [
        f"{_name(setting, c.victim)} (killed by {killers[c.killers]})" for c in setting.crimes
    ]
    lines = [
        "The house: rooms " + listing([f"the {name}" for name in room.values()]) + ".",
        "Passages (each goes both ways): "
        + "; ".join(f"{room[a]} - {room[b]}" for a, b in setting.passages)
        + ".",
        ("Locked rooms: " + listing(locked) + ".") if locked else "No room is locked.",
        "Hours, in order: " + ", ".join(setting.slots) + ".",
        "Weapons and the method each gives: "
        + "; ".join(f"the {w.name}: {setting.method(w.method or '').name}" for w in setting.weapons)
        + ".",
        "Victims: " + listing(victims) + ".",
        "Rules everyone may reason with:",
        *(f"- {sentence}" for sentence in RULES.values()),
    ]
    return "\n".join(lines)


@dataclass
class Credit:
    """IG credited to ``target`` for the round ``round`` in which it was asked."""

    round: int
    target: str
    gain: float


@dataclass
class QuestumState:
    """Questum's memory across its decisions: the IG credits, its last question and its
    suspect list per victim (in the order of the crimes)."""

    credits: list[Credit] = field(default_factory=list)
    entropies: list[tuple[int, float]] = field(default_factory=list)
    last: tuple[int, str, float] | None = None
    suspects: tuple[tuple[str, ...], ...] = ()


class MysteryPrompter:
    """The ``Prompter`` of the three LLM variants (see the module docstring); ``schema`` is set
    by ``prompt`` for the decision asked."""

    def __init__(self, variant: Variant, seed: int, reader: AnswerReader) -> None:
        self.variant = variant
        self.reader = reader
        self.schema: type[MysteryAnswer] = MysteryAnswer
        self.state = QuestumState()
        self._rng = random.Random(seed)

    def phase(self, obs: MysteryView) -> str:
        """The decision's name."""
        return obs.phase

    def answer_model(self, obs: MysteryView) -> type[BaseModel] | None:
        """The decision's fields, names and levels as enums (``games.mystery.llm_schemas``)."""
        return decision_answer_model(obs, cot=self.variant == "llm-cot")

    def legal_actions(self, obs: MysteryView) -> Sequence[Action]:
        """The legal actions of the view."""
        return obs.legal

    def system_prompt(self, obs: MysteryView) -> str:
        """The rules (the house plan, the locked rooms and every rule the audit reasons with), the
        character, its objectives and its private script (and cover story) as prose whose
        sentences map to their facts (``formalize.interrogation.prose``)."""
        s = obs.setting
        me = s.person(obs.person)
        lines = [
            f"You play {me.name} ({me.role}) in a murder mystery at {s.title}.",
            "Players take turns asking each other one question per round for a few rounds, "
            "then vote on who killed each victim. Only murderers may lie.",
            "What everyone knows: " + prose_text(prose(s, obs.intro, "intro", public=True)),
            "Your own memory of the evening: " + prose_text(prose(s, obs.script, obs.person)),
            house_rules(s),
            "Your objectives: "
            + "; ".join(f"{o.text.rstrip('.')} ({o.points} points)" for o in obs.objectives)
            + ".",
            "Answer with one JSON object and nothing else.",
        ]
        if obs.murderer:
            lines.append(
                "You are a murderer. Your cover story, to tell when questioned: "
                + prose_text(prose(s, obs.cover, f"cover:{obs.person}"))
            )
        if self.variant == "llm-cot":
            lines.append("Think step by step in the field reasoning before you decide.")
        return "\n".join(lines)

    def _transcript(self, obs: MysteryView) -> str:
        s = obs.setting
        said = [
            (
                f"{_name(s, obs.players[h.asker])} (introduction): "
                if h.asker == h.answerer
                else f"{_name(s, obs.players[h.asker])} asked {_name(s, obs.players[h.answerer])}: "
                f"{render_question(s, h.question)} Answer: "
            )
            + (say_facts(s, h.facts) if h.facts else "(no facts given)")
            for h in obs.heard
        ]
        return "\n".join(said) if said else "(nothing yet)"

    def prompt(self, obs: MysteryView) -> str:
        """The question for this decision (an answer's schema reads the words it is given)."""
        s = obs.setting
        self.schema = MysteryAnswer
        others = [_name(s, p) for k, p in enumerate(obs.players) if k != obs.seat]
        head = f"Round {obs.round}. So far:\n{self._transcript(obs)}\n"
        if obs.phase == "ask":
            victims = [_name(s, c.victim) for c in s.crimes]
            return head + (
                f"Other players: {', '.join(others)}. Times: {', '.join(s.slots)}. "
                f"Weapons: {', '.join(w.name for w in s.weapons)}. "
                f"Victims: {', '.join(victims)}.\n"
                'Fill "suspects" (for each victim, the names you still suspect of killing them), '
                '"expected" (for each other player: '
                'how much asking them would narrow your suspects: "high", "medium" or "low"), '
                '"target" (whom you want to ask) and "questions" (for each other player one '
                'question {"kind": "where"|"saw"|"held"|"related", "about": name, "other": '
                'name, "time": time, "item": weapon}).'
            )
        if obs.phase == "answer" and obs.pending is not None:
            asker = _name(s, obs.players[obs.pending.asker])
            self.schema = spoken_schema(lambda text: self.reader.read(text, obs))
            may = "tell what you remember, leave out what you keep secret, or decline"
            if obs.murderer:
                may += ", or tell your cover story"
            return head + (
                f"{asker} asks you: {render_question(s, obs.pending.question)}\n"
                f'You may {may}. Fill "say" with your answer in one or two English '
                "sentences, stating everything you tell (who was where, and when)."
            )
        victim = _name(s, s.crimes[obs.crime - 1].victim)
        return head + (
            f"Vote: who killed {victim}? Choose one of: {', '.join(others)}. "
            'Fill "accused" with the name.'
        )

    def action(self, answer: MysteryAnswer, obs: MysteryView) -> Action | None:
        """The action the parsed answer names (None when it names no legal one)."""
        s = obs.setting
        if obs.phase == "answer":
            return answer.matched
        if obs.phase == "vote":
            accused = _person_id(s, answer.accused)
            return None if accused not in obs.players else Vote(obs.players.index(accused))
        if obs.phase != "ask":
            return None
        target = self._target(answer, obs)
        spec = next(
            (q for name, q in answer.questions.items() if _person_id(s, name) == target), None
        )
        question = None if spec is None else parse_question(s, spec)
        if target is None or question is None:
            return None
        stated = self.state.suspects
        rated = ((_person_id(s, n), v) for n, v in answer.expected.items())
        expected = tuple((p, v) for p, v in rated if p in obs.players and p != obs.person)
        ask = Ask(obs.players.index(target), question, stated, expected)
        return ask if ask in obs.legal else None

    def _target(self, answer: MysteryAnswer, obs: MysteryView) -> str | None:
        s = obs.setting
        others = [p for k, p in enumerate(obs.players) if k != obs.seat]
        lists = stated_suspects(answer, obs)
        entropy = sum(math.log(max(1, len(suspects))) for suspects in lists)
        state = self.state
        state.suspects = lists
        pool = [p for p in others if any(p in suspects for suspects in lists)] or others
        if state.last is not None:
            asked_round, asked, before = state.last
            state.credits.append(Credit(asked_round, asked, before - entropy))
        state.entropies.append((obs.round, entropy))
        if self.variant == "llm-cot":
            target = _person_id(s, answer.target)
        elif self.variant == "llm-random" or self._rng.random() < EPSILON:
            target = self._rng.choice(others)
        else:
            expected = {_person_id(s, n): GAIN_VALUES[v] for n, v in answer.expected.items()}
            target = max(
                pool,
                key=lambda p: score(state.credits, p, obs.round, expected.get(p, 0.0)),
            )
        if target in others:
            state.last = (obs.round, target, entropy)
        return target if target in others else None


def stated_suspects(answer: MysteryAnswer, obs: MysteryView) -> tuple[tuple[str, ...], ...]:
    """The suspects an ask-phase answer states, per crime of the setting: the other players it
    names for the crime's victim (unknown names and the asker itself left out)."""
    s = obs.setting
    others = [p for k, p in enumerate(obs.players) if k != obs.seat]
    named = {_person_id(s, v): names for v, names in answer.suspects.items()}
    return tuple(
        tuple(p for p in others if p in {_person_id(s, n) for n in named.get(c.victim, [])})
        for c in s.crimes
    )


def weighted_gain(credits: Sequence[Credit], target: str, now: int) -> float:
    """The credits of ``target`` averaged with weights e^-(now - round)."""
    mine = [c for c in credits if c.target == target]
    if not mine:
        return 0.0
    weights = [math.exp(-(now - c.round)) for c in mine]
    return sum(w * c.gain for w, c in zip(weights, mine, strict=True)) / sum(weights)


def score(credits: Sequence[Credit], target: str, now: int, expected: float) -> float:
    """Questum's Score of asking ``target``: beta * IG_weighted + (1 - beta) * E[IG]."""
    return BETA * weighted_gain(credits, target, now) + (1 - BETA) * expected
