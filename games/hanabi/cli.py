"""``gumshoe play hanabi``: play a seeded game, printing each turn with the acting seat's
knowledge; ``gumshoe hanabi annotate``: a run's decisions as a dataset with rollout values."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated

import typer
from pydantic import BaseModel, ValidationError

from games.core.cli import (
    BaseUrl,
    LogFolder,
    Model,
    ReasoningEffort,
    SeatsFileOption,
    fail,
    llm_settings,
    prepare_out,
    usage_footer,
)
from games.core.errors import GAME_ERRORS
from games.core.loop import Watcher
from games.core.play import play_game
from games.core.runlog import EventLog, EventSink, game_id, write_atomic
from games.core.seats import Seating
from games.core.seats import seating as core_seating
from games.hanabi.agents import AGENTS, HanabiAgentSettings
from games.hanabi.annotate import correlation, decision_records
from games.hanabi.config import MAX_SEED, Scoring
from games.hanabi.engine import HanabiObservation
from games.hanabi.entry import ENTRY
from games.hanabi.events import HANABI_EVENT_TYPES, DecisionEvent, HanabiConfig
from games.hanabi.hanablive import export_hanablive
from games.hanabi.knowledge import KnowledgeView, seat_knowledge
from games.hanabi.render import event_text, knowledge_text, table_text
from reasoning.progress import progress_bar


def narrator(
    specs: Sequence[str], view: KnowledgeView, echo: Callable[[str], None] = typer.echo
) -> Watcher:
    """A watcher that prints the table and the deciding seat's knowledge before it moves."""

    def narrate(seat: int, obs: HanabiObservation) -> None:
        turn = len(obs.history) + 1
        echo(f"turn {turn:3d}  P{obs.seat} ({specs[seat]})  {table_text(obs)}")
        knowledge = knowledge_text(seat_knowledge(obs), view)
        echo(f"          P{obs.seat} knows ({view}): {knowledge}")

    return narrate


class Transcript:
    """An event sink that prints each Hanabi event and passes every event on to ``log``."""

    def __init__(self, log: EventSink | None = None, echo: Callable[[str], None] = typer.echo):
        self.log = log
        self.echo = echo

    def write(self, event: BaseModel) -> None:
        """Print a Hanabi event (the header and end pass silently) and log it."""
        if isinstance(event, HANABI_EVENT_TYPES):
            self.echo(f"          -> {event_text(event)}")
        if self.log is not None:
            self.log.write(event)


SherlockView = Annotated[
    str, typer.Option(help="Sherlock's card possibilities: hints (as the seed) or exact.")
]
"""The ``--sherlock-view`` / ``--view`` option of the Hanabi commands."""
BestOf = Annotated[
    int, typer.Option(min=1, max=16, help="LLM agents: K samples, then a final choice.")
]
"""The ``--best-of`` option of the Hanabi commands."""
Mixture = Annotated[
    bool, typer.Option("--mixture", help="LLM agents: specialist roles feed an aggregator.")
]
"""The ``--mixture`` option of the Hanabi commands."""
InvalidAnswers = Annotated[
    str,
    typer.Option(
        "--invalid",
        help="LLM answers still invalid after the re-prompts: fallback (a counted random "
        "legal move) or reprompt (up to 10 re-prompts, then the game errors).",
    ),
]
"""The ``--invalid`` option of the Hanabi commands."""
AGENTS_HELP = (
    f"One agent for every seat, or one per seat ({', '.join(AGENTS.names)}); "
    "`symbolic*2,random` repeats; `sherlock@MODEL` names a seat's model (default: symbolic)."
)
"""The help of the ``--agents`` option of the Hanabi commands."""


def seating(agents: str | None, seats: Path | None) -> tuple[Seating, int | None]:
    """The seating of ``--agents`` (default: symbolic) or of a ``--seats`` file of two to five
    seats, and the player count the file fixes (see ``games.core.seats.seating``)."""
    return core_seating(agents, seats, AGENTS, default="symbolic", min_seats=2, max_seats=5)


def play_narrated(
    specs: Sequence[str],
    seed: int,
    config: HanabiConfig,
    settings: HanabiAgentSettings,
    view: KnowledgeView,
    log: EventSink | None = None,
    echo: Callable[[str], None] = typer.echo,
) -> float:
    """Play one game dealt from ``seed``, printing every turn, then the LLM usage of the seats
    that asked a chat model; the score."""
    sink = Transcript(log, echo)
    watch = narrator(specs, view, echo)
    played = play_game(ENTRY, specs, seed, settings, config, sink, watch=watch)
    for line in usage_footer(played.seat_meters()):
        echo(line)
    return played.result.returns[0]


def seat_specs(agents: str, players: int) -> tuple[str, ...]:
    """One agent per seat: a single name fills every seat, a seat list must match ``players``."""
    specs = AGENTS.parse(agents)
    if len(specs) == 1:
        return specs * players
    if len(specs) != players:
        raise ValueError(f"agents: {len(specs)} seats named for {players} players")
    return specs


def play_hanabi(
    players: Annotated[
        int | None,
        typer.Option(
            help="Players, 2 to 5 (default: 3, or the --seats file's seats).", show_default=False
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option(min=0, max=MAX_SEED, help="Seed of the deal (the reference engine's).")
    ] = 0,
    agents: Annotated[str | None, typer.Option(help=AGENTS_HELP, show_default=False)] = None,
    seats: SeatsFileOption = None,
    scoring: Annotated[
        str, typer.Option(help="fireworks (the sum, kept at a bomb-out) or hle (a bomb-out is 0).")
    ] = "fireworks",
    view: Annotated[
        str, typer.Option(help="Knowledge printed: exact (joint card counting) or hints.")
    ] = "exact",
    out: LogFolder = None,
    sherlock_view: SherlockView = "hints",
    best_of: BestOf = 1,
    mixture: Mixture = False,
    invalid: InvalidAnswers = "fallback",
    model: Model = None,
    base_url: BaseUrl = None,
    reasoning_effort: ReasoningEffort = None,
) -> None:
    """Play one seeded Hanabi game and print each turn with the acting seat's knowledge."""
    try:
        seated, fixed = seating(agents, seats)
        if fixed is not None and players not in (None, fixed):
            raise ValueError(f"--players: {players}, but {seats} names {fixed} seats")
        players = fixed or players or 3
        config = HanabiConfig.model_validate({"players": players, "scoring": scoring})
        if view not in ("exact", "hints"):
            raise ValueError(f"--view: must be exact or hints, got {view!r}")
        chosen: KnowledgeView = "exact" if view == "exact" else "hints"
        mode: Scoring = config.scoring
        specs = seat_specs(seated.agents, players)
        llm = None
        if AGENTS.needs_llm(specs):
            llm = llm_settings(model, base_url, reasoning_effort=reasoning_effort)
            missing = seated.endpoint_missing(AGENTS, llm)
            if missing is not None:
                raise missing
        settings = HanabiAgentSettings.model_validate(
            {
                "scoring": mode,
                "llm": llm,
                "view": sherlock_view,
                "best_of": best_of,
                "mixture": mixture,
                "invalid": invalid,
                "endpoints": seated.endpoints,
            }
        )
        if out is not None:
            prepare_out(out)
    except (ValueError, ValidationError) as err:
        fail(err)
    typer.echo(f"Hanabi, {players} players, seed {seed}, scoring {mode}: {', '.join(specs)}")
    try:
        if out is None:
            score = play_narrated(specs, seed, config, settings, chosen)
        else:
            path = out / f"{game_id('hanabi', seed, f'p{players}')}.jsonl"
            with EventLog(path) as log:
                score = play_narrated(specs, seed, config, settings, chosen, log)
            typer.echo(f"log: {path}")
    except GAME_ERRORS as err:
        fail(err)
    typer.echo(f"score ({mode}): {score:g}")


hanabi_app = typer.Typer(help="Hanabi logs as datasets.", no_args_is_help=True)


@hanabi_app.callback()
def hanabi_commands() -> None:
    """Hanabi logs as datasets (a group, so that ``annotate`` keeps its name)."""


def run_logs(run: Path) -> list[Path]:
    """The game logs of a run directory (``RUN/games/*.jsonl``), or ``run`` itself if a file."""
    if run.is_file():
        return [run]
    logs = sorted((run / "games").glob("*.jsonl"))
    if not logs:
        raise ValueError(f"{run}: no game logs (expected a log file or a run directory)")
    return logs


@hanabi_app.command("annotate")
def annotate_run(
    run: Annotated[Path, typer.Argument(help="A run directory of `bench hanabi`, or one log.")],
    samples: Annotated[
        int,
        typer.Option(
            min=0,
            max=1000,
            help="Hidden hands sampled per decision, at least (0: no rollouts, values empty).",
        ),
    ] = 8,
    max_samples: Annotated[
        int,
        typer.Option(
            min=2,
            max=1000,
            help="Sample more, up to this, until the best move's 95% interval separates.",
        ),
    ] = 64,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the sampled hands.")] = 0,
    policy: Annotated[
        str, typer.Option(help="The agent playing every seat in the rollouts (no LLM agent).")
    ] = "symbolic",
    out: Annotated[
        Path | None, typer.Option(help="Dataset file (default: RUN/decisions.jsonl).")
    ] = None,
) -> None:
    """Write one JSONL line per logged decision (state, prompt, response, ratings, chosen move)
    with each legal move valued by rollouts of ``--policy`` over hands sampled from the deciding
    seat's exact knowledge, each with its 95% interval, sampled until the best move's interval
    separates from the runner-up's or the cap; print how the model's ratings correlate with the
    values."""
    try:
        if AGENTS.needs_llm([policy]):
            raise ValueError(f"--policy: {policy!r} needs an LLM; name an in-house agent")
        if samples == 1:
            raise ValueError("--samples: 0 (no rollouts) or at least 2 (an interval needs two)")
        if max_samples < samples:
            raise ValueError(f"--max-samples: {max_samples} is below --samples {samples}")
        logs = run_logs(run)
        target = out or (run.parent if run.is_file() else run) / "decisions.jsonl"
        read = [(path.stem, ENTRY.read_log(path)) for path in logs]
        decisions = sum(isinstance(e, DecisionEvent) for _, log in read for e in log.events)
        found = (
            record
            for name, log in read
            for record in decision_records(log, name, samples, seed, max_samples, policy)
        )
        records = list(progress_bar(found, decisions, "valuing decisions"))
        write_atomic(target, "".join(r.model_dump_json() + "\n" for r in records))
    except (ValueError, ValidationError, OSError) as err:
        fail(err)
    agreement = correlation(records)
    drawn = sum(r.samples for r in records)
    apart = sum(r.separated for r in records)
    if samples:
        typer.echo(
            f"{len(records)} decisions from {len(logs)} logs, {drawn} samples in all "
            f"({samples} to {max_samples} each); the best move's 95% interval separated from the "
            f"runner-up's in {apart} of {len(records)}"
        )
    else:
        typer.echo(f"{len(records)} decisions from {len(logs)} logs, no rollouts (--samples 0)")
    typer.echo(f"wrote {target}")

    def shown(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f}"

    typer.echo(
        f"ratings vs rollout values over {agreement.pairs} moves: pearson "
        f"{shown(agreement.pearson)}, spearman {shown(agreement.spearman)}; chosen move best "
        f"in {shown(agreement.chosen_best)} of decisions"
    )


def export_hanablive_command(
    log: Annotated[Path, typer.Argument(help="A Hanabi game log (JSONL, our format).")],
    out: Annotated[
        Path | None,
        typer.Option("-o", "--out", help="Where to write the replay (default: LOG with .json)."),
    ] = None,
) -> None:
    """Write a Hanabi log as a hanab.live replay (JSON), gumshoe's knowledge in the card notes;
    open it on hanab.live with "Watch a specific replay" from a JSON file."""
    target = out if out is not None else log.with_suffix(".hanablive.json")
    try:
        game = export_hanablive(ENTRY.read_log(log))
        write_atomic(target, game.to_json() + "\n")
    except (ValueError, ValidationError, OSError) as err:
        fail(err)
    typer.echo(f"{target}: {len(game.actions)} actions, {len(game.players)} players")
