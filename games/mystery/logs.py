"""Reading an interrogation game's log for a resumed run or an audit: validated line by line,
then replayed through the rules (``games.core.replay``), so a log the game could not have
produced (a civilian lying, a ballot for an empty seat, a wrong reveal, reordered events, an
unknown person) is refused with its file and line before anything is computed from it."""

from __future__ import annotations

from pathlib import Path

from games.core.log import GameLog
from games.core.replay import ReplayError, replay
from games.core.runlog import LogError
from games.mystery.entry import ENTRY
from games.mystery.events import MysteryEvent


def read_checked_log(path: str | Path) -> GameLog[MysteryEvent]:
    """The log at ``path``, read and replayed; LogError (file and line) when it breaks a rule
    or cannot be read."""
    path = Path(path)
    try:
        log = ENTRY.read_log(path)
    except OSError as err:
        raise LogError(path, 1, f"cannot read: {err.strerror or err}") from None
    try:
        replay(ENTRY, log)
    except (KeyError, IndexError, StopIteration) as err:
        raise ReplayError(
            path, 1, f"the log names something its game does not have: {err}"
        ) from None
    return log
