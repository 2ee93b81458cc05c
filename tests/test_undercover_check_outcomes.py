"""The card-check outcomes of read descriptions end to end (a speaker's formula that does not
parse or fit, a reading that confirms it, a question): checker, engine, log, printed record,
replay, and logs written before these outcomes existed."""

from __future__ import annotations

from pathlib import Path

from games.core.printer import Tee
from games.core.runlog import EventLog
from games.undercover import (
    CheckOutcome,
    Description,
    Lexicon,
    Observation,
    UndercoverConfig,
    UndercoverGame,
    pair_catalogue,
    read_undercover_log,
    replay,
)
from games.undercover.checker import ConsistencyTest, ProverChecker
from games.undercover.entry import ENTRY as UNDERCOVER
from games.undercover.events import DescriptionEvent, GameStart, ViolationEvent
from games.undercover.playing import UndercoverPrinter
from tests.support.played import play_undercover

LEGACY_LOG = Path(__file__).parent / "fixtures" / "undercover" / "legacy_syntax_errors.jsonl"
"""A game logged when a malformed formula was still recorded as ``not_formalised``."""

TEA = pair_catalogue()["earl-grey-tea-ceylon-tea"]
SEED = 5
MALFORMED = "Nice(item"
SORT_CLASH = "Tea(item, item)"
"""``Tea`` is a one-place predicate of the card theories; two arguments clash with it."""


class FormulaAgent:
    """Seat 0 gives a malformed formula, seat 1 a sort-clashing one (both with a sentence no
    reader reads), seat 2 a true one its sentence confirms, seat 3 asks a question; everybody
    votes for ``target`` (the spy votes for the lowest other seat)."""

    name = "scripted"

    def __init__(self, target: int) -> None:
        self.target = target

    def describe(self, obs: Observation) -> Description:
        said = {0: MALFORMED, 1: SORT_CLASH, 2: "Tea(item)"}.get(obs.seat)
        text = {2: "It is a kind of tea.", 3: "Is it a kind of tea?"}
        return Description(text.get(obs.seat, f"Seat {obs.seat} describes it."), formula_text=said)

    def vote(self, obs: Observation) -> int:
        return self.target if obs.seat != self.target else obs.vote_targets()[0]


def test_a_malformed_or_sort_clashing_formula_is_recorded_as_a_syntax_error(
    tmp_path: Path,
) -> None:
    game = UndercoverGame(UndercoverConfig(players=4, tie_limit=3), TEA, SEED)
    agents = [FormulaAgent(game.spy_seat) for _ in range(4)]
    checker = ProverChecker(ConsistencyTest(Lexicon.load()))
    printed: list[str] = []
    path = tmp_path / "game.jsonl"
    with EventLog(path) as log:
        printer = UndercoverPrinter(printed.append)
        printer.agents, printer.checker = agents, checker
        play_undercover(game, agents, checker, Tee(printer, log))
    log = UNDERCOVER.read_log(path)
    events = log.events
    outcomes = {e.seat: e.outcome for e in events if isinstance(e, DescriptionEvent)}
    assert outcomes == {
        0: CheckOutcome.SYNTAX_ERROR,
        1: CheckOutcome.SYNTAX_ERROR,
        2: CheckOutcome.CONSISTENT,
        3: CheckOutcome.NO_CLAIM,
    }
    readings = {e.seat: e.reading for e in events if isinstance(e, DescriptionEvent)}
    seat_two = readings[2]
    assert seat_two is not None and seat_two.formula == "Tea(item)"
    assert seat_two.seat_formula is not None and seat_two.seat_formula.accepted
    assert all(r is not None and r.reader == "offline" for r in readings.values())
    assert not any(isinstance(e, ViolationEvent) for e in events)
    checks = [line.strip() for line in printed if line.strip().startswith("check:")]
    assert checks[0].startswith("check: syntax_error (its formula: line 1")
    assert checks[1].startswith("check: syntax_error (") and "'Tea'" in checks[1]
    assert checks[2].startswith("check: consistent (")
    assert checks[3].startswith("check: no_claim (it asserts nothing about the card (a question")
    assert replay(log.header, events).result == game.result


def test_logs_from_before_the_syntax_error_outcome_still_read_and_replay() -> None:
    log = UNDERCOVER.read_log(LEGACY_LOG)
    described = [e for e in log.events if isinstance(e, DescriptionEvent)]
    assert [e.formula for e in described[:2]] == [MALFORMED, SORT_CLASH]
    assert {e.outcome for e in described} == {CheckOutcome.NOT_FORMALISED}
    assert log.header.seed == SEED and len(log.header.seats) == 4
    game = replay(log.header, log.events)
    assert game.is_over() and game.result is not None
    assert game.result.winner.value == "citizens"


def test_the_same_game_played_now_reads_what_the_old_log_left_unformalised() -> None:
    legacy = read_undercover_log(LEGACY_LOG)
    game = UndercoverGame(UndercoverConfig(players=4, tie_limit=3), TEA, SEED)
    start = legacy[0]
    assert isinstance(start, GameStart) and start == game.start_event()
    old = [e for e in legacy if isinstance(e, DescriptionEvent)]
    checker = ProverChecker(ConsistencyTest(Lexicon.load()))
    now = [
        checker.check(game.words[e.seat], Description(e.text, formula_text=e.formula)).outcome
        for e in old
    ]
    assert now[:2] == [CheckOutcome.SYNTAX_ERROR, CheckOutcome.SYNTAX_ERROR]
    assert [e.outcome for e in old[2:]] == [CheckOutcome.NOT_FORMALISED] * (len(old) - 2)
    assert now[2:] == [CheckOutcome.UNREAD] * (len(old) - 2)
