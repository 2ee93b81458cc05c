"""What ``gumshoe play clue`` asks and shows: Clue's play options and its printer (every turn
once the game is over, the fallbacks, then the deduction audit)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from games.clue.cards import MAX_ROUNDS
from games.clue.events import ClueConfig
from games.core.printer import GamePrinter

if TYPE_CHECKING:
    from games.core.played import PlayedGame

DEFAULT_CLUE_AGENTS = "prover,prover,random,prover,prover,prover"
"""The seats of `gumshoe play clue` and `gumshoe bench clue` when none are given."""


class ClueOptions(BaseModel):
    """Clue's own options of ``gumshoe play clue``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rounds: int = Field(
        default=ClueConfig.model_fields["max_rounds"].default,
        ge=1,
        le=MAX_ROUNDS,
        description=f"Round limit (1-{MAX_ROUNDS}).",
    )


class CluePrinter(GamePrinter):
    """Every turn of the finished game, each seat's fallbacks if any, and the audit."""

    def finish(self, played: PlayedGame) -> None:
        """The transcript, the fallbacks and the deduction audit of ``played``."""
        from games.clue.audit import audit_game, render_audit
        from games.clue.transcript import transcript

        log = played.log()
        for line in transcript(log.events, log.header.seats, played.result.ranks):
            self.echo(line)
        if any(f.total for f in played.fallbacks):
            self.echo("fallbacks per seat: " + ", ".join(str(f.total) for f in played.fallbacks))
        self.echo("")
        self.echo(render_audit(audit_game(log)))
