"""``gumshoe audit <game> LOG``: one command for every registered game with an audit."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from games.core.audit import AuditRecord, Show, render_record
from games.core.cli import fail
from games.core.registry import get_game


def read_and_audit(game: str, log: Path) -> AuditRecord:
    """Read ``log`` as a log of ``game`` and audit it; ValueError (LogError with file and line
    where a line is at fault) or OSError when it cannot be."""
    entry = get_game(game)
    return entry.audit(entry.read_log(log))


def audit_game(
    ctx: typer.Context,
    log: Annotated[
        Path, typer.Argument(help="A game log (JSONL; its format is on the game's page in docs/).")
    ],
    seat: Annotated[int | None, typer.Option(min=0, help="Audit only this seat.")] = None,
    show: Annotated[Show, typer.Option(help="Claims to list under the summary.")] = Show.WRONG,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the audit record as one JSON object.")
    ] = False,
) -> None:
    """Judge every claim a game log states: ENTAILED / CONTRADICTED / UNDETERMINED / UNKNOWN by
    what its author knew, TRUE / FALSE by the hidden truth, sound / lucky / wrong; per-seat
    counts (and recall where the game defines it). The JSON keys are in docs/audit.md."""
    game = ctx.info_name or ""
    try:
        record = read_and_audit(game, log)
        if seat is not None:
            record = record.for_seat(seat)
    except OSError as err:
        fail(f"{log}: {err.strerror or err}")
    except (ValueError, ValidationError) as err:
        fail(err)
    if as_json:
        typer.echo(record.model_dump_json())
        return
    for line in render_record(record, show):
        typer.echo(line)
