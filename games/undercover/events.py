"""The Undercover-V settings and event log: one pydantic model per event type, and a log reader.

Seats are numbered from 0. The log is the omniscient record: ``game_start`` names the spy and
every seat's word; a ``description`` carries the speaker's formula text and how the card check
came out. Every event carries ``seq`` (its position, from 0) and ``round`` (from 1).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from formalize.reading.reading import FormulaCheck, VoteRecord
from games.core.llm_call import LLMCallRef
from games.undercover.words import WordPair

MIN_PLAYERS = 4
MAX_PLAYERS = 10


class UndercoverConfig(BaseModel):
    """Game settings: the number of players (4 to 10, one of them the spy) and the tie limit."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: int = Field(6, ge=MIN_PLAYERS, le=MAX_PLAYERS)
    tie_limit: int = Field(3, ge=1, le=100)


class UndercoverSetup(BaseModel):
    """What a game is played under besides its seed: the settings and the word pair (the config
    of a log's common header)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    config: UndercoverConfig
    pair: WordPair


class CheckOutcome(StrEnum):
    """How a description stands against its speaker's own card.

    Every description is read (``games.undercover.reading``): what its reading asserts about the
    card is ``consistent`` with it, ``contradicts_card`` or ``undecided`` (the prover gave no
    answer); a reading that asserts nothing about the card (a question, a sentence about the
    other word) is ``no_claim``; a description the readers could not read is ``unread``, or
    ``syntax_error`` when its speaker's own formula did not parse or clashed with the card's
    vocabulary. Logs written before descriptions were read record a description without a
    formula as ``not_formalised`` (and, before ``syntax_error`` existed, a malformed one too);
    they still read and replay.
    """

    CONSISTENT = "consistent"
    CONTRADICTS_CARD = "contradicts_card"
    SYNTAX_ERROR = "syntax_error"
    NOT_FORMALISED = "not_formalised"
    UNDECIDED = "undecided"
    NO_CLAIM = "no_claim"
    UNREAD = "unread"

    @property
    def decisive(self) -> bool:
        """True for the two answers backed by evidence: consistent and contradicts_card."""
        return self in (CheckOutcome.CONSISTENT, CheckOutcome.CONTRADICTS_CARD)


ReadingOutcome = Literal["claims", "nothing", "unsure"]
"""What a description's reading comes to: literals about the card, nothing about it, or none."""


class ReadClaim(BaseModel):
    """One literal a description's reading asserts: the attribute (its words, as the pair's
    vocabulary says it), whether it holds, and the words of the description that say so (with
    where they stand in it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    attribute: str
    holds: bool
    words: str = ""
    start: int | None = None
    end: int | None = None


class DescriptionReading(BaseModel):
    """How a description was read: the reader (``offline``, ``offline+llm``), the outcome, the
    accepted meaning (``formula``, for ``claims``) and its literals with their words, the LLM
    calls and vote when the LLM reader was asked, why it reads as it does (``note``), the
    reading's own check (rendered to words and read back) and the check of the speaker's own
    formula, when it gave one (its rendering left out when accepted: it is the reading's)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reader: str
    outcome: ReadingOutcome
    formula: str | None = None
    claims: tuple[ReadClaim, ...] = ()
    calls: int = Field(default=0, ge=0)
    vote: VoteRecord | None = None
    note: str = ""
    check: FormulaCheck | None = None
    seat_formula: FormulaCheck | None = None


class Side(StrEnum):
    """The two parties: the citizens and the spy."""

    CITIZENS = "citizens"
    SPY = "spy"


class EndReason(StrEnum):
    """Why the game ended."""

    SPY_ELIMINATED = "spy_eliminated"
    TWO_PLAYERS_LEFT = "two_players_left"
    TIE_LIMIT = "tie_limit"


class ViolationKind(StrEnum):
    """The description rules a player can break."""

    REPEAT = "repeat"
    CONTRADICTION = "contradiction"


class Ballot(BaseModel):
    """One vote: ``voter`` names ``target`` as the suspected spy."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    voter: int = Field(ge=0)
    target: int = Field(ge=0)


class _Event(BaseModel):
    """Fields every event carries: its position in the log and the round it belongs to."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str
    seq: int = Field(ge=0)
    round: int = Field(ge=1)


class GameStart(_Event):
    """The deal: the word pair, the spy's seat and word, every seat's word (the config, seed and
    seats are the log header's)."""

    type: Literal["game_start"] = "game_start"
    spy_seat: int = Field(ge=0)
    spy_word: str
    citizen_word: str
    words: tuple[str, ...]

    @model_validator(mode="after")
    def _fits_words(self) -> GameStart:
        if self.spy_seat >= len(self.words):
            raise ValueError(f"field 'spy_seat': seat {self.spy_seat} of {len(self.words)} seats")
        if self.spy_word == self.citizen_word:
            raise ValueError("field 'spy_word': the spy's word is the citizens' word")
        return self


class DescriptionEvent(_Event, LLMCallRef):
    """A seat's description, its own formula text (None when it gave none), the card check, how
    the description was read (None in logs written before descriptions were read), and the
    recorded LLM call it came from (for an LLM seat that records its calls)."""

    type: Literal["description"] = "description"
    seat: int = Field(ge=0)
    text: str
    formula: str | None = None
    outcome: CheckOutcome
    reading: DescriptionReading | None = None


class ViolationEvent(_Event):
    """A description broke a rule: it repeats an earlier one, or contradicts the speaker's card.

    For a repeat, ``earlier_round`` and ``earlier_seat`` locate the description it repeats.
    """

    type: Literal["violation"] = "violation"
    seat: int = Field(ge=0)
    kind: ViolationKind
    message: str
    earlier_round: int | None = None
    earlier_seat: int | None = None


class VoteEvent(_Event):
    """Every living player's ballot of one simultaneous vote, in seat order."""

    type: Literal["vote"] = "vote"
    ballots: tuple[Ballot, ...]


class EliminationEvent(_Event):
    """The player with the most votes leaves the game."""

    type: Literal["elimination"] = "elimination"
    seat: int = Field(ge=0)
    votes: int = Field(ge=1)
    was_spy: bool


class TieEvent(_Event):
    """Several players share the most votes: nobody leaves; ``consecutive`` counts such votes."""

    type: Literal["tie"] = "tie"
    seats: tuple[int, ...]
    votes: int = Field(ge=1)
    consecutive: int = Field(ge=1)


class UndercoverResult(BaseModel):
    """How a game ended; the fields the game metrics (rounds, win and elimination rates) need.

    ``eliminated`` lists the voted-out seats in order; ``citizens`` is the number of citizens at
    the start, so ``citizens_eliminated / citizens`` is the game's citizen elimination rate.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    winner: Side
    reason: EndReason
    rounds: int = Field(ge=1)
    spy_seat: int = Field(ge=0)
    eliminated: tuple[int, ...]
    citizens: int = Field(ge=1)
    citizens_eliminated: int = Field(ge=0)
    violations: int = Field(ge=0)


class GameEnd(UndercoverResult, _Event):
    """The game is over; carries the result."""

    type: Literal["game_end"] = "game_end"

    def result(self) -> UndercoverResult:
        """The result without the event fields."""
        return UndercoverResult.model_validate(
            self.model_dump(include=set(UndercoverResult.model_fields))
        )


UndercoverEvent = Annotated[
    GameStart
    | DescriptionEvent
    | ViolationEvent
    | VoteEvent
    | EliminationEvent
    | TieEvent
    | GameEnd,
    Field(discriminator="type"),
]

UNDERCOVER_EVENT: TypeAdapter[UndercoverEvent] = TypeAdapter(UndercoverEvent)


def migrate_record(record: dict[str, Any], version: int) -> dict[str, Any]:
    """A record of an Undercover-V log written at schema ``version`` in the current one: before
    schema 3 ``game_start`` repeated the header's config, seed, word pair and agents."""
    if version >= 3 or record.get("type") != "game_start":
        return record
    return {k: v for k, v in record.items() if k not in ("config", "seed", "pair", "agents")}


def header_of_start(record: dict[str, Any]) -> dict[str, Any] | None:
    """The header of a log written before headers existed: the settings, word pair, seed and
    agents its ``game_start`` gave (None when the first record is no such event)."""
    agents = record.get("agents")
    if record.get("type") != "game_start" or not isinstance(agents, list):
        return None
    seats = [{"name": f"P{seat}", "agent": agent} for seat, agent in enumerate(agents)]
    setup = {"config": record.get("config"), "pair": record.get("pair")}
    return {"seed": record.get("seed"), "config": setup, "seats": seats}
