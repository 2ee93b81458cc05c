"""``gumshoe bench mystery``: interrogation games on generated scripts, audited exactly.

Games ``mystery-seed<n>`` are played on the shared runner (resumable run directory, ``--workers``,
``--concurrency``, ``--scheduler``); LLM calls can be recorded per game and replayed. The summary
is built from the logs: the civilians' win rate, the mean exact IG of each round (and a plot of
it), the pruning audit of stated suspects (in all, and per victim: each game's first, second, ...
victim), every answered fact checked against the world and its speaker's script, and the share
of objective points each side met.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, cast

import typer
from pydantic import BaseModel, ConfigDict, ValidationError

from benchmarks.llm_usage import game_usage, played_usage, usage_lines
from benchmarks.options import (
    RunCommandOptions,
    exit_when_all_errored,
    run_command,
)
from benchmarks.report import can_plot, format_table, plot_note, pyplot, save_figure, write_json
from benchmarks.runner import MemoryLog, check_replayable, run_games
from benchmarks.wellplay_runs import (
    METRICS,
    WellPlayPlayer,
    game_ids,
    summary_rows,
    wellplay_summary,
)
from formalize.interrogation.quiz import Needs, accuracy, bound, quiz
from games.core.cli import EndpointOptions, fail, with_options
from games.core.play import check_seats, play_game
from games.core.recordings import migrate_game_ids
from games.core.runlog import LogError, RunDir, RunDirError, game_id, game_seed
from games.core.settings import AgentSettings
from games.mystery.agents import AGENTS
from games.mystery.cli import checked_scripts, game_config
from games.mystery.entry import ENTRY, game_scripts
from games.mystery.events import MAX_ROUNDS, ROUNDS, MysteryConfig
from games.mystery.logs import read_checked_log
from games.mystery.wellplay import load_wellplay, script_folders
from games.mystery.wellplay_answer import Knowledge, answer_all
from games.mystery.wellplay_memory import FEATURE as MEMORY_FEATURE
from games.mystery.wellplay_memory import MemoryKind
from games.mystery.wellplay_play import VARIANTS, WellPlaySettings, WellPlayVariant, case_of
from provers.registry import get_prover
from reasoning.claims import ClaimStatus, Correctness
from reasoning.embeddings import EmbeddingUnavailable, load_sentence_model
from reasoning.extras import MissingExtra
from reasoning.llm import LLMEndpointError, make_client
from reasoning.outfile import json_text
from reasoning.progress import progress_bar


class MysteryBenchConfig(BaseModel):
    """A run's settings: one agent per seat, the first seed, the LLM model (None: offline)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agents: tuple[str, ...]
    first_seed: int = 0
    llm_model: str | None = None
    script_file: str | None = None
    wellplay: str | None = None
    runs: int = 1
    play: WellPlaySettings = WellPlaySettings()
    """How scripts are played: the rounds (every game); memory, pruner, sensors (WellPlay)."""


@dataclass(frozen=True)
class MysteryPlayer:
    """Plays game ``mystery-seed<n>`` with the seat list ``specs`` (a picklable ``GamePlayer``)."""

    specs: tuple[str, ...]
    settings: AgentSettings
    script_file: Path | None = None
    rounds: int = ROUNDS

    def __call__(self, game_id: str, log: MemoryLog) -> dict[str, Any]:
        """Play the game ``game_id`` names into ``log``; its LLM seats' usage by agent name."""
        seed = game_seed(game_id)
        settings = self.settings.for_game(game_id, len(self.specs))
        config = game_config(len(self.specs), self.script_file, rounds=self.rounds)
        played = play_game(ENTRY, self.specs, seed, settings, config, log=log)
        return {
            "usage": game_usage(
                (s.agent, played.meters.get(i, ())) for i, s in enumerate(played.seats)
            )
        }


def quiz_bounds(seeds: list[int], config: MysteryConfig) -> dict[str, dict[str, float]]:
    """The WellPlay-style metrics of exact reasoners over the games' scripts, by knowledge:
    own script only, that plus the planned answers, all scripts."""
    prover = get_prover("sat")
    questions = [
        q
        for seed in progress_bar(seeds, len(seeds), "quiz scripts")
        for q in quiz(game_scripts(config, seed), prover, seed)
    ]
    levels: tuple[Needs, ...] = ("own", "said", "all")
    out: dict[str, dict[str, float]] = {
        level: accuracy(questions, bound(questions, level)) for level in levels
    }
    out["count"] = {k: float(v) for k, v in Counter(q.category for q in questions).items()}
    return out


def summarise(run_dir: RunDir[MysteryBenchConfig], game_ids: list[str]) -> dict[str, Any]:
    """The run's summary, from each finished log's audit record (``ENTRY.audit``)."""
    wins = finished = errored = lies = 0
    solved: list[float] = []
    gains: list[list[float]] = []
    start: list[float] = []
    pruning: Counter[str] = Counter()
    per_victim: list[Counter[str]] = []
    goals: dict[str, list[int]] = {"civilians": [0, 0], "murderers": [0, 0]}
    facts: Counter[str] = Counter()
    rated: dict[str, list[float]] = {"high": [], "medium": [], "low": []}
    for gid in game_ids:
        log = read_checked_log(run_dir.log_path(gid))
        if log.end is None or log.end.status != "finished":
            errored += 1
            continue
        finished += 1
        figures = ENTRY.audit(log).figures
        wins += figures["winner"] == "civilians"
        solved.append(sum(figures["solved"]) / len(figures["solved"]))
        gains.append(figures["ig_per_round"])
        start += figures["start_entropy"].values()
        pruning.update(figures["pruning"])
        for name, (met, possible) in figures["objective_points"].items():
            side = "murderers" if name in figures["murderers"] else "civilians"
            goals[side][0] += met
            goals[side][1] += possible
        for index, victim in enumerate(figures["victims"]):
            if index == len(per_victim):
                per_victim.append(Counter())
            per_victim[index].update(figures["pruning_by_victim"].get(victim, {}))
        for level, eigs in figures["calibration"].items():
            rated[level] += eigs
        facts.update(figures["fact_checks"])
        lies += figures["lies"]
    rounds = max((len(g) for g in gains), default=0)
    per_round = [
        sum(g[r] for g in gains if len(g) > r) / max(1, sum(len(g) > r for g in gains))
        for r in range(rounds)
    ]
    caught = facts[f"{Correctness.FALSE.value}/{ClaimStatus.CONTRADICTED.value}"]
    return {
        "games": len(game_ids),
        "finished": finished,
        "errored": errored,
        "win_rate": wins / finished if finished else None,
        "solved_share": sum(solved) / len(solved) if solved else None,
        "mean_h0": sum(start) / len(start) if start else None,
        "ig_per_round": per_round,
        "pruning": dict(sorted(pruning.items())),
        "pruning_per_victim": [dict(sorted(c.items())) for c in per_victim],
        "facts": dict(sorted(facts.items())),
        "lies": lies,
        **{
            f"objectives_{side}": met / total if total else None
            for side, (met, total) in goals.items()
        },
        "lies_contradicting_own_script": caught,
        "calibration": {
            level: {"n": len(v), "mean_exact_eig": sum(v) / len(v) if v else None}
            for level, v in rated.items()
        },
    }


def plot_gains(per_round: list[float], path: Path) -> Path:
    """A bar chart of the mean exact IG per questioning round."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.bar([str(r + 1) for r in range(len(per_round))], per_round)
    ax.set_xlabel("round")
    ax.set_ylabel("mean exact IG (nats)")
    ax.set_title("Information gain per round")
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)
    return path


@run_command(out=Path("runs/mystery"))
def bench_mystery(
    shared: RunCommandOptions,
    games: Annotated[int, typer.Option(min=1, max=100000, help="Games (seeds) to play.")] = 30,
    first_seed: Annotated[int, typer.Option(help="The first seed; then first+1, ...")] = 0,
    agents: Annotated[
        str,
        typer.Option(help="One agent per seat (prover*4,questum); one name fills 5 seats."),
    ] = "prover",
    with_quiz: Annotated[
        bool,
        typer.Option(
            "--quiz/--no-quiz",
            help="Also generate WellPlay-style questions per script and report exact bounds.",
        ),
    ] = True,
    script: Annotated[
        Path | None,
        typer.Option(help="Play every game on this script file (JSON) instead of generated ones."),
    ] = None,
    wellplay: Annotated[
        Path | None,
        typer.Option(
            help="Play a WellPlay copy (a folder of script folders) instead: --agents names the "
            "civilians' framework (questum, llm-cot, llm-thinkthrice, llm-werewolf)."
        ),
    ] = None,
    runs: Annotated[
        int, typer.Option(min=1, max=100, help="With --wellplay: plays of each script.")
    ] = 1,
    rounds: Annotated[
        int, typer.Option(min=1, max=10, help="Questioning rounds (generated games: up to 6).")
    ] = ROUNDS,
    memory: Annotated[
        MemoryKind,
        typer.Option(
            help="With --wellplay: each character's whole script and the whole conversation in "
            "context, or the passages a retrieval memory recalls (seed 004's)."
        ),
    ] = "whole",
    pruner: Annotated[
        bool,
        typer.Option(help="With --wellplay: Questum narrows its candidates to its suspects."),
    ] = True,
    sensors: Annotated[
        bool,
        typer.Option(help="With --wellplay: Questum reads its sensors on each character."),
    ] = True,
) -> None:
    """Interrogation games on generated scripts: win rate, exact IG per round, pruning audit,
    WellPlay-style question bounds; or plays of a WellPlay copy (--wellplay), with the seed's
    ablations (--rounds, --no-pruner, --no-sensors) and memories (--memory)."""
    out, replay = shared.out, shared.replay
    play = WellPlaySettings(memory=memory, rounds=rounds, pruner=pruner, sensors=sensors)
    if wellplay is not None:
        if shared.record or replay is not None or script is not None:
            fail("--wellplay: plays a WellPlay copy, without --script, --record or --replay")
        bench_wellplay_runs(wellplay, agents, runs, first_seed, shared, play)
        return
    try:
        if runs != 1:
            raise ValueError("--runs: only with --wellplay (generated games differ by seed)")
        for name, changed in (
            ("--memory", memory != "whole"),
            ("--no-pruner", not pruner),
            ("--no-sensors", not sensors),
        ):
            if changed:
                raise ValueError(f"{name}: only with --wellplay (a WellPlay copy's Questum)")
        if rounds > MAX_ROUNDS:
            raise ValueError(f"--rounds: generated games play 1 to {MAX_ROUNDS}, got {rounds}")
        specs = AGENTS.parse(agents)
        if len(specs) == 1:
            specs = specs * 5
        check_seats(ENTRY, len(specs))
        needs_llm = AGENTS.needs_llm(specs)
        llm = shared.llm()
        if needs_llm and replay is None and not llm.configured:
            raise ValueError("--agents: an LLM agent needs --base-url (or --replay)")
        config = MysteryBenchConfig(
            agents=specs,
            first_seed=first_seed,
            llm_model=llm.model if needs_llm else None,
            script_file=None if script is None else str(script.resolve()),
            play=WellPlaySettings(rounds=rounds),
        )
        ids = [game_id("mystery", first_seed + k) for k in range(games)]
        renames = {f"seed-{first_seed + k}": gid for k, gid in enumerate(ids)}
        if replay is not None:
            migrate_game_ids(replay, renames)
            check_replayable(config, replay, ["agents", "first_seed", "llm_model"], ids)
        if script is not None:
            checked_scripts(script, len(specs))
        rundir = RunDir(out, config)
        migrate_game_ids(rundir.path, renames)
        player = MysteryPlayer(specs, AgentSettings(llm=llm if needs_llm else None), script, rounds)
        report = run_games(rundir, ids, player, shared.runner)
        summary = summarise(rundir, ids)
        usage = played_usage(report.played)
        summary["llm_usage"] = None if usage is None else usage.model_dump(mode="json")
        if with_quiz:
            seeds = [first_seed + k for k in range(games)]
            summary["quiz"] = quiz_bounds(seeds, game_config(len(specs), script))
    except (ValueError, ValidationError, RunDirError, LogError) as err:
        fail(err)
    summary.update(
        agents=",".join(specs),
        play_wall_s=round(report.wall_s, 3),
        play_cpu_s=round(report.cpu_s, 3),
    )
    plot = plot_gains(summary["ig_per_round"], out / "ig_per_round.png") if can_plot() else None
    path = write_json(out / "summary.json", summary)
    if shared.as_json:
        typer.echo(write_json_text(summary))
        exit_when_all_errored(summary["errored"], summary["finished"])
        return
    columns = ["agents", "games", "finished", "win_rate", "solved_share", "mean_h0", "lies"]
    typer.echo(format_table([summary], [*columns, "play_wall_s", "play_cpu_s"]))
    typer.echo("\nShare of the scored objective points met, per side")
    typer.echo(format_table([summary], ["objectives_civilians", "objectives_murderers"]))
    for line in usage_lines(usage):
        typer.echo(line)
    rows = [{"round": r + 1, "mean_ig": g} for r, g in enumerate(summary["ig_per_round"])]
    typer.echo("\n" + format_table(rows, ["round", "mean_ig"]))
    typer.echo(f"\npruning {summary['pruning']}  facts {summary['facts']}")
    for index, counts in enumerate(summary["pruning_per_victim"], start=1):
        typer.echo(f"pruning of victim {index}'s suspects {counts}")
    rated = [{"rating": k, **v} for k, v in summary["calibration"].items() if v["n"]]
    if rated:
        typer.echo("\nLLM ratings against the exact expected IG of asking that character")
        typer.echo(format_table(rated, ["rating", "n", "mean_exact_eig"]))
    if with_quiz:
        metrics = ["objective", "reasoning", "relation", "overall"]
        rows = [{"knowledge": k, **summary["quiz"][k]} for k in ("own", "said", "all")]
        typer.echo("\nWellPlay-style questions, exact reasoners")
        typer.echo(format_table(rows, ["knowledge", *metrics]))
    typer.echo(f"\nwrote {path}; plot: {plot_note(plot)}")
    exit_when_all_errored(summary["errored"], summary["finished"])


def bench_wellplay_runs(
    root: Path,
    agents: str,
    runs: int,
    first_seed: int,
    shared: RunCommandOptions,
    play: WellPlaySettings,
) -> None:
    """``bench mystery --wellplay``: every script of the copy played ``runs`` times with the
    civilians on the framework ``agents`` names, as ``play`` sets; votes, win rate and
    per-category accuracy (three evaluations a play, averaged), mean and std over the runs
    (``benchmarks.wellplay_runs``)."""
    try:
        if agents not in VARIANTS:
            raise ValueError(
                f"--agents: with --wellplay one of {', '.join(VARIANTS)}, got {agents!r}"
            )
        if agents != "questum" and not (play.pruner and play.sensors):
            raise ValueError("--no-pruner, --no-sensors: ablations of --agents questum")
        llm = shared.llm()
        if not llm.configured:
            raise ValueError("--wellplay: playing needs an LLM endpoint: give --base-url")
        for loaded in load_wellplay(root, first_seed):
            case_of(loaded)
        folders = script_folders(root)
        config = MysteryBenchConfig(
            agents=(agents,),
            first_seed=first_seed,
            llm_model=llm.model,
            wellplay=str(root.resolve()),
            runs=runs,
            play=play,
        )
        if play.memory == "retrieval":
            load_sentence_model(MEMORY_FEATURE)
        ids = game_ids(folders, runs)
        rundir = RunDir(shared.out, config)
        player = WellPlayPlayer(
            root.resolve(), cast(WellPlayVariant, agents), llm, first_seed, play
        )
        report = run_games(rundir, ids, player, shared.runner)
        summary = wellplay_summary(rundir, ids)
    except (
        ValueError,
        ValidationError,
        RunDirError,
        LogError,
        EmbeddingUnavailable,
        MissingExtra,
    ) as err:
        fail(err)
    usage = played_usage(report.played)
    summary.update(
        llm_usage=None if usage is None else usage.model_dump(mode="json"),
        agents=agents,
        play=play.model_dump(),
        play_wall_s=round(report.wall_s, 3),
        play_cpu_s=round(report.cpu_s, 3),
    )
    path = write_json(shared.out / "summary.json", summary)
    if shared.as_json:
        typer.echo(write_json_text(summary))
    else:
        columns = ["games", "finished", "runs", "fallbacks", "play_wall_s", "play_cpu_s"]
        typer.echo(format_table([summary], ["agents", *columns]))
        typer.echo(f"\nWellPlay, mean±std over {summary['runs']} runs")
        typer.echo(format_table(summary_rows(summary), ["script", *METRICS]))
        for line in usage_lines(usage):
            typer.echo(line)
        typer.echo(f"\nwrote {path}")
    exit_when_all_errored(summary["errored"], summary["finished"])


KNOWLEDGE: dict[str, Knowledge] = {"own": "own", "all": "all", "played": "played"}
"""The --knowledge choices of bench wellplay."""


@with_options(EndpointOptions)
def bench_wellplay(
    shared: EndpointOptions,
    data: Annotated[Path, typer.Option(help="A folder of WellPlay script folders (your copy).")],
    knowledge: Annotated[
        str,
        typer.Option(
            help="own: each character's script only; all: every script; played: own script "
            "after three rounds of LLM questioning."
        ),
    ] = "own",
    seed: Annotated[int, typer.Option(help="Seed of the option shuffle.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the metrics as JSON.")] = False,
) -> None:
    """An LLM answers the WellPlay questions of a user's copy, graded by the key: accuracy
    per category and the seed's Overall."""
    try:
        if knowledge not in KNOWLEDGE:
            raise ValueError(f"--knowledge: own, all or played, got {knowledge!r}")
        scripts = load_wellplay(data, seed)
        llm = shared.llm()
        if not llm.configured:
            raise ValueError("answering needs an LLM endpoint: give --base-url")
        graded, fallbacks = answer_all(make_client(llm), scripts, KNOWLEDGE[knowledge])
    except (ValueError, ValidationError, LLMEndpointError) as err:
        fail(err)
    metrics: dict[str, float] = accuracy(graded, [g.correct for g in graded])
    metrics.update(questions=float(len(graded)), fallbacks=float(fallbacks))
    if as_json:
        typer.echo(write_json_text(metrics))
        return
    columns = ["objective", "reasoning", "relation", "overall", "questions", "fallbacks"]
    typer.echo(format_table([metrics], columns))


def write_json_text(payload: dict[str, Any]) -> str:
    """The summary as one JSON document."""
    return json_text(payload, default=str).rstrip("\n")
