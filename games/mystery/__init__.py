"""The murder-mystery interrogation game: generated scripts, questioning rounds, votes."""

from games.mystery.engine import INFO, IllegalAction, MysteryState, MysteryView
from games.mystery.events import MysteryConfig

__all__ = ["INFO", "IllegalAction", "MysteryConfig", "MysteryState", "MysteryView"]
