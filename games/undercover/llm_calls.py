"""Recording and replaying the LLM calls of Undercover-V games: one file per game and seat.

As for every game (``games.core.recordings``), seat k's calls in game G are kept as
``llm/G.seat<k>.jsonl`` in a folder (a bench run directory, or the ``--out`` folder of ``gumshoe
play``); each seat asks its own client in a fixed order, so every file replays exactly, whatever
other games a run holds and in whatever order they are played or resumed. A seat may play its own
model (``nli@MODEL``): its recording is checked against that model when replayed. The LLM reader
of the game's descriptions (``--reader llm`` or ``combined``) keeps its calls beside them, in
``llm/G.reader.jsonl``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from games.core.recordings import CALLS_DIR, RecordingMissing, game_calls, seat_calls
from reasoning.llm import (
    ChatClient,
    LLMSettings,
    RecordingClient,
    ReplayClient,
    UsageMeter,
    load_recording,
    recording_file,
)
from reasoning.outfile import write_atomic

LiveClient = Callable[[], ChatClient]
"""Builds the live chat client of a seat (its model at its endpoint), asked only when needed."""

SeatClients = Callable[[int, str | None, LiveClient], ChatClient]
"""Makes the chat client of one seat of a game from the seat, the model its spec names (None: the
command's) and its live client."""


def recording_clients(folder: Path, game: str) -> SeatClients:
    """Seat clients that ask each seat's live client and record its calls to the seat's own file,
    which starts empty: a game played again (after an interruption or an endpoint failure)
    replaces its earlier recordings instead of being appended to them."""

    def client(seat: int, model: str | None, live: LiveClient) -> ChatClient:
        inner = live()
        path = seat_calls(folder, game, seat)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, "")
        return RecordingClient(inner, path)

    return client


def replay_clients(
    folder: Path, game: str, model: str, meter: UsageMeter | None = None
) -> SeatClients:
    """Seat clients answering from each seat's recording, checking each request against it (the
    seat's own model, else ``model``, included); RecordingMissing names a seat's missing file."""

    def client(seat: int, seat_model: str | None, live: LiveClient) -> ChatClient:
        path = seat_calls(folder, game, seat)
        if recording_file(path) is None:
            raise RecordingMissing(path)
        return ReplayClient(path, model=seat_model or model, meter=meter)

    return client


def reader_calls(folder: Path, game: str) -> Path:
    """Where the description reader's LLM calls in game ``game`` are kept."""
    path = game_calls(folder, game)
    return path.with_name(f"{path.stem}.reader{path.suffix}")


def reader_client(
    live: LiveClient,
    model: str,
    *,
    record: Path | None = None,
    replay: Path | None = None,
    game: str,
    meter: UsageMeter | None = None,
) -> ChatClient:
    """The description reader's chat client: replayed from ``replay``'s recording of ``game``,
    recorded into ``record``'s (which starts empty), else ``live()``."""
    if replay is not None:
        path = reader_calls(replay, game)
        if recording_file(path) is None:
            raise RecordingMissing(path)
        return ReplayClient(path, model=model, meter=meter)
    if record is not None:
        path = reader_calls(record, game)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, "")
        return RecordingClient(live(), path)
    return live()


def game_reader_client(llm: LLMSettings, meter: UsageMeter | None = None) -> ChatClient:
    """The description reader's chat client under a game's LLM settings (``for_game``: the
    game's recordings): replayed from, or recorded into, the game's reader file beside its
    seats' files, else live; RecordingMissing when its recording to replay is not there."""
    from reasoning.llm import make_client

    def beside(calls: Path) -> Path:
        return calls.with_name(f"{calls.stem}.reader{calls.suffix}")

    if llm.replay_path is not None:
        path = beside(llm.replay_path)
        if recording_file(path) is None:
            raise RecordingMissing(path)
        return ReplayClient(path, model=llm.model, meter=meter)
    live = make_client(llm.model_copy(update={"record_path": None}), meter=meter)
    if llm.record_path is None:
        return live
    path = beside(llm.record_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, "")
    return RecordingClient(live, path)


def recorded_model(folder: Path, game: str, seats: Iterable[int] | None = None) -> str | None:
    """The model ``game``'s recordings in ``folder`` were made with, read from the first of
    ``seats`` (default: every seat) that made a call (a recording may be gzip-compressed); None
    when none did."""
    stem = game_calls(folder, game).stem
    wanted = None if seats is None else {f"{stem}.seat{seat}.jsonl" for seat in seats}
    for path in sorted((folder / CALLS_DIR).glob(f"{stem}.seat*.jsonl*")):
        name = path.name.removesuffix(".gz")
        if wanted is not None and name not in wanted:
            continue
        calls = load_recording(path, inside=folder)
        if calls:
            return calls[0].model
    return None
