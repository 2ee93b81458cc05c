"""``gumshoe bench clue`` and ``gumshoe bench clue-perf``: the Clue benchmarks on the terminal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from benchmarks import clue_bench, clue_perf
from benchmarks.console.options import (
    MAX_GAMES,
    RunCommandOptions,
    exit_when_all_errored,
    run_command,
)
from benchmarks.llm_usage import usage_lines
from benchmarks.report import format_table, plot_note, write_json
from games.clue.agents import AGENTS, AgentSettings
from games.clue.cards import MAX_ROUNDS
from games.clue.cli import DEFAULT_CLUE_AGENTS
from games.clue.entry import ENTRY
from games.core.cli import fail, prepare_out
from games.core.play import check_seats
from games.core.runlog import RunDirError
from reasoning.llm import ReplayError as LLMReplayError


@run_command(out=Path("runs/clue"))
def bench_clue(
    shared: RunCommandOptions,
    games: Annotated[int, typer.Option(min=1, max=MAX_GAMES, help="Number of games.")] = 20,
    agents: Annotated[
        str | None,
        typer.Option(
            help=f"One agent per seat, comma-separated ({', '.join(AGENTS.names)}); "
            f"`prover*6` repeats. [default: {DEFAULT_CLUE_AGENTS}; with --replay: the recorded "
            "run's]",
            show_default=False,
        ),
    ] = None,
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
) -> None:
    """Play seeded Clue games and report seed 000 Table 1's columns per agent, the deduction
    audit's sound / lucky / wrong and recall, and a plot of cards known per round."""
    out, replay = shared.out, shared.replay
    try:
        recorded = None if replay is None else clue_bench.recorded_config(replay)
        if recorded is not None:
            agents = agents if agents is not None else ",".join(recorded.agents)
            seed = seed if seed is not None else recorded.seed
            rounds = rounds if rounds is not None else recorded.max_rounds
        specs = AGENTS.parse(agents if agents is not None else DEFAULT_CLUE_AGENTS)
        check_seats(ENTRY, len(specs))
        settings = AgentSettings(llm=shared.llm(None if recorded is None else recorded.llm_model))
        uses_llm = any(spec.startswith("llm") for spec in specs)
        llm_model = settings.llm_settings().model if uses_llm else None
        config = clue_bench.ClueBenchConfig(
            agents=tuple(specs),
            seed=seed if seed is not None else 0,
            max_rounds=rounds if rounds is not None else 30,
            llm_model=llm_model,
        )
        summary = clue_bench.run(
            config, games, out, settings, shared.runner, progress=lambda m: typer.echo(m, err=True)
        )
    except (ValueError, ValidationError, RunDirError, LLMReplayError) as err:
        fail(err)
    if shared.as_json:
        typer.echo(summary.model_dump_json())
    else:
        rows = [
            {k: "-" if v is None else v for k, v in a.model_dump().items()}
            for a in summary.per_agent
        ]
        typer.echo(format_table(rows, clue_bench.TABLE_COLUMNS))
        for line in usage_lines(summary.llm_usage, "every game of the run folder"):
            typer.echo(line)
        if summary.errored:
            typer.echo(f"\n{len(summary.errored)} games errored (see summary.json)")
        typer.echo(
            f"\n{summary.games} games; summary: {out / 'summary.json'}; "
            f"plot: {plot_note(summary.plot)}"
        )
    exit_when_all_errored(len(summary.errored), summary.games)


def bench_clue_perf(
    out: Annotated[Path, typer.Option(help="Folder for the JSON results.")] = Path("bench-results"),
    seed: Annotated[int, typer.Option(help="Seed of the first measured game.")] = 0,
    games: Annotated[
        int, typer.Option(min=1, help="Games measured (seeds seed, seed+1, ...).")
    ] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
) -> None:
    """Knowledge-grid update time per event, CPU next to wall (incremental backbone against a
    rule-propagation baseline and two solves per cell), and the time to audit whole 6-player,
    30-round games."""
    try:
        prepare_out(out)
    except ValueError as err:
        fail(err)
    result = clue_perf.run(seed=seed, games=games)
    path = write_json(out / "clue_perf.json", result)
    if as_json:
        typer.echo(json.dumps(result))
        return
    updates = result["grid_updates"]
    typer.echo(
        f"Knowledge-grid update per knowledge-changing event (6 seats, {games} 30-round games)"
    )
    typer.echo(format_table(updates["rows"], clue_perf.TABLE_COLUMNS))
    rules = updates["rules"]
    typer.echo(
        f"solver calls per incremental update: median {updates['solver_calls_median']:.0f}, "
        f"p95 {updates['solver_calls_p95']:.0f}; grids differing between the complete methods: "
        f"{updates['grid_mismatches']}\n"
        f"rule propagation: {rules['wrong_cells']} wrong cells; misses cells after "
        f"{rules['incomplete_updates']} updates (mean {rules['missed_cells_mean']:.2f}, max "
        f"{rules['missed_cells_max']}); at the end {rules['missed_cells_end']} of "
        f"{rules['fixed_cells_end']} fixed cells missed"
    )
    for audit in result["audits"]:
        typer.echo(
            f"Whole audit: {audit['cpu_s']:.3f} s CPU ({audit['wall_s']:.3f} s wall) for "
            f"{audit['events']} events, {audit['rounds']} rounds, "
            f"{audit['deductions_checked']} deductions checked"
        )
    t = result["targets"]

    def met(ok: bool) -> str:
        return "met" if ok else "missed"

    typer.echo(
        f"\ntargets: median update < {t['median_update_cpu_ms']} ms CPU: "
        f"{met(t['median_update_met'])}; complete: {met(t['complete_met'])}; <= "
        f"{t['rule_ratio_max']}x the rule baseline ({t['x_rule_baseline']:.2f}x): "
        f"{met(t['rule_ratio_met'])}; >= {t['speedup_min']}x less CPU than two solves per cell "
        f"({t['speedup_vs_two_solves_per_cell']:.1f}x): {met(t['speedup_met'])}; audit < "
        f"{t['audit_cpu_s']} s CPU: {met(t['audit_met'])}"
    )
    typer.echo(f"wrote {path}")
