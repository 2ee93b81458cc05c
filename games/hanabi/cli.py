"""``gumshoe hanabi annotate``: a run's decisions as a dataset with rollout values; ``gumshoe
export hanablive``: a log as a hanab.live replay."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from games.core.cli import fail
from games.hanabi.agents import AGENTS
from games.hanabi.annotate import MARGIN, MAX_SAMPLES, SAMPLES, correlation, decision_records
from games.hanabi.entry import ENTRY
from games.hanabi.events import DecisionEvent
from games.hanabi.hanablive import export_hanablive
from reasoning.outfile import write_atomic
from reasoning.progress import progress_bar

hanabi_app = typer.Typer(
    help="Hanabi logs as datasets.", no_args_is_help=True, add_completion=False
)


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
    ] = SAMPLES,
    max_samples: Annotated[
        int,
        typer.Option(
            min=2,
            max=1000,
            help="Sample more, up to this, while the moves still in the race are not told apart.",
        ),
    ] = MAX_SAMPLES,
    margin: Annotated[
        float,
        typer.Option(
            min=0.0,
            max=25.0,
            help="Indifference margin in points: stop once the moves left are shown this close.",
        ),
    ] = MARGIN,
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
    seat's exact knowledge, each with its 95% interval. The moves race (successive elimination
    on paired differences): a move the leader is shown to beat is dropped, and sampling stops
    when one move is left, when the rest are shown within ``--margin`` of the leader, or at
    ``--max-samples``. A bar shows the decisions valued and the samples spent; the end prints
    how the model's ratings correlate with the values and the CPU time per decision."""
    spent = [0, 0]

    def tally(rollouts: int) -> None:
        spent[0] += 1
        spent[1] += rollouts

    try:
        if AGENTS.needs_llm([policy]):
            raise ValueError(f"--policy: {policy!r} needs an LLM; name an in-house agent")
        if samples == 1:
            raise ValueError("--samples: 0 (no rollouts) or at least 2 (an interval needs two)")
        if max_samples < samples:
            raise ValueError(f"--max-samples: {max_samples} is below --samples {samples}")
        logs = run_logs(run)
        target = out or (run.parent if run.is_file() else run) / "decisions.jsonl"
        inside = None if run.is_file() else run
        read = [(path.stem, ENTRY.read_log(path, inside=inside)) for path in logs]
        decisions = sum(isinstance(e, DecisionEvent) for _, log in read for e in log.events)
        found = (
            record
            for name, log in read
            for record in decision_records(
                log, name, samples, seed, max_samples, policy, margin, tally
            )
        )
        cpu = time.process_time()
        records = list(
            progress_bar(
                found,
                decisions,
                "valuing decisions",
                detail=lambda: f"{spent[0]} samples, {spent[1]} rollouts",
            )
        )
        cpu = time.process_time() - cpu
        write_atomic(target, "".join(r.model_dump_json() + "\n" for r in records), inputs=logs)
    except (ValueError, ValidationError, OSError) as err:
        fail(err)
    agreement = correlation(records)
    if samples:
        stops = Counter(r.stop for r in records)
        per = cpu / len(records) if records else 0.0
        typer.echo(
            f"{len(records)} decisions from {len(logs)} logs, {spent[0]} samples and {spent[1]} "
            f"rollouts in all ({samples} to {max_samples} each, margin {margin:g}); stopped "
            f"with one move left in {stops['separated']}, the rest within the margin in "
            f"{stops['indifferent']}, at the cap in {stops['cap']}; CPU {cpu:.1f} s, "
            f"{per:.2f} s a decision"
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
        write_atomic(target, game.to_json() + "\n", inputs=[log])
    except (ValueError, ValidationError, OSError) as err:
        fail(err)
    typer.echo(f"{target}: {len(game.actions)} actions, {len(game.players)} players")
