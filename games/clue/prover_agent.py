"""The prover-backed Clue agent: it knows exactly what its observations entail, and plays on it.

- Deductions: each turn it states the entailed facts it has not stated yet (which cards other
  players hold, which cards are or are not in the envelope).
- Accusation: exactly when the whole envelope is entailed; at the round limit, one of the
  envelope hypotheses still consistent with what it knows.
- Suggestion: the one with the greatest expected information about the envelope. The hypotheses
  are the envelope triples consistent with its knowledge (each checked by the constraint
  session), taken as equally likely; a suggestion's outcome is the card it is shown (or none),
  which given a hypothesis is one of the suggested cards outside the envelope and outside its own
  hand, the refuter's choice taken as uniform. The score is the mutual information between
  hypothesis and outcome (the expected entropy reduction), computed exactly from counts of
  hypotheses by which suggested cards they contain. Candidates per category are the cards that
  may still be in the envelope and its own cards.
- Refutation: it shows a card the suggester already knows it holds (shown to that player before,
  or entailed by the public record and those shown cards); otherwise the card whose reveal
  removes the fewest envelope candidates from the suggester's public view.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from formalize.clue import ClueSetup, Fact, KnowledgeGrid
from games.clue.agent import Accuse, ClueAction, ClueObservation, Phase, Show, Suggest
from games.clue.cards import Card, Deck
from games.clue.events import Deduction, RefuteEvent
from games.clue.knowledge import PlayerView, fact_deduction, observation_setup
from provers.sat_session import SatSession
from reasoning.constraints import ConstraintSessionFactory

TIE = 1e-9
"""Scores closer than this are ties, broken by the agent's seeded random choice."""


@dataclass
class _State:
    """What the agent keeps during one game."""

    seat: int
    setup: ClueSetup
    deck: Deck
    me: PlayerView
    public: PlayerView
    hand: frozenset[str]
    stated: set[Fact] = field(default_factory=set)
    shown_to: dict[int, list[str]] = field(default_factory=dict)
    hypotheses: list[tuple[str, ...]] | None = None


def _masked(cards: Sequence[str], mask: int) -> tuple[str | None, ...]:
    """``cards`` with the positions outside ``mask`` blanked."""
    return tuple(card if mask >> i & 1 else None for i, card in enumerate(cards))


class Hypotheses:
    """Equally likely envelope hypotheses (one card per category, in category order), counted by
    which cards of a suggestion they contain, to score suggestions."""

    def __init__(self, envelopes: Sequence[tuple[str, ...]]) -> None:
        self.envelopes = list(envelopes)
        self.total = len(self.envelopes)
        width = len(self.envelopes[0]) if self.envelopes else 0
        masks = range(1 << width)
        self._masks = masks
        self._containing: Counter[tuple[str | None, ...]] = Counter(
            _masked(envelope, mask) for envelope in self.envelopes for mask in masks
        )
        self._supersets = [
            [
                (sup, -1 if (sup ^ mask).bit_count() % 2 else 1)
                for sup in masks
                if sup & mask == mask
            ]
            for mask in masks
        ]

    def information(self, suggestion: Sequence[str], hand: frozenset[str]) -> float:
        """Mutual information (nats) between the envelope and the card shown for ``suggestion``
        by a suggester holding ``hand``, the refuter choosing uniformly among its options."""
        containing = [self._containing[_masked(suggestion, mask)] for mask in self._masks]
        outcome: dict[str | None, float] = {}
        conditional = 0.0
        for mask in self._masks:
            count = sum(sign * containing[sup] for sup, sign in self._supersets[mask])
            if count <= 0:
                continue
            weight = count / self.total
            shown = [
                card for i, card in enumerate(suggestion) if not mask >> i & 1 and card not in hand
            ]
            if not shown:
                outcome[None] = outcome.get(None, 0.0) + weight
                continue
            conditional += weight * math.log(len(shown))
            for card in shown:
                outcome[card] = outcome.get(card, 0.0) + weight / len(shown)
        entropy = -sum(p * math.log(p) for p in outcome.values() if p > 0)
        return entropy - conditional


class ProverAgent:
    """A Clue agent that reasons exactly with a constraint session (SAT by default)."""

    def __init__(
        self,
        seed: int,
        factory: ConstraintSessionFactory = SatSession,
        name: str = "prover",
    ) -> None:
        self._rng = random.Random(seed)
        self._factory = factory
        self._name = name
        self._state: _State | None = None

    @property
    def name(self) -> str:
        """The agent's name, recorded in the log."""
        return self._name

    def act(self, obs: ClueObservation) -> ClueAction:
        """Show, suggest or accuse, as the module docstring describes."""
        state = self._sync(obs)
        if obs.phase is Phase.REFUTE:
            return Show(card=self._card_to_show(state, obs))
        if obs.phase not in (Phase.TURN, Phase.FINAL_ACCUSATION):
            raise ValueError(f"no decision to make in phase {obs.phase.value}")
        grid = state.me.knowledge.grid()
        deductions = self._new_deductions(state, grid)
        solution = grid.solution()
        if solution is None and obs.phase is Phase.FINAL_ACCUSATION:
            solution = self._rng.choice(self._hypotheses(state, grid))
        if solution is not None:
            suspect, weapon, room = solution
            return Accuse(suspect=suspect, weapon=weapon, room=room, deductions=deductions)
        suspect, weapon, room = self._best_suggestion(state, grid)
        return Suggest(suspect=suspect, weapon=weapon, room=room, deductions=deductions)

    def close(self) -> None:
        """Release the constraint sessions of the current game."""
        if self._state is not None:
            self._state.me.close()
            self._state.public.close()
            self._state = None

    def _sync(self, obs: ClueObservation) -> _State:
        state = self._state
        newest = obs.history[-1].seq if obs.history else -1
        if state is None or state.seat != obs.player or newest < state.me.last_seq:
            self.close()
            setup = observation_setup(obs)
            state = _State(
                seat=obs.player,
                setup=setup,
                deck=obs.deck(),
                me=PlayerView(setup, self._factory, obs.player, obs.hand),
                public=PlayerView(setup, self._factory, None),
                hand=frozenset(c.name for c in obs.hand),
            )
            self._state = state
        for event in obs.history:
            if event.seq <= state.me.last_seq:
                continue
            if state.me.observe(event):
                state.hypotheses = None
            state.public.observe(event)
            if isinstance(event, RefuteEvent) and event.refuter_seat == obs.player and event.card:
                state.shown_to.setdefault(event.suggester_seat, []).append(event.card.name)
        return state

    def _new_deductions(self, state: _State, grid: KnowledgeGrid) -> tuple[Deduction, ...]:
        facts: list[Fact] = []
        for fact in grid.facts():
            if fact in state.stated:
                continue
            about_other = fact.kind == "holds" and fact.player != state.seat
            unlocated = fact.kind == "not_in_envelope" and grid.holder(fact.card) is None
            if about_other or unlocated or fact.kind == "in_envelope":
                facts.append(fact)
        state.stated.update(facts)
        return tuple(fact_deduction(f, state.deck) for f in facts)

    def _hypotheses(self, state: _State, grid: KnowledgeGrid) -> list[tuple[str, ...]]:
        """The envelope triples consistent with what the agent knows, in deck order."""
        if state.hypotheses is None:
            per_category = [grid.envelope_candidates(cat) for cat, _ in state.setup.categories]
            knowledge = state.me.knowledge
            state.hypotheses = [
                triple
                for triple in itertools.product(*per_category)
                if knowledge.possible([Fact("in_envelope", c) for c in triple])
            ]
        return state.hypotheses

    def _best_suggestion(self, state: _State, grid: KnowledgeGrid) -> tuple[str, ...]:
        hypotheses = Hypotheses(self._hypotheses(state, grid))
        options = [
            tuple(
                dict.fromkeys(
                    [*grid.envelope_candidates(cat), *(c for c in cards if c in state.hand)]
                )
            )
            for cat, cards in state.setup.categories
        ]
        best: list[tuple[str, ...]] = []
        best_score = -math.inf
        for suggestion in itertools.product(*options):
            score = hypotheses.information(suggestion, state.hand)
            if score > best_score + TIE:
                best, best_score = [suggestion], score
            elif score > best_score - TIE:
                best.append(suggestion)
        return self._rng.choice(best)

    def _card_to_show(self, state: _State, obs: ClueObservation) -> Card:
        if obs.pending is None or not obs.matching:
            raise ValueError("refute phase without a pending suggestion or a matching card")
        suggester = obs.pending.seat
        seen = state.shown_to.get(suggester, [])
        matching = list(obs.matching)
        for card in matching:
            if card.name in seen:
                return card
        given = [Fact("holds", name, state.seat) for name in seen]
        public = state.public.knowledge
        for card in matching:
            if public.entails(Fact("holds", card.name, state.seat), given):
                return card
        if len(matching) == 1:
            return matching[0]
        categories = [cat for cat, _ in state.setup.categories]

        def spread(extra: list[Fact]) -> float:
            return sum(math.log(max(1, public.count_envelope(cat, extra))) for cat in categories)

        before = spread(given)
        scored = [
            (before - spread([*given, Fact("holds", c.name, state.seat)]), c) for c in matching
        ]
        least = min(score for score, _ in scored)
        return self._rng.choice([c for score, c in scored if score < least + TIE])
