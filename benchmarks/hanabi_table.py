"""``gumshoe bench hanabi-table RUN...``: runs of ``bench hanabi`` merged into one table.

Seed 003 reports one row per model and player count: mean, std, perfect games, bomb-outs. Runs
of the same seats (the ``--agents`` seat list, with ``--model`` where one was given) and scoring
are pooled, game by game, from their logs; a seed played twice for the same row is refused (two
runs of one deal would count it twice). Unfinished games are left out and counted.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError

from benchmarks.hanabi_bench import HanabiRunConfig, hanabi_id, migrate_ids
from benchmarks.options import AsJson
from benchmarks.report import format_table
from games.core.cli import fail
from games.core.errors import GAME_ERRORS
from games.core.runlog import field_errors
from games.hanabi.config import Scoring
from games.hanabi.entry import ENTRY
from games.hanabi.events import GameEnd
from games.hanabi.stats import GameRecord, record_stats
from reasoning.outfile import json_text
from reasoning.textfile import UserFileError, read_user_json_object

COLUMNS = ["seats", "players", "scoring", "games", "mean", "std", "mean_ci", "perfect"]
COLUMNS += ["bomb_outs", "unfinished", "runs"]
"""The columns of the merged table."""

Row = tuple[str, int, Scoring]
"""A row's key: the seats (with the model), the player count, the scoring mode."""


def run_config(run: Path) -> HanabiRunConfig:
    """The config a ``bench hanabi`` run directory was played with; ValueError naming it."""
    path = run / "config.json"
    try:
        data = read_user_json_object(path, allow_bom=False, inside=run)
    except UserFileError as err:
        raise ValueError(f"{path}: not a bench hanabi run ({err.reason})") from None
    try:
        return HanabiRunConfig.model_validate(data)
    except ValidationError as err:
        raise ValueError(f"{path}: not a bench hanabi run ({field_errors(err)})") from None


def seats_label(config: HanabiRunConfig) -> str:
    """The seat list, with the run's ``--model`` when one was given."""
    return config.agents if config.model is None else f"{config.agents} ({config.model})"


def merged_rows(runs: Sequence[Path]) -> list[dict[str, Any]]:
    """One row per seats, player count and scoring over every run given."""
    games: dict[Row, dict[int, GameRecord]] = {}
    unfinished: dict[Row, int] = {}
    sources: dict[Row, set[str]] = {}
    for run in runs:
        config = run_config(run)
        migrate_ids(run, config)
        for players in config.players:
            key = (seats_label(config), players, config.scoring)
            pooled = games.setdefault(key, {})
            sources.setdefault(key, set()).add(str(run))
            for seed in config.seeds:
                if seed in pooled:
                    raise ValueError(f"{run}: seed {seed} at {players} players is in two runs")
                path = run / "games" / f"{hanabi_id(players, seed)}.jsonl"
                log = ENTRY.read_log(path, inside=run) if os.path.lexists(path) else None
                if log is None or log.end is None or log.end.status != "finished":
                    unfinished[key] = unfinished.get(key, 0) + 1
                    continue
                end = log.events[-1]
                assert isinstance(end, GameEnd)
                perfect = sum(end.fireworks) == 25
                pooled[seed] = GameRecord(end.score, perfect, end.lives == 0, end.turn - 1)
    rows = []
    for key in sorted(games):
        seats, players, scoring = key
        records = list(games[key].values())
        stats = record_stats(players, scoring, records) if records else None
        rows.append(
            {
                "seats": seats,
                "players": players,
                "scoring": scoring,
                "games": len(records),
                "mean": None if stats is None else round(stats.mean, 3),
                "std": None if stats is None else round(stats.std, 3),
                "mean_ci": None if stats is None else stats.mean_ci,
                "perfect": None if stats is None else stats.perfect,
                "bomb_outs": None if stats is None else stats.bomb_outs,
                "unfinished": unfinished.get(key, 0),
                "runs": len(sources[key]),
            }
        )
    return rows


def bench_hanabi_table(
    runs: Annotated[list[Path], typer.Argument(help="Run directories of `bench hanabi`.")],
    as_json: AsJson = False,
) -> None:
    """Merge runs of `bench hanabi` into seed 003's table: one row per seats (and model) and
    player count with mean, std, the mean's 95% CI, perfect games and bomb-outs."""
    try:
        rows = merged_rows(runs)
    except (ValueError, ValidationError, OSError) as err:
        fail(err)
    except GAME_ERRORS as err:
        fail(err)
    if as_json:
        typer.echo(json_text({"benchmark": "hanabi-table", "rows": rows}), nl=False)
        return
    cells = [
        {
            **row,
            "mean_ci": "-" if row["mean_ci"] is None else "{:.2f}-{:.2f}".format(*row["mean_ci"]),
        }
        for row in rows
    ]
    typer.echo(format_table(cells, COLUMNS))
