"""What reading an answer given in words yields: per slot one outcome, with the words that
decided it.

Per slot, a reading is ``asserted`` (the text asserts one option), ``several`` (it hedges
between options, lists them, or asserts two values), ``rejected`` (it names options only to deny
them), ``none`` (it gives no answer: "I don't know", or nothing about this slot) or ``unsure``
(the reader cannot decide). Only the first four are decided; grading credits ``asserted`` alone.
Each piece of evidence is a character span of the text as given, the options those words name
and how the text takes them, so a viewer can show which words asserted which option.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

Outcome = Literal["asserted", "several", "rejected", "none", "unsure"]
"""A slot's reading."""

OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)
"""Every outcome, in the order tables list them."""

Stance = Literal["asserted", "hedged", "listed", "rejected", "unclear", "no answer"]
"""How the text takes the words of one piece of evidence: asserts the option, offers it among
others (``hedged``: either/or, maybe; ``listed``: and, commas), denies it, uses the words in a way
the reader cannot place (``unclear``: an ambiguous name, a question, the victim's role), or says
it has no answer."""

ReaderName = Literal["offline", "llm"]
"""Which reader decided a slot."""


class Evidence(BaseModel):
    """Words of the answer that bear on a slot: ``text[start:end]`` of the text as given, the
    options they name (none for words such as "I don't know") and the stance the text takes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    words: str
    options: list[str] = []
    stance: Stance


class SlotReading(BaseModel):
    """One slot's reading: the outcome; the asserted ``option`` (only for ``asserted``); the
    ``options`` named together (for ``several``, where the reader says which); the options
    ``rejected``; the ``evidence``; which reader decided it; and a ``note`` saying why it is
    unsure, when it is."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    slot: str
    outcome: Outcome
    option: str | None = None
    options: list[str] = []
    rejected: list[str] = []
    evidence: list[Evidence] = []
    reader: ReaderName = "offline"
    note: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> SlotReading:
        if (self.outcome == "asserted") != (self.option is not None):
            raise ValueError("option: given exactly when the outcome is 'asserted'")
        if self.options and (self.outcome != "several" or len(self.options) < 2):
            raise ValueError("options: only 'several' names options together, two or more")
        if self.outcome == "rejected" and not self.rejected:
            raise ValueError("rejected: 'rejected' names at least one option")
        return self

    @property
    def decided(self) -> bool:
        """Whether the reader decided what the text says about this slot."""
        return self.outcome != "unsure"


class VoteRecord(BaseModel):
    """How an LLM reading was voted (seed 002's early-stop majority vote): each attempt's
    ballot (one outcome key per slot, in slot order, joined by ``; ``), whether a ballot
    repeated, and the recorded LLM calls (their indices in the recording, when recorded)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ballots: list[str]
    decided_by: Literal["repeat", "no repeat"]
    recorded: list[int] = []


class Reading(BaseModel):
    """An answer in words read: one ``SlotReading`` per slot of the question, in its order;
    ``reader`` names the reader (``offline``, ``llm``, ``offline+llm``); ``calls`` counts the
    LLM calls it made (0 offline); ``vote`` is the LLM vote, when one ran."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reader: str
    slots: list[SlotReading]
    calls: int = Field(default=0, ge=0)
    vote: VoteRecord | None = None

    @property
    def decided(self) -> bool:
        """Whether every slot is decided (the answer can be graded exactly)."""
        return all(s.decided for s in self.slots)

    def slot(self, name: str) -> SlotReading:
        """The reading of slot ``name``."""
        return next(s for s in self.slots if s.slot == name)

    def values(self) -> dict[str, str | None]:
        """Per slot the asserted option, or None: what grading credits."""
        return {s.slot: s.option for s in self.slots}


CheckStep = Literal["syntax", "vocabulary", "literals", "subject", "rendering", "sentence"]
"""The step of ``attribute_check`` a refused formula failed: it does not parse or fit the
vocabulary's sorts, names a predicate the vocabulary lacks, is no conjunction of literals, is
not about the described thing alone, does not read back from its rendering, or is not what the
sentence reads as."""


class FormulaCheck(BaseModel):
    """A formula checked as the meaning of a statement (``attribute_check``): whether it is
    accepted, the words it was rendered to (None when it failed before), the step it failed and
    why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    accepted: bool
    rendering: str | None = None
    failed: CheckStep | None = None
    reason: str = ""
