"""Hanabi engine speed: random-play games per second, ours next to the reference engines.

Every engine plays the same number of games with uniformly random legal moves, driven from Python
the same way (one call for the legal moves, one to apply the chosen move, chance cards drawn by
the engine or, for OpenSpiel, sampled from its chance outcomes). CPU time (process time) is
reported next to wall time; the speed ratio is taken from CPU time. A reference engine that is not
installed is reported as absent.

Run: ``python -m benchmarks.hanabi_engine_bench --games 2000 --players 2,3,4,5 --out DIR``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from benchmarks.hanabi_options import player_counts
from benchmarks.report import format_table, write_json
from games.hanabi.engine import HanabiGame
from games.hanabi.events import HanabiConfig

TARGET_RATIO = 0.25
"""Target: at least a quarter of the reference engine's games per second."""


def _ours(players: int, seed: int, rng: random.Random) -> int:
    game = HanabiGame(HanabiConfig(players=players), seed)
    moves = 0
    while not game.is_terminal():
        seat = game.current
        game.apply({seat: rng.choice(game.legal_actions(seat))})
        moves += 1
    return moves


def _openspiel(players: int, seed: int, rng: random.Random) -> int:
    import pyspiel

    state = pyspiel.load_game("hanabi", {"players": players}).new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return moves


def _hle(players: int, seed: int, rng: random.Random) -> int:
    from hanabi_learning_environment import pyhanabi

    game = pyhanabi.HanabiGame({"players": players, "seed": seed})
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.cur_player() == pyhanabi.CHANCE_PLAYER_ID:
            state.deal_random_card()
        else:
            state.apply_move(rng.choice(state.legal_moves()))
            moves += 1
    return moves


ENGINES: dict[str, tuple[str, Callable[[int, int, random.Random], int]]] = {
    "gumshoe": ("", _ours),
    "openspiel": ("pyspiel", _openspiel),
    "hle": ("hanabi_learning_environment.pyhanabi", _hle),
}


def _installed(module: str) -> bool:
    if not module:
        return True
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def run(games: int, players: list[int]) -> dict[str, Any]:
    """Time every installed engine on ``games`` random games per player count."""
    rows: list[dict[str, Any]] = []
    for count in players:
        ours_cpu = None
        for engine, (module, play) in ENGINES.items():
            if not _installed(module):
                rows.append({"players": count, "engine": engine, "status": "absent"})
                continue
            rng = random.Random(count)
            wall, cpu = time.perf_counter(), time.process_time()
            moves = sum(play(count, seed, rng) for seed in range(games))
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            ours_cpu = cpu if engine == "gumshoe" else ours_cpu
            rows.append(
                {
                    "players": count,
                    "engine": engine,
                    "status": "ok",
                    "games": games,
                    "moves_per_game": moves / games,
                    "games_per_s_cpu": games / cpu,
                    "games_per_s_wall": games / wall,
                    "cpu_s": cpu,
                    "wall_s": wall,
                    "ours_over_engine_speed": (cpu / ours_cpu) if ours_cpu else None,
                }
            )
    return {"benchmark": "hanabi-engine", "target_ratio": TARGET_RATIO, "rows": rows}


def main(
    games: Annotated[
        int, typer.Option(min=1, help="Random games per player count and engine.")
    ] = 2000,
    players: Annotated[str, typer.Option(help="Player counts, comma-separated (2-5).")] = "2,3,4,5",
    out: Annotated[Path, typer.Option(help="Folder for hanabi_engine.json.")] = Path("runs/bench"),
) -> None:
    """Random-play games per second of our engine next to the reference engines installed
    (OpenSpiel, HLE), in the same run; print the table and write the JSON."""
    counts = player_counts(players)
    result = run(games, counts)
    columns = ["players", "engine", "status", "moves_per_game", "games_per_s_cpu"]
    columns += ["games_per_s_wall", "ours_over_engine_speed"]
    typer.echo(format_table(result["rows"], columns))
    typer.echo(f"wrote {write_json(out / 'hanabi_engine.json', result)}")


if __name__ == "__main__":
    typer.run(main)
