"""The deduction audit of a Clue game log: every stated deduction against what its author knew.

Each deduction a player states is judged against that player's knowledge at that moment
(ENTAILED / CONTRADICTED / UNDETERMINED, from its exact knowledge grid) and, when the log has the
deal, against the deal (TRUE / FALSE). Per player the audit reports seed 000's correct and
incorrect deductions, how many were sound (entailed and true), lucky (true, not entailed) and
wrong (false), the recall of entailed facts about other players' cards, and the cards known per
round next to what an ideal reasoner knew (seed 000, Fig. 5).

Counts are over distinct deductions, each judged where its author first stated it; ``checks``
lists every statement. Recall: the facts "player Q holds card C" (Q another player) entailed
when the player acts on one of its turns (so everything it learnt up to the end of its previous
turn and since), against every such fact it stated during the game. Cards known (seed 000): its
hand, the cards shown to it, and the cards its correct deductions place outside the envelope;
the ideal reasoner's count is the cards its knowledge entails are outside the envelope.

A ``deduction_review`` event (a verifier-assisted agent's own check before it acted) is
validated but not judged: what the player acted on is in the ``deduction`` event that follows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, computed_field

from formalize.clue import Fact
from formalize.clue.oracle import GridOracle
from games.clue.cards import Triple
from games.clue.entry import ENTRY
from games.clue.events import (
    AccusationEvent,
    ClueConfig,
    ClueEvent,
    ClueOutcome,
    Deal,
    Deduction,
    DeductionEvent,
    DeductionReviewEvent,
    GameEnd,
    GameStart,
    HandEvent,
    PassEvent,
    RefuteEvent,
    SuggestionEvent,
    TurnStart,
)
from games.clue.knowledge import PlayerView, clue_setup, deduction_fact
from games.clue.transcript import describe_deduction
from games.core.audit import AuditRecord, Where, audit_row, render_record, summarise
from games.core.llm_call import LLMCallRef
from games.core.log import GameLog
from games.core.runlog import LogError
from provers.sat_session import SatSession
from reasoning.claims import ClaimStatus, Correctness, Judgement, judge
from reasoning.constraints import ConstraintSessionFactory
from reasoning.oracle import claim_status


class DeductionCheck(LLMCallRef):
    """One stated deduction with its verdicts; ``repeat`` marks one its author stated before;
    ``call`` is the recorded LLM call it came from."""

    model_config = ConfigDict(frozen=True)

    seq: int
    line: int | None
    round: int
    turn: int
    deduction: Deduction
    status: ClaimStatus
    truth: Correctness | None
    kind: Judgement
    repeat: bool


class PlayerAudit(BaseModel):
    """One player's audit; the truth-based counts are None when the log has no deal."""

    model_config = ConfigDict(frozen=True)

    player: int
    name: str
    agent: str
    statements: int
    deductions: int
    correct: int | None
    incorrect: int | None
    sound: int | None
    lucky: int | None
    wrong: int | None
    entailed: int
    contradicted: int
    undetermined: int
    recall_entailed: int
    recall_stated: int
    recall: float | None
    known_per_round: list[int] | None
    ideal_known_per_round: list[int]
    checks: list[DeductionCheck]


class GameAudit(BaseModel):
    """The audit of one game log."""

    model_config = ConfigDict(frozen=True)

    source: str | None
    seed: int | None
    n_players: int
    names: list[str]
    rounds: int
    has_truth: bool
    result: ClueOutcome | None
    ranks: list[int] | None = None
    """Each seat's finishing place, from the log's end (None without a finished end)."""
    players: list[PlayerAudit]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def complete(self) -> bool:
        """Whether the log ends with the game's end event (else the game is incomplete)."""
        return self.result is not None


@dataclass
class _Tracker:
    """What the audit gathers for one player while it reads the log."""

    view: PlayerView
    first: dict[Fact, tuple[ClaimStatus, Correctness | None]] = field(default_factory=dict)
    checks: list[DeductionCheck] = field(default_factory=list)
    shown: set[str] = field(default_factory=set)
    targets: set[Fact] = field(default_factory=set)
    known: list[int] = field(default_factory=list)
    ideal: list[int] = field(default_factory=list)


class _Truth:
    """The deal, for judging facts."""

    def __init__(self, deal: Deal) -> None:
        self.hands = [frozenset(c.name for c in hand) for hand in deal.hands]
        self.envelope = frozenset(deal.envelope.names())

    def holds(self, fact: Fact) -> Correctness:
        if fact.player is None:
            value = fact.card in self.envelope
        else:
            value = fact.card in self.hands[fact.player]
        return Correctness.TRUE if value == fact.positive else Correctness.FALSE


def audit_log(
    path: str | Path,
    players: Iterable[int] | None = None,
    factory: ConstraintSessionFactory = SatSession,
) -> GameAudit:
    """Read, validate and audit a Clue JSONL log; LogError names the line of any problem."""
    return audit_game(ENTRY.read_log(path), players, factory)


AuditWatch = Callable[[int, Mapping[int, PlayerView]], None]
"""Called after the audit takes in event ``index``, with every audited seat's knowledge then
(the viewer draws its grids from the audit's own replay instead of replaying the log again)."""


def audit_game(
    log: GameLog[ClueEvent],
    players: Iterable[int] | None = None,
    factory: ConstraintSessionFactory = SatSession,
    *,
    watch: AuditWatch | None = None,
) -> GameAudit:
    """Audit a read (or in-memory) Clue log for ``players`` (default: every player whose hand
    the log gives); ``watch`` sees each audited seat's knowledge after every event. Problems
    raise LogError with the event's line."""
    events = log.events
    if not events or not isinstance(events[0], GameStart):
        raise LogError(log.path, log.line_of(0), "the log must open with a game_start event")
    try:
        auditor = _Auditor(log, events[0], players, factory)
    except ValueError as err:
        raise LogError(log.path, log.line_of(0), str(err)) from err
    views = {seat: tracker.view for seat, tracker in auditor.trackers.items()}
    try:
        if watch is not None:
            watch(0, views)
        for index in range(1, len(events)):
            try:
                auditor.read(events[index], log.line_of(index))
            except ValueError as err:
                raise LogError(log.path, log.line_of(index), str(err)) from err
            if watch is not None:
                watch(index, views)
        end = log.end
        ranks = list(end.ranks) if end is not None and end.status == "finished" else None
        return auditor.finish(str(log.path), ranks)
    finally:
        auditor.close()


class _Auditor:
    """Reads one game's events in order for the audited players."""

    def __init__(
        self,
        log: GameLog[ClueEvent],
        start: GameStart,
        players: Iterable[int] | None,
        factory: ConstraintSessionFactory,
    ) -> None:
        self.start = start
        self.header = log.header
        self.config = ClueConfig.model_validate(log.header.config)
        events = log.events
        self.deck = self.config.deck
        self.setup = clue_setup(self.config, start.hand_sizes)
        self.truth: _Truth | None = None
        known_hands: set[int] = set()
        if start.deal is not None:
            self._check_deal(start.deal)
            self.truth = _Truth(start.deal)
            known_hands.update(range(len(start.deal.hands)))
        n = self.config.players
        known_hands.update(e.seat for e in events if isinstance(e, HandEvent) and e.seat < n)
        wanted = sorted(known_hands) if players is None else sorted(set(players))
        if not wanted:
            raise ValueError("nothing to audit: the log has no deal and no hand event")
        self.trackers: dict[int, _Tracker] = {}
        for seat in wanted:
            self.setup.check_seat(seat)
            if seat not in known_hands:
                raise ValueError(f"player {seat}: the log gives neither the deal nor its hand")
        for seat in wanted:
            hand = start.deal.hands[seat] if start.deal is not None else None
            self.trackers[seat] = _Tracker(PlayerView(self.setup, factory, seat, hand))
        self.round = 1
        self.rounds = 0
        self.result: ClueOutcome | None = None
        self.pending: Triple | None = None

    def close(self) -> None:
        for tracker in self.trackers.values():
            tracker.view.close()

    def _check_deal(self, deal: Deal) -> None:
        n = self.config.players
        if len(deal.hands) != n:
            raise ValueError(f"deal: {len(deal.hands)} hands for {n} players")
        cards = [c for hand in deal.hands for c in hand]
        cards += list(self.deck.triple_cards(deal.envelope))
        for card in cards:
            self.deck.card(card.name, card.category)
        if len(cards) != len(self.deck.cards) or set(cards) != set(self.deck.cards):
            raise ValueError("deal: the hands and the envelope must hold every card exactly once")

    def read(self, event: ClueEvent, line: int) -> None:
        """Validate one event, take it into every audited player's knowledge, judge deductions."""
        self._validate(event)
        limit = self.config.max_rounds
        while self.round < event.round and self.round <= limit:
            self._snapshot()
        for tracker in self.trackers.values():
            if tracker.view.observe(event):
                tracker.view.knowledge.grid()
        if isinstance(event, TurnStart) and event.seat in self.trackers:
            self._turn(event.seat)
        elif isinstance(event, DeductionEvent) and event.seat in self.trackers:
            self._deductions(event, line)
        elif isinstance(event, RefuteEvent) and event.card is not None:
            if event.suggester_seat in self.trackers:
                self.trackers[event.suggester_seat].shown.add(event.card.name)
        elif isinstance(event, GameEnd):
            self.result = event.outcome()

    def _validate(self, event: ClueEvent) -> None:
        setup, deck = self.setup, self.deck
        for attr in ("seat", "refuter_seat", "suggester_seat"):
            seat = getattr(event, attr, None)
            if isinstance(seat, int):
                setup.check_seat(seat)
        if isinstance(event, GameStart):
            raise ValueError("a second game_start event")
        if isinstance(event, SuggestionEvent | AccusationEvent):
            triple = Triple(event.suspect, event.weapon, event.room)
            deck.triple_cards(triple)
            if isinstance(event, SuggestionEvent):
                self.pending = triple
        elif isinstance(event, HandEvent):
            for card in event.cards:
                deck.card(card.name, card.category)
            if len(set(event.cards)) != self.start.hand_sizes[event.seat]:
                raise ValueError(
                    f"hand of player {event.seat}: {len(set(event.cards))} cards, "
                    f"hand_sizes says {self.start.hand_sizes[event.seat]}"
                )
            if (
                self.truth is not None
                and {c.name for c in event.cards} != self.truth.hands[event.seat]
            ):
                raise ValueError(f"hand of player {event.seat} differs from the deal")
        elif isinstance(event, DeductionEvent | DeductionReviewEvent):
            stated = event.deductions if isinstance(event, DeductionEvent) else event.mentioned()
            for deduction in stated:
                deck.card(deduction.card.name, deduction.card.category)
                if deduction.player is not None:
                    setup.check_seat(deduction.player)
        elif isinstance(event, RefuteEvent | PassEvent):
            self._check_answer(event)

    def _check_answer(self, event: RefuteEvent | PassEvent) -> None:
        """A refutation or pass must answer the pending suggestion and fit the deal."""
        answering = event.refuter_seat if isinstance(event, RefuteEvent) else event.seat
        if answering == event.suggester_seat:
            raise ValueError(f"player {answering} answers its own suggestion")
        if self.pending is None:
            raise ValueError(f"{event.type} without a suggestion before it")
        suggested = set(self.pending.names())
        held = self.truth.hands[answering] if self.truth is not None else None
        if isinstance(event, RefuteEvent) and event.card is not None:
            self.deck.card(event.card.name, event.card.category)
            if event.card.name not in suggested:
                raise ValueError(f"refute shows {event.card.name!r}, which was not suggested")
            if held is not None and event.card.name not in held:
                raise ValueError(
                    f"player {answering} shows {event.card.name!r}, which the deal does not give it"
                )
        if isinstance(event, PassEvent) and held is not None and held & suggested:
            raise ValueError(
                f"player {answering} passes while the deal gives it {sorted(held & suggested)}"
            )

    def _snapshot(self) -> None:
        """Record cards known at the end of the current round, then move to the next."""
        cap = len(self.deck.cards) - len(self.setup.categories)
        for tracker in self.trackers.values():
            grid = tracker.view.knowledge.grid()
            tracker.ideal.append(min(cap, len(grid.outside_envelope())))
            if self.truth is not None:
                hand = tracker.view.knowledge.hand or ()
                located = {
                    fact.card
                    for fact, (_, truth) in tracker.first.items()
                    if truth is Correctness.TRUE and fact.kind in ("holds", "not_in_envelope")
                }
                tracker.known.append(min(cap, len(set(hand) | tracker.shown | located)))
        self.rounds = self.round
        self.round += 1

    def _turn(self, seat: int) -> None:
        tracker = self.trackers[seat]
        grid = tracker.view.knowledge.grid()
        tracker.targets.update(f for f in grid.facts() if f.kind == "holds" and f.player != seat)

    def _deductions(self, event: DeductionEvent, line: int) -> None:
        tracker = self.trackers[event.seat]
        grid = tracker.view.knowledge.grid()
        for deduction in event.deductions:
            fact = deduction_fact(deduction)
            status = claim_status(GridOracle(grid), grid.setup.fact_formula(fact))
            truth = self.truth.holds(fact) if self.truth is not None else None
            repeat = fact in tracker.first
            if not repeat:
                tracker.first[fact] = (status, truth)
            tracker.checks.append(
                DeductionCheck(
                    seq=event.seq,
                    line=line,
                    round=event.round,
                    turn=event.turn,
                    deduction=deduction,
                    status=status,
                    truth=truth,
                    kind=judge(status, truth),
                    repeat=repeat,
                    call=event.call,
                )
            )

    def finish(self, source: str | None, ranks: list[int] | None) -> GameAudit:
        """Close the last rounds and build the report (with the end's ``ranks`` where given)."""
        last = self.result.rounds if self.result is not None else self.round
        while self.round <= min(last, self.config.max_rounds):
            self._snapshot()
        players = [self._player(seat, tracker) for seat, tracker in self.trackers.items()]
        return GameAudit(
            source=source,
            seed=self.header.seed,
            n_players=self.config.players,
            names=[p.name for p in self.header.seats],
            rounds=self.rounds,
            has_truth=self.truth is not None,
            result=self.result,
            ranks=ranks,
            players=players,
        )

    def _player(self, seat: int, tracker: _Tracker) -> PlayerAudit:
        judged = list(tracker.first.values())
        statuses = [status for status, _ in judged]
        kinds = [judge(status, truth) for status, truth in judged]
        has_truth = self.truth is not None

        def count(label: Judgement) -> int | None:
            return kinds.count(label) if has_truth else None

        stated = set(tracker.first)
        recalled = tracker.targets & stated
        info = self.header.seats[seat]
        return PlayerAudit(
            player=seat,
            name=info.name,
            agent=info.agent,
            statements=len(tracker.checks),
            deductions=len(judged),
            correct=sum(1 for _, t in judged if t is Correctness.TRUE) if has_truth else None,
            incorrect=sum(1 for _, t in judged if t is Correctness.FALSE) if has_truth else None,
            sound=count("sound"),
            lucky=count("lucky"),
            wrong=count("wrong"),
            entailed=statuses.count(ClaimStatus.ENTAILED),
            contradicted=statuses.count(ClaimStatus.CONTRADICTED),
            undetermined=statuses.count(ClaimStatus.UNDETERMINED),
            recall_entailed=len(tracker.targets),
            recall_stated=len(recalled),
            recall=len(recalled) / len(tracker.targets) if tracker.targets else None,
            known_per_round=tracker.known if has_truth else None,
            ideal_known_per_round=tracker.ideal,
            checks=tracker.checks,
        )


def audit_record(log: GameLog[ClueEvent]) -> AuditRecord:
    """The audit of a Clue log (read by ``ENTRY.read_log``) as the record every game yields;
    LogError names the line of any problem."""
    return as_record(audit_game(log))


def as_record(audit: GameAudit) -> AuditRecord:
    """``audit`` as the record every game's audit yields: a row per statement (its deduction's
    kind, card and the player it is about as extra columns), a summary per player with its
    recall of other players' cards, the cards known per round (seed 000, Fig. 5) and the result
    (the winner, each seat's finishing place and accusation accuracy) as the game's figures."""
    rows = [
        audit_row(
            p.player,
            Where(line=c.line, round=c.round, turn=c.turn),
            describe_deduction(c.deduction, audit.names),
            c.status,
            c.truth,
            repeat=c.repeat,
            detail={
                "deduction": c.deduction.kind,
                "card": c.deduction.card.name,
                "about": c.deduction.player,
            },
            call=c.call,
        )
        for p in audit.players
        for c in p.checks
    ]
    seats = [
        summarise(
            p.player,
            p.name,
            p.agent,
            rows,
            has_truth=audit.has_truth,
            recall=(p.recall_stated, p.recall_entailed),
        )
        for p in audit.players
    ]
    figures: dict[str, object] = {
        "rounds": audit.rounds,
        "winner": None if audit.result is None else audit.result.winner,
        "ranks": audit.ranks,
        "accuracy": None if audit.result is None else list(audit.result.accuracy),
    }
    if audit.has_truth:
        figures["known_per_round"] = {p.name: p.known_per_round for p in audit.players}
    figures["ideal_known_per_round"] = {p.name: p.ideal_known_per_round for p in audit.players}
    return AuditRecord(
        game="clue",
        source=audit.source,
        seed=audit.seed,
        has_truth=audit.has_truth,
        complete=audit.complete,
        seats=seats,
        rows=rows,
        figures=figures,
    )


def render_audit(audit: GameAudit) -> str:
    """The audit in plain text, as every game's audit is rendered (the wrong rows listed)."""
    return "\n".join(render_record(as_record(audit)))
