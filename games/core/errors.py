"""The errors that mark one game as errored while a run goes on.

An LLM endpoint that keeps failing, or a recording that is missing or does not match the calls a
replayed game makes, spoils that game only: the runner records it (in the log's end event and the
run's summary) and plays the next. Any other exception is a bug and stops the run.
"""

from __future__ import annotations

from games.core.recordings import RecordingMissing
from reasoning.llm.errors import LLMEndpointError, ReplayError

GAME_ERRORS: tuple[type[Exception], ...] = (LLMEndpointError, ReplayError, RecordingMissing)
"""Exception types that error a single game."""

PLAY_ERRORS: tuple[type[Exception], ...] = (*GAME_ERRORS, ValueError)
"""What stops a played game in a ``play`` command (exit status 1): a game error, or an agent or
a game that cannot be built (a case that cannot be generated, an agent without its endpoint)."""
