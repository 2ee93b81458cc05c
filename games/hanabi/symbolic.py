"""The ``symbolic`` agent: exact card knowledge plus a small set of shared conventions.

Conventions (see ``games.hanabi.conventions`` for how hints are read):

1. Play a card that is provably playable under exact knowledge and the conventions (a 5 first,
   then the lowest rank, then the oldest).
2. Save first: if the next seat will discard (it has no provable play or provably useless card
   even from what both of us see) and its chop is critical, hint its chop.
3. Hint the teammate hint that makes the most cards provably playable from what hinter and
   receiver both see; a hint whose focus would be read as a play is given only if it is true.
   Sooner seats break ties.
4. Discard a provably useless card, else the chop, else the card with the least expected loss
   by exact probability.
5. With the deck empty and at least two lives left, play the card most likely to be playable
   when it is likely enough; with all eight tokens, give the most useful true hint.
"""

from __future__ import annotations

from formalize.hanabi.deck import COPIES, NUM_IDENTITIES, NUM_RANKS
from formalize.hanabi.knowledge import HandKnowledge, hand_knowledge, played_cards
from games.hanabi.conventions import (
    PublicState,
    SlotInfo,
    critical_mask,
    dead_mask,
    playable_mask,
)
from games.hanabi.engine import MAX_TOKENS, HanabiObservation
from games.hanabi.knowledge import seat_knowledge
from games.hanabi.moves import Move, move_table

RISKY_PLAY = 0.6
"""With an empty deck and two lives or more, play a card at least this likely playable."""


class SymbolicAgent:
    """A deterministic convention agent built on exact card knowledge."""

    name = "symbolic"

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self._public: PublicState | None = None
        self.last_knowledge: HandKnowledge | None = None

    def act(self, obs: HanabiObservation) -> int:
        """Choose a legal move number for the observed state."""
        moves = move_table(obs.players, obs.hand_size)
        if self._public is None:
            self._public = PublicState(obs.players, obs.hand_size)
        public = self._public
        public.update(obs.history, moves)
        return _Turn(obs, public, moves).choose(self)


class _Turn:
    """One decision: everything the agent derives from the observation, computed once."""

    def __init__(self, obs: HanabiObservation, public: PublicState, moves: tuple[Move, ...]):
        self.obs = obs
        self.public = public
        self.moves = moves
        self.playable = playable_mask(obs.fireworks)
        self.dead = dead_mask(obs.fireworks, public.discarded)
        self.critical = critical_mask(obs.fireworks, public.discarded)
        conventions = [info.convention for info in public.hands[obs.seat]]
        knowledge = seat_knowledge(obs, extra=conventions)
        if not knowledge.deals:
            knowledge = seat_knowledge(obs)
        self.knowledge = knowledge

    def choose(self, agent: SymbolicAgent) -> int:
        obs = self.obs
        agent.last_knowledge = self.knowledge
        legal = set(obs.legal_actions)
        plays = [s for s, m in enumerate(self.knowledge.exact) if m and not m & ~self.playable]
        hints = self._hint_options(legal) if obs.tokens else []
        saves = [h for h in hints if h[1] > 0]
        if saves and not plays:
            return max(saves)[3]
        if plays:
            return obs.hand_size + self._best_play(plays)
        if saves:
            return max(saves)[3]
        useful = [h for h in hints if h[0] >= 1]
        if useful:
            return max(useful)[3]
        risky = self._risky_play()
        if risky is not None:
            return obs.hand_size + risky
        if obs.tokens < MAX_TOKENS:
            return self._discard()
        if hints:
            return max(hints)[3]
        return min(legal)

    def _best_play(self, plays: list[int]) -> int:
        def order(slot: int) -> tuple[int, int, int]:
            ranks = [
                c % NUM_RANKS for c in range(NUM_IDENTITIES) if self.knowledge.exact[slot] >> c & 1
            ]
            return (0 if min(ranks) == NUM_RANKS - 1 else 1, min(ranks), slot)

        return min(plays, key=order)

    def _risky_play(self) -> int | None:
        obs = self.obs
        if obs.deck_size or obs.lives < 2:
            return None
        best, slot = max(
            (sum(p for c, p in enumerate(row) if self.playable >> c & 1), s)
            for s, row in enumerate(self.knowledge.probabilities)
        )
        return slot if best >= RISKY_PLAY else None

    def _discard(self) -> int:
        exact = self.knowledge.exact
        for slot, mask in enumerate(exact):
            if mask and not mask & ~self.dead:
                return slot
        chop = self.public.chop(self.obs.seat)
        if chop is not None:
            return chop

        def loss(slot: int) -> float:
            total = 0.0
            for card, p in enumerate(self.knowledge.probabilities[slot]):
                if p and not self.dead >> card & 1:
                    total += p * (10.0 if self.critical >> card & 1 else 1.0)
            return total

        return min(range(len(exact)), key=loss)

    def _shared_unseen(self, target: int) -> list[int]:
        """Unseen counts from what both this seat and ``target`` see."""
        obs = self.obs
        counts = list(COPIES)
        for card in obs.discards:
            counts[card] -= 1
        for card in played_cards(obs.fireworks):
            counts[card] -= 1
        for other, hand in enumerate(obs.hands):
            if other not in (obs.seat, target):
                for card in hand:
                    counts[card] -= 1
        return counts

    def _known_elsewhere(self) -> int:
        """Identities some hand already has marked or known: hinting them again duplicates."""
        public = self.public
        alive = public.alive_mask()
        mask = 0
        for seat in range(self.obs.players):
            for slot in range(len(public.hands[seat])):
                possible = public.public_mask(seat, slot, alive)
                if possible.bit_count() == 1:
                    mask |= possible
        return mask

    def _next_will_discard(self, target: int, knowledge: HandKnowledge) -> bool:
        if self.obs.tokens >= MAX_TOKENS:
            return False
        for mask in knowledge.exact:
            if mask and (not mask & ~self.playable or not mask & ~self.dead):
                return False
        return True

    def _hint_options(self, legal: set[int]) -> list[tuple[float, int, int, int]]:
        """Every true hint as (play value, save value, closeness, move number)."""
        obs = self.obs
        public = self.public
        duplicates = self._known_elsewhere()
        options: list[tuple[float, int, int, int]] = []
        cache: dict[int, tuple[list[int], HandKnowledge, bool]] = {}
        for action in sorted(legal):
            move = self.moves[action]
            if move.kind in ("play", "discard"):
                continue
            target = (obs.seat + move.offset) % obs.players
            hand = obs.hands[target]
            if target not in cache:
                unseen = self._shared_unseen(target)
                before = hand_knowledge([i.mask() for i in public.hands[target]], unseen)
                danger = move.offset == 1 and self._next_will_discard(target, before)
                cache[target] = (unseen, before, danger)
            unseen, before, danger = cache[target]
            touched = 0
            for slot, card in enumerate(hand):
                if (move.kind == "reveal_color" and card // NUM_RANKS == move.color) or (
                    move.kind == "reveal_rank" and card % NUM_RANKS == move.rank
                ):
                    touched |= 1 << slot
            after_slots = public.read_hint(target, move, touched)
            if not all(
                info.convention >> card & 1 for info, card in zip(after_slots, hand, strict=True)
            ):
                continue
            after = hand_knowledge([i.mask() for i in after_slots], unseen)
            if not after.deals:
                continue
            options.append(
                (
                    self._play_value(hand, before, after, after_slots, duplicates),
                    self._save_value(target, hand, touched, danger),
                    -move.offset,
                    action,
                )
            )
        return options

    def _play_value(
        self,
        hand: tuple[int, ...],
        before: HandKnowledge,
        after: HandKnowledge,
        slots: list[SlotInfo],
        duplicates: int,
    ) -> float:
        value = 0.0
        seen = duplicates
        for slot, card in enumerate(hand):
            now = after.exact[slot]
            known_before = before.exact[slot] and not before.exact[slot] & ~self.playable
            if now and not now & ~self.playable and not known_before:
                if not seen >> card & 1:
                    value += 1.0 + 0.1 * (NUM_RANKS - card % NUM_RANKS)
                seen |= 1 << card
            elif slots[slot].touched and self.dead >> card & 1:
                value -= 0.5
        return value

    def _save_value(self, target: int, hand: tuple[int, ...], touched: int, danger: bool) -> int:
        if not danger:
            return 0
        chop = self.public.chop(target)
        if chop is None or not touched >> chop & 1:
            return 0
        return 1 if self.critical >> hand[chop] & 1 else 0
