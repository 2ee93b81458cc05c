"""The Hanabi engine: rules, seeded deals and legal moves exactly as the reference engine has them.

Seats are 0..players-1 and seat 0 moves first. Slot 0 of a hand is its oldest card: after a play
or discard the cards shift left and the replacement goes to the last slot. Cards are identity
numbers (``formalize.hanabi.deck``) and moves are move numbers (``games.hanabi.moves``).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from formalize.hanabi.deck import COPIES, NUM_COLORS, NUM_IDENTITIES, NUM_RANKS, card_name
from games.core.protocol import IllegalAction
from games.hanabi.config import MAX_SEED, Scoring
from games.hanabi.events import (
    DealEvent,
    DiscardEvent,
    GameEnd,
    HanabiConfig,
    HanabiEvent,
    HintEvent,
    PlayEvent,
)
from games.hanabi.moves import Move, move_table
from games.hanabi.rng import MT19937, discrete_index

MAX_TOKENS = 8
MAX_LIVES = 3
MAX_SCORE = NUM_COLORS * NUM_RANKS
_FULL_COLORS = (1 << NUM_COLORS) - 1
_FULL_RANKS = (1 << NUM_RANKS) - 1

EndReason = Literal["fireworks_complete", "out_of_lives", "deck_exhausted"]


@dataclass(frozen=True, slots=True)
class Turn:
    """One move as everyone saw it.

    ``card`` is the played or discarded identity (-1 for a hint), ``scored`` whether a play
    succeeded, ``touched`` the bitmask of the target's slots a hint touched, ``drew`` whether a
    replacement card was drawn.
    """

    seat: int
    action: int
    card: int
    scored: bool
    touched: int
    drew: bool


@dataclass(frozen=True, slots=True)
class HanabiObservation:
    """What one seat knows: everything but its own cards and the deck.

    ``hands[seat]`` holds -1 for each of the seat's own cards. ``color_masks`` / ``rank_masks``
    are every slot's possible colours / ranks from direct hints (5-bit masks), public to all.
    ``turns_left``: once the deck is empty, the moves left in the game, this one included.
    """

    seat: int
    players: int
    hand_size: int
    current_player: int
    tokens: int
    lives: int
    fireworks: tuple[int, ...]
    deck_size: int
    discards: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    color_masks: tuple[tuple[int, ...], ...]
    rank_masks: tuple[tuple[int, ...], ...]
    history: tuple[Turn, ...]
    legal_actions: tuple[int, ...]
    turns_left: int | None


class HanabiGame:
    """One game from a seed: the deal follows the reference engine's draw for that seed."""

    def __init__(self, config: HanabiConfig | None = None, seed: int = 0) -> None:
        if not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed: must be in 0..{MAX_SEED}, got {seed}")
        self.config = config or HanabiConfig()
        self.seed = seed
        self.players = self.config.players
        self.hand_size = self.config.hand_size
        self.moves: tuple[Move, ...] = move_table(self.players, self.hand_size)
        self._rng = MT19937(seed)
        self.deck = list(COPIES)
        self.deck_size = sum(COPIES)
        self.hands: list[list[int]] = [[] for _ in range(self.players)]
        self.color_masks: list[list[int]] = [[] for _ in range(self.players)]
        self.rank_masks: list[list[int]] = [[] for _ in range(self.players)]
        self.tokens = MAX_TOKENS
        self.lives = MAX_LIVES
        self.fireworks = [0] * NUM_COLORS
        self.discards: list[int] = []
        self.history: list[Turn] = []
        self.current = 0
        self.turns_to_play = self.players
        for seat in range(self.players):
            for _ in range(self.hand_size):
                self._draw(seat)

    def _draw(self, seat: int) -> None:
        deck = self.deck
        present = [i for i in range(NUM_IDENTITIES) if deck[i]]
        size = float(self.deck_size)
        card = present[discrete_index(self._rng, [deck[i] / size for i in present])]
        deck[card] -= 1
        self.deck_size -= 1
        self.hands[seat].append(card)
        self.color_masks[seat].append(_FULL_COLORS)
        self.rank_masks[seat].append(_FULL_RANKS)

    def current_players(self) -> list[int]:
        """The seat to move, or nobody once the game is over."""
        return [] if self.is_terminal() else [self.current]

    def is_legal(self, seat: int, action: int) -> bool:
        """Whether ``action`` is a legal move number for ``seat`` now."""
        if seat != self.current or self.is_terminal() or not 0 <= action < len(self.moves):
            return False
        move = self.moves[action]
        if move.kind == "discard":
            return self.tokens < MAX_TOKENS and move.slot < len(self.hands[seat])
        if move.kind == "play":
            return move.slot < len(self.hands[seat])
        if self.tokens == 0:
            return False
        target = self.hands[(seat + move.offset) % self.players]
        if move.kind == "reveal_color":
            return any(card // NUM_RANKS == move.color for card in target)
        return any(card % NUM_RANKS == move.rank for card in target)

    def legal_actions(self, seat: int) -> list[int]:
        """The seat's legal move numbers in increasing order (empty when it is not its turn)."""
        if seat != self.current or self.is_terminal():
            return []
        held = len(self.hands[seat])
        size = self.hand_size
        actions = list(range(held)) if self.tokens < MAX_TOKENS else []
        actions += range(size, size + held)
        if self.tokens:
            players = self.players
            base = 2 * size
            rank_base = base + (players - 1) * NUM_COLORS
            ranks: list[int] = []
            for offset in range(1, players):
                target = self.hands[(seat + offset) % players]
                colors = {card // NUM_RANKS for card in target}
                present = {card % NUM_RANKS for card in target}
                start = (offset - 1) * NUM_COLORS
                actions += sorted(base + start + c for c in colors)
                ranks += sorted(rank_base + start + r for r in present)
            actions += ranks
        return actions

    def apply(self, actions: dict[int, int]) -> None:
        """Apply one seat's move given as ``{seat: move number}``; IllegalAction if illegal."""
        if len(actions) != 1:
            raise IllegalAction(f"expected one seat's move, got {len(actions)}")
        ((seat, action),) = actions.items()
        if not self.is_legal(seat, action):
            raise IllegalAction(f"move {action} is not legal for seat {seat} now")
        if self.deck_size == 0:
            self.turns_to_play -= 1
        move = self.moves[action]
        card, scored, touched, drew = -1, False, 0, False
        if move.kind in ("discard", "play"):
            hand = self.hands[seat]
            card = hand.pop(move.slot)
            del self.color_masks[seat][move.slot]
            del self.rank_masks[seat][move.slot]
            if move.kind == "discard":
                self.tokens += 1
                self.discards.append(card)
            else:
                color = card // NUM_RANKS
                if card % NUM_RANKS == self.fireworks[color]:
                    scored = True
                    self.fireworks[color] += 1
                    if self.fireworks[color] == NUM_RANKS and self.tokens < MAX_TOKENS:
                        self.tokens += 1
                else:
                    self.lives -= 1
                    self.discards.append(card)
            if self.deck_size:
                self._draw(seat)
                drew = True
        else:
            self.tokens -= 1
            target = (seat + move.offset) % self.players
            touched = self._reveal(target, move)
        self.history.append(Turn(seat, action, card, scored, touched, drew))
        self.current = (seat + 1) % self.players

    def _reveal(self, target: int, move: Move) -> int:
        colors = self.color_masks[target]
        ranks = self.rank_masks[target]
        touched = 0
        for slot, card in enumerate(self.hands[target]):
            if move.kind == "reveal_color":
                if card // NUM_RANKS == move.color:
                    colors[slot] = 1 << move.color
                    touched |= 1 << slot
                else:
                    colors[slot] &= ~(1 << move.color)
            elif card % NUM_RANKS == move.rank:
                ranks[slot] = 1 << move.rank
                touched |= 1 << slot
            else:
                ranks[slot] &= ~(1 << move.rank)
        return touched

    def is_terminal(self) -> bool:
        """The game is over: three lives lost, all fireworks complete, or the last round played."""
        return self.lives < 1 or sum(self.fireworks) == MAX_SCORE or self.turns_to_play <= 0

    def end_reason(self) -> EndReason | None:
        """Why the game ended, or None while it goes on."""
        if self.lives < 1:
            return "out_of_lives"
        if sum(self.fireworks) == MAX_SCORE:
            return "fireworks_complete"
        if self.turns_to_play <= 0:
            return "deck_exhausted"
        return None

    def score(self) -> int:
        """The score in the configured mode (``hle`` scores a bomb-out as 0)."""
        if self.config.scoring == "hle" and self.lives < 1:
            return 0
        return sum(self.fireworks)

    def returns(self) -> list[float]:
        """Every seat's return: the shared score."""
        return [float(self.score())] * self.players

    def observation(self, seat: int) -> HanabiObservation:
        """What ``seat`` knows now."""
        hands = tuple(
            tuple([-1] * len(hand)) if other == seat else tuple(hand)
            for other, hand in enumerate(self.hands)
        )
        return HanabiObservation(
            seat=seat,
            players=self.players,
            hand_size=self.hand_size,
            current_player=self.current,
            tokens=self.tokens,
            lives=self.lives,
            fireworks=tuple(self.fireworks),
            deck_size=self.deck_size,
            discards=tuple(self.discards),
            hands=hands,
            color_masks=tuple(tuple(masks) for masks in self.color_masks),
            rank_masks=tuple(tuple(masks) for masks in self.rank_masks),
            history=tuple(self.history),
            legal_actions=tuple(self.legal_actions(seat)),
            turns_left=self.turns_to_play if self.deck_size == 0 else None,
        )

    def determinized(self, seat: int, hand: Sequence[int], seed: int) -> HanabiGame:
        """A copy of this game with ``seat``'s hand replaced by ``hand`` (cards the seat could
        hold) and the deck holding the rest, drawn from a generator seeded with ``seed``."""
        if len(hand) != len(self.hands[seat]):
            raise ValueError(f"hand: {len(self.hands[seat])} cards needed, got {len(hand)}")
        game = copy.deepcopy(self)
        for card in game.hands[seat]:
            game.deck[card] += 1
        for card in hand:
            game.deck[card] -= 1
        if min(game.deck) < 0:
            raise ValueError("hand: more copies of a card than the seat could hold")
        game.hands[seat] = list(hand)
        game._rng = MT19937(seed)
        return game

    @classmethod
    def from_observation(
        cls, obs: HanabiObservation, hand: Sequence[int], seed: int, scoring: Scoring = "fireworks"
    ) -> HanabiGame:
        """A game in the observed state with the observing seat holding ``hand`` and the deck
        holding every other unseen card, drawn from a generator seeded with ``seed``;
        ValueError if ``hand`` does not fit what the seat sees."""
        seat = obs.seat
        if len(hand) != len(obs.hands[seat]):
            raise ValueError(f"hand: {len(obs.hands[seat])} cards needed, got {len(hand)}")
        game = cls.__new__(cls)
        game.config = HanabiConfig(players=obs.players, scoring=scoring)
        game.seed = seed
        game.players = obs.players
        game.hand_size = obs.hand_size
        game.moves = move_table(obs.players, obs.hand_size)
        game._rng = MT19937(seed)
        game.hands = [list(hand) if s == seat else list(h) for s, h in enumerate(obs.hands)]
        deck = list(COPIES)
        for card in [c for h in game.hands for c in h] + list(obs.discards):
            deck[card] -= 1
        for color, height in enumerate(obs.fireworks):
            for rank in range(height):
                deck[color * NUM_RANKS + rank] -= 1
        if min(deck) < 0 or sum(deck) != obs.deck_size:
            raise ValueError("hand: more copies of a card than the seat could hold")
        game.deck = deck
        game.deck_size = obs.deck_size
        game.color_masks = [list(m) for m in obs.color_masks]
        game.rank_masks = [list(m) for m in obs.rank_masks]
        game.tokens = obs.tokens
        game.lives = obs.lives
        game.fireworks = list(obs.fireworks)
        game.discards = list(obs.discards)
        game.history = list(obs.history)
        game.current = obs.current_player
        game.turns_to_play = obs.players if obs.turns_left is None else obs.turns_left
        return game

    def describe(self, action: int) -> str:
        """A move number as text, such as ``(Play 0)``."""
        return self.moves[action].text()

    def hand_names(self, seat: int) -> list[str]:
        """A seat's cards as names, oldest first."""
        return [card_name(card) for card in self.hands[seat]]


def deal_event(game: HanabiGame) -> DealEvent:
    """The opening hands of a game that has not moved yet."""
    return DealEvent(turn=0, hands=tuple(tuple(game.hand_names(s)) for s in range(game.players)))


def turn_event(game: HanabiGame, index: int, turn: Turn) -> HanabiEvent:
    """The event for ``game.history[index]``; call it right after the move, before the next one."""
    move = game.moves[turn.action]
    number = index + 1
    drawn = card_name(game.hands[turn.seat][-1]) if turn.drew else None
    if move.kind == "play":
        return PlayEvent(
            turn=number,
            seat=turn.seat,
            action=turn.action,
            slot=move.slot,
            card=card_name(turn.card),
            scored=turn.scored,
            drawn=drawn,
        )
    if move.kind == "discard":
        return DiscardEvent(
            turn=number,
            seat=turn.seat,
            action=turn.action,
            slot=move.slot,
            card=card_name(turn.card),
            drawn=drawn,
        )
    return HintEvent(
        turn=number,
        seat=turn.seat,
        action=turn.action,
        target=(turn.seat + move.offset) % game.players,
        color="RYGWB"[move.color] if move.kind == "reveal_color" else None,
        rank=move.rank + 1 if move.kind == "reveal_rank" else None,
        slots=tuple(i for i in range(game.hand_size) if turn.touched >> i & 1),
    )


def end_event(game: HanabiGame) -> GameEnd:
    """The last event of a finished game."""
    reason = game.end_reason()
    if reason is None:
        raise ValueError("the game is still running")
    return GameEnd(
        turn=len(game.history) + 1,
        reason=reason,
        score=game.score(),
        fireworks=tuple(game.fireworks),
        lives=game.lives,
    )
