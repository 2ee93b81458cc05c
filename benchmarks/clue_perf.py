"""Clue performance: knowledge-grid updates per event, and the audit of a whole 30-round game.

The game is a seeded 6-player game played to the round limit by agents that suggest at random
and state a few random deductions every turn (so the audit has every kind of verdict to give).
Each seat's knowledge is replayed event by event; for every event that adds a constraint the
grid update is timed with ``ClueKnowledge`` (incremental backbone), and, in the same run and on
the same events, with the naive method: two satisfiability calls per cell (every cell, and only
the still-unknown cells). The grids of all methods are compared cell by cell.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from benchmarks.report import percentile
from formalize.clue import ClueKnowledge, ClueSetup
from games.clue.agent import Accuse, ClueAction, ClueObservation, Phase, Suggest
from games.clue.audit import audit_events
from games.clue.cards import Card, ClueConfig
from games.clue.engine import ClueGame, play_game
from games.clue.events import ClueEvent, Deduction, DeductionKind, GameStart, PlayerInfo
from games.clue.knowledge import PlayerView, clue_setup
from games.clue.random_agent import RandomAgent
from provers.sat_session import SatSession
from reasoning.formula import Atom, Not

TARGET_MEDIAN_MS = 1.0
"""Target: median grid update under this many milliseconds."""
TARGET_SPEEDUP = 3.0
"""Target: at least this many times faster than two solves per cell."""
TARGET_AUDIT_S = 2.0
"""Target: the whole audit of the 30-round game under this many seconds."""
KINDS: tuple[DeductionKind, ...] = ("holds", "not_holds", "in_envelope", "not_in_envelope")
"""The deduction kinds the guessing agents draw from."""


class GuessingAgent:
    """Plays like ``RandomAgent`` and states ``per_turn`` random deductions on each of its turns;
    it accuses only when the round limit forces it."""

    def __init__(self, seed: int, per_turn: int = 4) -> None:
        self._inner = RandomAgent(seed, name="guessing")
        self._rng = random.Random(seed + 1)
        self.per_turn = per_turn

    @property
    def name(self) -> str:
        """The agent's name, recorded in the log."""
        return "guessing"

    def act(self, obs: ClueObservation) -> ClueAction:
        """A random action, with random stated deductions on turns."""
        action = self._inner.act(obs)
        if obs.phase not in (Phase.TURN, Phase.FINAL_ACCUSATION):
            return action
        deck = obs.deck()
        deductions = []
        for _ in range(self.per_turn):
            kind = self._rng.choice(KINDS)
            card = self._rng.choice(deck.cards)
            player = self._rng.randrange(obs.n_players) if kind in ("holds", "not_holds") else None
            deductions.append(Deduction(kind=kind, card=card, player=player))
        assert isinstance(action, Suggest | Accuse)
        return action.model_copy(update={"deductions": tuple(deductions)})


class NaiveGrid:
    """The knowledge grid by two satisfiability calls per cell, on a session of its own."""

    def __init__(self, setup: ClueSetup) -> None:
        self.setup = setup
        self.session = SatSession()
        self.count = 0

    def feed(self, knowledge: ClueKnowledge) -> None:
        """Add the constraints ``knowledge`` gained since the last call."""
        formulas = knowledge.formulas
        for formula in formulas[self.count :]:
            self.session.add(formula)
        self.count = len(formulas)

    def grid(self, cells: list[str]) -> dict[str, bool]:
        """The fixed cells among ``cells``."""
        fixed: dict[str, bool] = {}
        for name in cells:
            can_true = self.session.satisfiable([Atom(name)])
            can_false = self.session.satisfiable([Not(Atom(name))])
            if can_true != can_false:
                fixed[name] = can_true
        return fixed


def perf_game(seed: int, rounds: int = 30) -> list[ClueEvent]:
    """A 6-player game played to the round limit, with deductions stated every turn."""
    game = ClueGame(ClueConfig(n_players=6, max_rounds=rounds), seed)
    agents = [GuessingAgent(seed * 10 + seat) for seat in range(6)]
    names = [f"P{seat}" for seat in range(6)]
    play_game(game, agents, None, names)
    players = [PlayerInfo(name=n, agent="guessing") for n in names]
    return [game.start_event(players), *game.events]


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


@dataclass
class _Timings:
    """Per-method update times, the incremental method's solver calls, and grid mismatches."""

    times: dict[str, list[float]] = field(
        default_factory=lambda: {"incremental": [], "naive_unknown": [], "naive_all": []}
    )
    calls: list[float] = field(default_factory=list)
    mismatches: int = 0


def _seat_updates(
    events: list[ClueEvent], setup: ClueSetup, seat: int, hand: tuple[Card, ...], out: _Timings
) -> None:
    """Replay ``events`` as ``seat`` sees them, timing each knowledge-changing event's update."""
    sessions: list[SatSession] = []

    def factory() -> SatSession:
        session = SatSession()
        sessions.append(session)
        return session

    names = list(setup.atom_names())
    view = PlayerView(setup, factory, seat, hand)
    naive = NaiveGrid(setup)
    known = dict(view.knowledge.grid().fixed)
    naive.feed(view.knowledge)
    for event in events[1:]:
        before = sessions[0].solver_calls
        start = time.perf_counter()
        if not view.observe(event):
            continue
        grid = view.knowledge.grid()
        out.times["incremental"].append(time.perf_counter() - start)
        out.calls.append(float(sessions[0].solver_calls - before))
        naive.feed(view.knowledge)
        unknown = [n for n in names if n not in known]
        fixed_unknown, t_unknown = _timed(partial(naive.grid, unknown))
        fixed_all, t_all = _timed(partial(naive.grid, names))
        out.times["naive_unknown"].append(t_unknown)
        out.times["naive_all"].append(t_all)
        out.mismatches += dict(grid.fixed) != fixed_all
        out.mismatches += dict(grid.fixed) != {**known, **fixed_unknown}
        known = dict(grid.fixed)
    view.close()
    naive.session.close()


def grid_updates(events: list[ClueEvent]) -> dict[str, Any]:
    """Time every knowledge-changing event's grid update for each seat, by each method."""
    start = events[0]
    if not isinstance(start, GameStart) or start.deal is None:
        raise ValueError("grid_updates needs a log that opens with game_start and the deal")
    setup = clue_setup(start.config, start.hand_sizes)
    timings = _Timings()
    for seat, hand in enumerate(start.deal.hands):
        _seat_updates(events, setup, seat, hand, timings)
    rows = []
    base = percentile(timings.times["incremental"], 50)
    labels = {
        "incremental": "incremental backbone (ClueKnowledge)",
        "naive_unknown": "two solves per unknown cell",
        "naive_all": "two solves per cell",
    }
    for key, label in labels.items():
        values = timings.times[key]
        median = percentile(values, 50)
        rows.append(
            {
                "method": label,
                "updates": len(values),
                "median_ms": median * 1000,
                "p95_ms": percentile(values, 95) * 1000,
                "mean_ms": sum(values) / len(values) * 1000 if values else float("nan"),
                "x_slower_than_incremental": median / base if base else float("nan"),
            }
        )
    return {
        "rows": rows,
        "solver_calls_median": percentile(timings.calls, 50),
        "solver_calls_p95": percentile(timings.calls, 95),
        "grid_mismatches": timings.mismatches,
    }


def whole_audit(events: list[ClueEvent]) -> dict[str, Any]:
    """Time the audit of the whole game (every seat, every stated deduction)."""
    audit, seconds = _timed(lambda: audit_events(events))
    return {
        "seconds": seconds,
        "events": len(events),
        "rounds": audit.rounds,
        "deductions_checked": sum(len(p.checks) for p in audit.players),
    }


def run(seed: int = 0, rounds: int = 30) -> dict[str, Any]:
    """Both measurements on one seeded game, with the targets and whether they were met."""
    events = perf_game(seed, rounds)
    updates = grid_updates(events)
    audit = whole_audit(events)
    incremental, _, naive_all = updates["rows"]
    return {
        "seed": seed,
        "grid_updates": updates,
        "audit": audit,
        "targets": {
            "median_update_ms": TARGET_MEDIAN_MS,
            "median_update_met": incremental["median_ms"] < TARGET_MEDIAN_MS,
            "speedup_vs_two_solves_per_cell": naive_all["x_slower_than_incremental"],
            "speedup_met": naive_all["x_slower_than_incremental"] >= TARGET_SPEEDUP,
            "audit_s": TARGET_AUDIT_S,
            "audit_met": audit["seconds"] < TARGET_AUDIT_S,
        },
    }
