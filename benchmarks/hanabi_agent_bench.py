"""Hanabi agents over many seeds: mean, std, IQM with bootstrap 95% CIs, perfect games, bomb-outs.

Seeds 0..N-1 per player count, one agent name filling every seat. Scores are reported in the
scoring mode given (``fireworks`` by default: the fireworks sum, kept at the third lost life).

Run: ``python -m benchmarks.hanabi_agent_bench --seeds 1000 --players 2,3,4,5 --out DIR``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer

from benchmarks.hanabi_options import player_counts
from benchmarks.report import format_table, write_json
from games.core.play import play_game
from games.hanabi.agents import AGENTS, HanabiAgentSettings
from games.hanabi.config import Scoring
from games.hanabi.entry import ENTRY, HanabiState
from games.hanabi.events import HanabiConfig
from games.hanabi.stats import score_stats

OFFLINE = tuple(name for name, kind in AGENTS.types.items() if not kind.needs_llm)
"""The agents this benchmark plays (LLM agents play through ``gumshoe bench hanabi``)."""


def run(agent: str, players: int, seeds: int, scoring: Scoring) -> dict[str, Any]:
    """Play ``seeds`` games and return their statistics with the CPU and wall time taken."""
    config = HanabiConfig(players=players, scoring=scoring)
    settings = HanabiAgentSettings(scoring=scoring)
    specs = (agent,) * players
    wall, cpu = time.perf_counter(), time.process_time()
    games = []
    for seed in range(seeds):
        state = play_game(ENTRY, specs, seed, settings, config).state
        assert isinstance(state, HanabiState)
        games.append(state.game)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    row: dict[str, Any] = {"agent": agent, **score_stats(games).model_dump()}
    row.update(cpu_s=cpu, wall_s=wall)
    return row


def main(
    seeds: Annotated[int, typer.Option(min=1, help="Seeds 0..N-1 per player count.")] = 1000,
    players: Annotated[str, typer.Option(help="Player counts, comma-separated (2-5).")] = "2,3,4,5",
    agent: Annotated[
        str, typer.Option(help=f"Agent in every seat: {', '.join(OFFLINE)}.")
    ] = "symbolic",
    scoring: Annotated[str, typer.Option(help="Scoring mode: fireworks or hle.")] = "fireworks",
    out: Annotated[Path, typer.Option(help="Folder for hanabi_<agent>.json.")] = Path("runs/bench"),
) -> None:
    """Print the table and write the JSON."""
    counts = player_counts(players)
    if agent not in OFFLINE:
        typer.echo(f"--agent: unknown agent {agent!r} (known: {', '.join(OFFLINE)})", err=True)
        raise typer.Exit(2)
    if scoring not in ("fireworks", "hle"):
        typer.echo(f"--scoring: must be fireworks or hle, got {scoring!r}", err=True)
        raise typer.Exit(2)
    mode: Scoring = "fireworks" if scoring == "fireworks" else "hle"
    rows = [run(agent, count, seeds, mode) for count in counts]
    columns = ["players", "scoring", "games", "mean", "std", "mean_ci", "iqm", "iqm_ci"]
    columns += ["perfect", "bomb_outs", "mean_turns", "cpu_s"]
    typer.echo(format_table(rows, columns))
    typer.echo(f"wrote {write_json(out / f'hanabi_{agent}.json', {'rows': rows})}")


if __name__ == "__main__":
    typer.run(main)
