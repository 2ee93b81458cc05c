"""What a Clue agent sees and does: the observation, the actions, and the Agent protocol.

An agent is asked for a decision with the deciding player's observation, which holds that player's
full private history; so an agent need not keep any state of its own to play correctly.
"""

from __future__ import annotations

from enum import StrEnum
from itertools import product
from typing import Annotated, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from games.clue.cards import Card, Deck, Triple
from games.clue.events import ClueEvent, Deduction, DeductionReview, SuggestionEvent
from games.core.llm_call import LLMCallRef


class Phase(StrEnum):
    """Which decision the game waits for."""

    TURN = "turn"
    """The current player suggests or accuses."""
    REFUTE = "refute"
    """The current player must show one of its cards that match the pending suggestion."""
    FINAL_ACCUSATION = "final_accusation"
    """After the round limit, the current player must accuse."""
    OVER = "over"
    """The game has ended; nobody decides."""


class _Action(LLMCallRef):
    model_config = ConfigDict(frozen=True, extra="forbid")

    deductions: tuple[Deduction, ...] = ()
    """Conclusions the agent states along with the action; logged, never checked for truth.
    ``call``: the recorded LLM call they came from (logged with them)."""


class Suggest(_Action):
    """Suggest a suspect, a weapon and a room (any three, the player's own cards included)."""

    type: Literal["suggest"] = "suggest"
    suspect: str
    weapon: str
    room: str

    def triple(self) -> Triple:
        """The three suggested names."""
        return Triple(self.suspect, self.weapon, self.room)


class Accuse(_Action):
    """Accuse a suspect, a weapon and a room: win if right, else be eliminated."""

    type: Literal["accuse"] = "accuse"
    suspect: str
    weapon: str
    room: str

    def triple(self) -> Triple:
        """The three accused names."""
        return Triple(self.suspect, self.weapon, self.room)


class Show(_Action):
    """Show the suggester one of the player's cards that match its suggestion."""

    type: Literal["show"] = "show"
    card: Card


ClueAction = Annotated[Suggest | Accuse | Show, Field(discriminator="type")]


class ShownCard(BaseModel):
    """A card another player showed this player, and when."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seq: int
    round: int
    refuter: int
    card: Card


class ClueObservation(BaseModel):
    """One player's private view of the game at the moment of a decision.

    ``history`` is the public record as this player saw it: cards shown between two other players
    appear as ``card=None``, other players' stated deductions and the accuracy of their
    accusations are left out. ``pending`` is the suggestion being refuted during the REFUTE phase,
    and ``matching`` the cards this player could show against it.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    player: int
    n_players: int
    phase: Phase
    current_player: int | None
    round: int
    turn: int
    max_rounds: int
    suspects: tuple[str, ...]
    weapons: tuple[str, ...]
    rooms: tuple[str, ...]
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    eliminated: tuple[bool, ...]
    history: tuple[ClueEvent, ...]
    shown: tuple[ShownCard, ...]
    pending: SuggestionEvent | None = None
    matching: tuple[Card, ...] = ()

    @property
    def to_act(self) -> bool:
        """Whether this player is the one the game waits for."""
        return self.current_player == self.player

    def deck(self) -> Deck:
        """The game's deck."""
        return Deck(self.suspects, self.weapons, self.rooms)

    def legal_actions(self) -> list[ClueAction]:
        """The actions this player may take now (empty when it is not this player's decision)."""
        if not self.to_act:
            return []
        return legal_actions(self.phase, self.suspects, self.weapons, self.rooms, self.matching)


def legal_actions(
    phase: Phase,
    suspects: tuple[str, ...],
    weapons: tuple[str, ...],
    rooms: tuple[str, ...],
    matching: tuple[Card, ...],
) -> list[ClueAction]:
    """Every legal action of a phase: a triple to suggest or accuse, or a matching card to show."""
    triples = list(product(suspects, weapons, rooms))
    if phase is Phase.TURN:
        suggest: list[ClueAction] = [Suggest(suspect=s, weapon=w, room=r) for s, w, r in triples]
        return suggest + [Accuse(suspect=s, weapon=w, room=r) for s, w, r in triples]
    if phase is Phase.FINAL_ACCUSATION:
        return [Accuse(suspect=s, weapon=w, room=r) for s, w, r in triples]
    if phase is Phase.REFUTE:
        return [Show(card=c) for c in matching]
    return []


class Agent(Protocol):
    """A Clue player: from its observation, a legal action (with optional stated deductions)."""

    @property
    def name(self) -> str:
        """The agent's name, recorded in the log."""
        ...

    def act(self, obs: ClueObservation) -> ClueAction:
        """Decide the action for the decision ``obs.phase``."""
        ...


@runtime_checkable
class ReviewingAgent(Protocol):
    """An agent whose stated deductions are checked before it acts; the game loop logs each new
    review with the action it led to."""

    @property
    def reviews(self) -> tuple[DeductionReview, ...]:
        """Every review so far, in order (at most one more per decision)."""
        ...
