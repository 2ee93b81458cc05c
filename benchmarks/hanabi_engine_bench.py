"""Hanabi engine speed: ours next to the reference engines, on short and full-length games.

Random play: every engine plays the same number of games with uniformly random legal moves,
driven from Python the same way (one call for the legal moves, one to apply the chosen move,
chance cards drawn by the engine or, for OpenSpiel, sampled from its chance outcomes). Random games
are short (a bomb-out after about 20 moves), so their games per second mostly time the deal.

Careful play: the same full-length games (the ``hat`` agent's, about 50-70 moves) replayed move
by move on every engine (legal moves, then the recorded move; OpenSpiel is dealt the recorded
cards), timed per move: what a search spends per simulated move. The rollout row times the
``hat`` agent and our engine together playing those games from their middle to the end, as a
search's rollouts do.

CPU time (process time) is reported next to wall time; ratios are taken from CPU time. A reference
engine that is not installed is reported as absent.

Run: ``python -m benchmarks.hanabi_engine_bench --games 2000 --careful 200 --out DIR``.
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
from games.hanabi.hat import HatAgent

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


Recorded = tuple[int, list[int], list[int]]
"""One careful game: its seed, its moves and the cards dealt, in order."""


def careful_games(players: int, games: int) -> list[Recorded]:
    """The ``hat`` agent's games on seeds 0..games-1: moves and the cards dealt in order."""
    recorded: list[Recorded] = []
    for seed in range(games):
        game = HanabiGame(HanabiConfig(players=players), seed)
        agents = [HatAgent(s) for s in range(players)]
        while not game.is_terminal():
            game.apply({game.current: agents[game.current].act(game.observation(game.current))})
        start = HanabiGame(HanabiConfig(players=players), seed)
        dealt = [card for hand in start.hands for card in hand]
        hands = [list(hand) for hand in start.hands]
        for turn in game.history:
            move = game.moves[turn.action]
            if turn.drew:
                hand = hands[turn.seat]
                hand.pop(move.slot)
                start.apply({turn.seat: turn.action})
                hand.append(start.hands[turn.seat][-1])
                dealt.append(hand[-1])
            else:
                if move.kind in ("play", "discard"):
                    hands[turn.seat].pop(move.slot)
                start.apply({turn.seat: turn.action})
        recorded.append((seed, [t.action for t in game.history], dealt))
    return recorded


def _replay_ours(players: int, record: Recorded) -> int:
    seed, actions, _ = record
    game = HanabiGame(HanabiConfig(players=players), seed)
    for action in actions:
        seat = game.current
        game.legal_actions(seat)
        game.apply({seat: action})
    return len(actions)


def _replay_openspiel(players: int, record: Recorded) -> int:
    import pyspiel

    _, actions, dealt = record
    state = pyspiel.load_game("hanabi", {"players": players}).new_initial_state()
    cards = iter(dealt)
    moves = iter(actions)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(next(cards))
        else:
            state.legal_actions()
            state.apply_action(next(moves))
    return len(actions)


def _replay_hle(players: int, record: Recorded) -> int:
    from hanabi_learning_environment import pyhanabi

    seed, actions, _ = record
    game = pyhanabi.HanabiGame({"players": players, "seed": seed})
    state = game.new_initial_state()
    moves = iter(actions)
    while not state.is_terminal():
        if state.cur_player() == pyhanabi.CHANCE_PLAYER_ID:
            state.deal_random_card()
        else:
            state.legal_moves()
            state.apply_move(game.get_move(next(moves)))
    return len(actions)


REPLAYERS: dict[str, tuple[str, Callable[[int, Recorded], int]]] = {
    "gumshoe": ("", _replay_ours),
    "openspiel": ("pyspiel", _replay_openspiel),
    "hle": ("hanabi_learning_environment.pyhanabi", _replay_hle),
}


def _rollouts(players: int, records: list[Recorded]) -> tuple[int, int]:
    """Play every recorded game from its middle to the end with fresh ``hat`` agents; the number
    of rollouts and of moves they made."""
    moves = 0
    for seed, actions, _ in records:
        game = HanabiGame(HanabiConfig(players=players), seed)
        for action in actions[: len(actions) // 2]:
            game.apply({game.current: action})
        agents = [HatAgent(s) for s in range(players)]
        while not game.is_terminal():
            seat = game.current
            game.apply({seat: agents[seat].act(game.observation(seat))})
            moves += 1
    return len(records), moves


def run_careful(games: int, players: list[int]) -> list[dict[str, Any]]:
    """Microseconds per move of every installed engine on ``games`` full-length games per
    player count, and the cost of a ``hat`` rollout from each game's middle."""
    rows: list[dict[str, Any]] = []
    for count in players:
        records = careful_games(count, games)
        ours = None
        for engine, (module, replay) in REPLAYERS.items():
            if not _installed(module):
                rows.append({"players": count, "engine": engine, "status": "absent"})
                continue
            wall, cpu = time.perf_counter(), time.process_time()
            moves = sum(replay(count, record) for record in records)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            ours = cpu if engine == "gumshoe" else ours
            row = _per_move(count, engine, games, moves, cpu, wall)
            rows.append(row | {"ours_over_engine_speed": (cpu / ours) if ours else None})
        wall, cpu = time.perf_counter(), time.process_time()
        done, moves = _rollouts(count, records)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        row = _per_move(count, "gumshoe+hat rollout", done, moves, cpu, wall)
        rows.append(row | {"ms_per_rollout_cpu": 1e3 * cpu / done})
    return rows


def _per_move(
    players: int, engine: str, games: int, moves: int, cpu: float, wall: float
) -> dict[str, Any]:
    return {
        "players": players,
        "engine": engine,
        "status": "ok",
        "games": games,
        "moves_per_game": moves / games,
        "us_per_move_cpu": 1e6 * cpu / moves,
        "us_per_move_wall": 1e6 * wall / moves,
    }


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
    careful: Annotated[
        int, typer.Option(min=1, help="Full-length (careful-play) games per player count.")
    ] = 200,
    players: Annotated[str, typer.Option(help="Player counts, comma-separated (2-5).")] = "2,3,4,5",
    out: Annotated[Path, typer.Option(help="Folder for hanabi_engine.json.")] = Path("runs/bench"),
) -> None:
    """Random-play games per second and, on full-length games, microseconds per move of our
    engine next to the reference engines installed (OpenSpiel, HLE), in the same run, with the
    cost of a ``hat`` rollout; print the tables and write the JSON."""
    counts = player_counts(players)
    result = run(games, counts)
    result["careful_rows"] = run_careful(careful, counts)
    columns = ["players", "engine", "status", "moves_per_game", "games_per_s_cpu"]
    columns += ["games_per_s_wall", "ours_over_engine_speed"]
    typer.echo("random play (short games):")
    typer.echo(format_table(result["rows"], columns))
    columns = ["players", "engine", "status", "moves_per_game", "us_per_move_cpu"]
    columns += ["us_per_move_wall", "ours_over_engine_speed", "ms_per_rollout_cpu"]
    typer.echo("careful play (full-length games, per move):")
    typer.echo(format_table(result["careful_rows"], columns))
    typer.echo(f"wrote {write_json(out / 'hanabi_engine.json', result)}")


if __name__ == "__main__":
    typer.run(main)
