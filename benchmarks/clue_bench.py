"""The Clue benchmark: many seeded games, seed 000 Table 1's columns per agent, and Fig. 5's plot.

A run directory (``games.core.runlog``) holds the config, one event log per game and the summary; an
interrupted run resumes without replaying finished games; games are played by the shared runner
(``benchmarks.runner``: local processes, threads, or a Dask cluster). Game ``i`` is dealt from
``seed + i`` and opened by seat ``i mod n`` (seed 000 rotates the starting seat). Each game's
fallback counts, which the log does not carry, go to ``seats.jsonl`` just before the game's log
is written. A game whose LLM endpoint fails for good is recorded as errored and the run goes on.

LLM calls are recorded to, and replayed from, run directories (``games.core.recordings``): the
settings' ``record_path`` is normally the run directory itself, so seat k's calls in game G are in
``llm/G.seat<k>.jsonl`` beside the game's log; a ``replay_path`` names an earlier run directory.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from benchmarks.llm_usage import SeatUsage, usage_lines, usage_report
from benchmarks.options import (
    MAX_GAMES,
    RunCommandOptions,
    exit_when_all_errored,
    run_command,
)
from benchmarks.report import PLOTS, can_plot, format_table, plot_note, pyplot, save_figure
from benchmarks.runner import (
    GameError,
    GameOutcome,
    MemoryLog,
    RunOptions,
    RunReport,
    check_replayable,
    map_ordered,
    run_games,
)
from games.clue.agents import AGENTS, ClueAgentSettings
from games.clue.cards import MAX_ROUNDS
from games.clue.entry import ENTRY
from games.clue.events import ClueConfig
from games.clue.playing import DEFAULT_CLUE_AGENTS
from games.core.audit import AuditRecord, SeatSummary
from games.core.cli import fail
from games.core.play import check_seats, play_game
from games.core.recordings import migrate_game_ids
from games.core.runlog import (
    RunDir,
    RunDirError,
    field_errors,
    game_id,
    game_seed,
)
from reasoning.extras import optional_import
from reasoning.llm import ReplayError as LLMReplayError
from reasoning.llm import UsageReport
from reasoning.outfile import write_atomic
from reasoning.textfile import UserFileError, parse_user_jsonl, read_user_text

SEATS_FILE = "seats.jsonl"
"""Per-game fallback counts, one JSON line per finished game, in the run directory."""
PLOT_FILE = "cards_known.png"
"""The plot of cards known per round, in the run directory."""


class ClueBenchConfig(BaseModel):
    """What makes two runs comparable: the seats' agents, the first seed, the round limit and the
    LLM model (when an LLM agent plays). The number of games is not part of it, so a run can be
    extended."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agents: tuple[str, ...] = Field(min_length=3, max_length=6)
    seed: int = 0
    max_rounds: int = Field(default=30, ge=1)
    llm_model: str | None = None

    def game_config(self, index: int) -> ClueConfig:
        """The settings of game ``index``."""
        n = len(self.agents)
        return ClueConfig(players=n, max_rounds=self.max_rounds, first_player=index % n)


class SeatRecord(BaseModel):
    """What a game log lacks: each seat's fallback count and, for seats that asked a chat
    model, its LLM usage (one line of ``seats.jsonl``)."""

    game_id: str
    fallbacks: list[int]
    usage: list[SeatUsage | None] = Field(default_factory=list)


class AgentSummary(BaseModel):
    """One agent's results over every seat it played (per-game figures are per seat-game).

    ``wins`` counts only games the seat won (a rank-1 finish when nobody won is no win).
    ``accusation_accuracy`` is the mean share of envelope cards named (0-1) over the seat-games
    in which it accused; ``recall`` pools the entailed facts over its seat-games.
    """

    agent: str
    seat_games: int
    wins: int
    correct_accusations: int
    wrong_accusations: int
    accusations: int
    mean_rank: float
    accusation_accuracy: float | None
    deductions_correct: float
    deductions_incorrect: float
    fallbacks: float
    sound: float
    lucky: float
    wrong: float
    recall: float | None
    known_per_round: list[float]


class ClueBenchSummary(BaseModel):
    """The run's results: per agent, the ideal reasoner's curve, LLM usage per agent and in
    total (None when no agent asks a chat model), errors and timing."""

    config: ClueBenchConfig
    games: int
    errored: list[GameError]
    per_agent: list[AgentSummary]
    ideal_known_per_round: list[float]
    llm_usage: UsageReport | None = None
    plot: str | None
    play_wall_s: float
    play_cpu_s: float
    audit_wall_s: float
    audit_cpu_s: float


def game_ids(config: ClueBenchConfig, games: int) -> list[str]:
    """The ids of a run's ``games`` games, dealt from seeds ``config.seed`` onwards."""
    return [game_id("clue", config.seed + i) for i in range(games)]


def migrate_ids(run_dir: Path, config: ClueBenchConfig, games: int) -> None:
    """Rename the games of a run made when ids were ``game-<index>`` (and its seat records)."""
    renames = {f"game-{i:05d}": gid for i, gid in enumerate(game_ids(config, games))}
    migrate_game_ids(run_dir, renames)
    path = run_dir / SEATS_FILE
    seats = read_seats(path)
    if any(old in seats for old in renames):
        records = [
            r.model_copy(update={"game_id": renames.get(r.game_id, r.game_id)})
            for r in seats.values()
        ]
        write_atomic(path, "".join(r.model_dump_json() + "\n" for r in records), inside=run_dir)


@dataclass(frozen=True)
class CluePlayer:
    """Plays game ``clue-seed<k>`` of a run (a picklable ``GamePlayer`` for the runner)."""

    config: ClueBenchConfig
    settings: ClueAgentSettings

    def __call__(self, game_id: str, log: MemoryLog) -> dict[str, Any]:
        """Deal game ``game_id`` (the run's ``index``-th) from its seed, play it into ``log``; its
        seats' fallbacks and LLM usage."""
        gid = game_id
        seed = game_seed(gid)
        index = seed - self.config.seed
        played = play_game(
            ENTRY,
            self.config.agents,
            seed,
            self.settings.for_game(gid, len(self.config.agents)),
            self.config.game_config(index),
            log,
        )
        usage = [
            SeatUsage.of(*meters).model_dump(mode="json") if meters else None
            for meters in (played.meters.get(seat) for seat in range(len(played.seats)))
        ]
        return {"fallbacks": [f.total for f in played.fallbacks], "usage": usage}


def read_seats(path: Path) -> dict[str, SeatRecord]:
    """The seat records of ``seats.jsonl`` by game id (none when it is absent). A last line cut
    short (no newline, not JSON: a run stopped while writing it) is dropped, since the file is
    rewritten whole on the next game; any other bad line raises RunDirError naming it."""
    if not os.path.lexists(path):
        return {}
    try:
        text = read_user_text(path, allow_bom=False, inside=path.parent)
    except UserFileError as err:
        raise RunDirError(str(err)) from None
    try:
        lines = parse_user_jsonl(text, path)
    except UserFileError as err:
        torn = not text.endswith("\n") and err.line == text.count("\n") + 1
        if not torn:
            raise RunDirError(str(err)) from None
        lines = parse_user_jsonl(text[: text.rfind("\n") + 1], path)
    records: dict[str, SeatRecord] = {}
    for lineno, line in lines:
        try:
            record = SeatRecord.model_validate(line)
        except ValidationError as err:
            raise RunDirError(f"{path}:{lineno}: {field_errors(err)}") from None
        records[record.game_id] = record
    return records


def recorded_config(run_dir: Path) -> ClueBenchConfig:
    """The config of an earlier run directory (RunDirError when it is not one)."""
    return RunDir.resume(run_dir, ClueBenchConfig).config


def run(
    config: ClueBenchConfig,
    games: int,
    out: Path,
    settings: ClueAgentSettings | None = None,
    options: RunOptions | None = None,
    progress: Callable[[str], None] | None = None,
) -> ClueBenchSummary:
    """Play (or resume) ``games`` games into the run directory ``out`` and summarise them.

    When ``settings`` replay LLM calls, their ``replay_path`` is a run directory recorded under
    the same config (ValueError names the settings that differ).
    """
    settings = settings or ClueAgentSettings()
    replay_from = settings.llm_settings().replay_path
    ids = game_ids(config, games)
    if replay_from is not None:
        migrate_ids(replay_from, config, games)
        check_replayable(config, replay_from, ClueBenchConfig.model_fields, ids)
    say = progress or (lambda _message: None)
    rundir = RunDir(out, config)
    migrate_ids(rundir.path, config, games)
    seats_path = rundir.path / SEATS_FILE
    seats = read_seats(seats_path)

    def keep_fallbacks(game: GameOutcome) -> None:
        if game.error is None:
            seats[game.game_id] = SeatRecord(
                game_id=game.game_id,
                fallbacks=game.extra["fallbacks"],
                usage=game.extra["usage"],
            )
            text = "".join(record.model_dump_json() + "\n" for record in seats.values())
            write_atomic(seats_path, text, inside=rundir.path)
        else:
            say(f"{game.game_id}: errored: {game.error}")

    report = run_games(
        rundir,
        ids,
        CluePlayer(config, settings),
        options or RunOptions(),
        keep_fallbacks,
    )
    if report.resumed:
        say(f"{report.resumed} games finished earlier")
    errored = report.errors()
    summary = summarize(rundir, config, games, errored, report, say, options)
    rundir.write_summary(summary)
    return summary


def summarize(
    rundir: RunDir[ClueBenchConfig],
    config: ClueBenchConfig,
    games: int,
    errored: Sequence[GameError],
    report: RunReport,
    say: Callable[[str], None],
    options: RunOptions | None = None,
) -> ClueBenchSummary:
    """Audit every finished game among the first ``games`` (over ``options.workers`` local
    processes) and aggregate per agent."""
    started, started_cpu = time.perf_counter(), time.process_time()
    seats_path = rundir.path / SEATS_FILE
    fallbacks: dict[str, list[int]] = {}
    usage: dict[str, list[SeatUsage | None]] = {}
    for record in read_seats(seats_path).values():
        fallbacks[record.game_id] = record.fallbacks
        usage[record.game_id] = record.usage
    finished = [gid for gid in game_ids(config, games) if rundir.is_finished(gid)]
    by_agent: dict[str, list[SeatUsage]] = {name: [] for name in config.agents}
    for gid in finished:
        for name, seat_usage in zip(config.agents, usage.get(gid, []), strict=False):
            if seat_usage is not None:
                by_agent[name].append(seat_usage)
    say(f"auditing {len(finished)} games")
    paths = [rundir.log_path(gid) for gid in finished]
    audited, audit_cpu_elsewhere = map_ordered(audit_record_at, paths, options or RunOptions())
    audits: list[tuple[AuditRecord, list[int]]] = [
        (audit, fallbacks.get(gid, [0] * len(config.agents)))
        for gid, audit in zip(finished, audited, strict=True)
    ]
    per_agent = [_agent_summary(name, config, audits) for name in dict.fromkeys(config.agents)]
    found = (_curve(a, "ideal_known_per_round", s) for a, _ in audits for s in a.seats)
    ideals = [c for c in found if c is not None]
    ideal = _mean_curve(ideals, max(map(len, ideals), default=0))
    plot = _plot(rundir.path / PLOT_FILE, per_agent, ideal) if audits and can_plot() else None
    return ClueBenchSummary(
        config=config,
        games=len(audits),
        errored=list(errored),
        per_agent=per_agent,
        ideal_known_per_round=ideal,
        llm_usage=usage_report(by_agent),
        plot=str(plot) if plot else None,
        play_wall_s=report.wall_s,
        play_cpu_s=report.cpu_s,
        audit_wall_s=time.perf_counter() - started,
        audit_cpu_s=time.process_time() - started_cpu + audit_cpu_elsewhere,
    )


def audit_record_at(path: Path) -> AuditRecord:
    """The audit record of the Clue log at ``path`` (the entry's audit); LogError names the line
    of any problem."""
    return ENTRY.audit(ENTRY.read_log(path))


def _curve(record: AuditRecord, figure: str, seat: SeatSummary) -> list[int] | None:
    """Seat ``seat``'s curve among the record's figure ``figure`` (cards known per round, by
    seat name); None when the record has none."""
    curves = record.figures.get(figure)
    curve = curves.get(seat.name) if isinstance(curves, dict) else None
    return [int(v) for v in curve] if isinstance(curve, list) else None


def _mean_curve(curves: Sequence[Sequence[int]], length: int) -> list[float]:
    """Per round, the mean over curves, each carried forward at its last value after it ends."""
    if not curves or length == 0:
        return []
    out: list[float] = []
    for r in range(length):
        values = [c[min(r, len(c) - 1)] for c in curves if c]
        out.append(sum(values) / len(values) if values else math.nan)
    return out


def _agent_summary(
    name: str, config: ClueBenchConfig, audits: Sequence[tuple[AuditRecord, list[int]]]
) -> AgentSummary:
    seats = [s for s, agent in enumerate(config.agents) if agent == name]
    rows = [(a, a.seats[s], fb[s]) for a, fb in audits for s in seats]
    n = len(rows)
    ranks, accuracies, curves = [], [], []
    wins = correct = wrong_acc = 0
    totals = {"true": 0, "false": 0, "sound": 0, "lucky": 0, "wrong": 0}
    fallback_total = recall_stated = recall_entailed = 0
    for audit, player, fb in rows:
        figures = audit.figures
        assert audit.complete and figures["ranks"] is not None
        ranks.append(figures["ranks"][player.seat])
        wins += figures["winner"] == player.seat
        accuracy = figures["accuracy"][player.seat]
        if accuracy is not None:
            accuracies.append(accuracy / 3)
            correct += accuracy == 3
            wrong_acc += accuracy != 3
        for key in totals:
            totals[key] += getattr(player, key) or 0
        fallback_total += fb
        recall_stated += player.recall_stated or 0
        recall_entailed += player.recall_entailed or 0
        known = _curve(audit, "known_per_round", player)
        if known is not None:
            curves.append(known)
    longest = max((len(c) for c in curves), default=0)

    def per_game(total: int) -> float:
        return total / n if n else math.nan

    return AgentSummary(
        agent=name,
        seat_games=n,
        wins=wins,
        correct_accusations=correct,
        wrong_accusations=wrong_acc,
        accusations=len(accuracies),
        mean_rank=sum(ranks) / n if n else math.nan,
        accusation_accuracy=sum(accuracies) / len(accuracies) if accuracies else None,
        deductions_correct=per_game(totals["true"]),
        deductions_incorrect=per_game(totals["false"]),
        fallbacks=per_game(fallback_total),
        sound=per_game(totals["sound"]),
        lucky=per_game(totals["lucky"]),
        wrong=per_game(totals["wrong"]),
        recall=recall_stated / recall_entailed if recall_entailed else None,
        known_per_round=_mean_curve(curves, longest),
    )


def _plot(path: Path, per_agent: Sequence[AgentSummary], ideal: Sequence[float]) -> Path:
    """Cards known per round by agent, with the ideal reasoner's curve (seed 000, Fig. 5)."""
    plt = pyplot()
    ticker = optional_import("matplotlib.ticker", "plots", PLOTS)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for agent in per_agent:
        curve = agent.known_per_round
        ax.plot(range(1, len(curve) + 1), curve, marker="o", markersize=3, label=agent.agent)
    ax.plot(range(1, len(ideal) + 1), ideal, linestyle="--", color="black", label="ideal reasoner")
    ax.xaxis.set_major_locator(ticker.MaxNLocator(integer=True))
    ax.set_xlabel("round")
    ax.set_ylabel("cards known (hand + shown + correct deductions)")
    ax.set_ylim(bottom=0)
    ax.set_title("Clue: cards known per round")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    save_figure(fig, path, dpi=120)
    plt.close(fig)
    return path


TABLE_COLUMNS = [
    "agent",
    "seat_games",
    "wins",
    "mean_rank",
    "accusation_accuracy",
    "wrong_accusations",
    "deductions_correct",
    "deductions_incorrect",
    "fallbacks",
    "sound",
    "lucky",
    "wrong",
    "recall",
]
"""The columns of the printed table."""


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
        recorded = None if replay is None else recorded_config(replay)
        if recorded is not None:
            agents = agents if agents is not None else ",".join(recorded.agents)
            seed = seed if seed is not None else recorded.seed
            rounds = rounds if rounds is not None else recorded.max_rounds
        specs = AGENTS.parse(agents if agents is not None else DEFAULT_CLUE_AGENTS)
        check_seats(ENTRY, len(specs))
        settings = ClueAgentSettings(
            llm=shared.llm(None if recorded is None else recorded.llm_model)
        )
        uses_llm = any(spec.startswith("llm") for spec in specs)
        llm_model = settings.llm_settings().model if uses_llm else None
        config = ClueBenchConfig(
            agents=tuple(specs),
            seed=seed if seed is not None else 0,
            max_rounds=rounds if rounds is not None else 30,
            llm_model=llm_model,
        )
        summary = run(
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
        typer.echo(format_table(rows, TABLE_COLUMNS))
        for line in usage_lines(summary.llm_usage, "every game of the run folder"):
            typer.echo(line)
        if summary.errored:
            typer.echo(f"\n{len(summary.errored)} games errored (see summary.json)")
        typer.echo(
            f"\n{summary.games} games; summary: {out / 'summary.json'}; "
            f"plot: {plot_note(summary.plot)}"
        )
    exit_when_all_errored(len(summary.errored), summary.games)
