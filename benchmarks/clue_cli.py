"""``gumshoe bench clue`` and ``gumshoe bench clue-perf``: the Clue benchmarks on the terminal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from benchmarks import clue_bench, clue_perf
from benchmarks.report import format_table, write_json
from benchmarks.run_options import Concurrency, Quiet, Scheduler, Workers, run_options
from games.clue.agents import AGENTS
from games.clue.cards import MAX_ROUNDS
from games.clue.cli import DEFAULT_CLUE_AGENTS, llm_agent_settings
from games.clue.engine import INFO
from games.core.cli import BaseUrl, Model, fail, prepare_out
from games.core.runlog import RunDirError
from reasoning.llm import ReplayError as LLMReplayError


def bench_clue(
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 20,
    agents: Annotated[
        str | None,
        typer.Option(
            help=f"One agent per seat, comma-separated ({', '.join(AGENTS.names)}); "
            f"`prover*6` repeats. [default: {DEFAULT_CLUE_AGENTS}; with --replay: the recorded "
            "run's]",
            show_default=False,
        ),
    ] = None,
    out: Annotated[Path, typer.Option(help="Run directory (resumed when it exists).")] = Path(
        "runs/clue"
    ),
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed of the first game; game i uses seed + i. [default: 0; with --replay: the "
            "recorded run's]",
            show_default=False,
        ),
    ] = None,
    rounds: Annotated[
        int | None,
        typer.Option(
            help=f"Round limit (1-{MAX_ROUNDS}). [default: 30; with --replay: the recorded run's]",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    model: Model = None,
    base_url: BaseUrl = None,
    record: Annotated[
        bool,
        typer.Option(
            "--record",
            help="Record every LLM call into the run directory, one file per game and seat: "
            "OUT/llm/<game_id>.seat<k>.jsonl (recorded afresh when a game is played again).",
        ),
    ] = False,
    replay: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help="A run directory recorded with --record: answer each game's LLM calls from "
            "DIR/llm/<game_id>.seat<k>.jsonl instead of an endpoint, under the recorded run's "
            "agents, seed, rounds and model. Play into a fresh --out: finished games are not "
            "played again.",
        ),
    ] = None,
    workers: Workers = 1,
    concurrency: Concurrency = 1,
    scheduler: Scheduler = None,
    quiet: Quiet = False,
) -> None:
    """Play seeded Clue games and report seed 000 Table 1's columns per agent, the deduction
    audit's sound / lucky / wrong and recall, and a plot of cards known per round."""
    try:
        if record and replay is not None:
            raise ValueError("--record and --replay cannot be combined")
        recorded = None if replay is None else clue_bench.recorded_config(replay)
        if recorded is not None:
            agents = agents if agents is not None else ",".join(recorded.agents)
            seed = seed if seed is not None else recorded.seed
            rounds = rounds if rounds is not None else recorded.max_rounds
            model = model if model is not None else recorded.llm_model
        specs = AGENTS.parse(agents if agents is not None else DEFAULT_CLUE_AGENTS)
        INFO.check_players(len(specs), "agents")
        settings = llm_agent_settings(model, base_url, out if record else None, replay)
        uses_llm = any(spec.startswith("llm") for spec in specs)
        llm_model = settings.llm_settings().model if uses_llm else None
        config = clue_bench.ClueBenchConfig(
            agents=tuple(specs),
            seed=seed if seed is not None else 0,
            max_rounds=rounds if rounds is not None else 30,
            llm_model=llm_model,
        )
        options = run_options(workers, concurrency, scheduler, quiet)
        summary = clue_bench.run(
            config, games, out, settings, options, progress=lambda m: typer.echo(m, err=True)
        )
    except (ValueError, ValidationError, RunDirError, LLMReplayError) as err:
        fail(err)
    if as_json:
        typer.echo(summary.model_dump_json())
        return
    rows = [
        {k: "-" if v is None else v for k, v in a.model_dump().items()} for a in summary.per_agent
    ]
    typer.echo(format_table(rows, clue_bench.TABLE_COLUMNS))
    if summary.errored:
        typer.echo(f"\n{len(summary.errored)} games errored (see summary.json)")
    typer.echo(f"\n{summary.games} games; summary: {out / 'summary.json'}; plot: {summary.plot}")


def bench_clue_perf(
    out: Annotated[Path, typer.Option(help="Folder for the JSON results.")] = Path("bench-results"),
    seed: Annotated[int, typer.Option(help="Seed of the measured game.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
) -> None:
    """Knowledge-grid update time per event (incremental backbone against two solves per cell)
    and the time to audit a whole 6-player, 30-round game."""
    try:
        prepare_out(out)
    except ValueError as err:
        fail(err)
    result = clue_perf.run(seed=seed)
    path = write_json(out / "clue_perf.json", result)
    if as_json:
        typer.echo(json.dumps(result))
        return
    updates = result["grid_updates"]
    typer.echo("Knowledge-grid update per knowledge-changing event (6 seats, one 30-round game)")
    typer.echo(
        format_table(
            updates["rows"],
            ["method", "updates", "median_ms", "p95_ms", "mean_ms", "x_slower_than_incremental"],
        )
    )
    typer.echo(
        f"solver calls per incremental update: median {updates['solver_calls_median']:.0f}, "
        f"p95 {updates['solver_calls_p95']:.0f}; grids differing between methods: "
        f"{updates['grid_mismatches']}"
    )
    audit = result["audit"]
    typer.echo(
        f"\nWhole audit: {audit['seconds']:.3f} s for {audit['events']} events, "
        f"{audit['rounds']} rounds, {audit['deductions_checked']} deductions checked"
    )
    targets = result["targets"]
    typer.echo(
        f"\ntargets: median update < {targets['median_update_ms']} ms: "
        f"{'met' if targets['median_update_met'] else 'missed'}; >= 3x faster than two solves "
        f"per cell ({targets['speedup_vs_two_solves_per_cell']:.1f}x): "
        f"{'met' if targets['speedup_met'] else 'missed'}; audit < {targets['audit_s']} s: "
        f"{'met' if targets['audit_met'] else 'missed'}"
    )
    typer.echo(f"wrote {path}")
