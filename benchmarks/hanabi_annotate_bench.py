"""What ``hanabi annotate`` costs per decision, and what its racing rule saves.

Every decision is valued as ``gumshoe hanabi annotate`` values it (``games.hanabi.annotate.
move_values``: symbolic rollouts over hands sampled from the deciding seat's knowledge, the moves
raced), under the chosen settings and, side by side in the same process, under the same settings
with no indifference margin (``--margin 0``: sampling stops only when one move is left or at the
cap). Reported per rule: decisions, samples and rollouts per decision, why each decision stopped,
CPU and wall time in all and CPU per decision.

The decisions are those of a run (``--run``, a ``bench hanabi`` run directory or one log: its
logged LLM decisions), or else every move of ``--games`` games at ``--players`` players played
by the ``random`` agent (short games that end in a bomb-out after 13-20 moves, early-game
positions like those of a small model's run).

Run: ``python -m benchmarks.hanabi_annotate_bench --games 3 --players 2 --out DIR``.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer

from benchmarks.report import format_table, write_json
from games.core.random_agent import RandomAgent
from games.hanabi.agents import make_agent
from games.hanabi.annotate import MARGIN, MAX_SAMPLES, SAMPLES, move_values
from games.hanabi.cli import run_logs
from games.hanabi.engine import HanabiGame
from games.hanabi.entry import ENTRY
from games.hanabi.position import Position, logged_decisions


def random_positions(games: int, players: int) -> list[HanabiGame]:
    """The position before every move of ``games`` games the ``random`` agent plays."""
    out: list[HanabiGame] = []
    for seed in range(games):
        position = Position(players=players, seed=seed)
        game = position.game()
        agents = [make_agent("random", seat, seed) for seat in range(players)]
        while not game.is_terminal():
            out.append(position.game())
            seat = game.current
            agent = agents[seat]
            assert isinstance(agent, RandomAgent)
            move = agent.choose(game.observation(seat), game.legal_actions(seat))
            assert isinstance(move, int)
            game.apply({seat: move})
            position = position.model_copy(update={"moves": (*position.moves, move)})
    return out


def run_positions(run: Path) -> list[HanabiGame]:
    """The position of every logged decision of a run (or one log)."""
    return [
        Position.model_validate(decision.position).game()
        for path in run_logs(run)
        for decision in logged_decisions(ENTRY.read_log(path))
    ]


def measure(
    positions: list[HanabiGame], label: str, least: int, cap: int, margin: float
) -> dict[str, Any]:
    """Value every position under one rule; the figures of one table row."""
    rollouts = 0

    def count(live: int) -> None:
        nonlocal rollouts
        rollouts += live

    samples = 0
    stops: Counter[str] = Counter()
    cpu, wall = time.process_time(), time.perf_counter()
    for index, game in enumerate(positions):
        valued = move_values(game, least, cap, index, margin=margin, on_sample=count)
        samples += valued.samples
        stops[valued.stop] += 1
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    decisions = len(positions)
    return {
        "rule": label,
        "samples": f"{least}-{cap}",
        "margin": margin,
        "decisions": decisions,
        "samples_per_decision": samples / decisions,
        "rollouts_per_decision": rollouts / decisions,
        "separated": stops["separated"],
        "indifferent": stops["indifferent"],
        "cap": stops["cap"],
        "cpu_s": round(cpu, 2),
        "wall_s": round(wall, 2),
        "cpu_per_decision_s": round(cpu / decisions, 3),
    }


def main(
    run: Annotated[
        Path | None, typer.Option(help="Value this run's logged decisions (a run or one log).")
    ] = None,
    games: Annotated[int, typer.Option(min=1, help="Random-agent games (without --run).")] = 3,
    players: Annotated[int, typer.Option(min=2, max=5, help="Players (without --run).")] = 2,
    samples: Annotated[int, typer.Option(min=2, help="Least samples per decision.")] = SAMPLES,
    max_samples: Annotated[int, typer.Option(min=2, help="Sample cap.")] = MAX_SAMPLES,
    margin: Annotated[float, typer.Option(min=0.0, help="Indifference margin.")] = MARGIN,
    out: Annotated[Path, typer.Option(help="Folder for hanabi_annotate.json.")] = Path(
        "runs/bench"
    ),
) -> None:
    """Print the table and write the JSON."""
    if max_samples < samples:
        typer.echo(f"--max-samples: {max_samples} is below --samples {samples}", err=True)
        raise typer.Exit(2)
    try:
        positions = run_positions(run) if run is not None else random_positions(games, players)
    except (ValueError, OSError) as err:
        typer.echo(f"--run: {err}", err=True)
        raise typer.Exit(2) from None
    rows = [
        measure(positions, "race", samples, max_samples, margin),
        measure(positions, "separation only", samples, max_samples, 0.0),
    ]
    columns = ["rule", "samples", "margin", "decisions", "samples_per_decision"]
    columns += ["rollouts_per_decision", "separated", "indifferent", "cap"]
    columns += ["cpu_s", "wall_s", "cpu_per_decision_s"]
    typer.echo(format_table(rows, columns))
    source = str(run) if run is not None else f"random agents, {games} games, {players} players"
    payload = {"benchmark": "hanabi-annotate", "positions": source, "rows": rows}
    typer.echo(f"wrote {write_json(out / 'hanabi_annotate.json', payload)}")


if __name__ == "__main__":
    typer.run(main)
