"""The card-check outcome ``syntax_error`` end to end: checker, engine, log, printed record, replay,
and logs written before the outcome existed."""

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
    """Seat 0 says a malformed formula, seat 1 a sort-clashing one, seat 2 a true one, seat 3
    none; everybody votes for ``target`` (the spy votes for the lowest other seat)."""

    name = "scripted"

    def __init__(self, target: int) -> None:
        self.target = target

    def describe(self, obs: Observation) -> Description:
        said = {0: MALFORMED, 1: SORT_CLASH, 2: "Tea(item)"}.get(obs.seat)
        return Description(f"Seat {obs.seat} describes its word.", formula_text=said)

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
        3: CheckOutcome.NOT_FORMALISED,
    }
    assert not any(isinstance(e, ViolationEvent) for e in events)
    checks = [line.strip() for line in printed if line.strip().startswith("check:")]
    assert checks[0].startswith("check: syntax_error (formula syntax error, line 1")
    assert checks[1].startswith("check: syntax_error (") and "'Tea'" in checks[1]
    assert checks[2].startswith("check: consistent (")
    assert checks[3] == "check: not_formalised (the description has no formula)"
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


def test_the_same_game_played_now_records_syntax_errors_where_the_old_log_did_not() -> None:
    legacy = read_undercover_log(LEGACY_LOG)
    game = UndercoverGame(UndercoverConfig(players=4, tie_limit=3), TEA, SEED)
    start = legacy[0]
    assert isinstance(start, GameStart) and start == game.start_event()
    old = [e for e in legacy if isinstance(e, DescriptionEvent)]
    checker = ProverChecker(ConsistencyTest(Lexicon.load()))
    now = [
        checker.check(game.words[e.seat], Description(e.text, formula_text=e.formula)) for e in old
    ]
    assert now[:2] == [CheckOutcome.SYNTAX_ERROR, CheckOutcome.SYNTAX_ERROR]
    assert now[2:] == [e.outcome for e in old[2:]]
