"""Recording and replaying the LLM calls of Undercover-V games, one file per game.

Every seat of a game shares one chat client and the game asks it in a fixed order, so one file per
game replays exactly, whatever other games a run holds, in whatever order they are played or
resumed. A folder (a bench run directory, or the ``--out`` folder of ``gumshoe play``) keeps the
recordings as ``llm/<game>.jsonl``.
"""

from __future__ import annotations

from pathlib import Path

from games.core.recordings import RecordingMissing
from reasoning.llm import ChatClient, RecordingClient, ReplayClient, UsageMeter, load_recording

RECORDINGS_DIR = "llm"
"""The sub-folder of a run directory that holds one recording per game."""


def recording_path(folder: Path, game: str) -> Path:
    """Where ``folder`` keeps the LLM calls of ``game`` (a game id or log name)."""
    return folder / RECORDINGS_DIR / f"{game}.jsonl"


def recording_client(inner: ChatClient, path: Path) -> RecordingClient:
    """A client that asks ``inner`` and records every call to ``path``, which starts empty: a game
    played again (after an interruption or an endpoint failure) replaces its earlier recording
    instead of being appended to it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("", encoding="utf-8")
    return RecordingClient(inner, path)


def recorded_model(path: Path) -> str | None:
    """The model the recording at ``path`` was made with (None: no file, or no call in it)."""
    if not path.exists():
        return None
    calls = load_recording(path)
    return calls[0].model if calls else None


def replay_client(path: Path, model: str, meter: UsageMeter | None = None) -> ReplayClient:
    """A client answering from the recording at ``path``, checking each request against it (the
    model included); RecordingMissing when there is no such file."""
    if not path.is_file():
        raise RecordingMissing(path)
    return ReplayClient(path, model=model, meter=meter)
