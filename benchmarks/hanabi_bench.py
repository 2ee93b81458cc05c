"""``gumshoe bench hanabi``: Hanabi games on the shared runner, summarised from their logs.

Games ``p<n>-seed<k>`` for each player count n and seed k (0..N-1 by default, as the reference
environment numbers them) are played into a run directory (resumed when it exists); one agent
name fills every seat, or a seat list names one per seat (cross-play). The summary, read back
from the logs, gives per player count: mean, std, IQM with bootstrap 95% CIs, perfect games,
bomb-outs, turns per game, LLM decisions and fallbacks, and the tracking accuracy (share of
stated deductions that are true), the own-hand and teammate recall (complete, true deductions
over tracked slots, each against what the speaker can know) and the HLE-hint agreement
(deductions equal to the hint masks over tracked slots), all read from each log's audit record
(the entry's ``audit``: its rows' columns and its figures); a PNG shows the score distribution
of each player count. Every report names its scoring mode.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from benchmarks.hanabi_options import (
    AGENTS_HELP,
    BestOf,
    InvalidAnswers,
    Mixture,
    SherlockView,
    player_counts,
    seat_specs,
    seating,
)
from benchmarks.hanabi_published import PUBLISHED, published_rows
from benchmarks.llm_usage import game_usage, played_usage, usage_lines
from benchmarks.options import (
    RunCommandOptions,
    exit_when_all_errored,
    run_command,
    seed_range,
)
from benchmarks.report import can_plot, format_table, plot_note, pyplot, save_figure
from benchmarks.runner import MemoryLog, RunOptions, check_replayable, run_games
from games.core.cli import (
    SeatsFileOption,
    fail,
    llm_settings,
    prepare_out,
)
from games.core.errors import GAME_ERRORS
from games.core.play import play_game
from games.core.recordings import game_llm_settings, migrate_game_ids
from games.core.runlog import RunDir, game_id, game_seed
from games.core.seats import SeatEndpoint, Seating
from games.hanabi.agents import AGENTS, HanabiAgentSettings
from games.hanabi.config import MAX_SEED, Scoring
from games.hanabi.entry import ENTRY
from games.hanabi.events import DecisionEvent, GameEnd, HanabiConfig
from games.hanabi.knowledge import KnowledgeView
from games.hanabi.llm_agents import InvalidPolicy
from games.hanabi.stats import GameRecord, ScoreStats, record_stats
from reasoning.claims import Correctness
from reasoning.llm import LLMSettings, UsageReport
from reasoning.outfile import json_text

COLUMNS = [
    "players",
    "scoring",
    "games",
    "mean",
    "std",
    "mean_ci",
    "iqm",
    "iqm_ci",
    "perfect",
    "bomb_outs",
    "mean_turns",
    "decisions",
    "fallbacks",
    "tracking_accuracy",
    "own_recall",
    "teammate_recall",
    "hle_agreement",
]
"""The columns of the printed table."""


class HanabiRunConfig(BaseModel):
    """What a run plays: player counts, seeds, the seat list, scoring and the LLM settings that
    change the answers (a resumed run must match)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: tuple[int, ...] = Field(min_length=1)
    seeds: tuple[int, ...] = Field(min_length=1)
    agents: str
    scoring: Scoring = "fireworks"
    view: KnowledgeView = "hints"
    best_of: int = Field(default=1, ge=1)
    mixture: bool = False
    model: str | None = None
    invalid: InvalidPolicy = "fallback"
    reasoning_effort: Literal["low", "medium", "high"] | None = None
    endpoints: tuple[SeatEndpoint | None, ...] = ()


def hanabi_id(players: int, seed: int) -> str:
    """The id of the game at ``players`` seats dealt from ``seed``: ``hanabi-p<n>-seed<k>``."""
    return game_id("hanabi", seed, f"p{players}")


def migrate_ids(run_dir: Path, config: HanabiRunConfig) -> None:
    """Rename the games of a run made when ids were ``p<n>-seed<k>``."""
    renames = {f"p{p}-seed{s}": hanabi_id(p, s) for p in config.players for s in config.seeds}
    migrate_game_ids(run_dir, renames)


@dataclass(frozen=True)
class HanabiGamePlayer:
    """Plays game ``hanabi-p<n>-seed<k>`` with the run's seats (a picklable ``GamePlayer``)."""

    config: HanabiRunConfig
    llm: LLMSettings | None = None

    def __call__(self, game_id: str, log: MemoryLog) -> dict[str, Any]:
        """Play the game ``game_id`` names into ``log``; its LLM seats' usage by agent name."""
        seed = game_seed(game_id)
        players = int(game_id.removeprefix("hanabi-p").removesuffix(f"-seed{seed}"))
        specs = seat_specs(self.config.agents, players)
        llm = None if self.llm is None else game_llm_settings(self.llm, game_id, players)
        settings = HanabiAgentSettings(
            scoring=self.config.scoring,
            view=self.config.view,
            best_of=self.config.best_of,
            mixture=self.config.mixture,
            invalid=self.config.invalid,
            endpoints=self.config.endpoints,
            llm=llm,
        )
        config = HanabiConfig(players=players, scoring=self.config.scoring)
        played = play_game(ENTRY, specs, seed, settings, config, log)
        meters = (played.meters.get(seat, ()) for seat in range(players))
        return {"usage": game_usage(zip(specs, meters, strict=True))}


class PlayerCountRow(ScoreStats):
    """One player count's line of the report: the score statistics, plus errored games, LLM
    decisions and fallbacks, and how well stated card claims track the truth."""

    errored: int
    decisions: int
    fallbacks: int
    claims: int
    tracking_accuracy: float | None
    own_recall: float | None
    teammate_recall: float | None
    hle_agreement: float | None
    scores: tuple[int, ...]


class HanabiSummary(BaseModel):
    """The run's report: its config, one row per player count, the LLM usage per agent of the
    games played in this session (None without LLM seats), time taken."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    benchmark: str = "hanabi"
    config: HanabiRunConfig
    rows: tuple[PlayerCountRow, ...]
    llm_usage: UsageReport | None = None
    play_wall_s: float
    play_cpu_s: float


def summarise_count(rundir: RunDir[HanabiRunConfig], players: int) -> PlayerCountRow | None:
    """The row of ``players`` from the finished logs of the run (None when every game at
    ``players`` seats errored: there is nothing to measure)."""
    config = rundir.config
    records: list[GameRecord] = []
    decisions = fallbacks = claims = true_claims = hinted = errored = 0
    own = [0, 0]
    teammate = [0, 0]
    for seed in config.seeds:
        path = rundir.log_path(hanabi_id(players, seed))
        log = ENTRY.read_log(path, inside=rundir.path)
        if log.end is None or log.end.status != "finished":
            errored += 1
            continue
        end = log.events[-1]
        assert isinstance(end, GameEnd)
        moves = [e for e in log.events if isinstance(e, DecisionEvent)]
        decisions += len(moves)
        fallbacks += sum(e.fallback for e in moves)
        audit = ENTRY.audit(log)
        judged = [r for r in audit.rows if not r.detail["invalid"]]
        claims += len(judged)
        true_claims += sum(r.correctness is Correctness.TRUE for r in judged)
        hinted += sum(bool(r.detail["hinted"]) for r in judged)
        for part, mine in ((own, True), (teammate, False)):
            about = [r for r in judged if r.detail["own"] is mine]
            right = [r for r in about if r.correctness is Correctness.TRUE]
            part[0] += sum(bool(r.detail["complete"]) for r in right)
            part[1] += len(about) + int(
                audit.figures["unstated_own" if mine else "unstated_teammate"]
            )
        perfect = sum(end.fireworks) == 25
        records.append(GameRecord(end.score, perfect, end.lives == 0, end.turn - 1))
    if not records:
        return None
    stats = record_stats(players, config.scoring, records)
    return PlayerCountRow(
        **stats.model_dump(),
        errored=errored,
        decisions=decisions,
        fallbacks=fallbacks,
        claims=claims,
        tracking_accuracy=true_claims / claims if claims else None,
        own_recall=own[0] / own[1] if own[1] else None,
        teammate_recall=teammate[0] / teammate[1] if teammate[1] else None,
        hle_agreement=hinted / (own[1] + teammate[1]) if own[1] + teammate[1] else None,
        scores=tuple(r.score for r in records),
    )


def run(
    rundir: RunDir[HanabiRunConfig], options: RunOptions, llm: LLMSettings | None = None
) -> HanabiSummary:
    """Play every game of the run not yet finished and summarise the run from its logs."""
    config = rundir.config
    ids = [hanabi_id(p, s) for p in config.players for s in config.seeds]
    migrate_ids(rundir.path, config)
    report = run_games(rundir, ids, HanabiGamePlayer(config, llm), options)
    rows = tuple(row for p in config.players if (row := summarise_count(rundir, p)) is not None)
    summary = HanabiSummary(
        config=config,
        rows=rows,
        llm_usage=played_usage(report.played),
        play_wall_s=report.wall_s,
        play_cpu_s=report.cpu_s,
    )
    rundir.write_summary(summary)
    return summary


def table_rows(summary: HanabiSummary) -> list[dict[str, Any]]:
    """The summary's rows as table cells."""
    rows = []
    for row in summary.rows:
        cells = row.model_dump(exclude={"scores"})
        cells["mean_ci"] = f"{row.mean_ci[0]:.2f}-{row.mean_ci[1]:.2f}"
        cells["iqm_ci"] = f"{row.iqm_ci[0]:.2f}-{row.iqm_ci[1]:.2f}"
        for name in ("tracking_accuracy", "own_recall", "teammate_recall", "hle_agreement"):
            value = cells[name]
            cells[name] = "-" if value is None else f"{value:.3f}"
        rows.append(cells)
    return rows


def plot_scores(summary: HanabiSummary, path: Path) -> Path:
    """A PNG with one histogram of scores per player count."""
    plt = pyplot()
    rows = summary.rows
    figure, axes = plt.subplots(1, len(rows), figsize=(3.2 * len(rows), 3), squeeze=False)
    for axis, row in zip(axes[0], rows, strict=True):
        axis.hist(row.scores, bins=range(0, 27), color="#4477aa", edgecolor="white")
        mean = statistics.fmean(row.scores) if row.scores else 0.0
        axis.set_title(f"{row.players} players: mean {mean:.2f}")
        axis.set_xlabel(f"score ({summary.config.scoring})")
    axes[0][0].set_ylabel("games")
    figure.suptitle(f"Hanabi scores, agents {summary.config.agents}")
    figure.tight_layout()
    save_figure(figure, path, dpi=100)
    plt.close(figure)
    return path


def summary_json(summary: HanabiSummary) -> str:
    """The summary as indented JSON."""
    return json_text(summary.model_dump(mode="json")).rstrip("\n")


def parse_seeds(seeds: str, first: int) -> tuple[int, ...]:
    """A count N (seeds ``first`` .. ``first + N - 1``) or a comma-separated list of seeds
    (``2,3,5,7,11``, in that order, without repeats); ValueError naming ``--seeds`` otherwise."""
    items = [item.strip() for item in seeds.split(",")]
    if not all(item.isdigit() for item in items):
        raise ValueError(f"--seeds: {seeds!r} is neither a count nor a list of seeds like 2,3,5")
    numbers = [int(item) for item in items]
    if len(numbers) == 1:
        if numbers[0] < 1:
            raise ValueError("--seeds: the count must be at least 1")
        return seed_range(numbers[0], first, MAX_SEED)
    if max(numbers) > MAX_SEED:
        raise ValueError(f"--seeds: a seed is at most {MAX_SEED}")
    return tuple(dict.fromkeys(numbers))


def counts_in(players: Sequence[int]) -> tuple[int, ...]:
    """Player counts without repeats, in the order given."""
    return tuple(dict.fromkeys(players))


@run_command(out=Path("runs/hanabi"))
def bench_hanabi(
    shared: RunCommandOptions,
    players: Annotated[
        str | None,
        typer.Option(
            help="Player counts, comma-separated, 2-5 (default: 2,3,4,5, or the --seats "
            "file's seats).",
            show_default=False,
        ),
    ] = None,
    seeds: Annotated[
        str,
        typer.Option(help="Seeds per player count: a count, or a list such as 2,3,5,7,11."),
    ] = "10",
    first_seed: Annotated[int, typer.Option(min=0, help="The first seed; then first+1, ...")] = 0,
    agents: Annotated[str | None, typer.Option(help=AGENTS_HELP, show_default=False)] = None,
    seats: SeatsFileOption = None,
    scoring: Annotated[
        str, typer.Option(help="fireworks (the sum, kept at a bomb-out) or hle (a bomb-out is 0).")
    ] = "fireworks",
    sherlock_view: SherlockView = "hints",
    old_view: Annotated[str | None, typer.Option("--view", hidden=True)] = None,
    best_of: BestOf = 1,
    mixture: Mixture = False,
    invalid: InvalidAnswers = "fallback",
) -> None:
    """Play Hanabi games on the shared runner; print mean, std, IQM with 95% CIs, perfect games,
    bomb-outs, turns, fallbacks and tracking accuracy per player count; write JSON and a PNG.
    With --replay every setting (player counts, seeds, agents, scoring, view, model) is the
    recorded run's."""
    try:
        if old_view is not None:
            raise ValueError(
                "--view is now --sherlock-view (as in play hanabi, where --view is the knowledge "
                "printed)"
            )
        out, replay, model = shared.out, shared.replay, shared.model
        reasoning_effort = shared.reasoning_effort
        if replay is not None:
            config = RunDir.resume(replay, HanabiRunConfig).config
            counts, agents, model = config.players, config.agents, config.model
            seated = Seating(agents=agents, endpoints=config.endpoints)
            reasoning_effort = config.reasoning_effort
            if not AGENTS.needs_llm(AGENTS.parse(agents)):
                raise ValueError(f"--replay: {replay} played agents {agents!r}, which ask no LLM")
        else:
            seated, fixed = seating(agents, seats)
            agents = seated.agents
            counts = (fixed,) if fixed is not None else (2, 3, 4, 5)
            if players is not None:
                counts = counts_in(player_counts(players))
            if fixed is not None and counts != (fixed,):
                raise ValueError(f"--players: {players}, but {seats} names {fixed} seats")
            config = HanabiRunConfig.model_validate(
                {
                    "players": counts,
                    "seeds": parse_seeds(seeds, first_seed),
                    "agents": agents,
                    "scoring": scoring,
                    "view": sherlock_view,
                    "best_of": best_of,
                    "mixture": mixture,
                    "model": model,
                    "invalid": invalid,
                    "reasoning_effort": reasoning_effort,
                    "endpoints": seated.endpoints,
                }
            )
        for count in counts:
            seat_specs(agents, count)
        names = AGENTS.parse(agents)
        llm = None
        if AGENTS.needs_llm(names):
            llm = llm_settings(model, shared.base_url, shared.record_in, replay, reasoning_effort)
            missing = seated.endpoint_missing(AGENTS, llm)
            if replay is None and missing is not None:
                raise missing
            if replay is not None:
                ids = [hanabi_id(p, s) for p in config.players for s in config.seeds]
                migrate_ids(replay, config)
                check_replayable(config, replay, ("players", "seeds", "agents", "view"), ids)
        rundir = RunDir(prepare_out(out), config)
        summary = run(rundir, shared.runner, llm)
    except (ValueError, ValidationError) as err:
        fail(err)
    except GAME_ERRORS as err:
        fail(err)
    finished = sum(row.games for row in summary.rows)
    errored = len(summary.config.seeds) * len(counts) - finished
    if not summary.rows:
        exit_when_all_errored(errored, finished)
    plot = plot_scores(summary, out / "scores.png") if can_plot() else None
    if shared.as_json:
        typer.echo(summary_json(summary))
        exit_when_all_errored(errored, finished)
        return
    typer.echo(f"Hanabi, agents {agents}, scoring {summary.config.scoring}")
    typer.echo(format_table(table_rows(summary), COLUMNS))
    if not AGENTS.needs_llm(names) and summary.config.scoring == "fireworks":
        typer.echo("beside published self-play means (gap: this run minus published):")
        typer.echo(
            format_table(published_rows(summary.rows), ["players", "mean", "mean_ci", *PUBLISHED])
        )
    for line in usage_lines(summary.llm_usage):
        typer.echo(line)
    typer.echo(f"wall {summary.play_wall_s:.2f} s, CPU {summary.play_cpu_s:.2f} s")
    typer.echo(f"wrote {rundir.summary_path}; plot: {plot_note(plot)}")
