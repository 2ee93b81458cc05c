"""The Undercover-V benchmark: seed 002's fixed-opponent contest (4.2) and round-robin (4.3).

A matchup puts one contestant in the spy's seat and another in the five citizen seats. Without
``models``, contestants are agent types: the fixed-opponent contest plays every type as the spy
against one fixed citizen type, and the round-robin every ordered pair of different types (1 A
spy vs 5 B citizens, and 1 B spy vs 5 A citizens). With ``models`` (seed 002's contest over
LLMs), an LLM type plays each model (``nli@gpt-4o``): the fixed-opponent contest plays each type
at each model as the spy against citizens of the same type (or ``fixed_citizen``) at
``fixed_model`` (Figure 3), and the round-robin every ordered pair of different types within each
model (Figures 4-6). A game the two contests share is played once. Every matchup plays every
chosen word pair with seeds ``first_seed .. first_seed + seeds - 1`` (the seed seats the spy and
picks which word is the spy's). A model may be served at an endpoint of its own (``endpoints``).

A run directory (``games.core.runlog``) holds the config, one event log per game and the summary; an
interrupted run resumes without replaying finished games, and a game whose LLM endpoint fails
for good is recorded as errored while the run goes on. With ``record`` each game's LLM calls are
kept in the run directory, one file per game and seat (``llm/<game id>.seat<k>.jsonl``);
``replay_from`` answers them from the same files of an earlier run directory, so no endpoint is
needed.

The metrics are computed from the logs: seed 002's game metrics and Attributional Score per
matchup, per agent type and role, and per word pair, and a word-pair similarity table in the
manner of Appendix E with MiniLM cosine similarity in place of fastText.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from benchmarks.llm_usage import game_usage, played_usage, usage_lines
from benchmarks.options import (
    MAX_GAMES,
    RunCommandOptions,
    exit_when_all_errored,
    run_command,
)
from benchmarks.report import can_plot, format_table, plot_note, pyplot, save_figure, write_json
from benchmarks.runner import (
    GameError,
    GameOutcome,
    MemoryLog,
    RunOptions,
    check_replayable,
    run_games,
)
from games.core.agents import combined_fallbacks
from games.core.cli import fail, llm_settings, prepare_out
from games.core.play import check_seats, play_agents
from games.core.recordings import migrate_game_ids
from games.core.runlog import RunDir, RunDirError, game_id, game_seed
from games.core.seats import SeatEndpoint, read_seats
from games.core.settings import GameSettings
from games.undercover.agents import (
    AGENTS,
    RANDOM_AGENT,
    UndercoverAgentSettings,
    seat_agents,
    spec_at_seats,
)
from games.undercover.agents import AGENTS as UNDERCOVER_AGENTS
from games.undercover.checker import ProverChecker
from games.undercover.engine import UndercoverGame
from games.undercover.entry import ENTRY
from games.undercover.entry import ENTRY as UNDERCOVER
from games.undercover.events import UndercoverConfig, UndercoverSetup
from games.undercover.lexicon import Lexicon
from games.undercover.llm_calls import recording_clients, replay_clients
from games.undercover.metrics import (
    AgentRoleSummary,
    GameMetrics,
    GameSummary,
    MiniLMSimilarity,
    Similarity,
    by_agent_type,
    game_metrics,
    group_by,
    summarise,
)
from games.undercover.playing import find_pair
from games.undercover.words import WordPair, builtin_pairs
from provers.registry import DEFAULT_PROVER, PROVER_NAMES, get_prover
from reasoning.llm import FallbackCounter, FallbackSnapshot, LLMSettings, UsageReport
from reasoning.progress import progress_bar
from reasoning.prover import ProverUnavailable

PLOT_FILE = "undercover.png"
Contest = Literal["fixed", "round-robin"]
FIXED: Contest = "fixed"
ROUND_ROBIN: Contest = "round-robin"

Progress = Callable[[str], None]


class UndercoverBenchConfig(BaseModel):
    """What makes two runs comparable: agent types, fixed citizen, pairs, table size, prover,
    first seed, LLM model, the models the LLM types play (with the fixed citizens' model and each
    model's own endpoint) and the sampling temperature. The number of seeds is not part of it, so
    a run can be extended. ``fixed_citizen`` None (only with ``models``) seats citizens of the
    spy's own type."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agents: tuple[str, ...] = Field(min_length=1)
    fixed_citizen: str | None
    pairs: tuple[str, ...] = Field(min_length=1)
    players: int = Field(default=6, ge=4, le=10)
    prover: str = "z3"
    timeout_s: float = Field(default=10.0, gt=0.0)
    first_seed: int = 0
    llm_model: str | None = None
    models: tuple[Annotated[str, Field(pattern=r"^[^,@*\s]+$")], ...] = ()
    fixed_model: str | None = None
    temperature: float | None = None
    endpoints: dict[str, SeatEndpoint] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _known_agents(self) -> UndercoverBenchConfig:
        for index, name in enumerate(self.agents):
            try:
                AGENTS.parse(name)
            except ValueError as err:
                raise ValueError(f"field 'agents.{index}': {err}") from None
            if "@" in name:
                raise ValueError(
                    f"field 'agents.{index}': {name!r}: give agent types here and their models "
                    "in 'models'"
                )
        if len(set(self.agents)) != len(self.agents):
            raise ValueError("field 'agents': an agent type is listed twice")
        if self.fixed_citizen is None and not self.models:
            raise ValueError("field 'fixed_citizen': needed when no models are given")
        if self.fixed_citizen is not None:
            try:
                AGENTS.get(self.fixed_citizen)
            except ValueError as err:
                raise ValueError(f"field 'fixed_citizen': {err}") from None
        if len(set(self.models)) != len(self.models):
            raise ValueError("field 'models': a model is listed twice")
        if self.models and self.fixed_model not in self.models:
            raise ValueError(
                f"field 'fixed_model': {self.fixed_model!r} is not one of the models "
                f"{list(self.models)}"
            )
        if not self.models and self.fixed_model is not None:
            raise ValueError("field 'fixed_model': only with models")
        unknown = sorted(set(self.endpoints) - set(self.models))
        if unknown:
            raise ValueError(f"field 'endpoints': {unknown} are not among the models")
        return self

    def contestant(self, agent: str, model: str | None) -> str:
        """``agent`` as it plays ``model``: ``nli@MODEL`` for an LLM type, the type itself
        otherwise (or without a model)."""
        return f"{agent}@{model}" if model is not None and AGENTS.get(agent).needs_llm else agent


class Matchup(BaseModel):
    """One agent type as the spy against another in every citizen seat; the contests it is in."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    spy: str
    citizens: str
    contests: tuple[Contest, ...]

    @property
    def id(self) -> str:
        """The matchup's name in game ids and tables: ``<spy>-vs-<citizens>``."""
        return f"{self.spy}-vs-{self.citizens}"


def matchups(config: UndercoverBenchConfig) -> list[Matchup]:
    """The fixed-opponent contest's matchups, then the round-robin's, shared ones merged (see
    the module docstring)."""
    models: tuple[str | None, ...] = config.models or (None,)
    contests: dict[tuple[str, str], list[Contest]] = {}

    def add(spy: str, citizens: str, contest: Contest) -> None:
        found = contests.setdefault((spy, citizens), [])
        if contest not in found:
            found.append(contest)

    for spy in config.agents:
        citizens = config.contestant(config.fixed_citizen or spy, config.fixed_model)
        for model in models:
            add(config.contestant(spy, model), citizens, FIXED)
    for model in models:
        for spy in config.agents:
            for citizens in config.agents:
                if spy != citizens:
                    add(
                        config.contestant(spy, model),
                        config.contestant(citizens, model),
                        ROUND_ROBIN,
                    )
    return [Matchup(spy=s, citizens=c, contests=tuple(k)) for (s, c), k in contests.items()]


_UNSAFE = re.compile(r"[^A-Za-z0-9.-]")


def undercover_id(matchup: Matchup, pair: str, seed: int) -> str:
    """The id of one game of a run: ``undercover-<spy>-vs-<citizens>-<pair>-seed<seed>``, where
    a contestant's ``@`` (and any character of a model name that a game id cannot hold) becomes
    ``_``: ``nli_gpt-4o-vs-nli_gpt-4o-mini``."""
    return game_id("undercover", seed, _UNSAFE.sub("_", matchup.id), pair)


def migrate_ids(run_dir: Path, plan: Sequence[tuple[Matchup, WordPair, int]]) -> None:
    """Rename the games of a run made when ids were ``<spy>-vs-<citizens>.<pair>.s<seed>``."""
    renames = {f"{m.id}.{p.id}.s{s}": undercover_id(m, p.id, s) for m, p, s in plan}
    migrate_game_ids(run_dir, renames)


def recorded_config(run_dir: Path) -> UndercoverBenchConfig:
    """The config of an earlier run directory (RunDirError when it is not one)."""
    return RunDir.resume(run_dir, UndercoverBenchConfig).config


def replication_settings(llm: LLMSettings) -> LLMSettings:
    """``llm`` with greedy decoding (temperature 0), as seed 002 plays its contests, unless the
    temperature was set (``GUMSHOE_LLM_TEMPERATURE``)."""
    if "temperature" in llm.model_fields_set:
        return llm
    return llm.model_copy(update={"temperature": 0.0})


def check_endpoints(config: UndercoverBenchConfig, llm: LLMSettings) -> None:
    """ValueError naming the first LLM contestant with no endpoint: neither its model's own nor
    the command's."""
    if llm.configured:
        return
    for matchup in matchups(config):
        for spec in (matchup.spy, matchup.citizens):
            model = AGENTS.model(spec)
            own = None if model is None else config.endpoints.get(model)
            if AGENTS.needs_llm([spec]) and (own is None or own.base_url is None):
                raise ValueError(
                    f"agent {spec!r} needs an LLM endpoint: give --base-url (and --model), a "
                    "base_url for its model in --seats, or set GUMSHOE_LLM_BASE_URL / "
                    "OPENAI_API_KEY"
                )


REPLAY_FIELDS = ("players", "prover", "timeout_s", "llm_model", "temperature")
"""Settings that shape every game's LLM calls, so a replay must share them with the recording.
The agent types, pairs and seeds may differ: a game the recording lacks errors on its own."""


def game_settings(
    settings: UndercoverAgentSettings,
    config: UndercoverBenchConfig,
    specs: Sequence[str],
    gid: str,
    record_in: Path | None = None,
    replay_from: Path | None = None,
) -> UndercoverAgentSettings:
    """The agent settings of one game seating ``specs``: each LLM seat at its model's own
    endpoint, if it has one, its calls recorded into ``record_in``'s file for the game and seat,
    or answered from ``replay_from``'s (RecordingMissing when it has none); offline games use
    ``settings`` as they are."""
    if not AGENTS.needs_llm(specs):
        return settings
    models = [AGENTS.model(spec) for spec in specs]
    endpoints = tuple(None if m is None else config.endpoints.get(m) for m in models)
    seated = settings.model_copy(update={"endpoints": endpoints})
    if replay_from is not None:
        default = config.llm_model
        if default is None and any(
            m is None and AGENTS.needs_llm([s]) for m, s in zip(models, specs, strict=True)
        ):
            raise ValueError("replay: the run's config names no LLM model")
        clients = replay_clients(replay_from, gid, default or "")
        return seated.model_copy(update={"seat_clients": clients})
    if record_in is not None:
        clients = recording_clients(record_in, gid)
        return seated.model_copy(update={"seat_clients": clients})
    return seated


@dataclass(frozen=True)
class SettingsRecipe:
    """How a process builds the agent settings of a run: prover, time limit, LLM settings (each
    model's client is made from them on first use)."""

    prover: str
    timeout_s: float
    llm: LLMSettings | None = None

    def build(self) -> UndercoverAgentSettings:
        """The settings, built once per process."""
        key = repr(self)
        if key not in _BUILT:
            _BUILT[key] = UndercoverAgentSettings.create(
                prover=get_prover(self.prover), timeout=self.timeout_s, llm=self.llm
            )
        return _BUILT[key]


_BUILT: dict[str, UndercoverAgentSettings] = {}


@dataclass
class UndercoverPlayer:
    """Plays one game of a run by its id (a picklable ``GamePlayer`` for the runner); settings
    built in this process are not pickled: another process builds them from the recipe."""

    config: UndercoverBenchConfig
    pairs: dict[str, WordPair]
    record_in: Path | None
    replay_from: Path | None
    recipe: SettingsRecipe | None
    settings: UndercoverAgentSettings | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "settings": None}

    def __call__(self, game_id: str, log: MemoryLog) -> dict[str, Any]:
        """Play game ``undercover-<spy>-vs-<citizens>-<pair>-seed<seed>`` into ``log``; its
        fallbacks and its LLM seats' usage by agent name."""
        seed = game_seed(game_id)
        matchup, pair_id = next(
            (m, p)
            for m in matchups(self.config)
            for p in self.pairs
            if undercover_id(m, p, seed) == game_id
        )
        settings = self.settings
        if settings is None:
            assert self.recipe is not None
            settings = self.recipe.build()
        game_config = UndercoverConfig.model_validate({"players": self.config.players})
        game = UndercoverGame(game_config, self.pairs[pair_id], seed)
        citizens = [matchup.citizens] * self.config.players
        specs = spec_at_seats(citizens, game, matchup.spy)
        seated = game_settings(
            settings, self.config, specs, game_id, self.record_in, self.replay_from
        )
        agents = seat_agents(citizens, game, seated, spy_agent=matchup.spy)
        setup = UndercoverSetup(config=game_config, pair=game.pair)
        referee = ENTRY.judged_by(game, ProverChecker(settings.test, settings.library.reader))
        played = play_agents(ENTRY, agents, game.seed, setup, log, state=referee)
        usage = game_usage((agents[seat].name, meters) for seat, meters in played.meters.items())
        return {"fallbacks": combined_fallbacks(played.fallbacks).counts, "usage": usage}


class MatchupResult(BaseModel):
    """A matchup's games summarised, overall and per word pair."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    spy: str
    citizens: str
    contests: tuple[Contest, ...]
    overall: GameSummary
    by_pair: dict[str, GameSummary]


class PairSimilarity(BaseModel):
    """One word pair's MiniLM cosine similarity (words, definitions) and how its games went."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pair: str
    words: tuple[str, str]
    word_similarity: float
    definition_similarity: float | None
    games: int = Field(default=0, ge=0)
    spy_win_rate: float | None = None
    average_rounds: float | None = None


class UndercoverBenchSummary(BaseModel):
    """Everything a run reports; stored as the run directory's summary."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    config: UndercoverBenchConfig
    seeds: int
    games_played: int
    games_resumed: int
    errors: list[GameError]
    matchups: list[MatchupResult]
    agent_types: list[AgentRoleSummary]
    similarity: list[PairSimilarity]
    fallbacks: FallbackSnapshot | None
    llm_usage: UsageReport | None = None
    play_wall_s: float
    play_cpu_s: float
    plot: str | None = None


def similarity_table(
    pairs: Sequence[WordPair], lexicon: Lexicon, sim: Similarity
) -> list[PairSimilarity]:
    """Each pair's cosine similarity of its two words and of their definitions (when the lexicon
    has them), most similar first: Appendix E's table with MiniLM in place of fastText."""
    sim.embed([w for p in pairs for w in p.words])
    rows = []
    for pair in pairs:
        first, second = pair.words
        definition = None
        if lexicon.has(first) and lexicon.has(second):
            definition = sim.similarity(lexicon.definition(first), lexicon.definition(second))
        rows.append(
            PairSimilarity(
                pair=pair.id,
                words=pair.words,
                word_similarity=sim.similarity(first, second),
                definition_similarity=definition,
            )
        )
    return sorted(rows, key=lambda r: -r.word_similarity)


def run(
    config: UndercoverBenchConfig,
    seeds: int,
    out: Path,
    settings: UndercoverAgentSettings,
    pairs: Sequence[WordPair],
    sim: Similarity,
    progress: Progress | None = None,
    *,
    record: bool = False,
    replay_from: Path | None = None,
    options: RunOptions | None = None,
    recipe: SettingsRecipe | None = None,
) -> UndercoverBenchSummary:
    """Play (or resume) every game of the run in ``out``, then summarise the logs and plot.

    ``record`` keeps each game's LLM calls in ``out`` (``llm/<game id>.seat<k>.jsonl``);
    ``replay_from``,
    a run directory recorded so, answers them instead of ``settings.client``. A game whose
    recording is missing or differs from the calls made is recorded as errored. ``options``
    spread the games out (``benchmarks.runner``); processes and Dask workers build their own
    settings from ``recipe``, which those options need.
    """
    if options is not None and (options.workers > 1 or options.scheduler) and recipe is None:
        raise ValueError("workers: games in other processes need a settings recipe")
    if seeds < 1:
        raise ValueError(f"seeds: at least 1, got {seeds}")
    if [p.id for p in pairs] != list(config.pairs):
        raise ValueError("pairs: give the pairs the config names, in its order")
    if record and replay_from is not None:
        raise ValueError("record and replay_from cannot both be set")
    plan = [
        (m, p, config.first_seed + i) for m in matchups(config) for p in pairs for i in range(seeds)
    ]
    ids = [undercover_id(m, p.id, s) for m, p, s in plan]
    if len(set(ids)) != len(ids):
        raise ValueError("models: two model names give the same game ids; rename one")
    if replay_from is not None:
        migrate_ids(replay_from, plan)
        check_replayable(config, replay_from, REPLAY_FIELDS)
    say = progress or (lambda _: None)
    started = time.perf_counter()
    rundir = RunDir(out, config)
    migrate_ids(rundir.path, plan)
    player = UndercoverPlayer(
        config, {p.id: p for p in pairs}, out if record else None, replay_from, recipe, settings
    )
    fallbacks = FallbackCounter()

    def keep(game: GameOutcome) -> None:
        for phase, reasons in game.extra.get("fallbacks", {}).items():
            for reason, count in reasons.items():
                for _ in range(count):
                    fallbacks.record(phase, reason)
        if game.error is not None:
            say(f"{game.game_id}: errored: {game.error}")

    report = run_games(
        rundir,
        [undercover_id(m, p.id, s) for m, p, s in plan],
        player,
        options or RunOptions(),
        keep,
    )
    wanted = {undercover_id(m, p.id, s) for m, p, s in plan}
    finished = [gid for gid in rundir.finished_games() if gid in wanted]
    say(f"scoring {len(finished)} games (MiniLM embeddings)")
    metrics = {
        gid: game_metrics(
            ENTRY.read_log(rundir.log_path(gid), inside=rundir.path), settings.lexicon, sim
        )
        for gid in progress_bar(
            finished, len(finished), "scoring games", quiet=(options or RunOptions()).quiet
        )
    }
    summary = UndercoverBenchSummary(
        config=config,
        seeds=seeds,
        games_played=len(report.played) - len(report.errored),
        games_resumed=report.resumed,
        errors=report.errors(),
        matchups=_matchup_results(config, plan, metrics),
        agent_types=by_agent_type(list(metrics.values())),
        similarity=_similarity_with_results(
            similarity_table(pairs, settings.lexicon, sim), list(metrics.values())
        ),
        fallbacks=(
            fallbacks.snapshot()
            if settings.client is not None or settings.llm is not None or replay_from is not None
            else None
        ),
        llm_usage=played_usage(report.played),
        play_wall_s=time.perf_counter() - started,
        play_cpu_s=report.cpu_s,
    )
    if can_plot():
        summary = summary.model_copy(update={"plot": str(write_plot(summary, out / PLOT_FILE))})
    rundir.write_summary(summary)
    return summary


def _matchup_results(
    config: UndercoverBenchConfig,
    plan: Sequence[tuple[Matchup, WordPair, int]],
    metrics: dict[str, GameMetrics],
) -> list[MatchupResult]:
    results = []
    for m in matchups(config):
        ids = [undercover_id(m, p.id, s) for mm, p, s in plan if mm == m]
        games = [metrics[gid] for gid in ids if gid in metrics]
        results.append(
            MatchupResult(
                spy=m.spy,
                citizens=m.citizens,
                contests=m.contests,
                overall=summarise(games),
                by_pair=group_by(games, lambda g: g.pair),
            )
        )
    return results


def _similarity_with_results(
    rows: list[PairSimilarity], games: Sequence[GameMetrics]
) -> list[PairSimilarity]:
    by_pair = group_by(games, lambda g: g.pair)
    out = []
    for row in rows:
        found = by_pair.get(row.pair)
        if found is None:
            out.append(row)
            continue
        out.append(
            row.model_copy(
                update={
                    "games": found.games,
                    "spy_win_rate": found.spy_win_rate,
                    "average_rounds": found.average_rounds,
                }
            )
        )
    return out


def write_plot(summary: UndercoverBenchSummary, path: Path) -> Path:
    """Three panels: spy win rate and mean AttScore by role per matchup, and spy win rate per
    word pair against the pair's word similarity."""
    plt = pyplot()

    names = [f"{m.spy} spy vs {m.citizens}" for m in summary.matchups]
    win = [m.overall.spy_win_rate or 0.0 for m in summary.matchups]
    spy_score = [m.overall.spy_score.mean or 0.0 for m in summary.matchups]
    cit_score = [m.overall.citizen_score.mean or 0.0 for m in summary.matchups]
    fig, (ax_win, ax_score, ax_pairs) = plt.subplots(1, 3, figsize=(16, 5.5))
    xs = list(range(len(names)))
    ax_win.bar(xs, win, color="tab:red")
    ax_win.set_xticks(xs, names, fontsize=7, rotation=35, ha="right")
    ax_win.set_ylim(0, 1)
    ax_win.set_ylabel("spy win rate")
    ax_win.set_title("Spy win rate per matchup")
    width = 0.4
    ax_score.bar([x - width / 2 for x in xs], spy_score, width, label="spy")
    ax_score.bar([x + width / 2 for x in xs], cit_score, width, label="citizens")
    ax_score.set_xticks(xs, names, fontsize=7, rotation=35, ha="right")
    ax_score.set_ylabel("mean Attributional Score")
    ax_score.set_title("Attributional Score (eq. 10)")
    ax_score.legend()
    rows = [r for r in summary.similarity if r.spy_win_rate is not None]
    ax_pairs.scatter([r.word_similarity for r in rows], [r.spy_win_rate or 0.0 for r in rows])
    for r in rows:
        ax_pairs.annotate(
            r.words[0], (r.word_similarity, r.spy_win_rate or 0.0), fontsize=6, rotation=60
        )
    ax_pairs.set_ylim(-0.05, 1.05)
    ax_pairs.set_xlabel("MiniLM cosine of the two words")
    ax_pairs.set_ylabel("spy win rate (all matchups)")
    ax_pairs.set_title("Word similarity and spy wins")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    save_figure(fig, path, dpi=120)
    plt.close(fig)
    return path


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _matchup_row(m: MatchupResult) -> dict[str, str | int]:
    o = m.overall
    return {
        "spy": m.spy,
        "citizens": m.citizens,
        "games": o.games,
        "spy_win": _pct(o.spy_win_rate),
        "citizens_win": _pct(None if o.spy_win_rate is None else 1 - o.spy_win_rate),
        "avg_rounds": _num(o.average_rounds),
        "cit_eliminated": _pct(o.citizen_elimination_rate),
        "spy_attscore": _num(o.spy_score.mean),
        "cit_attscore": _num(o.citizen_score.mean),
    }


MATCHUP_COLUMNS = (
    "spy",
    "citizens",
    "games",
    "spy_win",
    "citizens_win",
    "avg_rounds",
    "cit_eliminated",
    "spy_attscore",
    "cit_attscore",
)


def report_lines(summary: UndercoverBenchSummary) -> list[str]:
    """The run's tables: both contests, agent types by role, word pairs, similarity."""
    lines: list[str] = []
    config = summary.config
    fixed = (
        f"every type as the spy vs {config.fixed_citizen} citizens"
        if not config.models
        else f"every type at every model as the spy vs citizens at {config.fixed_model}"
    )
    for contest, title in (
        (FIXED, f"Fixed-opponent contest: {fixed}"),
        (ROUND_ROBIN, "Round-robin: 1 spy of one type vs citizens of another"),
    ):
        rows = [_matchup_row(m) for m in summary.matchups if contest in m.contests]
        if rows:
            lines += [title, format_table(rows, MATCHUP_COLUMNS), ""]
    type_rows = [
        {
            "agent": a.agent,
            "role": a.role.value,
            "seats": a.seats,
            "side_won": _pct(a.win_rate),
            "eliminated": _pct(a.eliminated_rate),
            "soundness": _num(a.soundness.mean),
            "alignment": _num(a.alignment.mean),
            "attscore": _num(a.score.mean),
            "undefined": a.score.skipped,
        }
        for a in summary.agent_types
    ]
    lines += [
        "Agent types by role (Attributional Soundness, Alignment, Score: seed 002 eqs. 8-10)",
        format_table(
            type_rows,
            [
                "agent",
                "role",
                "seats",
                "side_won",
                "eliminated",
                "soundness",
                "alignment",
                "attscore",
                "undefined",
            ],
        ),
        "",
    ]
    pair_rows = [
        {
            "spy": m.spy,
            "citizens": m.citizens,
            "pair": pair,
            "games": s.games,
            "citizens_win": _pct(None if s.spy_win_rate is None else 1 - s.spy_win_rate),
            "avg_rounds": _num(s.average_rounds),
            "cit_eliminated": _pct(s.citizen_elimination_rate),
        }
        for m in summary.matchups
        for pair, s in m.by_pair.items()
    ]
    lines += [
        "Per word pair",
        format_table(
            pair_rows,
            ["spy", "citizens", "pair", "games", "citizens_win", "avg_rounds", "cit_eliminated"],
        ),
        "",
        "Word-pair similarity (MiniLM cosine in place of fastText; games over all matchups)",
        similarity_report(summary.similarity),
    ]
    if summary.errors:
        lines += ["", f"{len(summary.errors)} game(s) errored:"]
        lines += [f"  {e.game_id}: {e.error}" for e in summary.errors]
    if summary.fallbacks is not None:
        lines += ["", f"LLM fallbacks: {summary.fallbacks.total} {summary.fallbacks.counts}"]
    lines += usage_lines(summary.llm_usage)
    return lines


def similarity_report(rows: Sequence[PairSimilarity]) -> str:
    """The similarity table as text."""
    return format_table(
        [
            {
                "pair": r.pair,
                "words": " / ".join(r.words),
                "word_cos": _num(r.word_similarity),
                "definition_cos": _num(r.definition_similarity),
                "games": r.games,
                "spy_win": _pct(r.spy_win_rate),
                "avg_rounds": _num(r.average_rounds),
            }
            for r in rows
        ],
        ["pair", "words", "word_cos", "definition_cos", "games", "spy_win", "avg_rounds"],
    )


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
        recorded = None if replay is None else recorded_config(replay)
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
        llm = replication_settings(undercover_llm(model, shared.base_url, shared.reasoning_effort))
        if agents is None:
            names = tuple(
                n
                for n, t in UNDERCOVER_AGENTS.types.items()
                if (llm.configured or not t.needs_llm) and n != RANDOM_AGENT
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
        config = UndercoverBenchConfig(
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
            check_endpoints(config, llm)
        recipe = SettingsRecipe(prover, timeout, llm if needs_llm else None)
        settings = UndercoverAgentSettings.create(
            prover=get_prover(prover), timeout=timeout, llm=llm if needs_llm else None
        )
        summary = run(
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
        for line in report_lines(summary):
            typer.echo(line)
        typer.echo(f"\nwrote {out / RunDir.SUMMARY_FILE}; plot: {plot_note(summary.plot)}")
    exit_when_all_errored(len(summary.errors), summary.games_played + summary.games_resumed)


def undercover_llm(
    model: str | None, base_url: str | None, reasoning_effort: str | None = None
) -> LLMSettings:
    """The LLM settings of the Undercover-V commands: the options (the reasoning effort too)
    over the environment.

    Calls are recorded and replayed one file per game and seat (``--record`` / ``--replay``), so a
    single recording file from the environment is refused: every seat would append to it.
    """
    llm = llm_settings(model, base_url, reasoning_effort=reasoning_effort)
    if llm.record_path is not None or llm.replay_path is not None:
        raise ValueError(
            "GUMSHOE_LLM_RECORD_PATH / GUMSHOE_LLM_REPLAY_PATH: Undercover-V records one file "
            "per game and seat; unset them and use --record / --replay"
        )
    return llm


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


def bench_undercover_similarity(
    out: Annotated[Path, typer.Option(help="Folder for the JSON results.")] = Path("bench-results"),
) -> None:
    """Appendix E's word-pair similarity table for the shipped pairs, MiniLM cosine in place of
    fastText: the two words, and their lexicon definitions."""
    try:
        prepare_out(out)
    except ValueError as err:
        fail(err)
    rows = similarity_table(builtin_pairs(), Lexicon.load(), MiniLMSimilarity())
    typer.echo(similarity_report(rows))
    path = write_json(
        out / "undercover_similarity.json", [row.model_dump(mode="json") for row in rows]
    )
    typer.echo(f"\nwrote {path}")


MAX_CONTESTANTS = 64
"""The most entries a contestants file may list."""
