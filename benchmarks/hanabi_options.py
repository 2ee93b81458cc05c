"""Command-line options shared by the Hanabi benchmarks: the LLM agents' knobs, the seat list or
seats file, the player counts."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from pydantic import BaseModel, ConfigDict

from games.core.play import check_seats
from games.core.seats import SeatEndpoint, read_seats
from games.hanabi.agents import AGENTS
from games.hanabi.entry import ENTRY
from reasoning.llm import LLMSettings


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
SeatsFileOption = Annotated[
    Path | None,
    typer.Option(
        "--seats",
        metavar="FILE",
        help='One entry per seat (JSON {"seats": [...]} or JSONL): agent, and for LLM seats '
        "model, base_url, api_key_env (the variable holding the key); in place of --agents.",
    ),
]
"""The ``--seats`` option of the Hanabi commands."""
AGENTS_HELP = (
    f"One agent for every seat, or one per seat ({', '.join(AGENTS.names)}); "
    "`symbolic*2,random` repeats; `sherlock@MODEL` names a seat's model (default: symbolic)."
)
"""The help of the ``--agents`` option of the Hanabi commands."""


class Seating(BaseModel):
    """Who sits where: the seat list (agent specs, comma-separated) and each seat's own
    endpoint, if any (from a seats file)."""

    model_config = ConfigDict(frozen=True)

    agents: str
    endpoints: tuple[SeatEndpoint | None, ...] = ()

    def needs_endpoint(self) -> bool:
        """Whether an LLM seat relies on the command's endpoint (none of its own)."""
        specs = AGENTS.parse(self.agents)
        own = list(self.endpoints) + [None] * (len(specs) - len(self.endpoints))
        return any(
            AGENTS.needs_llm([spec]) and (end is None or end.base_url is None)
            for spec, end in zip(specs, own, strict=True)
        )


def seating(agents: str | None, seats: Path | None) -> tuple[Seating, int | None]:
    """The seating of ``--agents`` or of a ``--seats`` file, and the player count the file
    fixes (None without one); ValueError in one line when both are given or the file is bad."""
    if seats is None:
        return Seating(agents=agents or "symbolic"), None
    if agents is not None:
        raise ValueError("--agents and --seats: give one of them")
    entries = read_seats(seats, AGENTS, ENTRY.info)
    chosen = Seating(
        agents=",".join(e.spec for e in entries), endpoints=tuple(e.endpoint for e in entries)
    )
    return chosen, len(entries)


def endpoint_missing(seated: Seating, llm: LLMSettings) -> ValueError | None:
    """The one-line error when an LLM seat has no endpoint, its own or the command's."""
    if llm.configured or not seated.needs_endpoint():
        return None
    return ValueError(
        f"agents {seated.agents!r} need an LLM endpoint: give --base-url (and --model), a "
        "base_url per seat in --seats, or set GUMSHOE_LLM_BASE_URL / OPENAI_API_KEY"
    )


def seat_specs(agents: str, players: int) -> tuple[str, ...]:
    """One agent per seat: a single name fills every seat, a seat list must match ``players``."""
    specs = AGENTS.parse(agents)
    if len(specs) == 1:
        return specs * players
    if len(specs) != players:
        raise ValueError(f"agents: {len(specs)} seats named for {players} players")
    return specs
