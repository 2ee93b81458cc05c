"""The murder-mystery interrogation game: generated scripts, questioning rounds, votes.

Each name is imported from its module on first use, so importing one submodule stays cheap.
"""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from games.core.protocol import IllegalAction as IllegalAction
    from games.mystery.engine import INFO as INFO
    from games.mystery.engine import MysteryState as MysteryState
    from games.mystery.engine import MysteryView as MysteryView
    from games.mystery.events import MysteryConfig as MysteryConfig

_HOMES = {
    "INFO": "games.mystery.engine",
    "IllegalAction": "games.core.protocol",
    "MysteryConfig": "games.mystery.events",
    "MysteryState": "games.mystery.engine",
    "MysteryView": "games.mystery.engine",
}

__all__ = sorted(_HOMES)
__getattr__ = lazy_exports(__name__, _HOMES)
