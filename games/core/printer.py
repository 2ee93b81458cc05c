"""How ``gumshoe play <game>`` shows a game: a printer the play command logs every event to.

A game's entry gives its own (``GameEntry.printer``); the base prints the seats and the result,
which is all a game without a printer of its own shows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from games.core.log import LogHeader
from games.core.protocol import GameState

if TYPE_CHECKING:
    from games.core.played import PlayedGame

Echo = Callable[[str], None]
"""Where a printer's lines go (``typer.echo`` on the console)."""


class GamePrinter:
    """Shows one played game through ``echo``: ``start`` when the agents are seated, ``write``
    for every logged record (the header, each event, the end) as it is written, ``watch`` for
    a seat's observation before it decides, ``finish`` once the game is over."""

    def __init__(self, echo: Echo) -> None:
        self.echo = echo
        self.header: LogHeader | None = None

    def start(self, agents: Sequence[Any], state: GameState) -> None:
        """The agents are seated in ``state``; nothing has been played."""

    def write(self, event: BaseModel) -> None:
        """A record of the log, as it is written (the header is kept)."""
        if isinstance(event, LogHeader):
            self.header = event

    def watch(self, seat: int, obs: Any) -> None:
        """``seat`` is about to decide on ``obs``."""

    def finish(self, played: PlayedGame) -> None:
        """The game is over: the seats and the result."""
        result = played.result
        agents = ", ".join(seat.agent for seat in played.seats)
        self.echo(f"{played.header.game}, seed {played.header.seed}: {agents}")
        self.echo(f"result: {result.reason}; returns {list(result.returns)}")


class Tee:
    """An event sink writing each record to every sink given (the printer, the log file)."""

    def __init__(self, *sinks: Any) -> None:
        self.sinks = [s for s in sinks if s is not None]

    def write(self, event: BaseModel) -> None:
        """Pass ``event`` to every sink."""
        for sink in self.sinks:
            sink.write(event)
