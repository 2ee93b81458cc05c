"""``gumshoe export inspect RUN [--out FILE]``: a run directory as an inspect eval log."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from games.core.cli import fail
from games.core.runlog import LogError
from reasoning.extras import require_extra


def export_inspect_command(
    run: Annotated[Path, typer.Argument(help="A run directory (made by gumshoe bench ... --out).")],
    out: Annotated[
        Path | None,
        typer.Option(
            "-o", "--out", help="The eval log to write (.eval, or .json; default: RUN.eval)."
        ),
    ] = None,
) -> None:
    """Write a run as an inspect eval log: one sample per game, the gumshoe audit as its score,
    the recorded LLM calls as its messages; open it with ``inspect view``."""
    if not run.is_dir():
        fail(f"{run}: no such run directory")
    require_extra("inspect", "export inspect")
    from benchmarks.inspect_eval.export import export_run

    try:
        target = export_run(run, out)
    except (ValueError, LogError, ValidationError, OSError) as err:
        fail(err)
    typer.echo(str(target))
