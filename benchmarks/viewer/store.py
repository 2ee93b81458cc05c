"""Each game's view data stored beside its log, so a run's page is written without replaying games.

Reading, auditing and drawing a game costs tens of milliseconds; a run of thousands of games
would take minutes to show. So the view of a game (``StoredView``: the packed ``GameView`` a page
embeds, and the few figures a run's page sums) is kept in ``RUN/views/<game_id>.json``: written
by the runner when a game finishes (``RunOptions.views``), or by ``gumshoe view`` the first time
it computes it. It is used only when its ``key`` matches: the SHA-256 of the format version, the
log's bytes and the bytes of every recording the view read, so a changed log, a changed or new
recording, or a newer view format makes it stale and it is computed again. A stored file that is
unreadable or fails validation, or whose packed view does not match its own checksum, is
recomputed too: nothing stored is taken on trust beyond what the key and the checksum prove.
What stands at a stored view's place and is not a regular file (a link, a FIFO, a device) is
refused, naming it: the run's folder was tampered with, and nothing is read through it or
written over it.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from benchmarks.viewer.game import pack, recording_home, recording_paths, view_log
from games.core.audit import SeatSummary
from games.core.view import Outcome
from reasoning.outfile import write_atomic
from reasoning.textfile import UserFileError, open_user_file, read_user_bytes

VIEWS_DIR = "views"
"""The folder of a run directory holding each game's stored view."""
VIEW_FORMAT = 3
"""The version of what a stored view holds; raised whenever a ``GameView`` or a game's viewer
draws something differently, so every view stored before is recomputed."""
PER_ROUND = ("known_per_round", "ideal_known_per_round")
"""The audit figures a run's page draws as curves: per seat name, one value per round."""


class StoredView(BaseModel):
    """One game's view as a run's page uses it, with the key it is valid for and what computing
    it cost."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    format: int = Field(strict=True, ge=VIEW_FORMAT, le=VIEW_FORMAT)
    key: str = Field(pattern=r"^[0-9a-f]{64}$")
    game: str
    title: str
    seed: int | None
    seats: int = Field(ge=0)
    agents: list[str]
    outcome: Outcome
    summary: list[SeatSummary] | None
    per_round: dict[str, dict[str, list[float]]]
    claims_by_round: dict[str, dict[str, int]]
    tokens: list[int | None]
    packed: str
    packed_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    cpu_s: float = Field(ge=0)
    wall_s: float = Field(ge=0)


def run_of(log: Path) -> Path:
    """The run directory of the game logged at ``RUN/games/<id>.jsonl``."""
    return log.parent.parent


def stored_path(log: Path) -> Path:
    """Where the view of the run game logged at ``RUN/games/<id>.jsonl`` is stored."""
    return run_of(log) / VIEWS_DIR / f"{log.stem}.json"


def _hash_file(digest: Any, path: Path, inside: Path) -> None:
    with open_user_file(path, inside=inside) as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)


def view_key(log: Path, seats: int) -> str:
    """The SHA-256 a stored view of ``log`` must carry: over the view format, the log's bytes and
    each of its ``seats``' recordings (name and bytes), read a block at a time."""
    digest = hashlib.sha256(f"gumshoe view format {VIEW_FORMAT}\n".encode())
    _hash_file(digest, log, run_of(log))
    for seat, path in recording_paths(log, seats):
        digest.update(f"\nseat {seat} {path.name}\n".encode())
        _hash_file(digest, path, recording_home(path))
    return digest.hexdigest()


def compute_view(log: Path) -> StoredView:
    """Read, audit and draw ``log`` now (LogError or ValueError naming the file for a bad log)."""
    started, cpu = time.perf_counter(), time.process_time()
    logged = view_log(log, run_of(log))
    packed = pack(logged)
    view = logged.view
    record = view.record
    figures: dict[str, Any] = record.figures if record is not None else {}
    per_round = {
        key: {name: [float(v) for v in series] for name, series in figures[key].items()}
        for key in PER_ROUND
        if isinstance(figures.get(key), dict)
    }
    seats = len(view.seats)
    by_round: dict[str, dict[str, int]] = {}
    for row in record.rows if record is not None else []:
        if not row.repeat and row.where.round is not None:
            counts = by_round.setdefault(str(row.where.round), {})
            counts[row.judgement] = counts.get(row.judgement, 0) + 1
    tokens: list[int | None] = [None] * seats
    for call in view.calls:
        if 0 <= call.seat < seats:
            spent = (call.prompt_tokens or 0) + (call.completion_tokens or 0)
            tokens[call.seat] = (tokens[call.seat] or 0) + spent
    return StoredView(
        format=VIEW_FORMAT,
        key=view_key(log, seats),
        game=view.game,
        title=view.title,
        seed=view.seed,
        seats=seats,
        agents=view.agents,
        outcome=view.outcome,
        summary=record.seats if record is not None else None,
        per_round=per_round,
        claims_by_round=by_round,
        tokens=tokens,
        packed=packed,
        packed_sha256=hashlib.sha256(packed.encode("ascii")).hexdigest(),
        cpu_s=time.process_time() - cpu,
        wall_s=time.perf_counter() - started,
    )


def load_view(log: Path) -> StoredView | None:
    """The stored view of ``log`` when there is one and it is valid for the log as it is now
    (see the module docstring); None otherwise."""
    path = stored_path(log)
    if not os.path.lexists(path):
        return None
    try:
        data = read_user_bytes(path, inside=run_of(log))
    except UserFileError as err:
        if err.reason.startswith(("larger than", "cannot read")):
            return None
        raise
    try:
        stored = StoredView.model_validate_json(data)
    except ValidationError:
        return None
    if hashlib.sha256(stored.packed.encode("ascii")).hexdigest() != stored.packed_sha256:
        return None
    return stored if view_key(log, stored.seats) == stored.key else None


def save_view(log: Path, stored: StoredView) -> Path | None:
    """Store ``stored`` for ``log`` (replacing an older one); None when the run's folder cannot
    be written to (the view is then computed again next time). UserFileError when a link or
    another kind of file stands where it goes."""
    path = stored_path(log)
    try:
        if not os.path.lexists(path.parent):
            path.parent.mkdir()
        write_atomic(
            path,
            json.dumps(stored.model_dump(mode="json"), separators=(",", ":")),
            inside=run_of(log),
        )
    except OSError:
        return None
    return path
