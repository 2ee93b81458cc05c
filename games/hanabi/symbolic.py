"""The ``symbolic`` agent: exact card knowledge plus a few shared conventions.

Hints are read as ``games.hanabi.conventions`` says (chop, focus, play or save). Each turn, in
order:

1. If the next seat is about to discard (no provable play or provably useless card, even from
   what both of us see) and its chop is critical, and this seat has no provable play: save it
   with a true hint touching the chop.
2. Play a provably playable card (exact knowledge within the conventions): a 5 first, then the
   lowest rank, then the oldest.
3. Give the most valuable true hint if it is worth at least one card: a card made provably
   playable counts 1 (a little more for low ranks), one made playable once publicly known cards
   are played 0.8, each useful card touched for the first time 0.45, each useless card touched
   -0.5; identities already known in some hand count nothing. A hint is true when the focus it
   marks as playable is playable. Sooner seats break ties; in the last round only seats with a
   turn left are hinted.
4. With the deck empty, play the card most likely to be playable if any chance and two lives
   are left (or on the game's last turn under ``fireworks`` scoring).
5. With five cards or fewer in the deck, hint rather than discard: a hint draws no card.
6. Discard a provably useless card, else the chop (at 5 players: the untouched card with the
   least expected loss), else the card with the least expected loss by exact probability
   (critical cards weigh 10, other live cards 1).
7. With all eight tokens, give the most valuable true hint.
"""

from __future__ import annotations

from formalize.hanabi.deck import COPIES, NUM_IDENTITIES, NUM_RANKS
from formalize.hanabi.knowledge import HandKnowledge, hand_knowledge, played_cards
from games.hanabi.config import Scoring
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

DELAYED_VALUE = 0.8
"""A hint's value for a card it makes playable once cards known elsewhere are played."""
TOUCH_VALUE = 0.45
"""A hint's value for each useful card it touches for the first time."""
IDLE_BONUS = 0.8
"""Extra value for a hint giving a provable play to a seat that has none (it would discard)."""
STALL_DECK = 5
FREE_DISCARD_PLAYERS = 5
"""From this many players on, discard the untouched card of least expected loss, not the chop."""
"""With this many cards left in the deck or fewer, hint rather than discard (a hint draws none)."""


class SymbolicAgent:
    """A deterministic convention agent built on exact card knowledge.

    One instance plays one seat of one game: it replays the public history as the game goes.
    ``last_knowledge`` keeps the knowledge of its own hand it based its last decision on.
    """

    name = "symbolic"

    def __init__(self, seat: int, scoring: Scoring = "fireworks") -> None:
        self.seat = seat
        self.scoring = scoring
        self._public: PublicState | None = None
        self.last_knowledge: HandKnowledge | None = None

    def act(self, obs: HanabiObservation) -> int:
        """Choose a legal move number for the observed state."""
        moves = move_table(obs.players, obs.hand_size)
        if self._public is None:
            self._public = PublicState(obs.players, obs.hand_size)
        public = self._public
        public.update(obs.history, moves)
        return _Turn(obs, public, moves, self.scoring).choose(self)


class _Turn:
    """One decision: everything the agent derives from the observation, computed once."""

    def __init__(
        self,
        obs: HanabiObservation,
        public: PublicState,
        moves: tuple[Move, ...],
        scoring: Scoring,
    ) -> None:
        self.obs = obs
        self.scoring = scoring
        self.public = public
        self.moves = moves
        self.playable = playable_mask(obs.fireworks)
        self.dead = dead_mask(obs.fireworks, public.discarded)
        self.critical = critical_mask(obs.fireworks, public.discarded)
        self.promised = public.promised_mask()
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
        if plays:
            return obs.hand_size + self._best_play(plays)
        hints = self._hint_options(legal) if obs.tokens else []
        saves = [h for h in hints if h[1] > 0]
        if saves:
            return max(saves)[3]
        useful = [h for h in hints if h[0] >= 1]
        if useful:
            return max(useful)[3]
        risky = self._risky_play()
        if risky is not None:
            return obs.hand_size + risky
        if hints and obs.deck_size <= STALL_DECK:
            return max(hints)[3]
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
        if obs.deck_size:
            return None
        best, slot = max(
            (sum(p for c, p in enumerate(row) if self.playable >> c & 1), s)
            for s, row in enumerate(self.knowledge.probabilities)
        )
        if best <= 0.0:
            return None
        if obs.lives >= 2 or (obs.turns_left == 1 and self.scoring == "fireworks"):
            return slot
        return None

    def _discard(self) -> int:
        exact = self.knowledge.exact
        for slot, mask in enumerate(exact):
            if mask and not mask & ~self.dead:
                return slot
        chop = self.public.chop(self.obs.seat)

        def loss(slot: int) -> float:
            total = 0.0
            for card, p in enumerate(self.knowledge.probabilities[slot]):
                if p and not self.dead >> card & 1:
                    total += p * (10.0 if self.critical >> card & 1 else 1.0)
            return total

        if chop is None:
            return min(range(len(exact)), key=loss)
        if self.obs.players < FREE_DISCARD_PLAYERS:
            return chop
        hand = self.public.hands[self.obs.seat]
        untouched = [slot for slot, info in enumerate(hand) if not info.touched]
        return min(untouched, key=lambda slot: (round(loss(slot), 2), slot))

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
            if obs.turns_left is not None and move.offset >= obs.turns_left:
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
            value = self._play_value(
                hand, before, after, after_slots, public.hands[target], duplicates
            )
            if value >= 1.0 and not any(m and not m & ~self.playable for m in before.exact):
                value += IDLE_BONUS
            options.append(
                (
                    value,
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
        previous: list[SlotInfo],
        duplicates: int,
    ) -> float:
        """Cards made provably playable (now or after known cards), plus newly touched cards."""
        was_touched = [info.touched for info in previous]
        value = 0.0
        seen = duplicates
        for slot, card in enumerate(hand):
            now = after.exact[slot]
            known_before = before.exact[slot] and not before.exact[slot] & ~self.playable
            if now and not now & ~self.playable and not known_before:
                if not seen >> card & 1:
                    value += 1.0 + 0.1 * (NUM_RANKS - card % NUM_RANKS)
                seen |= 1 << card
            elif now and not now & ~self.promised:
                if not seen >> card & 1 and before.exact[slot] & ~self.promised:
                    value += DELAYED_VALUE
                seen |= 1 << card
            elif slots[slot].touched and self.dead >> card & 1:
                value -= 0.5
            elif slots[slot].touched and not was_touched[slot]:
                value += TOUCH_VALUE
        return value

    def _save_value(self, target: int, hand: tuple[int, ...], touched: int, danger: bool) -> int:
        if not danger:
            return 0
        chop = self.public.chop(target)
        if chop is None or not touched >> chop & 1:
            return 0
        return 1 if self.critical >> hand[chop] & 1 else 0
