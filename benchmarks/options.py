"""The command-line options of the shared runner, declared once for every ``bench`` command."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, ClassVar

import typer

from benchmarks.runner import MAX_CONCURRENCY, MAX_WORKERS, RunOptions
from games.core.cli import CommandOptions, with_options

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


RunFolder = Annotated[Path, typer.Option(help="Run directory (resumed when it exists).")]
"""The ``--out`` option of the resumable ``bench`` commands."""


class RunCommandOptions(CommandOptions, RunOptions):
    """The options of every ``bench`` command that plays games on the shared runner: the run
    directory, the LLM endpoint and recordings (``CommandOptions``), how the runner spreads the
    games (``RunOptions``), and whether to print the summary as JSON."""

    DECLARATIONS: ClassVar[dict[str, Any]] = {
        "out": RunFolder,
        "as_json": AsJson,
        **{k: v for k, v in CommandOptions.DECLARATIONS.items() if k != "out"},
        "workers": Workers,
        "concurrency": Concurrency,
        "scheduler": Scheduler,
        "quiet": Quiet,
        "views": Views,
    }

    out: Path
    as_json: bool = False

    @property
    def runner(self) -> RunOptions:
        """The runner's share of the options."""
        return RunOptions.model_validate(self.model_dump(include=set(RunOptions.model_fields)))


def run_command(out: Path) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Decorate a ``bench`` command taking ``shared: RunCommandOptions``: the shared options are
    added to its command line (the run directory defaulting to ``out``) and given to it validated
    (see ``games.core.cli.with_options``)."""
    return with_options(RunCommandOptions, out=out)


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
