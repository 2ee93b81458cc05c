"""``gumshoe view PATH [-o FILE]``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from benchmarks.viewer.page import write_view
from games.core.cli import fail
from games.core.runlog import LogError


def view(
    path: Annotated[Path, typer.Argument(help="A game log (JSONL) or a run directory.")],
    out: Annotated[
        Path | None,
        typer.Option("-o", "--out", help="The HTML file (default: beside PATH, .html)."),
    ] = None,
) -> None:
    """Write one self-contained HTML page for a game log or a run: steps, each seat's knowledge
    beside the ideal reasoner's, every deduction's verdict, the recorded LLM calls."""
    if not path.exists():
        fail(f"{path}: no such file or folder")
    try:
        target = write_view(path, out)
    except (ValueError, LogError, ValidationError, OSError) as err:
        fail(err)
    typer.echo(str(target))
