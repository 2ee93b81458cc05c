"""What ``gumshoe play hanabi`` asks and shows: Hanabi's play options and its printer (each turn
with the deciding seat's knowledge, each move as it is made, the score)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from games.core.played import PlayedGame
from games.core.printer import Echo, GamePrinter
from games.hanabi.config import Scoring
from games.hanabi.engine import HanabiObservation
from games.hanabi.events import HANABI_EVENT_TYPES, HanabiConfig
from games.hanabi.knowledge import KnowledgeView, seat_knowledge
from games.hanabi.llm_agents import InvalidPolicy
from games.hanabi.render import event_text, knowledge_text, table_text


class HanabiOptions(BaseModel):
    """Hanabi's own options of ``gumshoe play hanabi``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: int | None = Field(
        default=None, ge=2, le=5, description="Players, 2 to 5 (default: 3, or the --seats file's)."
    )
    scoring: Scoring = Field(
        default="fireworks", description="fireworks (the sum, kept at a bomb-out) or hle (0)."
    )
    view: KnowledgeView = Field(
        default="exact", description="Knowledge printed: exact (joint card counting) or hints."
    )
    sherlock_view: KnowledgeView = Field(
        default="hints", description="Sherlock's card possibilities: hints (as the seed) or exact."
    )
    best_of: int = Field(
        default=1, ge=1, le=16, description="LLM agents: K samples, then a choice."
    )
    mixture: bool = Field(
        default=False, description="LLM agents: specialist roles feed an aggregator."
    )
    invalid: InvalidPolicy = Field(
        default="fallback",
        description="LLM answers still invalid after the re-prompts: fallback (a counted random "
        "legal move) or reprompt (up to 10 re-prompts, then the game errors).",
    )


class HanabiPrinter(GamePrinter):
    """The table and the deciding seat's knowledge before each move, each move as it is made,
    and the score."""

    def __init__(self, echo: Echo, view: KnowledgeView) -> None:
        super().__init__(echo)
        self.view = view

    def write(self, event: BaseModel) -> None:
        """The game's title from the header; each Hanabi event as it is made."""
        super().write(event)
        if isinstance(event, HANABI_EVENT_TYPES):
            self.echo(f"          -> {event_text(event)}")
        elif event is self.header and self.header is not None:
            config = HanabiConfig.model_validate(self.header.config)
            agents = ", ".join(s.agent for s in self.header.seats)
            self.echo(
                f"Hanabi, {config.players} players, seed {self.header.seed}, scoring "
                f"{config.scoring}: {agents}"
            )

    def watch(self, seat: int, obs: Any) -> None:
        """The table and what ``seat`` knows, before it moves."""
        if not isinstance(obs, HanabiObservation) or self.header is None:
            return
        turn = len(obs.history) + 1
        agent = self.header.seats[seat].agent
        self.echo(f"turn {turn:3d}  P{obs.seat} ({agent})  {table_text(obs)}")
        knowledge = knowledge_text(seat_knowledge(obs), self.view)
        self.echo(f"          P{obs.seat} knows ({self.view}): {knowledge}")

    def finish(self, played: PlayedGame) -> None:
        """The score in the game's scoring mode."""
        mode = HanabiConfig.model_validate(played.header.config).scoring
        self.echo(f"score ({mode}): {played.result.returns[0]:g}")
