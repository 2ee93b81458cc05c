"""python-sat solvers for the SAT backend: picking one by name, and solving to a deadline."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pysat.solvers import Solver

DEFAULT_SOLVER = "minicard"
"""The constraint session's solver: native cardinality constraints, cheap phase-guided calls."""

PROVER_SOLVER = "cadical195"
"""The prover's solver: strong on hard one-off problems."""

NOT_INCREMENTAL = frozenset({"kissat404", "lingeling"})
"""Solvers that ignore assumptions or abort on clauses added after a solve: unusable here."""

INTERRUPTIBLE = frozenset(
    {
        "ergo",
        "gluecard3",
        "gluecard4",
        "glucose3",
        "glucose4",
        "glucose42",
        "maplechrono",
        "maplecm",
        "maplesat",
        "mergesat3",
        "minicard",
        "minisat22",
        "minisatgh",
        "minisatep",
    }
)
"""Solvers whose running search pysat can interrupt from another thread."""

NO_PHASES = frozenset({"cadical103"})
"""Solvers that do not take preferred phases (``set_phases``)."""

CONFLICT_SLICE = 2000
"""Conflicts per bounded call when a solver cannot be interrupted and a deadline must be kept."""


@cache
def _known_names() -> dict[str, str]:
    """python-sat's solver names, each alias to its canonical name (pysat imported on first
    use, so that reading this module's constants loads no solver)."""
    from pysat.solvers import SolverNames

    names: dict[str, str] = {}
    for canonical, aliases in vars(SolverNames).items():
        if not canonical.startswith("_") and isinstance(aliases, tuple):
            for alias in aliases:
                names[alias] = canonical
    return names


def canonical_solver_name(name: str) -> str:
    """The python-sat name behind ``name`` (an alias such as ``cd195`` is accepted).

    Raises ValueError for an unknown solver or one without assumptions and incremental clauses.
    """
    known = _known_names()
    canonical = known.get(name)
    if canonical is None:
        raise ValueError(
            f"unknown SAT solver {name!r}; python-sat offers {sorted(set(known.values()))}"
        )
    if canonical in NOT_INCREMENTAL:
        raise ValueError(
            f"SAT solver {name!r} does not support assumptions and incremental clauses"
        )
    return canonical


def open_solver(name: str) -> Solver:
    """A new, empty incremental solver; ValueError when ``name`` is unusable or not built in."""
    from pysat.solvers import NoSuchSolverError, Solver

    canonical = canonical_solver_name(name)
    try:
        return Solver(name=canonical)
    except NoSuchSolverError as exc:
        raise ValueError(f"SAT solver {name!r} is not available in this python-sat build") from exc


def solve_within(
    solver: Solver, canonical: str, assumptions: Sequence[int], deadline: float | None
) -> bool | None:
    """Solve under ``assumptions``; None when ``deadline`` (a ``time.monotonic`` value) passes.

    Interruptible solvers are stopped by a timer; the others run in bounded slices of
    ``CONFLICT_SLICE`` conflicts with the clock checked between slices.
    """
    lits = list(assumptions)
    if deadline is None:
        with ctrl_c_as_keyboard_interrupt():
            return bool(solver.solve(assumptions=lits))
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return None
    if canonical in INTERRUPTIBLE:
        timer = threading.Timer(remaining, solver.interrupt)
        timer.start()
        try:
            with ctrl_c_as_keyboard_interrupt():
                status: bool | None = solver.solve_limited(assumptions=lits, expect_interrupt=True)
        finally:
            timer.cancel()
            timer.join()
        return status
    while time.monotonic() < deadline:
        solver.conf_budget(CONFLICT_SLICE)
        with ctrl_c_as_keyboard_interrupt():
            status = solver.solve_limited(assumptions=lits)
        if status is not None:
            return bool(status)
    return None


@contextmanager
def ctrl_c_as_keyboard_interrupt() -> Iterator[None]:
    """Around a pysat search: pysat catches Ctrl-C itself and raises its own error ("Caught
    keyboard interrupt"); raise KeyboardInterrupt instead, so the program stops as anywhere else
    and no backend mistakes the press for a failed proof."""
    try:
        yield
    except Exception as err:
        if type(err).__module__ == "pysolvers" and "keyboard interrupt" in str(err).lower():
            raise KeyboardInterrupt from None
        raise
