"""``gumshoe bench provers``, ``undercover``, ``undercover-similarity`` and ``llm-concurrency``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from benchmarks import backbone_bench, provers_bench, undercover_bench
from benchmarks.console.options import (
    MAX_GAMES,
    RunCommandOptions,
    exit_when_all_errored,
    run_command,
)
from benchmarks.report import format_table, plot_note, write_json
from games.core.cli import fail, prepare_out
from games.core.play import check_seats
from games.core.runlog import RunDir, RunDirError
from games.core.seats import SeatEndpoint, read_seats
from games.core.settings import GameSettings
from games.undercover.agents import AGENTS as UNDERCOVER_AGENTS
from games.undercover.agents import AgentSettings as UndercoverAgentSettings
from games.undercover.cli import find_pair, undercover_llm
from games.undercover.entry import ENTRY as UNDERCOVER
from games.undercover.lexicon import Lexicon
from games.undercover.metrics import MiniLMSimilarity
from games.undercover.words import builtin_pairs
from provers.registry import DEFAULT_PROVER, PROVER_NAMES, get_prover
from reasoning.prover import ProverUnavailable


def bench_provers(
    out: Annotated[Path, typer.Option(help="Folder for the JSON results.")] = Path("bench-results"),
    problems: Annotated[int, typer.Option(help="Problems per size (at least 1).")] = 10,
    repeats: Annotated[int, typer.Option(help="Backbone repetitions (at least 1).")] = 50,
) -> None:
    """CPU and wall time per backend and direct z3 on 5-80 axiom problems; SAT backbone time."""
    for option, value in (("--problems", problems), ("--repeats", repeats)):
        if value < 1:
            typer.echo(f"error: {option} must be at least 1, got {value}", err=True)
            raise typer.Exit(2)
    try:
        prepare_out(out)
    except ValueError as err:
        fail(err)
    rows = provers_bench.run(problems_per_size=problems, progress=lambda m: typer.echo(m, err=True))
    typer.echo(format_table(rows, provers_bench.COLUMNS))
    backbone = backbone_bench.run(repeats=repeats)
    typer.echo("")
    typer.echo("SAT backbone on a Clue-sized set (21 cards x 7 places, 40 three-card clauses)")
    typer.echo(format_table(backbone, backbone_bench.TABLE_COLUMNS))
    path = write_json(out / "provers.json", {"provers": rows, "backbone": backbone})
    typer.echo(f"\nwrote {path}")


@run_command(out=Path("runs/undercover"))
def bench_undercover(
    shared: RunCommandOptions,
    seeds: Annotated[
        int, typer.Option(min=1, max=MAX_GAMES, help="Seeds per matchup and word pair.")
    ] = 20,
    first_seed: Annotated[
        int | None,
        typer.Option(
            help="The first seed; then first+1, ... [default: 0; with --replay: the recorded run's]"
        ),
    ] = None,
    pairs: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated word-pair ids (default: all shipped; with --replay: the "
            "recorded run's)."
        ),
    ] = None,
    agents: Annotated[
        str | None,
        typer.Option(
            help="Agent types in the contests, comma-separated (default: prover, plain, and the "
            "LLM types when an endpoint is configured; with --replay: the recorded run's)."
        ),
    ] = None,
    fixed_citizen: Annotated[
        str | None,
        typer.Option(
            help="The citizens' type in the fixed-opponent contest (default: prover; with "
            "--models: the spy's own type; with --replay: the recorded run's)."
        ),
    ] = None,
    models: Annotated[
        str | None,
        typer.Option(
            help="Models the LLM types play, comma-separated: seed 002's contest over LLMs "
            "(each type at each model as the spy vs citizens at --fixed-model; the round-robin "
            "within each model). Default: the one --model; with --replay: the recorded run's."
        ),
    ] = None,
    fixed_model: Annotated[
        str | None,
        typer.Option(
            help="The citizens' model in the fixed-opponent contest (default: the first of "
            "--models)."
        ),
    ] = None,
    seats: Annotated[
        Path | None,
        typer.Option(
            "--seats",
            metavar="FILE",
            help="The contestants, in place of --agents and --models: a seats file (JSON or "
            "JSONL) whose entries name an agent type and, for an LLM type, a model with its "
            "base_url and api_key_env where it has an endpoint of its own.",
        ),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option(help="Players per game. [default: 6; with --replay: the recorded run's]"),
    ] = None,
    prover: Annotated[
        str | None,
        typer.Option(
            help=f"Prover of T(s, Delta) ({', '.join(PROVER_NAMES)}). [default: "
            f"{DEFAULT_PROVER}; with --replay: the recorded run's]"
        ),
    ] = None,
    timeout: Annotated[
        float | None,
        typer.Option(
            min=0.1,
            help="Seconds per prover call. [default: 10; with --replay: the recorded run's]",
        ),
    ] = None,
) -> None:
    """Seed 002's fixed-opponent contest (4.2) and round-robin (4.3), over agent types or, with
    --models, over LLMs (greedy decoding unless GUMSHOE_LLM_TEMPERATURE is set): game metrics and
    the Attributional Score per matchup, agent type and word pair, a word-similarity table, a
    plot."""
    out, replay, model = shared.out, shared.replay, shared.model
    try:
        recorded = None if replay is None else undercover_bench.recorded_config(replay)
        endpoints: dict[str, SeatEndpoint] = {}
        if recorded is not None:
            model = model if model is not None else recorded.llm_model
            agents = agents if agents is not None else ",".join(recorded.agents)
            pairs = pairs if pairs is not None else ",".join(recorded.pairs)
            fixed_citizen = fixed_citizen or recorded.fixed_citizen
            models = models if models is not None else ",".join(recorded.models) or None
            fixed_model = fixed_model or recorded.fixed_model
            endpoints = dict(recorded.endpoints)
            players = recorded.players if players is None else players
            prover = prover or recorded.prover
            timeout = timeout or recorded.timeout_s
            first_seed = recorded.first_seed if first_seed is None else first_seed
        if seats is not None:
            if agents is not None or models is not None:
                raise ValueError("--seats: give it in place of --agents and --models")
            agents, models, endpoints = contestants(seats)
        chosen_models = tuple(m.strip() for m in models.split(",")) if models else ()
        if fixed_citizen is None and not chosen_models:
            fixed_citizen = "prover"
        players = 6 if players is None else players
        check_seats(UNDERCOVER, players, option="option '--players'")
        prover = prover or DEFAULT_PROVER
        timeout = timeout or 10.0
        first_seed = first_seed or 0
        GameSettings(prover_timeout_s=timeout)
        if fixed_citizen is not None:
            try:
                UNDERCOVER_AGENTS.get(fixed_citizen)
            except ValueError as err:
                raise ValueError(f"--fixed-citizen: {err}") from None
        llm = undercover_bench.replication_settings(undercover_llm(model, shared.base_url))
        if agents is None:
            names = tuple(
                n for n, t in UNDERCOVER_AGENTS.types.items() if llm.configured or not t.needs_llm
            )
        else:
            names = UNDERCOVER_AGENTS.parse(agents)
        typed = [*names, *([fixed_citizen] if fixed_citizen else [])]
        needs_llm = UNDERCOVER_AGENTS.needs_llm(typed)
        catalogue = {p.id: p for p in builtin_pairs()}
        chosen = (
            list(catalogue.values())
            if pairs is None
            else [find_pair(p, catalogue) for p in pairs.split(",")]
        )
        config = undercover_bench.UndercoverBenchConfig(
            agents=names,
            fixed_citizen=fixed_citizen,
            pairs=tuple(p.id for p in chosen),
            players=players,
            prover=prover,
            timeout_s=timeout,
            first_seed=first_seed,
            llm_model=llm.model if needs_llm else None,
            models=chosen_models,
            fixed_model=(fixed_model or chosen_models[0]) if chosen_models else fixed_model,
            temperature=llm.temperature if needs_llm else None,
            endpoints=endpoints,
        )
        if needs_llm and replay is None:
            undercover_bench.check_endpoints(config, llm)
        recipe = undercover_bench.SettingsRecipe(prover, timeout, llm if needs_llm else None)
        settings = UndercoverAgentSettings.create(
            prover=get_prover(prover), timeout=timeout, llm=llm if needs_llm else None
        )
        summary = undercover_bench.run(
            config,
            seeds,
            out,
            settings,
            chosen,
            MiniLMSimilarity(),
            progress=lambda m: typer.echo(m, err=True),
            record=shared.record,
            replay_from=replay,
            options=shared.runner,
            recipe=recipe,
        )
    except (ValueError, ValidationError, RunDirError, ProverUnavailable) as err:
        fail(err)
    if shared.as_json:
        typer.echo(summary.model_dump_json())
    else:
        for line in undercover_bench.report_lines(summary):
            typer.echo(line)
        typer.echo(f"\nwrote {out / RunDir.SUMMARY_FILE}; plot: {plot_note(summary.plot)}")
    exit_when_all_errored(len(summary.errors), summary.games_played + summary.games_resumed)


def contestants(path: Path) -> tuple[str, str | None, dict[str, SeatEndpoint]]:
    """The agent types (comma-separated), the models (None: none named) and each model's own
    endpoint that a contestants file lists (a seats file, see ``games.core.seats``); ValueError
    in one line when a model is given two endpoints."""
    entries = read_seats(path, UNDERCOVER_AGENTS, 1, MAX_CONTESTANTS)
    agents = list(dict.fromkeys(e.agent for e in entries))
    models = list(dict.fromkeys(e.model for e in entries if e.model is not None))
    endpoints: dict[str, SeatEndpoint] = {}
    for entry in entries:
        if entry.model is None or entry.endpoint is None:
            continue
        if endpoints.setdefault(entry.model, entry.endpoint) != entry.endpoint:
            raise ValueError(f"{path}: model {entry.model!r} is given two endpoints")
    return ",".join(agents), ",".join(models) or None, endpoints


MAX_CONTESTANTS = 64
"""The most entries a contestants file may list."""


def bench_undercover_similarity(
    out: Annotated[Path, typer.Option(help="Folder for the JSON results.")] = Path("bench-results"),
) -> None:
    """Appendix E's word-pair similarity table for the shipped pairs, MiniLM cosine in place of
    fastText: the two words, and their lexicon definitions."""
    try:
        prepare_out(out)
    except ValueError as err:
        fail(err)
    rows = undercover_bench.similarity_table(builtin_pairs(), Lexicon.load(), MiniLMSimilarity())
    typer.echo(undercover_bench.similarity_report(rows))
    path = write_json(
        out / "undercover_similarity.json", [row.model_dump(mode="json") for row in rows]
    )
    typer.echo(f"\nwrote {path}")


def bench_llm_concurrency(
    games: Annotated[int, typer.Option(min=1, max=1000, help="Clue games per setting.")] = 16,
    delay: Annotated[
        float, typer.Option(min=0.0, max=10.0, help="Seconds the scripted server waits per reply.")
    ] = 0.2,
    concurrency: Annotated[int, typer.Option(min=2, max=256, help="Games in flight.")] = 8,
    out: Annotated[Path, typer.Option(help="Folder for the JSON results.")] = Path("bench-results"),
) -> None:
    """LLM-bound Clue games against the scripted chat server (a fixed delay per reply) with 1 and
    with K games in flight: wall and CPU time, speed-up, and whether the summaries agree."""
    from benchmarks import llm_concurrency

    try:
        prepare_out(out)
    except ValueError as err:
        fail(err)
    result = llm_concurrency.run(games=games, delay_s=delay, concurrency=concurrency)
    typer.echo(
        f"{games} Clue games, one LLM seat, {result['requests'] // 2} chat calls per setting, "
        f"{delay:.3f} s per reply"
    )
    typer.echo(
        format_table(
            result["rows"],
            ["concurrency", "games", "errored", "play_wall_s", "play_cpu_s", "x_faster_wall"],
        )
    )
    typer.echo(f"outcomes equal: {result['outcomes_equal']}")
    path = write_json(out / "llm_concurrency.json", result)
    typer.echo(f"wrote {path}")
