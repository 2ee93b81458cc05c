"""The Clue engine: the deal, turns, refutation, accusations, the round limit, and the game loop.

Rules followed (seed 000, Section 3 and 4.4-4.5): a turn is either a suggestion or an accusation.
A suggestion is refuted by the first player after the suggester, in seat order, who holds one of
the three cards; players before it pass. A wrong accusation eliminates the accuser, who takes no
more turns but still refutes. A round is one turn of every player still in the game, opened by
``config.first_player``. After ``max_rounds`` rounds every remaining player makes a final
accusation; those are logged in round ``max_rounds + 1``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.clue.agent import (
    Accuse,
    Agent,
    ClueAction,
    ClueObservation,
    Phase,
    ReviewingAgent,
    Show,
    ShownCard,
    Suggest,
    legal_actions,
)
from games.clue.cards import MAX_ROUNDS, Card, Triple
from games.clue.events import (
    AccusationEvent,
    ClueConfig,
    ClueEvent,
    ClueResult,
    Deal,
    DeductionEvent,
    DeductionReview,
    DeductionReviewEvent,
    EndReason,
    GameEnd,
    GameStart,
    NoRefutationEvent,
    PassEvent,
    RefuteEvent,
    SuggestionEvent,
    TurnStart,
)
from games.core.protocol import GameInfo, IllegalAction, SeatResult


@dataclass(frozen=True, slots=True)
class _Accusation:
    round: int
    seq: int
    correct: bool
    accuracy: int


class ClueGame:
    """The state of one Clue game, dealt from ``seed``; advanced with ``apply``.

    The engine records every event in ``events`` (from seq 1; ``start_event`` makes seq 0) and keeps
    each player's view of them for ``observation``. Its attributes (``hands``, ``envelope``,
    ``eliminated``, ``phase``, ``current_player``, ``round``, ``turn``, ``actions`` ...) are for
    reading; only ``apply`` changes the state.
    """

    def __init__(self, config: ClueConfig, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.deck = config.deck
        n = config.players
        rng = random.Random(seed)
        suspect, weapon, room = (rng.choice(cards) for cards in self.deck.by_category.values())
        self.envelope = Triple(suspect.name, weapon.name, room.name)
        self._envelope_cards = frozenset((suspect, weapon, room))
        rest = [c for c in self.deck.cards if c not in self._envelope_cards]
        rng.shuffle(rest)
        self.hands: tuple[tuple[Card, ...], ...] = tuple(
            self.deck.sort(rest[seat::n]) for seat in range(n)
        )
        self._hand_sets = tuple(frozenset(hand) for hand in self.hands)
        self.eliminated = [False] * n
        self.phase = Phase.TURN
        self.current_player: int | None = config.first_player
        self.turn_player = config.first_player
        self.round = 1
        self.turn = 1
        self.actions: list[ClueAction] = []
        self._accusations: list[_Accusation | None] = [None] * n
        self._pending: SuggestionEvent | None = None
        self._matching: tuple[Card, ...] = ()
        self._final_queue: list[int] = []
        self._final_winner: int | None = None
        self._result: ClueResult | None = None
        self._events: list[ClueEvent] = []
        self._views: list[list[ClueEvent]] = [[] for _ in range(n)]
        self._shown: list[list[ShownCard]] = [[] for _ in range(n)]
        self._emit(TurnStart, seat=config.first_player)

    @property
    def events(self) -> Sequence[ClueEvent]:
        """Every event so far, from seq 1, in order (the omniscient record)."""
        return self._events

    @property
    def deal(self) -> Deal:
        """The hands and the envelope."""
        return Deal(hands=self.hands, envelope=self.envelope)

    def start_event(self) -> GameStart:
        """The ``game_start`` event (seq 0) for this game: the hand sizes and the deal."""
        return GameStart(
            seq=0,
            round=0,
            turn=0,
            hand_sizes=tuple(len(hand) for hand in self.hands),
            deal=self.deal,
        )

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.OVER

    def legal_actions(self) -> list[ClueAction]:
        """Every action the current player may take (deductions aside, which are free)."""
        c = self.config
        return legal_actions(self.phase, c.suspects, c.weapons, c.rooms, self._matching)

    def observation(self, player: int) -> ClueObservation:
        """What ``player`` knows now: its hand, the record as it saw it, the cards shown to it."""
        self._check_seat(player, "player")
        refuting = self.phase is Phase.REFUTE
        return ClueObservation(
            player=player,
            n_players=self.config.players,
            phase=self.phase,
            current_player=self.current_player,
            round=self.round,
            turn=self.turn,
            max_rounds=self.config.max_rounds,
            suspects=self.config.suspects,
            weapons=self.config.weapons,
            rooms=self.config.rooms,
            hand=self.hands[player],
            hand_sizes=tuple(len(hand) for hand in self.hands),
            eliminated=tuple(self.eliminated),
            history=tuple(self._views[player]),
            shown=tuple(self._shown[player]),
            pending=self._pending if refuting else None,
            matching=self._matching if refuting and player == self.current_player else (),
        )

    def apply(self, action: ClueAction, review: DeductionReview | None = None) -> None:
        """Play ``action`` for the current player; IllegalAction if the rules forbid it.

        ``review``, from a verifier-assisted agent, says how the action's deductions were
        checked; it is logged (as ``deduction_review``) just before them, and must be the
        current player's, made at this round and turn, and have acted on those deductions.
        """
        self._check_legal(action)
        player = self.current_player
        assert player is not None
        if review is not None:
            self._check_review(review, player, action)
        self.actions.append(action)
        if review is not None:
            self._emit(
                DeductionReviewEvent,
                **review.model_dump(exclude={"round", "turn"}),
            )
        if action.deductions:
            self._emit(DeductionEvent, seat=player, deductions=action.deductions, call=action.call)
        if isinstance(action, Suggest):
            self._suggest(player, action.triple())
        elif isinstance(action, Show):
            self._show(player, action.card)
        elif self.phase is Phase.FINAL_ACCUSATION:
            self._final_accuse(player, action.triple())
        else:
            self._accuse(player, action.triple())

    def result(self) -> ClueResult:
        """How the game ended; ValueError while it is still running."""
        if self._result is None:
            raise ValueError("the game is not over")
        return self._result

    def ranks(self) -> list[int]:
        """Each seat's finishing position (1 = best); ValueError while the game is running."""
        return list(self.result().ranks)

    def returns(self) -> list[float]:
        """Payoff per seat: 1.0 for the winner, 0.0 for everyone else (all 0.0 while running)."""
        winner = self._result.winner if self._result is not None else None
        return [1.0 if seat == winner else 0.0 for seat in range(self.config.players)]

    def _check_seat(self, seat: int, what: str) -> None:
        if not 0 <= seat < self.config.players:
            raise ValueError(f"{what} {seat}: no such seat among {self.config.players}")

    def _check_legal(self, action: ClueAction) -> None:
        phase = self.phase
        if phase is Phase.OVER:
            raise IllegalAction("the game is over")
        allowed: dict[Phase, tuple[type, ...]] = {
            Phase.TURN: (Suggest, Accuse),
            Phase.REFUTE: (Show,),
            Phase.FINAL_ACCUSATION: (Accuse,),
        }
        if not isinstance(action, allowed[phase]):
            kinds = " or ".join(t.__name__ for t in allowed[phase])
            raise IllegalAction(f"phase {phase.value} needs {kinds}, got {action!r}")
        try:
            if isinstance(action, Show):
                if action.card not in self._matching:
                    names = ", ".join(c.name for c in self._matching)
                    raise IllegalAction(
                        f"card {action.card.name!r} cannot refute; show one of: {names}"
                    )
            else:
                self.deck.triple_cards(action.triple())
            for deduction in action.deductions:
                if deduction.card not in self.deck:
                    raise IllegalAction(f"deduction about unknown card {deduction.card!r}")
                if deduction.player is not None:
                    self._check_seat(deduction.player, "deduction about player")
        except IllegalAction:
            raise
        except ValueError as err:
            raise IllegalAction(str(err)) from err

    def _check_review(self, review: DeductionReview, player: int, action: ClueAction) -> None:
        made = (review.seat, review.round, review.turn)
        if made != (player, self.round, self.turn):
            raise IllegalAction(
                f"review of player {review.seat} at round {review.round}, turn {review.turn} "
                f"comes with an action of player {player} at round {self.round}, turn {self.turn}"
            )
        if review.acted_on != action.deductions:
            raise IllegalAction("review: acted_on differs from the action's deductions")
        if review.withheld and not isinstance(action, Suggest):
            raise IllegalAction("review: a withheld accusation comes with a suggestion")
        for deduction in review.mentioned():
            if deduction.card not in self.deck:
                raise IllegalAction(f"review: deduction about unknown card {deduction.card!r}")
            if deduction.player is not None:
                self._check_seat(deduction.player, "review: deduction about player")

    def _emit(self, kind: type[Any], **fields: Any) -> ClueEvent:
        event: ClueEvent = kind(
            seq=len(self._events) + 1, round=self.round, turn=self.turn, **fields
        )
        self._events.append(event)
        for seat, view in enumerate(self._views):
            seen = self._view(event, seat)
            if seen is not None:
                view.append(seen)
        return event

    @staticmethod
    def _view(event: ClueEvent, seat: int) -> ClueEvent | None:
        """``event`` as ``seat`` sees it, or None when it is private to someone else."""
        if isinstance(event, DeductionEvent | DeductionReviewEvent):
            return event if event.seat == seat else None
        if isinstance(event, RefuteEvent) and seat not in (
            event.refuter_seat,
            event.suggester_seat,
        ):
            return event.model_copy(update={"card": None})
        if isinstance(event, AccusationEvent) and event.seat != seat:
            return event.model_copy(update={"accuracy": None})
        return event

    def _suggest(self, player: int, triple: Triple) -> None:
        cards = frozenset(self.deck.triple_cards(triple))
        suggestion = self._emit(
            SuggestionEvent,
            seat=player,
            suspect=triple.suspect,
            weapon=triple.weapon,
            room=triple.room,
        )
        assert isinstance(suggestion, SuggestionEvent)
        n = self.config.players
        for offset in range(1, n):
            seat = (player + offset) % n
            matching = self._hand_sets[seat] & cards
            if matching:
                self.phase = Phase.REFUTE
                self.current_player = seat
                self._pending = suggestion
                self._matching = self.deck.sort(matching)
                return
            self._emit(PassEvent, seat=seat, suggester_seat=player)
        self._emit(NoRefutationEvent, seat=player)
        self._end_turn()

    def _show(self, refuter: int, card: Card) -> None:
        assert self._pending is not None
        suggester = self._pending.seat
        event = self._emit(RefuteEvent, refuter_seat=refuter, suggester_seat=suggester, card=card)
        self._shown[suggester].append(
            ShownCard(seq=event.seq, round=event.round, refuter=refuter, card=card)
        )
        self._pending = None
        self._matching = ()
        self._end_turn()

    def _judge(self, player: int, triple: Triple) -> _Accusation:
        cards = self.deck.triple_cards(triple)
        accuracy = sum(1 for card in cards if card in self._envelope_cards)
        record = _Accusation(
            round=self.round, seq=len(self._events) + 1, correct=accuracy == 3, accuracy=accuracy
        )
        self._accusations[player] = record
        return record

    def _accuse(self, player: int, triple: Triple) -> None:
        record = self._judge(player, triple)
        self.eliminated[player] = not record.correct
        self._emit_accusation(player, triple, record, final=False)
        if record.correct:
            self._finish(player, "correct_accusation")
        elif all(self.eliminated):
            self._finish(None, "all_eliminated")
        else:
            self._end_turn()

    def _final_accuse(self, player: int, triple: Triple) -> None:
        record = self._judge(player, triple)
        self._emit_accusation(player, triple, record, final=True)
        if record.correct and self._final_winner is None:
            self._final_winner = player
        self._final_queue.pop(0)
        if self._final_queue:
            self._start_turn(self._final_queue[0], final=True)
        else:
            self._finish(self._final_winner, "round_limit")

    def _emit_accusation(
        self, player: int, triple: Triple, record: _Accusation, final: bool
    ) -> None:
        self._emit(
            AccusationEvent,
            seat=player,
            suspect=triple.suspect,
            weapon=triple.weapon,
            room=triple.room,
            correct=record.correct,
            eliminated=self.eliminated[player],
            accuracy=record.accuracy,
            final=final,
        )

    def _position(self, seat: int) -> int:
        """A seat's place in the round, counted from the first player."""
        return (seat - self.config.first_player) % self.config.players

    def _end_turn(self) -> None:
        n = self.config.players
        current = self.turn_player
        nxt = next(
            seat
            for seat in ((current + k) % n for k in range(1, n + 1))
            if not self.eliminated[seat]
        )
        if self._position(nxt) > self._position(current):
            self._start_turn(nxt, final=False)
        elif self.round < self.config.max_rounds:
            self.round += 1
            self._start_turn(nxt, final=False)
        else:
            self.round += 1
            self._final_queue = sorted(
                (s for s in range(n) if not self.eliminated[s]), key=self._position
            )
            self._start_turn(self._final_queue[0], final=True)

    def _start_turn(self, seat: int, final: bool) -> None:
        self.phase = Phase.FINAL_ACCUSATION if final else Phase.TURN
        self.turn += 1
        self.turn_player = seat
        self.current_player = seat
        self._emit(TurnStart, seat=seat, final=final)

    def _finish(self, winner: int | None, reason: EndReason) -> None:
        n = self.config.players

        def order(seat: int) -> tuple[int, int, float, float, int]:
            record = self._accusations[seat]
            if record is None:
                return (1, 0, float("inf"), float("inf"), self._position(seat))
            return (
                0 if record.correct else 1,
                -record.accuracy,
                record.round,
                record.seq,
                self._position(seat),
            )

        ranks = [0] * n
        for place, seat in enumerate(sorted(range(n), key=order), start=1):
            ranks[seat] = place
        self._result = ClueResult(
            winner=winner,
            ranks=tuple(ranks),
            accuracy=tuple(None if r is None else r.accuracy for r in self._accusations),
            rounds=min(self.round, self.config.max_rounds),
            turns=self.turn,
            reason=reason,
        )
        self.phase = Phase.OVER
        self.current_player = None
        self._emit(GameEnd, **self._result.outcome().model_dump())


INFO = GameInfo(
    name="clue",
    min_players=3,
    max_players=6,
    simultaneous=False,
    imperfect_information=True,
    max_decisions=(MAX_ROUNDS + 1) * 6 * 2,
)


@dataclass(frozen=True, slots=True)
class ClueMove:
    """An action with the deduction review behind it (None when the agent keeps none)."""

    action: ClueAction
    review: DeductionReview | None = None


class ClueState:
    """A Clue game (``ClueGame``) behind the shared game protocol."""

    def __init__(self, game: ClueGame) -> None:
        if game.actions:
            raise ValueError("a game state needs a fresh game; this one has already been played")
        self.game = game
        self._start = self.game.start_event()

    def current_players(self) -> list[int]:
        """The current player, or nobody once the game is over."""
        seat = self.game.current_player
        return [] if seat is None else [seat]

    def legal_actions(self, seat: int) -> list[ClueAction]:
        """The current player's legal actions (stated deductions aside); none for other seats."""
        return self.game.legal_actions() if seat == self.game.current_player else []

    def apply(self, actions: Mapping[int, ClueAction | ClueMove]) -> None:
        """Play the current player's action (or move); IllegalAction otherwise."""
        if list(actions) != self.current_players():
            raise IllegalAction(
                f"seats {sorted(actions)} acted; the game waits for {self.current_players()}"
            )
        (move,) = actions.values()
        if isinstance(move, ClueMove):
            self.game.apply(move.action, move.review)
        else:
            self.game.apply(move)

    def observation(self, seat: int) -> ClueObservation:
        """What ``seat`` knows now."""
        return self.game.observation(seat)

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self.game.is_terminal()

    def returns(self) -> list[float]:
        """1.0 for the winner, 0.0 for everyone else."""
        return self.game.returns()

    def result(self) -> SeatResult:
        """Returns, ranks and the end reason."""
        result = self.game.result()
        return SeatResult(
            returns=tuple(self.game.returns()), ranks=result.ranks, reason=result.reason
        )

    def events(self) -> list[ClueEvent]:
        """``game_start`` and every event since."""
        return [self._start, *self.game.events]


class ClueSeat:
    """A Clue agent as a seat of the shared play loop: its action comes with the deduction review
    it made for this decision, when it keeps reviews."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    @property
    def name(self) -> str:
        """The agent's name."""
        return self.agent.name

    def act(self, obs: ClueObservation) -> ClueMove:
        """The agent's action and its new review (IllegalAction for more than one)."""
        before = len(self._reviews())
        action = self.agent.act(obs)
        new = self._reviews()[before:]
        if len(new) > 1:
            raise IllegalAction(
                f"agent {self.name!r}: {len(new)} deduction reviews for one decision"
            )
        return ClueMove(action, new[0] if new else None)

    def _reviews(self) -> tuple[DeductionReview, ...]:
        return self.agent.reviews if isinstance(self.agent, ReviewingAgent) else ()
