"""Clue events into a player's knowledge: what each event tells one seat (or an onlooker).

``PlayerView`` feeds a ``formalize.clue.ClueKnowledge`` with the events of a game in order,
applying what that seat can see: a shown card counts only for the suggester who saw it, an
accusation's accuracy only for the accuser. The same view serves an agent (fed from its
observation's history) and the audit (fed from a whole log).
"""

from __future__ import annotations

from collections.abc import Sequence

from formalize.clue import ClueKnowledge, ClueSetup, Fact
from games.clue.agent import ClueObservation
from games.clue.cards import CATEGORIES, Card, Deck
from games.clue.events import (
    AccusationEvent,
    ClueConfig,
    ClueEvent,
    Deduction,
    HandEvent,
    NoRefutationEvent,
    PassEvent,
    RefuteEvent,
    SuggestionEvent,
)
from reasoning.closing import Closing
from reasoning.constraints import ConstraintSessionFactory


def clue_setup(config: ClueConfig, hand_sizes: Sequence[int] | None = None) -> ClueSetup:
    """The formalisation's view of a game's settings (hand sizes default to the engine's deal)."""
    deck = config.deck
    sizes = tuple(hand_sizes) if hand_sizes is not None else config.hand_sizes()
    return ClueSetup(
        categories=tuple((cat, tuple(c.name for c in deck.by_category[cat])) for cat in CATEGORIES),
        hand_sizes=sizes,
    )


def observation_setup(obs: ClueObservation) -> ClueSetup:
    """The formalisation's view of the game a player observes."""
    return ClueSetup(
        categories=(("suspect", obs.suspects), ("weapon", obs.weapons), ("room", obs.rooms)),
        hand_sizes=obs.hand_sizes,
    )


def deduction_fact(deduction: Deduction) -> Fact:
    """A stated deduction as a fact about one cell."""
    return Fact(deduction.kind, deduction.card.name, deduction.player)


def fact_deduction(fact: Fact, deck: Deck) -> Deduction:
    """A fact as a deduction an agent can state."""
    return Deduction(kind=fact.kind, card=deck.card(fact.card), player=fact.player)


class PlayerView(Closing):
    """A seat's knowledge (``player=None``: an onlooker's) kept up to date from Clue events.

    Events must come in log order. Bad events (unknown cards or seats, a pass or refutation
    without a suggestion before it) raise ValueError; contradictory ones InconsistentKnowledge.
    """

    def __init__(
        self,
        setup: ClueSetup,
        factory: ConstraintSessionFactory,
        player: int | None,
        hand: Sequence[Card] | None = None,
    ) -> None:
        self.player = player
        self.knowledge = ClueKnowledge(
            setup, factory, player, None if hand is None else [c.name for c in hand]
        )
        self.last_seq = -1
        self._pending: tuple[int, tuple[str, str, str]] | None = None

    def observe(self, event: ClueEvent) -> bool:
        """Take in one event; returns whether the knowledge gained a constraint."""
        self.last_seq = event.seq
        knowledge = self.knowledge
        if isinstance(event, HandEvent):
            if event.seat == self.player:
                return knowledge.set_hand(c.name for c in event.cards)
            return False
        if isinstance(event, SuggestionEvent):
            knowledge.setup.check_seat(event.seat)
            names = (event.suspect, event.weapon, event.room)
            for name in names:
                knowledge.setup.check_card(name)
            self._pending = (event.seat, names)
            return False
        if isinstance(event, PassEvent):
            return knowledge.passed(event.seat, self._suggested(event.suggester_seat, event.type))
        if isinstance(event, RefuteEvent):
            return self._refute(event)
        if isinstance(event, NoRefutationEvent):
            cards = self._suggested(event.seat, event.type)
            self._pending = None
            return knowledge.unrefuted(event.seat, cards)
        if isinstance(event, AccusationEvent):
            right = event.accuracy if event.seat == self.player else None
            names = (event.suspect, event.weapon, event.room)
            return knowledge.accused(names, event.correct, right)
        return False

    def _refute(self, event: RefuteEvent) -> bool:
        cards = self._suggested(event.suggester_seat, event.type)
        self._pending = None
        knowledge = self.knowledge
        if event.refuter_seat == event.suggester_seat:
            raise ValueError(f"player {event.refuter_seat} refutes its own suggestion")
        if event.card is not None and event.card.name not in cards:
            raise ValueError(f"refute shows {event.card.name!r}, which was not suggested")
        if event.card is not None and self.player == event.suggester_seat:
            return knowledge.shown(event.refuter_seat, event.card.name)
        return knowledge.refuted(event.refuter_seat, cards)

    def _suggested(self, suggester: int, kind: str) -> tuple[str, str, str]:
        if self._pending is None or self._pending[0] != suggester:
            raise ValueError(f"{kind} for a suggestion by player {suggester} not in the log")
        return self._pending[1]

    def catch_up(self, history: Sequence[ClueEvent]) -> bool:
        """Observe the events of ``history`` not seen yet (by seq); whether anything was added."""
        changed = False
        for event in history:
            if event.seq > self.last_seq:
                changed = self.observe(event) or changed
        return changed

    def close(self) -> None:
        """Release the knowledge's constraint session."""
        self.knowledge.close()
