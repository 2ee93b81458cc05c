"""Backbone timing on a Clue-sized constraint set: SatSession.backbone against two solves per atom.

Each repeat deals a fresh game (21 cards over 6 players of 3 cards and an envelope of one suspect,
one weapon and one room), states the rules as cardinality constraints plus 40 clauses "player P
holds one of these three cards" true of the deal, and times the backbone over all 147 atoms by
each method, and the incremental update after each of the 40 clauses with earlier results as hint.
Times are CPU time next to wall time; each method runs on a fresh session of its own.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from benchmarks.report import TimeSamples, measure
from provers.sat_session import SatSession
from reasoning.formula import Card, Formula, Not, Or, prop

SUSPECTS = tuple(f"suspect{i}" for i in range(1, 7))
WEAPONS = tuple(f"weapon{i}" for i in range(1, 7))
ROOMS = tuple(f"room{i}" for i in range(1, 10))
CARDS = SUSPECTS + WEAPONS + ROOMS
PLAYERS = tuple(f"player{i}" for i in range(1, 7))
ENVELOPE = "envelope"
PLACES = (*PLAYERS, ENVELOPE)
HAND_SIZE = 3
HINT_CLAUSES = 40
TABLE_COLUMNS = [
    "method",
    "cpu_median_ms",
    "cpu_p95_ms",
    "wall_median_ms",
    "wall_p95_ms",
    "solver_calls",
]
"""The columns of the backbone table."""


def holds(place: str, card: str) -> str:
    """The atom name for "``place`` holds ``card``"."""
    return f"{place}:{card}"


ATOMS = tuple(holds(place, card) for place in PLACES for card in CARDS)


@dataclass(frozen=True, slots=True)
class ClueInstance:
    """The rule constraints and the 40 deal-consistent hint clauses of one dealt game."""

    rules: tuple[Formula, ...]
    hints: tuple[Formula, ...]


def _exactly(k: int, names: list[str]) -> Formula:
    return Card("exactly", k, tuple(prop(name) for name in names))


def clue_instance(rng: random.Random) -> ClueInstance:
    """Deal a game with ``rng`` and state what a player could know of it as constraints."""
    envelope = [rng.choice(SUSPECTS), rng.choice(WEAPONS), rng.choice(ROOMS)]
    rest = [card for card in CARDS if card not in envelope]
    rng.shuffle(rest)
    hands = {p: rest[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i, p in enumerate(PLAYERS)}
    rules = [_exactly(1, [holds(place, card) for place in PLACES]) for card in CARDS]
    rules += [_exactly(HAND_SIZE, [holds(p, card) for card in CARDS]) for p in PLAYERS]
    rules += [
        _exactly(1, [holds(ENVELOPE, card) for card in category])
        for category in (SUSPECTS, WEAPONS, ROOMS)
    ]
    hints: list[Formula] = []
    for _ in range(HINT_CLAUSES):
        player = rng.choice(PLAYERS)
        held = rng.choice(hands[player])
        others = rng.sample([card for card in CARDS if card != held], 2)
        hints.append(Or(tuple(prop(holds(player, card)) for card in [held, *others])))
    return ClueInstance(tuple(rules), tuple(hints))


def _session(formulas: tuple[Formula, ...]) -> SatSession:
    session = SatSession()
    for formula in formulas:
        session.add(formula)
    return session


def naive_backbone(session: SatSession, names: tuple[str, ...]) -> dict[str, bool]:
    """The backbone by two solves per atom, one under each value: the baseline."""
    fixed: dict[str, bool] = {}
    for name in names:
        can_true = session.satisfiable([prop(name)])
        can_false = session.satisfiable([Not(prop(name))])
        if can_true != can_false:
            fixed[name] = can_true
    return fixed


@dataclass
class _Sample:
    """The timings and solver calls of one method."""

    times: TimeSamples = field(default_factory=TimeSamples)
    calls: list[int] = field(default_factory=list)


def _measure(
    session: SatSession, sample: _Sample, call: Callable[[], dict[str, bool]]
) -> dict[str, bool]:
    """Run ``call`` once, recording its CPU and wall time and its solver calls in ``sample``."""
    before = session.solver_calls
    with measure() as timing:
        result = call()
    sample.times.add(timing)
    sample.calls.append(session.solver_calls - before)
    return result


def _row(method: str, sample: _Sample) -> dict[str, float | str]:
    return {
        "method": method,
        **sample.times.summary(),
        "solver_calls": statistics.mean(sample.calls),
    }


def run(repeats: int = 50, seed: int = 0) -> list[dict[str, float | str]]:
    """Time the three methods over ``repeats`` deals from ``seed``; one summary row per method.

    Rows: ``backbone`` (SatSession.backbone, all atoms, all constraints), ``naive`` (two solves
    per atom on the same set) and ``backbone-update`` (one sample per added hint clause,
    with the previous backbone as hint). Raises RuntimeError if the methods disagree.
    """
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    rng = random.Random(seed)
    samples = {name: _Sample() for name in ("backbone", "naive", "backbone-update")}
    for _ in range(repeats):
        instance = clue_instance(rng)
        everything = instance.rules + instance.hints
        with _session(everything) as session:
            full = _measure(session, samples["backbone"], lambda: session.backbone(ATOMS))
        with _session(everything) as session:
            naive = _measure(session, samples["naive"], lambda: naive_backbone(session, ATOMS))
        with _session(instance.rules) as session:
            known = session.backbone(ATOMS)
            for clause in instance.hints:
                session.add(clause)
                update = partial(session.backbone, ATOMS, known)
                known = _measure(session, samples["backbone-update"], update)
        if not full == naive == known:
            raise RuntimeError("backbone methods disagree on a Clue instance")
    return [_row(method, sample) for method, sample in samples.items()]
