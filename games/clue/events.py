"""The Clue event log: one pydantic model per event type, and a validating JSONL reader.

The engine writes the omniscient record (the deal, every shown card). Logs written by other
programs are accepted too: ``game_start.deal`` may be missing, a ``hand`` event may give one
player's hand, and a ``refute`` event may leave the shown card out.
"""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator, model_validator

from games.clue.cards import MAX_ROUNDS, ROOMS, SUSPECTS, WEAPONS, Card, Deck, Triple
from games.core.llm_call import LLMCallRef
from reasoning.claims import ClaimStatus

DeductionKind = Literal["holds", "not_holds", "in_envelope", "not_in_envelope"]
EndReason = Literal["correct_accusation", "all_eliminated", "round_limit"]


class ClueConfig(BaseModel):
    """Settings of one Clue game; invalid settings raise a validation error naming the field.

    ``first_player`` opens every round. The card lists default to the standard deck (6 suspects,
    6 weapons, 9 rooms) and can be shortened for small test games.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: int = Field(default=6, ge=3, le=6)
    max_rounds: int = Field(default=30, ge=1, le=MAX_ROUNDS)
    first_player: int = Field(default=0, ge=0)
    suspects: tuple[str, ...] = SUSPECTS
    weapons: tuple[str, ...] = WEAPONS
    rooms: tuple[str, ...] = ROOMS

    @field_validator("suspects", "weapons", "rooms")
    @classmethod
    def _names_ok(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        if not names:
            raise ValueError("needs at least one card")
        for name in names:
            if not name.strip() or name != name.strip():
                raise ValueError(f"card name {name!r} is empty or has surrounding spaces")
        if len(set(names)) != len(names):
            raise ValueError("card names repeat")
        return names

    @model_validator(mode="after")
    def _consistent(self) -> ClueConfig:
        if self.first_player >= self.players:
            raise ValueError(f"first_player: {self.first_player} is not a seat of {self.players}")
        seen: dict[str, str] = {}
        for field in ("suspects", "weapons", "rooms"):
            for name in getattr(self, field):
                if name in seen:
                    raise ValueError(f"{field}: card name {name!r} is also one of the {seen[name]}")
                seen[name] = field
        return self

    @cached_property
    def deck(self) -> Deck:
        """The deck these settings describe."""
        return Deck(self.suspects, self.weapons, self.rooms)

    def hand_sizes(self) -> tuple[int, ...]:
        """Cards per player after the envelope's three: dealt round-robin from seat 0."""
        dealt = len(self.deck.cards) - 3
        base, extra = divmod(dealt, self.players)
        return tuple(base + (1 if seat < extra else 0) for seat in range(self.players))


class Deduction(BaseModel):
    """A stated conclusion: ``player`` holds / does not hold ``card``, or it is / is not hidden.

    ``player`` is required for ``holds`` and ``not_holds``, and absent for the envelope kinds.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: DeductionKind
    card: Card
    player: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _player_matches_kind(self) -> Deduction:
        about_player = self.kind in ("holds", "not_holds")
        if about_player and self.player is None:
            raise ValueError(f"player: required for a {self.kind!r} deduction")
        if not about_player and self.player is not None:
            raise ValueError(f"player: must be left out of a {self.kind!r} deduction")
        return self


class Deal(BaseModel):
    """Every player's hand (by seat) and the envelope."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hands: tuple[tuple[Card, ...], ...]
    envelope: Triple


class _Event(BaseModel):
    """Fields every event carries: its position in the log, the round and the turn number."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str
    seq: int = Field(ge=0)
    round: int = Field(ge=0)
    turn: int = Field(ge=0)


class GameStart(_Event):
    """The hand sizes and (in the engine's own logs) the deal; the config, seed and seats are the
    log's header's."""

    type: Literal["game_start"] = "game_start"
    hand_sizes: tuple[int, ...]
    deal: Deal | None = None

    @model_validator(mode="after")
    def _sizes_fit(self) -> GameStart:
        if self.deal is not None:
            sizes = tuple(len(hand) for hand in self.deal.hands)
            if sizes != self.hand_sizes:
                raise ValueError(f"deal: hand sizes {sizes} differ from hand_sizes")
        return self


class HandEvent(_Event):
    """One player's hand, for logs that know only the hand of the player they were written for."""

    type: Literal["hand"] = "hand"
    seat: int = Field(ge=0)
    cards: tuple[Card, ...]


class TurnStart(_Event):
    """A player's turn begins; ``final`` marks the final accusations after the round limit."""

    type: Literal["turn_start"] = "turn_start"
    seat: int = Field(ge=0)
    final: bool = False


class DeductionEvent(_Event, LLMCallRef):
    """Deductions a player stated along with its action (with the recorded LLM call they came
    from, for an LLM seat that records its calls)."""

    type: Literal["deduction"] = "deduction"
    seat: int = Field(ge=0)
    deductions: tuple[Deduction, ...]


class CheckedDeduction(BaseModel):
    """A stated deduction and its verdict against the player's knowledge at that moment."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    deduction: Deduction
    status: ClaimStatus


class DeductionReview(BaseModel):
    """How a verifier-assisted player's deductions were checked before it acted: what it stated
    and the verdicts, whether they were sent back, the revision and its verdicts, what it acted on,
    and an accusation it was kept from making.

    ``revised`` is empty and ``sent_back`` False when every stated deduction was entailed.
    ``revision_failed`` marks a revision that never parsed; the player then acts on the entailed
    deductions of its first answer. ``withheld`` holds the three ``in_envelope`` claims of an
    accusation its knowledge did not entail, with their verdicts; the player suggested instead.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int = Field(ge=0)
    round: int = Field(ge=0)
    turn: int = Field(ge=0)
    stated: tuple[CheckedDeduction, ...]
    sent_back: bool
    revised: tuple[CheckedDeduction, ...] = ()
    revision_failed: bool = False
    acted_on: tuple[Deduction, ...]
    withheld: tuple[CheckedDeduction, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> DeductionReview:
        doubted = any(c.status is not ClaimStatus.ENTAILED for c in self.stated)
        if self.sent_back != doubted:
            raise ValueError(
                "sent_back: must be true exactly when a stated deduction is not ENTAILED"
            )
        if not self.sent_back and (self.revised or self.revision_failed):
            raise ValueError("revised: only a review that was sent back has a revision")
        if self.revision_failed and self.revised:
            raise ValueError("revised: must be empty when revision_failed is true")
        if self.withheld:
            kinds = [c.deduction.kind for c in self.withheld]
            if kinds != ["in_envelope"] * 3:
                raise ValueError("withheld: must be the three in_envelope claims of an accusation")
            if all(c.status is ClaimStatus.ENTAILED for c in self.withheld):
                raise ValueError("withheld: an entailed accusation is not withheld")
        return self

    def withheld_accusation(self) -> Triple | None:
        """The accusation the player was kept from making, if any."""
        if not self.withheld:
            return None
        suspect, weapon, room = (c.deduction.card.name for c in self.withheld)
        return Triple(suspect=suspect, weapon=weapon, room=room)

    def mentioned(self) -> tuple[Deduction, ...]:
        """Every deduction the review mentions: stated, revised, acted on and withheld."""
        checked = (*self.stated, *self.revised, *self.withheld)
        return (*(c.deduction for c in checked), *self.acted_on)


class DeductionReviewEvent(DeductionReview, _Event):
    """A player's deduction review, logged with the action it led to (before its deductions)."""

    type: Literal["deduction_review"] = "deduction_review"

    def review(self) -> DeductionReview:
        """The review without the event fields."""
        return DeductionReview.model_validate(
            self.model_dump(include=set(DeductionReview.model_fields))
        )


class SuggestionEvent(_Event):
    """A player suggests a suspect, a weapon and a room."""

    type: Literal["suggestion"] = "suggestion"
    seat: int = Field(ge=0)
    suspect: str
    weapon: str
    room: str


class PassEvent(_Event):
    """``player`` holds none of the suggested cards."""

    type: Literal["pass"] = "pass"
    seat: int = Field(ge=0)
    suggester_seat: int = Field(ge=0)


class RefuteEvent(_Event):
    """``refuter`` shows ``suggester`` a matching card (None if the log's author did not see it)."""

    type: Literal["refute"] = "refute"
    refuter_seat: int = Field(ge=0)
    suggester_seat: int = Field(ge=0)
    card: Card | None = None


class NoRefutationEvent(_Event):
    """Nobody else holds any of the suggested cards."""

    type: Literal["no_refutation"] = "no_refutation"
    seat: int = Field(ge=0)


class AccusationEvent(_Event):
    """An accusation and its outcome; ``accuracy`` counts the cards right (None where unknown)."""

    type: Literal["accusation"] = "accusation"
    seat: int = Field(ge=0)
    suspect: str
    weapon: str
    room: str
    correct: bool
    eliminated: bool
    accuracy: int | None = Field(default=None, ge=0, le=3)
    final: bool = False


class ClueOutcome(BaseModel):
    """How a game ended as its ``game_end`` event says: the winner, each seat's accusation
    accuracy (cards its accusation named right; None when it never accused), rounds, turns and
    why (the finishing ranks are the log end's)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    winner: int | None
    accuracy: tuple[int | None, ...]
    rounds: int = Field(ge=0)
    turns: int = Field(ge=0)
    reason: EndReason


class ClueResult(ClueOutcome):
    """How a game ended, with every seat's finishing position: ``ranks[p]`` is seat p's place
    (1 = best)."""

    ranks: tuple[int, ...]

    def outcome(self) -> ClueOutcome:
        """The result without the ranks, as ``game_end`` records it."""
        return ClueOutcome.model_validate(self.model_dump(exclude={"ranks"}))


class GameEnd(ClueOutcome, _Event):
    """The game is over; carries its outcome."""

    type: Literal["game_end"] = "game_end"

    def outcome(self) -> ClueOutcome:
        """The outcome without the event fields."""
        return ClueOutcome.model_validate(self.model_dump(include=set(ClueOutcome.model_fields)))


ClueEvent = Annotated[
    GameStart
    | HandEvent
    | TurnStart
    | DeductionEvent
    | DeductionReviewEvent
    | SuggestionEvent
    | PassEvent
    | RefuteEvent
    | NoRefutationEvent
    | AccusationEvent
    | GameEnd,
    Field(discriminator="type"),
]

CLUE_EVENT: TypeAdapter[ClueEvent] = TypeAdapter(ClueEvent)


SEAT_FIELDS_BEFORE_2: dict[str, dict[str, str]] = {
    "hand": {"player": "seat"},
    "turn_start": {"player": "seat"},
    "deduction": {"player": "seat"},
    "deduction_review": {"player": "seat"},
    "suggestion": {"player": "seat"},
    "accusation": {"player": "seat"},
    "pass": {"player": "seat", "suggester": "suggester_seat"},
    "refute": {"refuter": "refuter_seat", "suggester": "suggester_seat"},
    "no_refutation": {"suggester": "seat"},
}
"""The seat fields of each event type in logs before schema 2: old name to new name."""


def _renamed(record: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """``record`` with its keys renamed by ``names`` (a key whose new name is taken stays)."""
    return {names[k] if k in names and names[k] not in record else k: v for k, v in record.items()}


def migrate_record(record: dict[str, Any], version: int) -> dict[str, Any]:
    """A record of a Clue log written at schema ``version`` in the current vocabulary: before
    schema 2 the config counted ``n_players`` and events named seats ``player``, ``refuter`` and
    ``suggester``; before schema 3 ``game_start`` repeated the header's config, seed and seats
    and ``game_end`` the end's ranks."""
    if version >= 3:
        return record
    kind = record.get("type")
    if version < 2:
        if kind in ("header", "game_start") and isinstance(record.get("config"), dict):
            record = {**record, "config": _renamed(record["config"], {"n_players": "players"})}
        if isinstance(kind, str) and kind in SEAT_FIELDS_BEFORE_2:
            record = _renamed(record, SEAT_FIELDS_BEFORE_2[kind])
    if kind == "game_start":
        return {k: v for k, v in record.items() if k not in ("config", "seed", "players")}
    if kind == "game_end":
        return {k: v for k, v in record.items() if k != "ranks"}
    return record


def header_of_start(record: dict[str, Any]) -> dict[str, Any] | None:
    """The header of a Clue log written before headers existed: the config, seed and seats its
    ``game_start`` gave (None when the first record is no such event)."""
    if record.get("type") != "game_start" or not isinstance(record.get("config"), dict):
        return None
    players = record.get("players")
    if not isinstance(players, list):
        return None
    seats = [
        {"name": p.get("name"), "agent": p.get("agent")} if isinstance(p, dict) else p
        for p in players
    ]
    config = _renamed(record["config"], {"n_players": "players"})
    return {"seed": record.get("seed"), "config": config, "seats": seats}
