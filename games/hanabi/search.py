"""The ``hat-search`` agent: single-agent search over the hat blueprint where it is unsure.

Source: Lerer, Hu, Foerster and Brown, "Improving Policies via Search in Cooperative Partially
Observable Games" (AAAI 2020, SPARTA): one seat searches while every other seat keeps to the
shared blueprint, so the others' reading of the history stays valid; the searcher samples its
hidden hand from its beliefs, plays each candidate move followed by blueprint rollouts, and
deviates from the blueprint only when a candidate's mean beats the blueprint move's by a margin.

What this agent adds to make it cheap (gumshoe's own choices):

- Search only where the blueprint is unsure: a risky play, a discard of a card that may still be
  needed, a hint given for want of a better move (``Decision.unsure``). Certain plays, known
  useless discards and hints a teammate needs are kept; they are most moves.
- Candidates: the blueprint's move, every discard, a play of every card that could be playable
  and the blueprint's hint. Every candidate is valued on the same sampled hands and deck orders
  (common random numbers), so the comparison is sharper than the values.
- Beliefs: the blueprint's own tables of the searcher's hand (every hint read as a hat sum),
  narrowed by the cards it sees; hands are drawn slot by slot with the copies left.
- Racing: a candidate that trails the blueprint's move by four points summed over the deals
  so far (from the second deal on) is dropped; most candidates at most decisions do early (a
  discard of a card still needed, a play unlikely to succeed), which saves their rollouts.
- Rollouts copy the blueprint's public state for every seat (no replay of the history), and the
  blueprint is fast, so a rollout to the end of a game costs a few milliseconds.
"""

from __future__ import annotations

import random

from formalize.hanabi.deck import COPIES, NUM_IDENTITIES, NUM_RANKS
from games.hanabi.config import Scoring
from games.hanabi.engine import HanabiGame, HanabiObservation
from games.hanabi.hat import Decision, HatAgent, Table

ROLLOUTS = 8
"""Sampled hands (and deck orders) per searched decision; every candidate uses the same ones."""
MARGIN = 0.1
"""A candidate replaces the blueprint's move only if its mean is higher by at least this."""
DISCARDS = 2
"""Candidates include this many of the safest discards by the blueprint's order."""
PLAY_ODDS = 0.25
"""Candidates include a play of the likeliest playable card when at least this likely."""
PRUNE = 4
PRUNE_AFTER = 2
"""From the second deal on, a candidate trailing the blueprint's move by this many points in all
(same deals) gets no more rollouts: the deals left would have to make up more than that."""
MAX_TRIES = 50
"""Attempts at drawing a hand consistent with the copies left before the search is skipped."""


def sample_hand(
    obs: HanabiObservation, tables: list[Table], rng: random.Random
) -> list[int] | None:
    """A hand the seat could hold under ``tables``, drawn slot by slot with the copies left; None
    when no draw in ``MAX_TRIES`` fits."""
    left = [0] * NUM_IDENTITIES
    for card, weight in enumerate(_unseen(obs)):
        left[card] = weight
    for _ in range(MAX_TRIES):
        copies = list(left)
        hand: list[int] = []
        for table in tables:
            cards = [c for c in table if copies[c] > 0]
            if not cards:
                break
            card = rng.choices(cards, weights=[copies[c] for c in cards])[0]
            copies[card] -= 1
            hand.append(card)
        if len(hand) == len(tables):
            return hand
    return None


def _unseen(obs: HanabiObservation) -> list[int]:
    left = list(COPIES)
    for seat, hand in enumerate(obs.hands):
        if seat != obs.seat:
            for card in hand:
                left[card] -= 1
    for card in obs.discards:
        left[card] -= 1
    for color, height in enumerate(obs.fireworks):
        for rank in range(height):
            left[color * NUM_RANKS + rank] -= 1
    return left


class SearchAgent:
    """The hat blueprint with rollout search at its judgement calls."""

    name = "hat-search"

    def __init__(
        self,
        seat: int,
        seed: int,
        scoring: Scoring = "fireworks",
        rollouts: int = ROLLOUTS,
        margin: float = MARGIN,
    ) -> None:
        self.blueprint = HatAgent(seat, scoring=scoring)
        self.scoring = scoring
        self.rollouts = rollouts
        self.margin = margin
        self._rng = random.Random(seed)

    def act(self, obs: HanabiObservation) -> int:
        """The blueprint's move, or a better one found by search where the blueprint is unsure."""
        move = self.blueprint.act(obs)
        decision = self.blueprint.last
        if decision is None or not decision.unsure:
            return move
        candidates = self._candidates(obs, move, decision)
        if len(candidates) < 2:
            return move
        deals = []
        for _ in range(self.rollouts):
            hand = sample_hand(obs, decision.private, self._rng)
            if hand is None:
                return move
            deals.append((hand, self._rng.getrandbits(31)))
        alive = list(candidates)
        totals = dict.fromkeys(candidates, 0)
        for done, (hand, seed) in enumerate(deals, 1):
            for action in alive:
                totals[action] += self._rollout(obs, hand, seed, action)
            if done >= PRUNE_AFTER:
                alive = [a for a in alive if a == move or totals[move] - totals[a] < PRUNE]
                if len(alive) == 1:
                    return move
        values = {action: totals[action] / len(deals) for action in alive}
        best = max(alive, key=lambda a: (values[a], a == move))
        return best if values[best] >= values[move] + self.margin else move

    def _candidates(self, obs: HanabiObservation, move: int, decision: Decision) -> list[int]:
        legal = set(obs.legal_actions)
        private = decision.private
        found = [move, *decision.discard_order(private)[:DISCARDS]]
        odds = [
            (sum(w for c, w in t.items() if decision.board.playable[c]) / sum(t.values()), slot)
            for slot, t in enumerate(private)
        ]
        best, slot = max(odds)
        if best >= PLAY_ODDS:
            found.append(obs.hand_size + slot)
        if obs.tokens:
            found.append(decision.hint())
        return list(dict.fromkeys(a for a in found if a in legal))

    def _rollout(self, obs: HanabiObservation, hand: list[int], seed: int, action: int) -> int:
        game = HanabiGame.from_observation(obs, hand, seed, self.scoring)
        agents = [self.blueprint.clone(seat) for seat in range(obs.players)]
        game.apply({obs.seat: action})
        while not game.is_terminal():
            seat = game.current
            game.apply({seat: agents[seat].act(game.observation(seat))})
        return game.score()
