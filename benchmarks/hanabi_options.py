"""Command-line options shared by the Hanabi benchmarks."""

from __future__ import annotations

import typer

from games.core.play import check_seats
from games.hanabi.entry import ENTRY


def player_counts(text: str) -> list[int]:
    """Parse ``--players`` (``2,3,4,5``), each count in Hanabi's player range; exit with status 2
    and one line naming it if invalid."""
    try:
        counts = [int(item) for item in text.split(",")]
    except ValueError:
        typer.echo(f"--players: not a comma-separated list of numbers: {text!r}", err=True)
        raise typer.Exit(2) from None
    for count in counts:
        try:
            check_seats(ENTRY, count, option="--players")
        except ValueError as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(2) from None
    return counts
