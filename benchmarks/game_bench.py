"""Any registered game as a benchmark: seeded games on the shared runner, summed up from the
logs' results and audit records alone, per agent.

A game's own knobs are its ``gumshoe play`` options (its entry's ``play_options``); the players
are the registry's agents; the summary reads only each log's end (returns, ranks) and, for a game
with an audit, its ``AuditRecord`` (sound, lucky, wrong and unjudged claims per agent). So a new
game gets ``gumshoe bench <game>`` from its entry alone.
"""

from __future__ import annotations

import inspect
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from benchmarks.options import (
    MAX_GAMES,
    RunCommandOptions,
    exit_when_all_errored,
    run_command,
)
from benchmarks.report import format_table
from benchmarks.runner import GameError, MemoryLog, RunOptions, run_games
from games.core.cli import fail
from games.core.play import check_seats, play_game
from games.core.registry import get_game
from games.core.runlog import RunDir, RunDirError, game_id, game_seed
from games.core.settings import AgentSettings
from reasoning.llm.settings import LLMSettings


class GameBenchConfig(BaseModel):
    """What a run plays: the game, one agent per seat, the game's options, the seeds."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: str
    agents: tuple[str, ...]
    options: dict[str, Any] = Field(default_factory=dict)
    first_seed: int = Field(default=0, ge=0)
    llm_model: str | None = None


@dataclass(frozen=True)
class RegisteredGame:
    """Plays one game of a run of ``config`` (a picklable ``GamePlayer``): the entry's game for
    the options, its agents built under the LLM settings ``llm``."""

    config: GameBenchConfig
    llm: LLMSettings | None = None

    def __call__(self, game_id: str, log: MemoryLog) -> dict[str, Any]:
        """Play game ``game_id`` into ``log``."""
        entry = get_game(self.config.game)
        gid = game_id
        seed = game_seed(gid)
        options = entry.play_options.model_validate(self.config.options)
        base = entry.default_settings()
        if isinstance(base, AgentSettings) and self.llm is not None:
            base = base.model_copy(update={"llm": self.llm})
        setup = entry.play_setup(options, self.config.agents, seed, base, None)
        settings = setup.settings
        if isinstance(settings, AgentSettings):
            settings = settings.for_game(gid, len(setup.specs))
        play_game(entry, setup.specs, seed, settings, setup.config, log)
        return {}


class AgentRow(BaseModel):
    """One agent type's figures over its seats in the run's finished games."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent: str
    seat_games: int
    wins: int
    mean_return: float
    mean_rank: float
    claims: int | None = None
    sound: int | None = None
    lucky: int | None = None
    wrong: int | None = None
    unjudged: int | None = None


class GameBenchSummary(BaseModel):
    """The run's summary: games finished and errored, and one row per agent type."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: str
    games: int
    finished: int
    errored: int
    per_agent: list[AgentRow]
    errors: list[GameError] = Field(default_factory=list)
    play_wall_s: float = 0.0
    play_cpu_s: float = 0.0


COLUMNS = [
    "agent",
    "seat_games",
    "wins",
    "mean_return",
    "mean_rank",
    "claims",
    "sound",
    "lucky",
    "wrong",
    "unjudged",
]
"""The summary table's columns."""


def game_ids(config: GameBenchConfig, games: int) -> list[str]:
    """The run's game ids: one per seed."""
    return [
        game_id(config.game, seed) for seed in range(config.first_seed, config.first_seed + games)
    ]


def run(
    config: GameBenchConfig,
    games: int,
    out: Path,
    options: RunOptions,
    llm: LLMSettings | None = None,
) -> GameBenchSummary:
    """Play (or resume) ``games`` seeded games of ``config`` in the run directory ``out`` and sum
    them up (``summarise``); the summary is written there too."""
    rundir = RunDir(out, config)
    ids = game_ids(config, games)
    report = run_games(rundir, ids, RegisteredGame(config, llm), options)
    summary = summarise(rundir, ids).model_copy(
        update={"errors": report.errors(), "play_wall_s": report.wall_s, "play_cpu_s": report.cpu_s}
    )
    rundir.write_summary(summary)
    return summary


def summarise(rundir: RunDir[GameBenchConfig], ids: list[str]) -> GameBenchSummary:
    """Per agent type: seat-games, wins (rank 1), mean return and rank from each finished log's
    end; its distinct claims judged sound, lucky, wrong or unjudged from the log's audit record,
    for a game with an audit."""
    entry = get_game(rundir.config.game)
    seats: dict[str, list[tuple[float, int]]] = defaultdict(list)
    claims: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    finished = errored = 0
    for gid in ids:
        log = entry.read_log(rundir.log_path(gid))
        if log.end is None or log.end.status != "finished":
            errored += 1
            continue
        finished += 1
        agents = [s.agent for s in log.header.seats]
        for seat, agent in enumerate(agents):
            seats[agent].append((log.end.returns[seat], log.end.ranks[seat]))
        if entry.has_audit:
            for row in entry.audit(log).rows:
                if row.repeat:
                    continue
                tally = claims[agents[row.seat]]
                tally["claims"] += 1
                tally[row.judgement] += 1
    rows = []
    for agent, results in sorted(seats.items()):
        counts: dict[str, int] | None = claims.get(agent, {}) if entry.has_audit else None
        rows.append(
            AgentRow(
                agent=agent,
                seat_games=len(results),
                wins=sum(rank == 1 for _, rank in results),
                mean_return=sum(r for r, _ in results) / len(results),
                mean_rank=sum(rank for _, rank in results) / len(results),
                **(
                    {}
                    if counts is None
                    else {
                        k: counts.get(k, 0)
                        for k in ("claims", "sound", "lucky", "wrong", "unjudged")
                    }
                ),
            )
        )
    return GameBenchSummary(
        game=entry.info.name, games=len(ids), finished=finished, errored=errored, per_agent=rows
    )


def game_bench_command(name: str) -> Callable[..., None]:
    """``gumshoe bench <game>`` for a registered game without a benchmark of its own: seeded
    games of its registry agents on the shared runner (its options are its ``gumshoe play``
    options), summed up from the logs' results and audit records (``benchmarks.game_bench``)."""
    from games.core.play_cli import agents_option, game_option_parameters
    from games.core.registry import get_game

    entry = get_game(name)
    parameters, flags = game_option_parameters(entry)
    keyword = inspect.Parameter.KEYWORD_ONLY
    own = [
        inspect.Parameter("shared", keyword, annotation=RunCommandOptions),
        inspect.Parameter(
            "games",
            keyword,
            annotation=Annotated[int, typer.Option(min=1, max=MAX_GAMES, help="Games (seeds).")],
            default=20,
        ),
        inspect.Parameter(
            "first_seed",
            keyword,
            annotation=Annotated[int, typer.Option(min=0, help="The first seed; then first+1...")],
            default=0,
        ),
        inspect.Parameter(
            "agents", keyword, annotation=Annotated[str | None, agents_option(entry)], default=None
        ),
        *parameters,
    ]

    def bench(shared: RunCommandOptions, **given: Any) -> None:
        from games.core.play_cli import game_options, seating
        from games.core.runlog import LogError

        games, first_seed, agents = given.pop("games"), given.pop("first_seed"), given.pop("agents")
        chosen = {key: value for key, value in given.items() if value is not None}
        try:
            options = game_options(entry, chosen, flags)
            specs, _ = seating(entry, options, agents, None)
            check_seats(entry, len(specs))
            llm = shared.llm() if entry.agents.needs_llm(specs) else None
            config = GameBenchConfig(
                game=name,
                agents=specs,
                options=options.model_dump(mode="json"),
                first_seed=first_seed,
                llm_model=None if llm is None else llm.model,
            )
            summary = run(config, games, shared.out, shared.runner, llm)
        except (ValueError, ValidationError, RunDirError, LogError) as err:
            fail(err)
        if shared.as_json:
            typer.echo(summary.model_dump_json())
        else:
            rows = [row.model_dump() for row in summary.per_agent]
            typer.echo(f"{name}: {summary.finished} games finished, {summary.errored} errored")
            typer.echo(format_table(rows, COLUMNS))
            typer.echo(f"\nwrote {shared.out / RunDir.SUMMARY_FILE}")
        exit_when_all_errored(summary.errored, summary.finished)

    bench.__signature__ = inspect.Signature(own)  # type: ignore[attr-defined]
    bench.__doc__ = f"Seeded {name} games of its registry agents, summed up per agent."
    return run_command(out=Path(f"runs/{name}"))(bench)
