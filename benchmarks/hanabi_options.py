"""Command-line options shared by the Hanabi benchmarks: the LLM agents' knobs, the seat list or
seats file, the player counts."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from games.core.play import check_seats
from games.core.seats import Seating
from games.core.seats import seating as core_seating
from games.hanabi.agents import AGENTS
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


SherlockView = Annotated[
    str, typer.Option(help="Sherlock's card possibilities: hints (as the seed) or exact.")
]
"""The ``--sherlock-view`` / ``--view`` option of the Hanabi commands."""
BestOf = Annotated[
    int, typer.Option(min=1, max=16, help="LLM agents: K samples, then a final choice.")
]
"""The ``--best-of`` option of the Hanabi commands."""
Mixture = Annotated[
    bool, typer.Option("--mixture", help="LLM agents: specialist roles feed an aggregator.")
]
"""The ``--mixture`` option of the Hanabi commands."""
InvalidAnswers = Annotated[
    str,
    typer.Option(
        "--invalid",
        help="LLM answers still invalid after the re-prompts: fallback (a counted random "
        "legal move) or reprompt (up to 10 re-prompts, then the game errors).",
    ),
]
"""The ``--invalid`` option of the Hanabi commands."""
AGENTS_HELP = (
    f"One agent for every seat, or one per seat ({', '.join(AGENTS.names)}); "
    "`symbolic*2,random` repeats; `sherlock@MODEL` names a seat's model (default: symbolic)."
)
"""The help of the ``--agents`` option of the Hanabi commands."""


def seating(agents: str | None, seats: Path | None) -> tuple[Seating, int | None]:
    """The seating of ``--agents`` (default: symbolic) or of a ``--seats`` file of two to five
    seats, and the player count the file fixes (see ``games.core.seats.seating``)."""
    info = ENTRY.info
    return core_seating(
        agents,
        seats,
        AGENTS,
        default="symbolic",
        min_seats=info.min_players,
        max_seats=info.max_players,
    )


def seat_specs(agents: str, players: int) -> tuple[str, ...]:
    """One agent per seat: a single name fills every seat, a seat list must match ``players``."""
    specs = AGENTS.parse(agents)
    if len(specs) == 1:
        return specs * players
    if len(specs) != players:
        raise ValueError(f"agents: {len(specs)} seats named for {players} players")
    return specs
