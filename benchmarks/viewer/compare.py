"""Two or more runs side by side (``gumshoe view RUN_A RUN_B ...``): each run's per-agent table,
the differences from the first run with 95% intervals, and the games they share, those where
they differ most first, each opening every run's log of that game at the same step.

Runs are compared seat by seat (seat k of each run over the games both played, by game id): the
win rate and the mean score as paired differences over those games, the sound and wrong shares
of the stated claims as differences of shares (``benchmarks.viewer.estimates``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from benchmarks.viewer.estimates import Estimate, paired_difference, share_difference
from benchmarks.viewer.run import AgentRow, GameRow, RunView, view_run
from reasoning.textfile import read_user_json


class RunSide(BaseModel):
    """One compared run: its title (with the model its config names), games and agent table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str
    games: int
    agents: list[AgentRow]


class Difference(BaseModel):
    """How run ``run`` differs from the first at seat ``seat``: its figures less the first's."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    run: int
    seat: int
    agents: tuple[str, str]
    games: int
    win_rate: Estimate | None
    score: Estimate
    sound: Estimate
    wrong: Estimate


class SharedGame(BaseModel):
    """A game every compared run played: its row in each run and how far they differ (the summed
    absolute differences of the seats' returns and wrong claims from the first run's)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    seed: int | None
    distance: float
    rows: list[GameRow]


class CompareView(BaseModel):
    """Runs side by side: each run, the differences from the first, and the shared games."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str
    runs: list[RunSide]
    competitive: bool
    differences: list[Difference]
    games: list[SharedGame]


def run_title(folder: Path) -> str:
    """A run's name, with the model its ``config.json`` names when it names one."""
    config = folder / "config.json"
    model = None
    if os.path.lexists(config):
        loaded = read_user_json(config, inside=folder)
        if isinstance(loaded, dict):
            named = loaded.get("llm_model", loaded.get("model"))
            model = named if isinstance(named, str) and named else None
    name = folder.resolve().name
    return f"{name} ({model})" if model else name


def _seat_figures(
    games: Sequence[tuple[GameRow, GameRow]], seat: int
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    wins, scores = [], []
    for a, b in games:
        if a.outcome.status != "finished" or b.outcome.status != "finished":
            continue
        if seat < len(a.outcome.returns) and seat < len(b.outcome.returns):
            scores.append((a.outcome.returns[seat], b.outcome.returns[seat]))
            wins.append((float(seat in a.outcome.winners), float(seat in b.outcome.winners)))
    return wins, scores


def _claims(games: Sequence[GameRow], seat: int) -> tuple[int, int, int]:
    """``seat``'s stated, sound and wrong claims summed over ``games``."""
    held = [g.seat_claims[seat] for g in games if seat < len(g.seat_claims)]
    return sum(c[0] for c in held), sum(c[1] for c in held), sum(c[2] for c in held)


def differences(first: RunView, other: RunView, index: int, competitive: bool) -> list[Difference]:
    """How ``other`` (the ``index``-th run) differs from ``first`` seat by seat over the games
    both played."""
    mine = {g.id: g for g in first.games}
    pairs = [(mine[g.id], g) for g in other.games if g.id in mine]
    if not pairs:
        return []
    seats = min(len(pairs[0][0].agents), len(pairs[0][1].agents))
    out = []
    for seat in range(seats):
        wins, scores = _seat_figures(pairs, seat)
        a_stated, a_sound, a_wrong = _claims([a for a, _ in pairs], seat)
        b_stated, b_sound, b_wrong = _claims([b for _, b in pairs], seat)
        out.append(
            Difference(
                run=index,
                seat=seat,
                agents=(pairs[0][0].agents[seat], pairs[0][1].agents[seat]),
                games=len(pairs),
                win_rate=paired_difference(wins) if competitive else None,
                score=paired_difference(scores),
                sound=share_difference(a_sound, a_stated, b_sound, b_stated),
                wrong=share_difference(a_wrong, a_stated, b_wrong, b_stated),
            )
        )
    return out


def distance(rows: Sequence[GameRow]) -> float:
    """How far the runs' rows of one game differ from the first's: summed absolute differences
    of the seats' returns and wrong claims."""
    first = rows[0]
    total = 0.0
    for other in rows[1:]:
        for a, b in zip(first.outcome.returns, other.outcome.returns, strict=False):
            total += abs(a - b)
        for a_claims, b_claims in zip(first.seat_claims, other.seat_claims, strict=False):
            total += abs(a_claims[2] - b_claims[2])
    return total


def view_compare(
    folders: Sequence[Path], *, reuse: bool = True, quiet: bool = False
) -> CompareView:
    """The comparison of the runs in ``folders`` (two or more run directories)."""
    runs = [view_run(folder, reuse=reuse, quiet=quiet) for folder in folders]
    competitive = any(run.competitive for run in runs)
    by_id = [{g.id: g for g in run.games} for run in runs]
    shared = [g.id for g in runs[0].games if all(g.id in ids for ids in by_id[1:])]
    if not shared:
        names = ", ".join(str(f) for f in folders)
        raise ValueError(f"{names}: the runs share no game (compared by game id)")
    games = [
        SharedGame(
            id=gid,
            seed=by_id[0][gid].seed,
            distance=distance(rows := [ids[gid] for ids in by_id]),
            rows=rows,
        )
        for gid in shared
    ]
    games.sort(key=lambda g: (-g.distance, g.seed is None, g.seed or 0, g.id))
    titles = [run_title(folder) for folder in folders]
    return CompareView(
        title=" vs ".join(titles),
        runs=[
            RunSide(title=t, games=len(run.games), agents=run.agents)
            for t, run in zip(titles, runs, strict=True)
        ],
        competitive=competitive,
        differences=[
            d
            for index, run in enumerate(runs[1:], 1)
            for d in differences(runs[0], run, index, competitive)
        ],
        games=games,
    )
