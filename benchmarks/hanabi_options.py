"""Command-line options shared by the Hanabi benchmarks."""

from __future__ import annotations

import typer


def player_counts(text: str) -> list[int]:
    """Parse ``--players`` (``2,3,4,5``); exit with status 2 and one line naming it if invalid."""
    try:
        counts = [int(item) for item in text.split(",")]
    except ValueError:
        typer.echo(f"--players: not a comma-separated list of numbers: {text!r}", err=True)
        raise typer.Exit(2) from None
    if any(not 2 <= count <= 5 for count in counts):
        typer.echo(f"--players: player counts must be 2-5, got {text!r}", err=True)
        raise typer.Exit(2)
    return counts
