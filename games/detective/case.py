"""The detective case file: a documented JSON format (pydantic models) and its loader.

A case has an introduction, questions, locations and a solution. Generated cases also carry the
logic that makes them checkable: the public ``setting`` (from which the background theory is
built), the facts the introduction and each location state (formula text), and, per question
and per answer slot, the minimal sets of locations whose facts unlock it. A user's own case may
leave the logic out; it can then only be graded by a model, not exactly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from formalize.world.setting import Setting
from reasoning.jsonpos import FormulaText, parse_model, read_json_text

SCHEMA_VERSION = 1

MAX_CASE_BYTES = 64 * 1024 * 1024
"""The largest case file read (a generated case of 20 locations is about 100 kB)."""

MAX_CLUE_LOCATIONS = 16
"""The most locations a generated case spreads clues over (the planner searches their subsets)."""


class CaseError(ValueError):
    """A case file that cannot be used; the message names the file and line."""


class Choice(BaseModel):
    """One value an answer slot can take, with its English text and, for generated cases, the
    formula that states it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    value: str = Field(min_length=1)
    text: str = Field(min_length=1)
    formula: FormulaText | None = None


class AnswerSlot(BaseModel):
    """A typed part of an answer (``culprit``, ``time``, ...); its reference value is one fact.

    ``unlock_sets`` lists the minimal sets of location ids whose facts (with the introduction's)
    entail the reference value.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    kind: str = Field(min_length=1)
    choices: list[Choice] = Field(min_length=2)
    answer: str
    unlock_sets: list[list[str]] = []

    @field_validator("choices")
    @classmethod
    def _unique_values(cls, choices: list[Choice]) -> list[Choice]:
        values = [c.value for c in choices]
        if len(set(values)) != len(values):
            raise ValueError("choice values must be unique")
        return choices

    @field_validator("answer")
    @classmethod
    def _answer_is_a_choice(cls, answer: str, info: ValidationInfo) -> str:
        values = [c.value for c in info.data.get("choices", [])]
        if values and answer not in values:
            raise ValueError(f"{answer!r} is not one of the choices")
        return answer

    def choice(self, value: str) -> Choice:
        """The choice with ``value``."""
        return next(c for c in self.choices if c.value == value)


class MarkingExample(BaseModel):
    """A sample answer to a question and the grade (0-3) a marker gives it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    answer: str = Field(min_length=1)
    grade: int = Field(ge=0, le=3)


class Question(BaseModel):
    """A case question; ``model_answer`` is its prose. Its answer is made of typed ``slots``
    (its logic form, graded exactly), or, with none, answered and graded in free text only.
    ``marking_examples`` are a marker's graded sample answers for the autograder."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1)
    text: str = Field(min_length=1)
    slots: list[AnswerSlot] = []
    model_answer: str = Field(min_length=1)
    marking_examples: list[MarkingExample] = []
    unlock_sets: list[list[str]] = []
    inference_steps: int | None = None

    @field_validator("slots")
    @classmethod
    def _unique_names(cls, slots: list[AnswerSlot]) -> list[AnswerSlot]:
        names = [s.name.casefold() for s in slots]
        if len(set(names)) != len(names):
            raise ValueError("slot names must be unique (ignoring case)")
        return slots


class Sentence(BaseModel):
    """One sentence of a generated text and the facts (formulas) it states; none for narration."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = Field(min_length=1)
    facts: list[FormulaText] = []


def _mapped(sentences: list[Sentence], facts: list[str], text: str, field: str) -> None:
    """ValueError unless the sentences are in ``text`` and state exactly ``facts``."""
    if not sentences:
        return
    stated = [f for s in sentences for f in s.facts]
    if sorted(stated) != sorted(facts):
        raise ValueError(f"{field}: the sentences' facts must be the facts, each once")
    missing = next((s.text for s in sentences if s.text not in text), None)
    if missing is not None:
        raise ValueError(f"{field}: sentence not in the text: {missing[:60]!r}")


class Location(BaseModel):
    """A place to visit: its visible ``title`` and the ``text`` read there; ``facts`` are the
    formulas the text states (``sentences`` says which sentence states which), ``red_herring``
    marks a location no answer needs."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1)
    title: str = Field(min_length=1)
    text: str = Field(min_length=1)
    facts: list[FormulaText] = []
    sentences: list[Sentence] = []
    red_herring: bool = False

    @model_validator(mode="after")
    def _sentences_state_the_facts(self) -> Location:
        _mapped(self.sentences, self.facts, self.text, "sentences")
        return self


class CaseKnobs(BaseModel):
    """The difficulty a case was generated with.

    ``locations`` cards in all, of which at least ``red_herrings`` help no answer;
    ``questions`` (2-5); ``inference_steps``, the least number of clue facts in a minimal set
    that entails each answer; ``distractors``, true facts no answer needs, spread over the
    cards; ``words_per_card``, the length narration brings a card's text to (as far as the
    case's unused narration lasts); ``intro_clues``, how
    many needed facts the introduction states; ``long_chains``, whether answers should rest on
    chains of indirect clues (sightings, holdings, motives) rather than on direct clues about the
    crime (time windows, possible rooms, the method), which makes them need more locations.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    locations: int = Field(default=15, ge=4, le=20)
    questions: int = Field(default=3, ge=2, le=5)
    inference_steps: int = Field(default=2, ge=2, le=8)
    distractors: int = Field(default=12, ge=0, le=60)
    red_herrings: int = Field(default=3, ge=0, le=10)
    words_per_card: int = Field(default=160, ge=20, le=600)
    intro_clues: int = Field(default=2, ge=0, le=10)
    long_chains: bool = True

    @model_validator(mode="after")
    def _room_for_clues(self) -> CaseKnobs:
        clues = self.locations - self.red_herrings
        if not 2 <= clues <= MAX_CLUE_LOCATIONS:
            raise ValueError(
                f"red_herrings: {self.locations} locations less {self.red_herrings} red "
                f"herrings leave {clues} for clues; it must be 2 to {MAX_CLUE_LOCATIONS}"
            )
        return self


class CardWriting(BaseModel):
    """How one location's text was written: by the ``model`` (its text, kept once the prover
    showed that it states exactly the location's facts) or from the ``template`` (after the
    model's attempts failed); the replies asked for, those that could not be used at all, why
    the last refused text was refused, the witness whose words the card gives (read as "I"), and
    the indices of its calls in the recording, when one was kept."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    location: str = Field(min_length=1)
    written_by: Literal["model", "template"]
    attempts: int = Field(ge=0)
    unusable: int = Field(default=0, ge=0)
    problems: list[str] = []
    speaker: str | None = None
    recorded: list[int] = []


class Provenance(BaseModel):
    """Who wrote a case's location texts: the ``writer`` (``llm``: a model, checked by the
    prover), the model, the prover that checked its texts, and one record per location."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    writer: Literal["llm"]
    model: str
    prover: str
    cards: list[CardWriting]

    @property
    def kept(self) -> int:
        """Locations whose text the model wrote."""
        return sum(c.written_by == "model" for c in self.cards)

    @property
    def fallen_back(self) -> int:
        """Locations left with the template's text."""
        return sum(c.written_by == "template" for c in self.cards)

    @property
    def reasked(self) -> int:
        """Locations the model was asked about more than once."""
        return sum(c.attempts > 1 for c in self.cards)

    @property
    def calls(self) -> int:
        """Replies asked of the model in all."""
        return sum(c.attempts for c in self.cards)

    @property
    def unusable(self) -> int:
        """Replies that were not the answer asked for."""
        return sum(c.unusable for c in self.cards)

    def card(self, location: str) -> CardWriting | None:
        """The record of ``location``, if any."""
        return next((c for c in self.cards if c.location == location), None)


class Case(BaseModel):
    """A whole detective case as stored in a case file; ``house_plan`` is a card read with the
    introduction (the doors, the locked rooms and the rules of the evening), empty if none;
    ``provenance`` says which location texts a model wrote, when one did."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_version: int = SCHEMA_VERSION
    title: str = Field(min_length=1)
    seed: int | None = None
    knobs: CaseKnobs | None = None
    introduction: str = Field(min_length=1)
    house_plan: str = ""
    intro_facts: list[FormulaText] = []
    intro_sentences: list[Sentence] = []
    questions: list[Question] = Field(min_length=1)
    locations: list[Location] = Field(min_length=1)
    solution: str = Field(min_length=1)
    setting: Setting | None = None
    provenance: Provenance | None = None

    @model_validator(mode="after")
    def _references(self) -> Case:
        if self.schema_version != SCHEMA_VERSION:
            raise ValueError(f"schema_version: this reader knows version {SCHEMA_VERSION}")
        _mapped(self.intro_sentences, self.intro_facts, self.introduction, "intro_sentences")
        ids = [loc.id for loc in self.locations]
        if len(set(ids)) != len(ids):
            raise ValueError("locations: ids must be unique")
        qids = [q.id for q in self.questions]
        if len(set(qids)) != len(qids):
            raise ValueError("questions: ids must be unique")
        known = set(ids)
        if self.provenance is not None:
            strange = [c.location for c in self.provenance.cards if c.location not in known]
            if strange:
                raise ValueError(f"provenance: {strange[0]!r} is not a location of the case")
        for q in self.questions:
            sets = q.unlock_sets + [s for slot in q.slots for s in slot.unlock_sets]
            for unlock in sets:
                if not set(unlock) <= known:
                    raise ValueError(f"questions: {q.id} names an unknown location in unlock sets")
        return self

    @property
    def checkable(self) -> bool:
        """Whether the case carries the logic exact grading needs (setting, slots, formulas)."""
        return (
            self.setting is not None
            and all(q.slots for q in self.questions)
            and all(
                c.formula is not None for q in self.questions for s in q.slots for c in s.choices
            )
        )

    def location(self, lid: str) -> Location:
        """The location with id ``lid``."""
        return next(loc for loc in self.locations if loc.id == lid)


def parse_case(text: str, source: str = "<string>") -> Case:
    """Read a case from JSON text; a CaseError says ``source:line: what is wrong``."""
    return parse_model(text, Case, source, CaseError)


def load_case(path: str | Path) -> Case:
    """Read a case file; a CaseError names the file and line of the first problem."""
    return parse_case(read_json_text(Path(path), MAX_CASE_BYTES, CaseError), str(path))


def dump_case(case: Case) -> str:
    """The case as indented JSON text, the form ``load_case`` reads back."""
    return case.model_dump_json(indent=2, exclude_none=True) + "\n"
