"""Clue performance: knowledge-grid updates per event, and the audit of whole 30-round games.

Seeded 6-player games are played to the round limit by agents that suggest at random and state a
few random deductions every turn (so the audit has every kind of verdict to give). Each seat's
knowledge is replayed event by event; for every event that adds a constraint the grid update is
timed, CPU time next to wall time, by each method in turn on the same event: ``ClueKnowledge``
(incremental backbone), the rule-propagation baseline (``RulePropagation``: fast, incomplete),
and the naive method, two satisfiability calls per cell (the still-unknown cells, and every
cell), each naive variant on a fresh session of its own. The complete methods' grids are
compared cell by cell; the rule baseline must never fix a cell the complete grid does not, and
the cells it misses are counted. Speed-ups are ratios of median CPU times. The objects that exist
before the measurement (the games, the command line's modules) are frozen out of the garbage
collector's scans, so that a full collection of them does not land in one method's update.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer

from benchmarks.report import TimeSamples, format_table, measure, write_json
from formalize.clue import ClueSetup, KnowledgeGrid, RulePropagation
from games.clue.agent import Accuse, ClueAction, ClueObservation, Phase, Suggest
from games.clue.agents import random_agent
from games.clue.audit import audit_game
from games.clue.cards import Card
from games.clue.entry import ENTRY as CLUE
from games.clue.events import (
    AccusationEvent,
    ClueConfig,
    ClueEvent,
    Deduction,
    DeductionKind,
    GameStart,
    NoRefutationEvent,
    PassEvent,
    RefuteEvent,
    SuggestionEvent,
)
from games.clue.knowledge import PlayerView, clue_setup
from games.core.cli import fail, prepare_out
from games.core.log import GameLog
from games.core.play import play_agents
from provers.sat_session import SatSession
from reasoning.formula import Atom, Not
from reasoning.outfile import json_text
from reasoning.percentiles import percentile

TARGET_MEDIAN_MS = 0.5
"""Target: median grid update under this many milliseconds of CPU time."""
TARGET_RULE_RATIO = 2.0
"""Target: median update CPU time at most this many times the rule baseline's."""
TARGET_SPEEDUP = 3.0
"""Target: at least this many times less CPU time than two solves per cell."""
TARGET_AUDIT_S = 2.0
"""Target: the audit of a whole 30-round game under this many seconds of CPU time."""
KINDS: tuple[DeductionKind, ...] = ("holds", "not_holds", "in_envelope", "not_in_envelope")
"""The deduction kinds the guessing agents draw from."""
METHODS = {
    "incremental": "incremental backbone (ClueKnowledge)",
    "rules": "rule propagation (incomplete)",
    "naive_unknown": "two solves per unknown cell",
    "naive_all": "two solves per cell",
}
"""The timed methods and their labels in the table."""
TABLE_COLUMNS = [
    "method",
    "updates",
    "cpu_median_ms",
    "cpu_p95_ms",
    "cpu_mean_ms",
    "wall_median_ms",
    "wall_p95_ms",
    "cpu_x_incremental",
]
"""The columns of the update table."""


class GuessingAgent:
    """Plays like Clue's random agent and states ``per_turn`` random deductions on each of its
    turns; it accuses only when the round limit forces it."""

    def __init__(self, seed: int, per_turn: int = 4) -> None:
        self._inner = random_agent(seed, name="guessing")
        self._rng = random.Random(seed + 1)
        self.per_turn = per_turn

    @property
    def name(self) -> str:
        """The agent's name, recorded in the log."""
        return "guessing"

    def act(self, obs: ClueObservation) -> ClueAction:
        """A random action, with random stated deductions on turns."""
        action: ClueAction = self._inner.choose(obs, obs.legal_actions())
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
    """The knowledge grid by two satisfiability calls per cell, on a fresh session of its own."""

    def __init__(self) -> None:
        self.session = SatSession()
        self.count = 0

    def feed(self, formulas: tuple[Any, ...]) -> None:
        """Add the constraints of ``formulas`` (a whole constraint set) not added yet."""
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


class RuleView:
    """Feeds a ``RulePropagation`` with Clue events as one seat sees them, as ``PlayerView``
    feeds ``ClueKnowledge``: a shown card only for its suggester, an accuracy only for its
    accuser."""

    def __init__(self, setup: ClueSetup, seat: int, hand: tuple[Card, ...]) -> None:
        self.rules = RulePropagation(setup, seat, [c.name for c in hand])
        self._pending: tuple[str, str, str] = ("", "", "")

    def observe(self, event: ClueEvent) -> None:
        """Take in one event (events that say nothing about the cards are ignored)."""
        rules = self.rules
        if isinstance(event, SuggestionEvent):
            self._pending = (event.suspect, event.weapon, event.room)
        elif isinstance(event, PassEvent):
            rules.passed(event.seat, self._pending)
        elif isinstance(event, RefuteEvent):
            if event.card is not None and event.suggester_seat == rules.player:
                rules.shown(event.refuter_seat, event.card.name)
            else:
                rules.refuted(event.refuter_seat, self._pending)
        elif isinstance(event, NoRefutationEvent):
            rules.unrefuted(event.seat, self._pending)
        elif isinstance(event, AccusationEvent):
            right = event.accuracy if event.seat == rules.player else None
            rules.accused((event.suspect, event.weapon, event.room), event.correct, right)


def perf_game(seed: int, rounds: int = 30) -> GameLog[ClueEvent]:
    """A 6-player game played to the round limit, with deductions stated every turn."""
    agents = [GuessingAgent(seed * 10 + seat) for seat in range(6)]
    config = ClueConfig(players=6, max_rounds=rounds)
    return play_agents(CLUE, agents, seed, config).log()


@dataclass
class _Tally:
    """Per-method update timings, the incremental method's solver calls, grid mismatches
    between the complete methods, and the rule baseline's wrong and missed cells."""

    times: dict[str, TimeSamples] = field(
        default_factory=lambda: {key: TimeSamples() for key in METHODS}
    )
    calls: list[float] = field(default_factory=list)
    mismatches: int = 0
    rule_wrong: int = 0
    missed: list[int] = field(default_factory=list)
    missed_end: int = 0
    fixed_end: int = 0

    def compare_rules(self, complete: KnowledgeGrid, rules: KnowledgeGrid) -> int:
        """Count the rule grid's wrong cells; returns the complete grid's cells it misses."""
        exact = complete.fixed
        self.rule_wrong += sum(1 for name, v in rules.fixed.items() if exact.get(name) != v)
        return len(exact) - len(rules.fixed)


def _seat_updates(
    events: Sequence[ClueEvent], setup: ClueSetup, seat: int, hand: tuple[Card, ...], out: _Tally
) -> None:
    """Replay ``events`` as ``seat`` sees them, once per method (so no method runs with another's
    data in the caches), timing the update after each event that changes the knowledge; every
    method's grids are compared with the incremental ones."""
    sessions: list[SatSession] = []

    def factory() -> SatSession:
        session = SatSession()
        sessions.append(session)
        return session

    view = PlayerView(setup, factory, seat, hand)
    grids = [view.knowledge.grid()]
    changed: list[int] = []
    sizes: list[int] = []
    for index, event in enumerate(events):
        if index == 0:
            continue
        before = sessions[0].solver_calls
        with measure() as timing:
            if view.observe(event):
                grids.append(view.knowledge.grid())
        if len(grids) - 1 == len(changed):
            continue
        out.times["incremental"].add(timing)
        out.calls.append(float(sessions[0].solver_calls - before))
        changed.append(index)
        sizes.append(len(view.knowledge.formulas))
    formulas = view.knowledge.formulas
    view.close()
    _rule_updates(events, setup, seat, hand, changed, grids, out)
    names = list(setup.atom_names())
    for key in ("naive_unknown", "naive_all"):
        naive = NaiveGrid()
        for update, size in enumerate(sizes):
            naive.feed(formulas[:size])
            known = grids[update].fixed
            cells = [n for n in names if n not in known] if key == "naive_unknown" else names
            with measure() as timing:
                fixed = naive.grid(cells)
            out.times[key].add(timing)
            got = fixed if key == "naive_all" else {**known, **fixed}
            out.mismatches += dict(grids[update + 1].fixed) != got
        naive.session.close()


def _rule_updates(
    events: Sequence[ClueEvent],
    setup: ClueSetup,
    seat: int,
    hand: tuple[Card, ...],
    changed: list[int],
    grids: list[KnowledgeGrid],
    out: _Tally,
) -> None:
    """The rule baseline's pass: timed on the events in ``changed``, checked against ``grids``."""
    rule_view = RuleView(setup, seat, hand)
    rule_grid = rule_view.rules.grid()
    timed = set(changed)
    update = 0
    for index, event in enumerate(events):
        if index == 0:
            continue
        if index not in timed:
            rule_view.observe(event)
            continue
        with measure() as timing:
            rule_view.observe(event)
            rule_grid = rule_view.rules.grid()
        out.times["rules"].add(timing)
        update += 1
        out.missed.append(out.compare_rules(grids[update], rule_grid))
    out.missed_end += len(grids[-1].fixed) - len(rule_grid.fixed)
    out.fixed_end += len(grids[-1].fixed)


def grid_updates(games: list[GameLog[ClueEvent]]) -> dict[str, Any]:
    """Time every knowledge-changing event's grid update, for each seat of each game, by each
    method; compare the grids."""
    tally = _Tally()
    for log in games:
        events = log.events
        start = events[0]
        if not isinstance(start, GameStart) or start.deal is None:
            raise ValueError("grid_updates needs a log that opens with game_start and the deal")
        setup = clue_setup(ClueConfig.model_validate(log.header.config), start.hand_sizes)
        for seat, hand in enumerate(start.deal.hands):
            _seat_updates(events, setup, seat, hand, tally)
    base = tally.times["incremental"].summary()["cpu_median_ms"]
    rows = []
    for key, label in METHODS.items():
        samples = tally.times[key]
        summary = samples.summary()
        ratio = summary["cpu_median_ms"] / base if base else float("nan")
        rows.append(
            {"method": label, "updates": len(samples), **summary, "cpu_x_incremental": ratio}
        )
    missed = tally.missed
    return {
        "rows": rows,
        "solver_calls_median": percentile(tally.calls, 50),
        "solver_calls_p95": percentile(tally.calls, 95),
        "grid_mismatches": tally.mismatches,
        "rules": {
            "wrong_cells": tally.rule_wrong,
            "incomplete_updates": sum(1 for m in missed if m),
            "missed_cells_mean": sum(missed) / len(missed) if missed else float("nan"),
            "missed_cells_max": max(missed, default=0),
            "missed_cells_end": tally.missed_end,
            "fixed_cells_end": tally.fixed_end,
        },
    }


def whole_audit(log: GameLog[ClueEvent]) -> dict[str, Any]:
    """Time the audit of the whole game (every seat, every stated deduction)."""
    events = log.events
    with measure() as timing:
        audit = audit_game(log)
    return {
        "cpu_s": timing.cpu,
        "wall_s": timing.wall,
        "events": len(events),
        "rounds": audit.rounds,
        "deductions_checked": sum(len(p.checks) for p in audit.players),
    }


def run(seed: int = 0, games: int = 3, rounds: int = 30) -> dict[str, Any]:
    """Both measurements on ``games`` seeded games (seeds ``seed``, ``seed + 1``, ...), with the
    targets and whether they were met."""
    if games < 1:
        raise ValueError(f"games: must be at least 1, got {games}")
    logs = [perf_game(seed + i, rounds) for i in range(games)]
    gc.collect()
    gc.freeze()
    try:
        updates = grid_updates(logs)
        audits = [whole_audit(log) for log in logs]
    finally:
        gc.unfreeze()
    rows = {row["method"]: row for row in updates["rows"]}
    incremental = rows[METHODS["incremental"]]
    rule_ratio = incremental["cpu_median_ms"] / rows[METHODS["rules"]]["cpu_median_ms"]
    speedup = rows[METHODS["naive_all"]]["cpu_x_incremental"]
    audit_cpu = max(a["cpu_s"] for a in audits)
    return {
        "seed": seed,
        "games": games,
        "grid_updates": updates,
        "audits": audits,
        "targets": {
            "median_update_cpu_ms": TARGET_MEDIAN_MS,
            "median_update_met": incremental["cpu_median_ms"] < TARGET_MEDIAN_MS,
            "complete_met": updates["grid_mismatches"] == 0,
            "rule_ratio_max": TARGET_RULE_RATIO,
            "x_rule_baseline": rule_ratio,
            "rule_ratio_met": rule_ratio <= TARGET_RULE_RATIO,
            "speedup_min": TARGET_SPEEDUP,
            "speedup_vs_two_solves_per_cell": speedup,
            "speedup_met": speedup >= TARGET_SPEEDUP,
            "audit_cpu_s": TARGET_AUDIT_S,
            "audit_cpu_s_max": audit_cpu,
            "audit_met": audit_cpu < TARGET_AUDIT_S,
        },
    }


def bench_clue_perf(
    out: Annotated[Path, typer.Option(help="Folder for the JSON results.")] = Path("bench-results"),
    seed: Annotated[int, typer.Option(help="Seed of the first measured game.")] = 0,
    games: Annotated[
        int, typer.Option(min=1, help="Games measured (seeds seed, seed+1, ...).")
    ] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
) -> None:
    """Knowledge-grid update time per event, CPU next to wall (incremental backbone against a
    rule-propagation baseline and two solves per cell), and the time to audit whole 6-player,
    30-round games."""
    try:
        prepare_out(out)
    except ValueError as err:
        fail(err)
    result = run(seed=seed, games=games)
    path = write_json(out / "json", result)
    if as_json:
        typer.echo(json_text(result, indent=None), nl=False)
        return
    updates = result["grid_updates"]
    typer.echo(
        f"Knowledge-grid update per knowledge-changing event (6 seats, {games} 30-round games)"
    )
    typer.echo(format_table(updates["rows"], TABLE_COLUMNS))
    rules = updates["rules"]
    typer.echo(
        f"solver calls per incremental update: median {updates['solver_calls_median']:.0f}, "
        f"p95 {updates['solver_calls_p95']:.0f}; grids differing between the complete methods: "
        f"{updates['grid_mismatches']}\n"
        f"rule propagation: {rules['wrong_cells']} wrong cells; misses cells after "
        f"{rules['incomplete_updates']} updates (mean {rules['missed_cells_mean']:.2f}, max "
        f"{rules['missed_cells_max']}); at the end {rules['missed_cells_end']} of "
        f"{rules['fixed_cells_end']} fixed cells missed"
    )
    for audit in result["audits"]:
        typer.echo(
            f"Whole audit: {audit['cpu_s']:.3f} s CPU ({audit['wall_s']:.3f} s wall) for "
            f"{audit['events']} events, {audit['rounds']} rounds, "
            f"{audit['deductions_checked']} deductions checked"
        )
    t = result["targets"]

    def met(ok: bool) -> str:
        return "met" if ok else "missed"

    typer.echo(
        f"\ntargets: median update < {t['median_update_cpu_ms']} ms CPU: "
        f"{met(t['median_update_met'])}; complete: {met(t['complete_met'])}; <= "
        f"{t['rule_ratio_max']}x the rule baseline ({t['x_rule_baseline']:.2f}x): "
        f"{met(t['rule_ratio_met'])}; >= {t['speedup_min']}x less CPU than two solves per cell "
        f"({t['speedup_vs_two_solves_per_cell']:.1f}x): {met(t['speedup_met'])}; audit < "
        f"{t['audit_cpu_s']} s CPU: {met(t['audit_met'])}"
    )
    typer.echo(f"wrote {path}")
