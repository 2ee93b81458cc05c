"""What every game's commands share: one-line errors, output folders, and the LLM options."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer
from pydantic import ValidationError

from games.core.runlog import field_errors

Model = Annotated[
    str | None,
    typer.Option(help="LLM model for LLM agents (with --replay: the recorded one)."),
]
BaseUrl = Annotated[str | None, typer.Option(help="OpenAI-compatible endpoint for LLM agents.")]
Record = Annotated[
    bool,
    typer.Option(
        "--record",
        help="Record every LLM call under the output folder, one file per game and seat: "
        "llm/<game id>.seat<k>.jsonl (rewritten when a game is played again).",
    ),
]
RecordedRun = Annotated[
    Path | None,
    typer.Option(
        metavar="DIR",
        help="A run directory recorded with --record: answer each game's LLM calls from "
        "DIR/llm/<game id>.seat<k>.jsonl instead of an endpoint; play into a fresh --out.",
    ),
]


def describe_error(err: BaseException) -> str:
    """One line saying what went wrong: the invalid fields of a validation error, else the
    error's message with its lines joined."""
    if isinstance(err, ValidationError):
        return field_errors(err)
    if isinstance(err, OSError) and err.strerror:
        where = f"{err.filename}: " if err.filename else ""
        return f"{where}{err.strerror}"
    return "; ".join(line.strip() for line in str(err).splitlines() if line.strip())


def fail(err: BaseException | str, code: int = 2) -> NoReturn:
    """Print ``error: <one line>`` on stderr and leave with ``code`` (2: bad input)."""
    text = err if isinstance(err, str) else describe_error(err)
    typer.echo(f"error: {text}", err=True)
    raise typer.Exit(code)


def prepare_out(path: Path, option: str = "--out") -> Path:
    """Create the output folder ``path`` (and its parents); ValueError in one line when it is a
    file or cannot be created."""
    if path.exists() and not path.is_dir():
        raise ValueError(f"{option} {path}: is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"{option} {path}: cannot create it ({err.strerror or err})") from None
    return path
