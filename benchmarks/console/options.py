"""The command-line options of the shared runner, declared once for every ``bench`` command."""

from __future__ import annotations

from typing import Annotated

import typer
from pydantic import ValidationError

from benchmarks.runner import MAX_CONCURRENCY, MAX_WORKERS, RunOptions
from games.core.runlog import field_errors

Workers = Annotated[
    int, typer.Option(help=f"Local processes playing games (1-{MAX_WORKERS}).", show_default=True)
]
Concurrency = Annotated[
    int,
    typer.Option(
        help=f"Games in flight per process (1-{MAX_CONCURRENCY}), for seats waiting on an LLM."
    ),
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        metavar="ADDRESS",
        help="Run the games on the Dask distributed cluster at ADDRESS (tcp://host:8786); its "
        "workers must see the run directory.",
    ),
]
Quiet = Annotated[bool, typer.Option("--quiet", help="No progress bar on stderr.")]
Views = Annotated[
    bool,
    typer.Option(
        "--views",
        help="Also store each game's view data as it finishes, so `gumshoe view` of the run "
        "does not replay the games.",
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")]


def run_options(
    workers: int, concurrency: int, scheduler: str | None, quiet: bool, views: bool = False
) -> RunOptions:
    """The runner's options; ValueError names a field out of range in one line."""
    try:
        return RunOptions(
            workers=workers, concurrency=concurrency, scheduler=scheduler, quiet=quiet, views=views
        )
    except ValidationError as err:
        raise ValueError(field_errors(err).replace("field '", "option '--")) from None


MAX_GAMES = 1_000_000
"""The most games (seeds) one ``bench`` command line may ask for."""


def seed_range(count: int, first: int, max_seed: int, option: str = "--seeds") -> tuple[int, ...]:
    """Seeds ``first`` .. ``first + count - 1``; ValueError in one line when ``count`` exceeds
    MAX_GAMES or a seed falls outside 0..``max_seed`` (checked before any seed is made)."""
    if not 1 <= count <= MAX_GAMES:
        raise ValueError(f"option '{option}': must be 1 to {MAX_GAMES}, got {count}")
    if first < 0 or first + count - 1 > max_seed:
        raise ValueError(
            f"option '--first-seed': seeds {first}..{first + count - 1} leave 0..{max_seed}"
        )
    return tuple(range(first, first + count))


ALL_ERRORED_EXIT = 1
"""The exit status of a ``bench`` run in which every game errored."""


def exit_when_all_errored(errored: int, finished: int) -> None:
    """End the command with status 1 when games errored and none finished: such a run measured
    nothing, whatever the table shows."""
    if errored and not finished:
        typer.echo(f"every game errored ({errored}); nothing was measured", err=True)
        raise typer.Exit(ALL_ERRORED_EXIT)
