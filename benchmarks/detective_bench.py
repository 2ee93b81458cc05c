"""``gumshoe bench detective``: detective cases played by each agent on the shared runner, and
the LLM autograder's agreement with the exact grades.

Game ``<agent>-seed-<n>`` plays the case generated from seed n. The summary gives, per agent,
the mean progressive, final and overall scores next to the best achievable overall score of the
same cases, how many cases reached it, the LLM fallbacks, and the mean grade after each number of
locations visited (plotted with the best achievable beside it). With ``--autograde-modes`` each
mode grades sample answers of every quality to every question of the cases (their exact grades
known) and the summary gives % identical grades and the RMS difference, seed 001's Table 2
measures. ``--scripted-grader`` answers the autograder from ``grade_by_rule``, a fixed rule
on a local chat server, not a model: it tests the pipeline, and its agreement says nothing of a
model's.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean
from typing import Annotated, Any

import typer
from pydantic import BaseModel, ConfigDict, ValidationError

from benchmarks.llm_usage import game_usage, played_usage, usage_lines
from benchmarks.options import (
    RunCommandOptions,
    exit_when_all_errored,
    run_command,
)
from benchmarks.report import can_plot, format_table, plot_note, pyplot, save_figure
from benchmarks.runner import GameOutcome, MemoryLog, RunOptions, check_replayable, run_games
from games.core.cli import fail
from games.core.errors import GAME_ERRORS
from games.core.llm_player import seat_client
from games.core.play import play_game
from games.core.recordings import game_llm_settings, migrate_game_ids
from games.core.runlog import RunDir, RunDirError, game_id, game_seed
from games.detective.agents import AGENTS, DetectiveAgentSettings
from games.detective.autograder import (
    MODES,
    RUBRIC_TASK,
    STOCK_RUBRIC,
    Agreement,
    AutoGrader,
    RubricReply,
    agreement,
    answer_text,
)
from games.detective.autograder import sample_answers as samples
from games.detective.case import CaseKnobs
from games.detective.entry import ENTRY, game_case
from games.detective.events import AnswersEvent, CaseStart, DetectiveConfig, GameEnd
from games.detective.generator import GenerationError
from games.detective.grading import grade_answer
from reasoning.llm import LLMSettings, UsageReport
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer, Step


class DetectiveBenchConfig(BaseModel):
    """What a detective run plays: agents, cases (seeds and knobs), autograder modes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agents: tuple[str, ...]
    cases: int
    first_seed: int = 0
    knobs: CaseKnobs = CaseKnobs()
    autograde_modes: tuple[int, ...] = ()
    llm_model: str | None = None


class AgentRow(BaseModel):
    """One agent's results over the run's cases (``fallbacks`` counts the games played in this
    session of the run; a log does not keep them; ``unjudged`` counts finished cases answered in
    words of which no question was read decisively at every stage, so they have no score)."""

    model_config = ConfigDict(frozen=True)

    agent: str
    cases: int
    errored: int
    unjudged: int = 0
    progressive: float
    final: float
    overall: float
    best_overall: float
    at_best: int
    fallbacks: int
    by_stage: list[float]
    best_by_stage: list[float]


class ModeRow(BaseModel):
    """One autograder mode's agreement with the exact grades."""

    model_config = ConfigDict(frozen=True)

    mode: int
    agreement: Agreement
    unusable_replies: int


class DetectiveSummary(BaseModel):
    """A detective run's results, with the LLM usage per agent of the games played in this
    session of the run (None without LLM agents)."""

    model_config = ConfigDict(frozen=True)

    config: DetectiveBenchConfig
    agents: list[AgentRow]
    autograder: list[ModeRow]
    scripted_grader: bool
    llm_usage: UsageReport | None = None
    play_wall_s: float
    play_cpu_s: float
    plot: str | None


@dataclass(frozen=True)
class DetectivePlayer:
    """Plays game ``detective-<agent>-seed<n>`` into a log (a picklable ``GamePlayer``)."""

    knobs: CaseKnobs
    settings: DetectiveAgentSettings

    def __call__(self, game_id: str, log: MemoryLog) -> dict[str, Any]:
        """Play the game ``game_id`` names; its LLM fallbacks and usage are what the log
        lacks."""
        seed = game_seed(game_id)
        agent = game_id.removeprefix("detective-").removesuffix(f"-seed{seed}")
        played = play_game(
            ENTRY,
            [agent],
            seed,
            self.settings.for_game(game_id, 1),
            DetectiveConfig(knobs=self.knobs),
            log,
        )
        return {
            "fallbacks": played.fallbacks[0].total,
            "usage": game_usage([(agent, played.meters.get(0, ()))]),
        }


def agent_ids(config: DetectiveBenchConfig, agent: str) -> list[str]:
    """The games ``agent`` plays in a run: ``detective-<agent>-seed<n>``."""
    seeds = range(config.first_seed, config.first_seed + config.cases)
    return [game_id("detective", n, agent) for n in seeds]


def game_ids(config: DetectiveBenchConfig) -> list[str]:
    """Every game of a run, agent by agent."""
    return [gid for agent in config.agents for gid in agent_ids(config, agent)]


def migrate_ids(run_dir: Path, config: DetectiveBenchConfig) -> None:
    """Rename the games of a run made when ids were ``<agent>-seed-<n>``."""
    renames = {
        gid.removeprefix("detective-").replace("-seed", "-seed-"): gid for gid in game_ids(config)
    }
    migrate_game_ids(run_dir, renames)


def _mean_curve(curves: Sequence[Sequence[float]]) -> list[float]:
    """The mean of curves stage by stage, as far as every curve goes."""
    if not curves:
        return []
    return [fmean(c[t] for c in curves) for t in range(min(len(c) for c in curves))]


def agent_row(
    rundir: RunDir[DetectiveBenchConfig], agent: str, ids: Sequence[str], fallbacks: int
) -> AgentRow:
    """An agent's scores, best achievable scores and stage curves from its logs."""
    scores, best, curves, best_curves, errored, unjudged = [], [], [], [], 0, 0
    for gid in ids:
        events = ENTRY.read_log(rundir.log_path(gid), inside=rundir.path).events
        end = events[-1] if events else None
        start = events[0] if events else None
        if not isinstance(end, GameEnd) or not isinstance(start, CaseStart):
            errored += 1
            continue
        if end.score is None:
            unjudged += 1
            continue
        scores.append(end.score)
        best.append(start.best_overall or 0.0)
        best_curves.append(start.best_by_stage or [])
        curves.append([_judged_mean(e.grades) for e in events if isinstance(e, AnswersEvent)])
    done = len(scores)
    return AgentRow(
        agent=agent,
        cases=done,
        errored=errored,
        unjudged=unjudged,
        progressive=fmean(s.progressive for s in scores) if done else 0.0,
        final=fmean(s.final for s in scores) if done else 0.0,
        overall=fmean(s.overall for s in scores) if done else 0.0,
        best_overall=fmean(best) if done else 0.0,
        at_best=sum(abs(s.overall - b) < 1e-9 for s, b in zip(scores, best, strict=True)),
        fallbacks=fallbacks,
        by_stage=_mean_curve(curves),
        best_by_stage=_mean_curve(best_curves),
    )


def grade_agreement(config: DetectiveBenchConfig, llm: LLMSettings, mode: int) -> ModeRow:
    """Mode ``mode``'s grades of every sample answer to every question of the run's cases
    against the exact grades; each case's calls recorded to or replayed from its own file."""
    exact: list[int] = []
    graded: list[int] = []
    unusable = 0
    for seed in range(config.first_seed, config.first_seed + config.cases):
        case = game_case(DetectiveConfig(knobs=config.knobs), seed)
        own = game_llm_settings(llm, f"grade-mode{mode}-seed-{seed}", 1)
        grader = AutoGrader(seat_client(own, 0), mode, seed=seed)
        for q in case.questions:
            for answer in samples(q):
                exact.append(grade_answer(q, answer).score)
                graded.append(grader.grade(case, q, answer_text(q, answer)))
        unusable += grader.fallbacks.count()
    return ModeRow(mode=mode, agreement=agreement(exact, graded), unusable_replies=unusable)


_ANSWER = re.compile(r"^Answer to grade: (.*)$", re.MULTILINE)
_MODEL = re.compile(r"^Model answer: (.*)$", re.MULTILINE)


def grade_by_rule(request: ChatRequest) -> Step:
    """A fixed rule standing in for a grading model: a rubric request gets a stock rubric; a
    grading request scores round(3 * k / n), k of the answer's n parts being found in the
    model answer. Not a model: its agreement only shows the measurement at work."""
    prompt = request.last_user
    if RUBRIC_TASK in prompt:
        return RubricReply(rubric=STOCK_RUBRIC).model_dump_json(by_alias=True)
    answer, model = _ANSWER.search(prompt), _MODEL.search(prompt)
    if answer is None or model is None:
        return '{"SCORE": 0}'
    parts = [p.split(": ", 1)[-1].strip() for p in answer.group(1).split("; ")]
    reference = model.group(1).casefold()
    found = sum(p != "unknown" and p.casefold() in reference for p in parts)
    return f'{{"SCORE": {round(3 * found / len(parts))}}}'


def _judged_mean(grades: Sequence[int | None] | None) -> float:
    """A stage's mean grade over its judged answers (nan, a gap in the plot, when none is)."""
    judged = [g for g in grades or [0] if g is not None]
    return fmean(judged) if judged else math.nan


def plot(rows: Sequence[AgentRow], path: Path) -> Path:
    """Mean grade against locations visited, per agent, with the best achievable dashed."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    for row in rows:
        (line,) = ax.plot(range(len(row.by_stage)), row.by_stage, label=row.agent)
        ax.plot(
            range(len(row.best_by_stage)),
            row.best_by_stage,
            linestyle="--",
            color=line.get_color(),
            label=f"best achievable ({row.agent}'s cases)",
        )
    ax.set_xlabel("locations visited")
    ax.set_ylabel("mean grade per question (0-3)")
    ax.set_ylim(0, 3.05)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)
    return path


def run(
    config: DetectiveBenchConfig,
    out: Path,
    settings: DetectiveAgentSettings,
    options: RunOptions,
    grader_llm: LLMSettings | None = None,
    scripted: bool = False,
) -> DetectiveSummary:
    """Play the run's games (resuming ``out``), grade with the autograder modes, summarise."""
    rundir = RunDir(out, config)
    migrate_ids(rundir.path, config)
    ids = game_ids(config)
    fallbacks: dict[str, int] = {}

    def done(game: GameOutcome) -> None:
        fallbacks[game.game_id] = int(game.extra.get("fallbacks", 0))

    report = run_games(rundir, ids, DetectivePlayer(config.knobs, settings), options, done)
    rows = []
    for agent in config.agents:
        mine = agent_ids(config, agent)
        rows.append(agent_row(rundir, agent, mine, sum(fallbacks.get(g, 0) for g in mine)))
    modes: list[ModeRow] = []
    if config.autograde_modes:
        llm = grader_llm if grader_llm is not None else settings.llm_settings()
        modes = [grade_agreement(config, llm, m) for m in config.autograde_modes]
    summary = DetectiveSummary(
        config=config,
        agents=rows,
        autograder=modes,
        scripted_grader=scripted,
        llm_usage=played_usage(report.played),
        play_wall_s=report.wall_s,
        play_cpu_s=report.cpu_s,
        plot=str(plot(rows, out / "scores_by_stage.png")) if can_plot() else None,
    )
    rundir.write_summary(summary)
    return summary


def report_lines(summary: DetectiveSummary) -> list[str]:
    """The summary as tables."""
    columns = ["agent", "cases", "errored", "unjudged", "progressive", "final", "overall"]
    columns.append("best_overall")
    rows = [r.model_dump() for r in summary.agents]
    lines = [format_table(rows, [*columns, "at_best", "fallbacks"])]
    lines.append(f"play: {summary.play_wall_s:.2f} s wall, {summary.play_cpu_s:.2f} s CPU")
    lines += usage_lines(summary.llm_usage)
    if summary.autograder:
        who = (
            "the scripted grader (a fixed rule, not a model)"
            if summary.scripted_grader
            else (summary.config.llm_model or "the configured model")
        )
        lines.append(f"\nautograder agreement with exact grades, graded by {who}")
        table = [
            {
                "mode": m.mode,
                "answers": m.agreement.answers,
                "percent_exact": m.agreement.percent_exact,
                "rms": m.agreement.rms,
                "unusable": m.unusable_replies,
            }
            for m in summary.autograder
        ]
        lines.append(format_table(table, ["mode", "answers", "percent_exact", "rms", "unusable"]))
    return lines


def _modes(text: str | None) -> tuple[int, ...]:
    if not text:
        return ()
    try:
        modes = tuple(int(m) for m in text.split(","))
    except ValueError:
        raise ValueError(f"--autograde-modes: comma-separated modes 1-5, got {text!r}") from None
    if not set(modes) <= set(MODES):
        raise ValueError(f"--autograde-modes: modes are 1-5, got {text!r}")
    return modes


BENCH_ERRORS: tuple[type[Exception], ...] = (
    ValueError,
    ValidationError,
    RunDirError,
    GenerationError,
    *GAME_ERRORS,
)
"""What ends ``bench detective`` with one line: bad options or input, or a spoilt LLM run."""


@run_command(out=Path("runs/detective"))
def bench_detective(
    shared: RunCommandOptions,
    cases: Annotated[int, typer.Option(min=1, max=10000, help="Cases per agent.")] = 20,
    first_seed: Annotated[int, typer.Option(help="Seed of the first case; then +1, ...")] = 0,
    agents: Annotated[
        str, typer.Option(help=f"Agents, comma-separated ({', '.join(AGENTS.names)}).")
    ] = "prover",
    questions: Annotated[int, typer.Option(help="Questions per case (2-5).")] = 3,
    locations: Annotated[int, typer.Option(help="Locations per case.")] = 15,
    autograde_modes: Annotated[
        str | None, typer.Option(help="Autograder modes to measure, comma-separated (1-5).")
    ] = None,
    scripted_grader: Annotated[
        bool,
        typer.Option(
            "--scripted-grader",
            help="Answer the autograder from a fixed rule on a local chat server (not a model).",
        ),
    ] = False,
) -> None:
    """Detective cases per agent: P, F, O next to the best achievable, a plot of the grade
    against locations visited, and the autograder's agreement with exact grades."""
    out, replay = shared.out, shared.replay
    try:
        names = AGENTS.parse(agents)
        modes = _modes(autograde_modes)
        needs_llm = AGENTS.needs_llm(names) or (bool(modes) and not scripted_grader)
        llm = shared.llm()
        config = DetectiveBenchConfig(
            agents=names,
            cases=cases,
            first_seed=first_seed,
            knobs=CaseKnobs(questions=questions, locations=locations),
            autograde_modes=modes,
            llm_model=llm.model if needs_llm else None,
        )
        if replay is not None:
            fields = ["agents", "cases", "first_seed", "knobs"]
            migrate_ids(replay, config)
            check_replayable(config, replay, fields, game_ids(config))
        options = shared.runner
        settings = DetectiveAgentSettings(llm=llm)
        if scripted_grader:
            with ScriptedChatServer(grade_by_rule) as server:
                grader = llm.model_copy(update={"base_url": server.base_url, "model": "scripted"})
                summary = run(config, out, settings, options, grader, scripted=True)
        else:
            summary = run(config, out, settings, options)
    except BENCH_ERRORS as err:
        fail(err)
    errored = sum(row.errored for row in summary.agents)
    played = sum(row.cases for row in summary.agents)
    if shared.as_json:
        typer.echo(summary.model_dump_json())
    else:
        for line in report_lines(summary):
            typer.echo(line)
        typer.echo(f"\nwrote {out / RunDir.SUMMARY_FILE}; plot: {plot_note(summary.plot)}")
    exit_when_all_errored(errored, played)
