"""The model as a case's writer, checked by the prover: each location's text is asked of an
LLM and kept only when it states exactly the location's facts.

``LLMWriter`` writes a case as ``TemplateWriter`` does (the introduction, and every card's
template text, so the template's random stream runs as it always does) and asks the model to
write each card again from its voice and its facts (``card_prompt``). The reply's text is read
back (``readback.read_card``: every sentence read into facts, the prover judging that they are
exactly the card's). A text that fails is asked for again with what was wrong; so is a reply
that is not the JSON asked for (counted as unusable); after ``attempts`` replies the card keeps
its template text. Every call goes through the given chat client, so a recording client
records it and a replay client answers it, and a replayed case comes out the same; the case's
``provenance`` says which cards the model wrote and how many replies each took.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from formalize.world.clauses import clause_templates, fill, first_person_templates
from formalize.world.facts import Fact, Seen, fact_formula
from formalize.world.setting import Setting
from games.core.llm_player import recorded_index
from games.detective.case import CardWriting, Provenance
from games.detective.narrative import sentences
from games.detective.readback import DEFAULT_PROOF_TIMEOUT, read_card
from games.detective.voices import OUTSIDERS, location_id
from games.detective.writer import Card, Line, TemplateWriter, person_pronouns
from reasoning.formula import Formula
from reasoning.llm import ChatClient, ask_structured, assistant, reprompt_text, system, user
from reasoning.llm.answer_models import answer_model
from reasoning.prover import Prover

DEFAULT_ATTEMPTS = 3
"""Replies asked for each card before it keeps its template text."""

CardText = answer_model("CardText", {"text": (str, ...)})
"""The writer's answer: the card's text (one free-text field, no length limit, so a grammar
built from the schema stays small)."""

WRITER_SYSTEM = (
    "You write the texts of a detective game set in an English country house in the 1930s. "
    "Each text is what the detective reads at one location. You write plain, vivid English "
    "and keep strictly to the facts you are given: you never add a fact of your own."
)
"""The writer's system message."""


class WritingStopped(RuntimeError):
    """The writer was told to stop (the command's time limit ran out)."""


def fact_clause(fact: Fact, setting: Setting, speaker: str | None) -> str:
    """``fact`` as the prompt gives it: in the speaker's first person where the speaker is in
    it, else in the plain words of its first clause; capitalised, with a full stop."""
    own = first_person_templates(fact, speaker) if speaker is not None else ()
    text = fill((own or clause_templates(fact))[0], fact, setting)
    return text[:1].upper() + text[1:] + "."


def _speaker(card: Card) -> str | None:
    return card.voice.key if card.voice.kind == "witness" else None


def _scene(card: Card, setting: Setting) -> str:
    """Who tells the card, in a sentence or two of instructions."""
    voice = card.voice
    victim = setting.person(setting.crimes[0].victim).name
    match voice.kind:
        case "witness":
            person = setting.person(voice.key)
            self_ = person_pronouns(person.name)["obj"] + "self"
            return (
                f"The detective talks to {person.name}, {person.role}, who speaks of {self_} "
                'as "I" and names everyone else by name.'
            )
        case "official":
            who = OUTSIDERS[voice.key]
            return f"The detective visits {who.title.lower()}: {who.named} reports what is known."
        case "scene":
            place = setting.place(voice.key).name
            return f"The detective examines the {place}, where the body of {victim} lies."
    place = setting.place(voice.key).name
    return (
        f"The detective searches the {place}: each fact is found written down somewhere in it "
        "(a letter, a diary, a note)."
    )


def card_prompt(card: Card, setting: Setting, words: int) -> str:
    """Ask for ``card``'s text: who tells it, its facts, the rules a text must keep to be
    read back, and the JSON shape of the answer."""
    speaker = _speaker(card)
    facts = "\n".join(
        f"{i}. {fact_clause(f, setting, speaker)}" for i, f in enumerate(card.facts, 1)
    )
    what = (
        f"State each of these facts in a sentence of its own, with the names, rooms and hours "
        f"written as they are here:\n{facts}"
        if card.facts
        else "There are no facts at this location: write only description."
    )
    return (
        f"Location: {card.voice.title}. {_scene(card, setting)}\n\n"
        f"Write the text the detective reads here, about {words} words.\n{what}\n\n"
        "Rules:\n"
        '- In a sentence that states a fact, name each person by name, never "he", "she" or '
        '"they".\n'
        "- Add no fact of your own: no other person at a place or an hour, no weapon, key, "
        'motive or way of killing beyond the facts, and no guesses ("perhaps", "maybe").\n'
        "- The other sentences only describe the place and the people's manner: they name no "
        "hour, no person together with a room, and say nothing of who was where, with whom or "
        'when ("alone", "nobody", "later").\n\n'
        'Reply with JSON: {"text": "..."}'
    )


def refusal(problems: Sequence[str]) -> str:
    """The message that asks again after a text that could not be kept."""
    listed = "\n".join(f"- {p}" for p in problems)
    return (
        f"That text cannot be kept:\n{listed}\n"
        "Write the whole text again, keeping to the facts and the rules. "
        'Reply with JSON: {"text": "..."}'
    )


@dataclass
class LLMWriter:
    """Writes one case: the template's text first, then each card asked of ``client`` and read
    back with ``prover`` (see the module docstring); ``stop`` set ends the writing before the
    next call."""

    setting: Setting
    rng: random.Random
    words: int
    client: ChatClient
    prover: Prover
    attempts: int = DEFAULT_ATTEMPTS
    proof_timeout: float = DEFAULT_PROOF_TIMEOUT
    stop: threading.Event = field(default_factory=threading.Event)
    template: TemplateWriter = field(init=False)
    known: list[Formula] = field(default_factory=list, init=False)
    cards: list[CardWriting] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError(f"attempts: at least 1, got {self.attempts}")
        self.template = TemplateWriter(self.setting, self.rng, self.words)

    def introduction(
        self, body: Seen, questions: Sequence[str], facts: Sequence[Fact]
    ) -> tuple[str, list[Line]]:
        """The template's introduction; its facts are what every card may repeat."""
        self.known = [fact_formula(f, self.setting) for f in [body, *facts]]
        return self.template.introduction(body, questions, facts)

    def card(self, card: Card) -> list[Line]:
        """The model's text for ``card`` once the prover shows it states exactly its facts,
        else (after ``attempts`` replies) the template's."""
        template = self.template.card(card)
        index = len(self.cards)
        speaker = _speaker(card)
        facts = [fact_formula(f, self.setting) for f in card.facts]
        asked = [system(WRITER_SYSTEM), user(card_prompt(card, self.setting, self.words))]
        messages = list(asked)
        unusable, recorded = 0, []
        problems: Sequence[str] = ()
        cap = 64 + 3 * self.words
        for attempt in range(self.attempts):
            if self.stop.is_set():
                raise WritingStopped(f"stopped before the text of {card.voice.title!r}")
            outcome = ask_structured(
                self.client,
                messages,
                CardText,
                answer=CardText,
                seed=index * self.attempts + attempt,
                max_reprompts=0,
                max_tokens=cap,
            )
            at = recorded_index(self.client)
            if at is not None:
                recorded.append(at)
            reply = outcome.replies[-1] if outcome.replies else ""
            text = " ".join(str(getattr(outcome.value, "text", "")).split())
            if outcome.value is None or not text:
                unusable += 1
                problem = outcome.errors[-1] if outcome.errors else "the text was empty"
                cut = outcome.finish_reasons[-1:] == ("length",)
                said = f"the reply was cut off at {cap} tokens ({problem})" if cut else problem
                problems = [said]
                follow = reprompt_text(
                    problem, CardText, json_answer=True, cut_off_at=cap if cut else None
                )
            else:
                reading = read_card(
                    text,
                    facts,
                    self.setting,
                    self.prover,
                    speaker=speaker,
                    known=self.known,
                    timeout=self.proof_timeout,
                )
                if reading.ok:
                    self._record(card, "model", attempt + 1, unusable, (), speaker, recorded)
                    lines = sentences(text)
                    told = list(zip(card.facts, reading.stated_by, strict=True))
                    return [
                        Line(s, tuple(f for f, by in told if by == i)) for i, s in enumerate(lines)
                    ]
                problems = reading.problems
                follow = refusal(problems)
            messages = [*asked, assistant(reply), user(follow)]
        self._record(card, "template", self.attempts, unusable, problems, speaker, recorded)
        return template

    def _record(
        self,
        card: Card,
        by: Literal["model", "template"],
        attempts: int,
        unusable: int,
        problems: Sequence[str],
        speaker: str | None,
        recorded: list[int],
    ) -> None:
        self.cards.append(
            CardWriting(
                location=location_id(card.voice.title),
                written_by=by,
                attempts=attempts,
                unusable=unusable,
                problems=list(problems),
                speaker=speaker,
                recorded=recorded,
            )
        )

    def provenance(self) -> Provenance:
        """Which cards the model wrote, with the model and the prover that checked them."""
        return Provenance(
            writer="llm", model=self.client.model, prover=self.prover.name, cards=self.cards
        )


@dataclass
class LLMWriters:
    """A ``WriterFactory`` of ``LLMWriter``s over one client and prover; ``last`` is the
    writer it made most recently (the generator makes one, for the accepted draw)."""

    client: ChatClient
    prover: Prover
    attempts: int = DEFAULT_ATTEMPTS
    stop: threading.Event = field(default_factory=threading.Event)
    last: LLMWriter | None = None

    def __call__(self, setting: Setting, rng: random.Random, words: int) -> LLMWriter:
        self.last = LLMWriter(
            setting, rng, words, self.client, self.prover, self.attempts, stop=self.stop
        )
        return self.last
