"""Hanabi card knowledge: how much smaller the exact sets are than the hints view, and its cost.

The symbolic agent plays every seed; at every decision the acting seat's knowledge is rebuilt
from its observation (the counting cache cleared first, so each call pays the full cost) and
timed, and the mean number of identities per slot is taken in both views: ``hints`` (colour x
rank product from direct hints, as the reference engine) and ``exact`` (jointly counted).

It also measures the ceilings of tracking recall (``games.hanabi.audit``): over every slot of
every hand at every decision, how often the acting seat's reachable standard differs from the
owner's own exact knowledge (``teammate_unreachable``: the share of teammate slots where the
old target, the teammate's exact knowledge, could not be known by the speaker), and the recall a
tracker stating the hint masks would get on own and teammate slots (``hints_own_recall``,
``hints_teammate_recall``). A tracker stating the reachable standard gets 1.0 on both.

Run: ``python -m benchmarks.hanabi_knowledge_bench --seeds 200 --players 2,3,4,5 --out DIR``.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from benchmarks.hanabi_options import player_counts
from benchmarks.report import format_table, write_json
from formalize.hanabi.knowledge import clear_count_cache
from games.hanabi.audit import slot_hints, standard, tightest
from games.hanabi.engine import HanabiGame
from games.hanabi.events import HanabiConfig
from games.hanabi.knowledge import possible_sets, seat_knowledge
from games.hanabi.symbolic import SymbolicAgent
from reasoning.percentiles import percentile

TARGET_MEDIAN_MS = 1.0
"""Target: median knowledge update per turn under this many milliseconds."""


def measure(players: int, seeds: int) -> dict[str, Any]:
    """Set sizes and update times over ``seeds`` games of the symbolic agent."""
    hint_sizes: list[int] = []
    exact_sizes: list[int] = []
    times_ms: list[float] = []
    unreachable: list[bool] = []
    hinted: dict[bool, list[bool]] = {True: [], False: []}
    cpu = time.process_time()
    for seed in range(seeds):
        game = HanabiGame(HanabiConfig(players=players), seed)
        agents = [SymbolicAgent(seat) for seat in range(players)]
        while not game.is_terminal():
            seat = game.current
            obs = game.observation(seat)
            clear_count_cache()
            start = time.perf_counter()
            knowledge = seat_knowledge(obs)
            times_ms.append((time.perf_counter() - start) * 1000.0)
            hint_sizes += [mask.bit_count() for mask in possible_sets(knowledge, "hints")]
            exact_sizes += [mask.bit_count() for mask in possible_sets(knowledge, "exact")]
            for owner in range(players):
                reach = [tightest(mask) for mask in standard(game, seat, owner)]
                hints = slot_hints(game, owner)
                hinted[owner == seat] += [h == r for h, r in zip(hints, reach, strict=True)]
                if owner != seat:
                    own = seat_knowledge(game.observation(owner)).exact
                    unreachable += [tightest(o) != r for o, r in zip(own, reach, strict=True)]
            game.apply({seat: agents[seat].act(obs)})
    return {
        "players": players,
        "seeds": seeds,
        "decisions": len(times_ms),
        "mean_hints_set": statistics.fmean(hint_sizes),
        "mean_exact_set": statistics.fmean(exact_sizes),
        "update_ms_median": statistics.median(times_ms),
        "update_ms_p90": percentile(times_ms, 90),
        "update_ms_max": max(times_ms),
        "teammate_unreachable": statistics.fmean(unreachable),
        "hints_own_recall": statistics.fmean(hinted[True]),
        "hints_teammate_recall": statistics.fmean(hinted[False]),
        "cpu_s": time.process_time() - cpu,
    }


def main(
    seeds: Annotated[int, typer.Option(min=1, help="Seeds (games) per player count.")] = 200,
    players: Annotated[str, typer.Option(help="Player counts, comma-separated (2-5).")] = "2,3,4,5",
    out: Annotated[Path, typer.Option(help="Folder for hanabi_knowledge.json.")] = Path(
        "runs/bench"
    ),
) -> None:
    """Print the table and write the JSON."""
    counts = player_counts(players)
    rows = [measure(count, seeds) for count in counts]
    columns = ["players", "seeds", "decisions", "mean_hints_set", "mean_exact_set"]
    columns += ["update_ms_median", "update_ms_p90", "update_ms_max"]
    columns += ["teammate_unreachable", "hints_own_recall", "hints_teammate_recall", "cpu_s"]
    typer.echo(format_table(rows, columns))
    payload = {"benchmark": "hanabi-knowledge", "target_median_ms": TARGET_MEDIAN_MS, "rows": rows}
    typer.echo(f"wrote {write_json(out / 'hanabi_knowledge.json', payload)}")


if __name__ == "__main__":
    typer.run(main)
