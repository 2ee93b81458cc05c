"""Where a run keeps its recorded LLM calls: one file per game and seat.

Seat k's calls in game G are recorded to, or replayed from, ``RUN/llm/G.seat<k>.jsonl``; each file
holds one seat's calls of one game in order, so a run of many games, resumed or played in any
order or in parallel, replays exactly.
"""

from __future__ import annotations

import glob
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from games.core.runlog import RunDir, RunDirError
from reasoning.llm.recording import RecordedCall, load_recording, recording_file

if TYPE_CHECKING:
    from reasoning.llm.settings import LLMSettings

CALLS_DIR = "llm"
"""The folder of a run directory that holds the recorded LLM calls."""


class RecordingMissing(ValueError):
    """A game's LLM calls are to be replayed, but the recording is not there."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"no recording of this game's LLM calls at {path}")
        self.path = path


def game_calls(run_dir: Path, game_id: str) -> Path:
    """The name a game's recordings derive from: ``<run_dir>/llm/<id>.jsonl`` (each seat's file is
    ``seat_path`` of it)."""
    return run_dir / CALLS_DIR / f"{game_id}.jsonl"


def seat_path(path: Path, seat: int) -> Path:
    """``seat``'s own file beside ``path``: ``calls.jsonl`` becomes ``calls.seat2.jsonl``."""
    return path.with_name(f"{path.stem}.seat{seat}{path.suffix}")


def seat_calls(run_dir: Path, game_id: str, seat: int) -> Path:
    """Where ``seat``'s calls in game ``game_id`` are kept: ``<run_dir>/llm/<id>.seat<k>.jsonl``."""
    return seat_path(game_calls(run_dir, game_id), seat)


def game_llm_settings(llm: LLMSettings, game_id: str, seats: int) -> LLMSettings:
    """The LLM settings to play game ``game_id`` with: the record/replay run directories of
    ``llm`` become that game's recordings (one per seat, made by ``seat_settings``).

    When recording, the earlier recordings of the game's seats are removed first: a game played
    again from its seed (an unfinished or errored one) records its calls afresh.
    """
    if llm.record_path is None and llm.replay_path is None:
        return llm
    if llm.record_path is not None:
        for seat in range(seats):
            seat_calls(llm.record_path, game_id, seat).unlink(missing_ok=True)

    def per_game(run_dir: Path | None) -> Path | None:
        return None if run_dir is None else game_calls(run_dir, game_id)

    return llm.model_copy(
        update={"record_path": per_game(llm.record_path), "replay_path": per_game(llm.replay_path)}
    )


def seat_settings(llm: LLMSettings, seat: int) -> LLMSettings:
    """``llm`` with record/replay files of their own for ``seat`` (see ``seat_path``)."""

    def for_seat(path: Path | None) -> Path | None:
        return None if path is None else seat_path(path, seat)

    return llm.model_copy(
        update={"record_path": for_seat(llm.record_path), "replay_path": for_seat(llm.replay_path)}
    )


def check_run_recordings(run_dir: Path, game_ids: Iterable[str]) -> None:
    """Before a replay starts: RecordingMissing naming the first of ``game_ids`` whose LLM calls
    ``run_dir`` does not hold (a run made without ``--record``, or with fewer games), so a replay
    is refused at once instead of erroring every game."""
    folder = run_dir / CALLS_DIR
    for game_id in game_ids:
        if not any(folder.glob(f"{glob.escape(game_id)}.seat*.jsonl*")):
            raise RecordingMissing(folder / f"{game_id}.seat<k>.jsonl")


def recorded_seat_calls(run_dir: Path, game_id: str, seat: int) -> list[RecordedCall]:
    """``seat``'s recorded calls in game ``game_id`` (a compressed file too), read to check a
    replay before the game starts; RecordingMissing, or ValueError naming the bad line."""
    path = seat_calls(run_dir, game_id, seat)
    if recording_file(path) is None:
        raise RecordingMissing(path)
    return load_recording(path, inside=run_dir)


def migrate_game_ids(run_dir: Path, renames: Mapping[str, str]) -> None:
    """Give the games of a run made before ids took one shape (``runlog.game_id``) their current
    ids: each old id's log ``games/<old>.jsonl`` and recorded calls ``llm/<old>.seat<k>.jsonl``
    are renamed to the new id, unless a file already has the new name. So an old run resumes
    without replaying its finished games, and replays from its recordings."""
    games, calls = run_dir / RunDir.GAMES_DIR, run_dir / CALLS_DIR
    moves: list[tuple[Path, Path]] = []
    for old, new in renames.items():
        if old == new:
            continue
        moves.append((games / f"{old}.jsonl", games / f"{new}.jsonl"))
        for path in calls.glob(f"{glob.escape(old)}.seat*"):
            moves.append((path, calls / (new + path.name.removeprefix(old))))
    for source, target in moves:
        if source.is_file() and not target.exists():
            try:
                source.rename(target)
            except OSError as err:
                raise RunDirError(f"{source}: cannot rename it to {target.name} ({err})") from None
