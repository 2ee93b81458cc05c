"""A game played to its end, as the one play path returns it (``games.core.play``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.core.log import GameLog, LogHeader, SeatInfo
from games.core.loop import finished_end
from games.core.protocol import GameState, SeatResult

if TYPE_CHECKING:
    from reasoning.llm.fallback import FallbackSnapshot
    from reasoning.llm.usage import UsageMeter


@dataclass(frozen=True)
class PlayedGame:
    """A game played to its end: its log's header, its final state and result, who sat where,
    each seat's agent, the chat meters of the seats that asked a model, and every seat's
    fallbacks."""

    header: LogHeader
    state: GameState
    result: SeatResult
    seats: tuple[SeatInfo, ...]
    agents: tuple[Any, ...]
    meters: dict[int, tuple[UsageMeter, ...]]
    fallbacks: tuple[FallbackSnapshot, ...]

    def log(self, source: str = "<events>") -> GameLog[Any]:
        """The game's log held in memory (named ``source`` in errors): its header, events and
        end."""
        return GameLog.of_events(
            self.header, self.state.events(), source, end=finished_end(self.result)
        )

    def seat_meters(self) -> dict[str, tuple[UsageMeter, ...]]:
        """The meters by seat label (``P0 llm``), as the usage table names seats."""
        return {f"{self.seats[s].name} {self.seats[s].agent}": m for s, m in self.meters.items()}
