"""Recorded LLM calls kept in a run directory, one file per game and seat.

``gumshoe play clue`` and ``gumshoe bench clue`` read the LLM settings' ``record_path`` and
``replay_path`` as run directories: the calls of seat k in game G are recorded to, or replayed
from, ``<dir>/llm/G.seat<k>.jsonl``. Every file then holds one game's calls of one seat in order,
so a run of many games, resumed or not, replays exactly.
"""

from __future__ import annotations

from pathlib import Path

from games.clue.agents import AgentSettings
from games.clue.llm_agent import seat_path

CALLS_DIR = "llm"
"""The folder of a run directory that holds the recorded LLM calls."""


def game_calls(run_dir: Path, game_id: str) -> Path:
    """The name the recordings of game ``game_id`` are derived from: ``<run_dir>/llm/<id>.jsonl``
    (each seat's own file is ``seat_path`` of it)."""
    return run_dir / CALLS_DIR / f"{game_id}.jsonl"


def seat_calls(run_dir: Path, game_id: str, seat: int) -> Path:
    """Where ``seat``'s calls in game ``game_id`` are kept: ``<run_dir>/llm/<id>.seat<k>.jsonl``."""
    return seat_path(game_calls(run_dir, game_id), seat)


def prepare_game_calls(settings: AgentSettings, game_id: str, seats: int) -> AgentSettings:
    """The settings to play game ``game_id`` with: the record/replay run directories of
    ``settings`` (or of the environment, ``GUMSHOE_LLM_RECORD_PATH`` / ``_REPLAY_PATH``) become
    that game's recordings (one per seat, made by the LLM agents' ``seat_client``).

    When recording, the earlier recordings of the game's ``seats`` seats are removed first: a game
    played again from its seed (an unfinished or errored one) records its calls afresh.
    """
    llm = settings.llm_settings()
    if llm.record_path is None and llm.replay_path is None:
        return settings
    if llm.record_path is not None:
        for seat in range(seats):
            seat_calls(llm.record_path, game_id, seat).unlink(missing_ok=True)

    def per_game(run_dir: Path | None) -> Path | None:
        return None if run_dir is None else game_calls(run_dir, game_id)

    update = {"record_path": per_game(llm.record_path), "replay_path": per_game(llm.replay_path)}
    return settings.model_copy(update={"llm": llm.model_copy(update=update)})
