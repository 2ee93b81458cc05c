"""``gumshoe view PATH [PATH ...] [-o FILE]``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from benchmarks.viewer.page import write_compare, write_view
from games.core.cli import fail
from games.core.runlog import LogError


def view(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="A game log (JSONL) or a run directory; two or more run directories to compare "
            "them side by side."
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "-o",
            "--out",
            help="The HTML file (default: beside PATH, .html; for runs compared, "
            "compare-<runs>.html beside the first).",
        ),
    ] = None,
) -> None:
    """Write one self-contained HTML page for a game log or a run (who won and how well each
    agent reasoned, plots, every game in words with each deduction's verdict and its LLM call),
    or comparing two or more runs of the same games."""
    for path in paths:
        if not path.exists():
            fail(f"{path}: no such file or folder")
    try:
        target = write_view(paths[0], out) if len(paths) == 1 else write_compare(paths, out)
    except (ValueError, LogError, ValidationError, OSError) as err:
        fail(err)
    typer.echo(str(target))
