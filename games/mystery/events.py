"""The interrogation game's settings and event log: one pydantic model per event type.

Seats are numbered from 0; each seat plays one living character, named by person id. The log
is the omniscient record: ``game_start`` names the murderers and each crime's truth, an
``answer`` says whether it lied.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from formalize.interrogation.questions import HeldItem, Question, Related, Saw, Where
from formalize.interrogation.script_generate import ScriptConfig
from formalize.world.facts import Fact, Held, Met, Seen
from games.core.llm_call import LLMCallRef

ROUNDS = 3
"""Questioning rounds; each seat asks one question a round."""
MAX_ROUNDS = 6
"""The most questioning rounds a game may have."""


class MysteryConfig(BaseModel):
    """A game's settings: the shape of its scripts (or the script file played instead of
    generated scripts), the number of questioning rounds, and whether introductions give
    alibis."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    scripts: ScriptConfig = ScriptConfig()
    rounds: int = Field(default=ROUNDS, ge=1, le=MAX_ROUNDS)
    script_file: str | None = None
    alibis: bool = Field(
        default=False,
        description="Each self-introduction also says, in prose, where its character was at "
        "each crime's hour (a murderer from its cover story), heard by all as testimony.",
    )


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class FactRecord(_Event):
    """A fact of an answer: ``seen`` (a at place during slot), ``met`` (a and b in one place)
    or ``held`` (a held item); ``value`` False for the negation."""

    kind: Literal["seen", "met", "held"]
    a: str
    b: str | None = None
    place: str | None = None
    item: str | None = None
    slot: int
    value: bool


class QuestionRecord(_Event):
    """A typed question: ``where`` (a, slot), ``saw`` (a, b, slot), ``held`` (a, item) or
    ``related`` (a, b)."""

    kind: Literal["where", "saw", "held", "related"]
    a: str
    b: str | None = None
    slot: int | None = None
    item: str | None = None


class CrimeRecord(_Event):
    """The truth of one crime, revealed at the end (and in the omniscient log from the start)."""

    victim: str
    killers: tuple[str, ...]
    place: str
    slot: int
    weapon: str


class GameStart(_Event):
    """The game's first event: who plays which seat, the murderers and the crimes."""

    type: Literal["game_start"] = "game_start"
    title: str
    players: tuple[str, ...]
    murderers: tuple[str, ...]
    crimes: tuple[CrimeRecord, ...]


class Introduction(_Event):
    """A seat introduces its character; with alibis, ``facts`` are those its ``text`` states
    (none otherwise)."""

    type: Literal["introduction"] = "introduction"
    seat: int
    text: str
    facts: tuple[FactRecord, ...] = ()


class Asked(_Event, LLMCallRef):
    """In ``round``, ``seat`` asks ``answerer`` a question; ``stated``: the asker's suspects per
    crime as it stated them, ``expected``: (person, high / medium / low) ratings it gave (both
    empty when it stated none), ``call``: the recorded LLM call they came from."""

    type: Literal["question"] = "question"
    round: int
    seat: int
    answerer: int
    question: QuestionRecord
    text: str
    stated: tuple[tuple[str, ...], ...] = ()
    expected: tuple[tuple[str, str], ...] = ()


class Answered(_Event):
    """``seat`` answers the pending question with ``facts`` (none: declined); ``lie`` when a fact
    is false of the world; ``relation`` carries a relation question's public answer."""

    type: Literal["answer"] = "answer"
    round: int
    seat: int
    facts: tuple[FactRecord, ...]
    declined: bool
    lie: bool
    relation: str | None = None


class Ballot(_Event):
    """``voter`` accuses ``target``."""

    voter: int
    target: int


class Voted(_Event):
    """The vote on crime ``crime`` (1-based): the ballots and the accused seat (None: nobody
    had more than half of the votes)."""

    type: Literal["vote"] = "vote"
    crime: int
    ballots: tuple[Ballot, ...]
    accused: int | None


class GameEnd(_Event):
    """The reveal: per crime whether the civilians accused a killer, and the winners."""

    type: Literal["game_end"] = "game_end"
    solved: tuple[bool, ...]
    winner: Literal["civilians", "murderers", "draw"]


MysteryEvent = Annotated[
    GameStart | Introduction | Asked | Answered | Voted | GameEnd, Field(discriminator="type")
]
MYSTERY_EVENT: TypeAdapter[MysteryEvent] = TypeAdapter(MysteryEvent)
"""Validates one event of an interrogation game's log."""


def fact_record(fact: Fact) -> FactRecord:
    """The record of an answer's fact (ValueError for a kind answers never carry)."""
    match fact:
        case Seen(person, place, slot, present):
            return FactRecord(kind="seen", a=person, place=place, slot=slot, value=present)
        case Met(a, b, slot, together):
            return FactRecord(kind="met", a=a, b=b, slot=slot, value=together)
        case Held(person, item, slot, held):
            return FactRecord(kind="held", a=person, item=item, slot=slot, value=held)
    raise ValueError(f"answers carry no fact of kind {type(fact).__name__}")


def record_fact(record: FactRecord) -> Fact:
    """The fact a record stands for (ValueError when a field it needs is missing)."""
    if record.kind == "seen" and record.place is not None:
        return Seen(record.a, record.place, record.slot, record.value)
    if record.kind == "met" and record.b is not None:
        return Met(record.a, record.b, record.slot, record.value)
    if record.kind == "held" and record.item is not None:
        return Held(record.a, record.item, record.slot, record.value)
    raise ValueError(f"fact record {record.kind!r} lacks a field its kind needs")


def question_record(question: Question) -> QuestionRecord:
    """The record of a typed question."""
    match question:
        case Where(person, slot):
            return QuestionRecord(kind="where", a=person, slot=slot)
        case Saw(a, b, slot):
            return QuestionRecord(kind="saw", a=a, b=b, slot=slot)
        case HeldItem(person, item):
            return QuestionRecord(kind="held", a=person, item=item)
        case Related(a, b):
            return QuestionRecord(kind="related", a=a, b=b)


def record_question(record: QuestionRecord) -> Question:
    """The typed question a record stands for (ValueError when a field it needs is missing)."""
    if record.kind == "where" and record.slot is not None:
        return Where(record.a, record.slot)
    if record.kind == "saw" and record.b is not None and record.slot is not None:
        return Saw(record.a, record.b, record.slot)
    if record.kind == "held" and record.item is not None:
        return HeldItem(record.a, record.item)
    if record.kind == "related" and record.b is not None:
        return Related(record.a, record.b)
    raise ValueError(f"question record {record.kind!r} lacks a field its kind needs")
