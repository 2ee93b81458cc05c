"""The Undercover-V engine: seating, descriptions in seat order, simultaneous votes, and the end.

Each round every living player describes its word in seat order, then all living players vote at
once (no abstention, no self-vote); the unique top vote-getter leaves, a tie removes nobody. The
citizens win when the spy leaves; the spy wins when two players remain or after ``tie_limit``
consecutive tied votes. A description that repeats an earlier one (after ``normalise_description``)
or contradicts the speaker's card (as the injected ``DescriptionChecker`` finds) is recorded as a
violation; the description stands. The seed alone fixes the spy's seat and which word is the spy's.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from games.core.protocol import GameInfo, IllegalAction, SeatResult
from games.undercover.agent import Agent, Description, Observation, RoundVote, SpokenDescription
from games.undercover.events import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Ballot,
    CheckOutcome,
    DescriptionEvent,
    DescriptionReading,
    EliminationEvent,
    EndReason,
    GameEnd,
    GameStart,
    Side,
    TieEvent,
    UndercoverConfig,
    UndercoverEvent,
    UndercoverResult,
    ViolationEvent,
    ViolationKind,
    VoteEvent,
)
from games.undercover.words import WordPair

_NOT_WORD = re.compile(r"[\W_]+")


class Phase(StrEnum):
    """What the game waits for: a description, the vote, or nothing (it is over)."""

    DESCRIBE = "describe"
    VOTE = "vote"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class CardCheck:
    """How a description stands against its speaker's card, and how it was read (None for a
    checker that reads nothing)."""

    outcome: CheckOutcome
    reading: DescriptionReading | None = None


class DescriptionChecker(Protocol):
    """Decides whether a description contradicts the card ``word`` its speaker holds.

    The prover-backed checker reads the description and tests what it asserts against the
    word's theory; it must turn prover timeouts and failures into ``CheckOutcome.UNDECIDED``,
    and a description it cannot read into ``CheckOutcome.UNREAD``, rather than raise.
    """

    def check(self, word: str, description: Description) -> CardCheck:
        """The card check of ``description`` given by the holder of ``word``."""
        ...


def normalise_description(text: str) -> str:
    """The form descriptions are compared in: Unicode-normalised, case-folded, words only."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(_NOT_WORD.sub(" ", folded).split())


@dataclass(frozen=True, slots=True)
class _Spoken:
    round: int
    seat: int
    text: str
    key: str


class UndercoverGame:
    """The state of one game, seated from ``seed``; advanced with ``describe`` and ``vote``.

    ``events`` holds every event from seq 1 on; ``start_event`` makes the ``game_start`` (seq 0).
    """

    def __init__(self, config: UndercoverConfig, pair: WordPair, seed: int) -> None:
        self.config = config
        self.pair = pair
        self.seed = seed
        rng = random.Random(seed)
        n = config.players
        self.spy_seat = rng.randrange(n)
        self.spy_word = rng.choice(pair.words)
        self.citizen_word = pair.other(self.spy_word)
        self.words: tuple[str, ...] = tuple(
            self.spy_word if seat == self.spy_seat else self.citizen_word for seat in range(n)
        )
        self.round = 1
        self.phase = Phase.DESCRIBE
        self.living: tuple[int, ...] = tuple(range(n))
        self.eliminated: list[int] = []
        self.consecutive_ties = 0
        self._spoken: list[_Spoken] = []
        self._votes: list[RoundVote] = []
        self._speakers: list[int] = list(self.living)
        self._violations = 0
        self._result: UndercoverResult | None = None
        self._events: list[UndercoverEvent] = []

    @property
    def events(self) -> Sequence[UndercoverEvent]:
        """Every event so far from seq 1, in order (the omniscient record)."""
        return self._events

    @property
    def current_seat(self) -> int | None:
        """The seat whose description is due, or None outside the description phase."""
        return self._speakers[0] if self.phase is Phase.DESCRIBE else None

    @property
    def result(self) -> UndercoverResult | None:
        """How the game ended, or None while it runs."""
        return self._result

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.OVER

    def start_event(self) -> GameStart:
        """The ``game_start`` event (seq 0): the spy's seat and every seat's word."""
        return GameStart(
            seq=0,
            round=1,
            spy_seat=self.spy_seat,
            spy_word=self.spy_word,
            citizen_word=self.citizen_word,
            words=self.words,
        )

    def observation(self, seat: int) -> Observation:
        """What ``seat`` knows: its own word and the public history."""
        self._check_seat(seat)
        return Observation(
            seat=seat,
            word=self.words[seat],
            round=self.round,
            players=self.config.players,
            living=self.living,
            descriptions=tuple(
                SpokenDescription(round=s.round, seat=s.seat, text=s.text) for s in self._spoken
            ),
            votes=tuple(self._votes),
            eliminated=tuple(self.eliminated),
            consecutive_ties=self.consecutive_ties,
        )

    def vote_targets(self, seat: int) -> tuple[int, ...]:
        """The seats ``seat`` may vote for: every living seat but its own."""
        return tuple(s for s in self.living if s != seat)

    def validate_description(self, seat: int, text: str) -> str:
        """The description text, stripped, if ``seat`` may now say it; else IllegalAction."""
        if self.phase is not Phase.DESCRIBE:
            raise IllegalAction(f"seat {seat}: no description is due in the {self.phase} phase")
        if seat != self._speakers[0]:
            raise IllegalAction(f"seat {seat}: it is seat {self._speakers[0]}'s turn to describe")
        if not isinstance(text, str) or not text.strip():
            raise IllegalAction(f"seat {seat}: the description is empty")
        clean = text.strip()
        if "\n" in clean or "\r" in clean:
            raise IllegalAction(f"seat {seat}: a description is one sentence on one line")
        return clean

    def describe(
        self,
        seat: int,
        text: str,
        formula: str | None,
        outcome: CheckOutcome,
        call: int | None = None,
        reading: DescriptionReading | None = None,
    ) -> list[UndercoverEvent]:
        """Record ``seat``'s description with its formula text, card check, reading and the
        recorded LLM call it came from; return the events."""
        clean = self.validate_description(seat, text)
        outcome = CheckOutcome(outcome)
        start = len(self._events)
        key = normalise_description(clean)
        self._emit(
            DescriptionEvent,
            seat=seat,
            text=clean,
            formula=formula,
            outcome=outcome,
            reading=reading,
            call=call,
        )
        earlier = next((s for s in self._spoken if s.key == key), None)
        if earlier is not None:
            self._emit(
                ViolationEvent,
                seat=seat,
                kind=ViolationKind.REPEAT,
                message=f"repeats the description seat {earlier.seat} gave in round "
                f"{earlier.round}: {earlier.text!r}",
                earlier_round=earlier.round,
                earlier_seat=earlier.seat,
            )
        if outcome is CheckOutcome.CONTRADICTS_CARD:
            self._emit(
                ViolationEvent,
                seat=seat,
                kind=ViolationKind.CONTRADICTION,
                message=f"contradicts the speaker's card {self.words[seat]!r}",
            )
        self._spoken.append(_Spoken(self.round, seat, clean, key))
        self._speakers.pop(0)
        if not self._speakers:
            self.phase = Phase.VOTE
        return self._events[start:]

    def validate_ballot(self, voter: int, target: object) -> int:
        """``target`` if ``voter`` may vote for it; else IllegalAction saying why."""
        if isinstance(target, bool) or not isinstance(target, int):
            raise IllegalAction(f"seat {voter}: a vote names a seat number, not {target!r}")
        if target == voter:
            raise IllegalAction(f"seat {voter}: a player may not vote for itself")
        if target not in self.living:
            state = "has been eliminated" if target in self.eliminated else "does not exist"
            raise IllegalAction(f"seat {voter}: cannot vote for seat {target}, which {state}")
        return target

    def vote(self, ballots: Mapping[int, int]) -> list[UndercoverEvent]:
        """Apply one simultaneous vote (voter -> target, every living seat once); return events."""
        if self.phase is not Phase.VOTE:
            raise IllegalAction(f"no vote is due in the {self.phase} phase")
        missing = [s for s in self.living if s not in ballots]
        extra = [s for s in ballots if s not in self.living]
        if missing:
            raise IllegalAction(f"seats {missing} have not voted; abstention is not allowed")
        if extra:
            raise IllegalAction(f"seats {extra} are not living players and cannot vote")
        cast = tuple(
            Ballot(voter=s, target=self.validate_ballot(s, ballots[s])) for s in self.living
        )
        start = len(self._events)
        self._emit(VoteEvent, ballots=cast)
        tally = Counter(b.target for b in cast)
        top = max(tally.values())
        leaders = sorted(seat for seat, count in tally.items() if count == top)
        if len(leaders) > 1:
            self._tie(cast, leaders, top)
        else:
            self._eliminate(cast, leaders[0], top)
        return self._events[start:]

    def _tie(self, cast: tuple[Ballot, ...], leaders: list[int], top: int) -> None:
        self.consecutive_ties += 1
        self._emit(TieEvent, seats=tuple(leaders), votes=top, consecutive=self.consecutive_ties)
        self._votes.append(RoundVote(round=self.round, ballots=cast, eliminated=None))
        if self.consecutive_ties >= self.config.tie_limit:
            self._finish(Side.SPY, EndReason.TIE_LIMIT)
        else:
            self._next_round()

    def _eliminate(self, cast: tuple[Ballot, ...], seat: int, top: int) -> None:
        self.consecutive_ties = 0
        was_spy = seat == self.spy_seat
        self._emit(EliminationEvent, seat=seat, votes=top, was_spy=was_spy)
        self._votes.append(RoundVote(round=self.round, ballots=cast, eliminated=seat))
        self.eliminated.append(seat)
        self.living = tuple(s for s in self.living if s != seat)
        if was_spy:
            self._finish(Side.CITIZENS, EndReason.SPY_ELIMINATED)
        elif len(self.living) <= 2:
            self._finish(Side.SPY, EndReason.TWO_PLAYERS_LEFT)
        else:
            self._next_round()

    def _next_round(self) -> None:
        self.round += 1
        self.phase = Phase.DESCRIBE
        self._speakers = list(self.living)

    def _finish(self, winner: Side, reason: EndReason) -> None:
        self.phase = Phase.OVER
        self._speakers = []
        self._result = UndercoverResult(
            winner=winner,
            reason=reason,
            rounds=self.round,
            spy_seat=self.spy_seat,
            eliminated=tuple(self.eliminated),
            citizens=self.config.players - 1,
            citizens_eliminated=sum(1 for s in self.eliminated if s != self.spy_seat),
            violations=self._violations,
        )
        self._emit(GameEnd, **self._result.model_dump())

    def _emit(self, event_type: Callable[..., UndercoverEvent], /, **fields: Any) -> None:
        event = event_type(seq=len(self._events) + 1, round=self.round, **fields)
        if isinstance(event, ViolationEvent):
            self._violations += 1
        self._events.append(event)

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.config.players:
            raise IllegalAction(f"seat {seat} does not exist (seats 0-{self.config.players - 1})")


INFO = GameInfo(
    name="undercover",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    simultaneous=True,
    imperfect_information=True,
    max_decisions=(MAX_PLAYERS + 1) * MAX_PLAYERS * 101,
)


@dataclass(frozen=True, slots=True)
class UndercoverTurn:
    """What a seat is asked: the decision due (describe or vote) and its observation."""

    phase: Phase
    observation: Observation


class UndercoverState:
    """An Undercover-V game behind the shared game protocol: a description is one seat's action,
    a vote is the joint action of every living seat; ``checker`` checks each description against
    its speaker's card."""

    def __init__(self, game: UndercoverGame, checker: DescriptionChecker) -> None:
        if game.events:
            raise ValueError("a game state needs a fresh game; this one has already been played")
        self.game = game
        self.checker = checker
        self._start = game.start_event()

    def current_players(self) -> list[int]:
        """The speaker, every living seat during a vote, nobody at the end."""
        if self.game.phase is Phase.DESCRIBE:
            seat = self.game.current_seat
            return [] if seat is None else [seat]
        return list(self.game.living) if self.game.phase is Phase.VOTE else []

    def legal_actions(self, seat: int) -> list[int]:
        """During a vote, the seats ``seat`` may vote for; descriptions are open sentences (checked
        by ``UndercoverGame.validate_description``), so none are listed."""
        if self.game.phase is Phase.VOTE and seat in self.game.living:
            return list(self.game.vote_targets(seat))
        return []

    def apply(self, actions: Mapping[int, Any]) -> None:
        """A description (with its card check) or a vote; IllegalAction when not allowed."""
        if self.game.phase is Phase.VOTE:
            self.game.vote(actions)
            return
        if list(actions) != self.current_players():
            raise IllegalAction(
                f"seats {sorted(actions)} acted; the game waits for {self.current_players()}"
            )
        ((seat, description),) = actions.items()
        if not isinstance(description, Description):
            raise IllegalAction(f"seat {seat}: {description!r} is not a Description")
        self.game.validate_description(seat, description.text)
        check = self.checker.check(self.game.words[seat], description)
        self.game.describe(
            seat,
            description.text,
            description.logged_formula(),
            check.outcome,
            description.call,
            check.reading,
        )

    def observation(self, seat: int) -> UndercoverTurn:
        """The decision due and what ``seat`` knows."""
        return UndercoverTurn(self.game.phase, self.game.observation(seat))

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self.game.is_over()

    def returns(self) -> list[float]:
        """1.0 for every seat of the winning side, 0.0 for the others (all 0.0 while running)."""
        result = self.game.result
        if result is None:
            return [0.0] * self.game.config.players
        spy_won = result.winner is Side.SPY
        return [
            1.0 if (seat == self.game.spy_seat) == spy_won else 0.0
            for seat in range(self.game.config.players)
        ]

    def result(self) -> SeatResult:
        """Returns, ranks (the winning side 1, the other next) and the end reason."""
        result = self.game.result
        if result is None:
            raise ValueError("the game is not over")
        returns = self.returns()
        winners = sum(1 for r in returns if r == 1.0)
        ranks = tuple(1 if r == 1.0 else winners + 1 for r in returns)
        return SeatResult(returns=tuple(returns), ranks=ranks, reason=result.reason.value)

    def events(self) -> list[UndercoverEvent]:
        """``game_start`` and every event since."""
        return [self._start, *self.game.events]


class UndercoverSeat:
    """An Undercover-V agent as a seat of the shared play loop: describes or votes as asked."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    @property
    def name(self) -> str:
        """The agent's name."""
        return self.agent.name

    def act(self, turn: UndercoverTurn) -> Description | int:
        """The agent's description or vote."""
        if turn.phase is Phase.DESCRIBE:
            return self.agent.describe(turn.observation)
        return self.agent.vote(turn.observation)
