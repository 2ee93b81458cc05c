"""Run directories shared by every game: the run's config, one JSONL event log per game, a summary.

Layout of a run directory::

    config.json            the run's settings (a pydantic model dump)
    games/<game_id>.jsonl  one event a line, flushed as written
    summary.json           written when the run ends

A run that was interrupted resumes: a game whose log ends with a complete common end event of
status ``finished`` (``games.core.log``; or, in a log written before that event existed, the game's
own ``game_end``) is finished and is not played again; any other log is incomplete and is
overwritten when the game is played again from its seed.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, BinaryIO, Generic, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from reasoning.closing import Closing
from reasoning.outfile import json_text, named_os_error, open_fresh, write_atomic
from reasoning.textfile import (
    UserFileError,
    iter_user_lines,
    open_user_file,
    parse_user_json,
    read_user_json_object,
)

C = TypeVar("C", bound=BaseModel)

_GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


class LogError(ValueError):
    """A line of a game log that does not validate; carries the file and the 1-based line."""

    def __init__(self, path: Path, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")
        self.path = path
        self.line = line


def field_errors(err: ValidationError) -> str:
    """One line naming every invalid field of a pydantic error: ``field 'a.0.b': message``."""
    problems = []
    for item in err.errors(include_url=False):
        where = ".".join(str(part) for part in item["loc"])
        message = item["msg"].removeprefix("Value error, ")
        problems.append(f"field '{where}': {message}" if where else message)
    return "; ".join(problems)


M = TypeVar("M", bound=BaseModel)


def validate_strictly(model: type[M], data: Any) -> M:
    """``data`` (read from a JSON file) validated as ``model`` with JSON's own types, strictly:
    ``true`` is not an integer and ``"1"`` not a number (lax validation takes both); a
    ValidationError names the field otherwise."""
    return model.model_validate_json(json.dumps(data), strict=True)


class RunDirError(ValueError):
    """A run directory or one of its files cannot be used as asked; the message names the file."""


class TextFileError(RunDirError):
    """A file that is not UTF-8 text, or starts with a byte-order mark; names file and line."""

    def __init__(self, path: Path, line: int, reason: str) -> None:
        super().__init__(f"{path}:{line}: {reason}" if line else f"{path}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason


class EventSink(Protocol):
    """Anything an engine or game loop can hand its events to, one at a time."""

    def write(self, event: BaseModel) -> None:
        """Record one event."""
        ...


class EventLog(Closing):
    """A JSONL event log open for writing: one event a line, each line flushed as it is written.

    Use it as a context manager. The file is created (replacing whatever file stood there, never
    writing through a link; see ``reasoning.outfile``) at the first event, so a command refused
    before its game starts leaves an existing log as it was. ``inside``: the folder the log
    belongs to (a run directory), below which no link is followed. An OSError while writing (a
    full disk) names the file.
    """

    def __init__(self, path: str | Path, *, inside: Path | None = None) -> None:
        self.path = Path(path)
        self.inside = inside
        self._file: IO[str] | None = None
        self._closed = False
        self.count = 0

    def write(self, event: BaseModel) -> None:
        """Append ``event`` as one JSON line and flush it to the operating system."""
        if self._closed:
            raise RunDirError(f"{self.path}: event log is closed")
        if self._file is None:
            self._file = open_fresh(self.path, inside=self.inside)
        try:
            self._file.write(event.model_dump_json() + "\n")
            self._file.flush()
        except OSError as err:
            raise named_os_error(err, self.path) from None
        self.count += 1

    def close(self) -> None:
        """Close the file; later writes raise RunDirError."""
        self._closed = True
        if self._file is not None:
            self._file.close()
            self._file = None


def read_jsonl(path: str | Path, *, inside: Path | None = None) -> list[dict[str, Any]]:
    """Read a JSONL file into one dict per non-blank line; a bad line raises with its number."""
    path = Path(path)
    records: list[dict[str, Any]] = []
    for lineno, line in iter_lines(path, inside=inside):
        try:
            record = parse_user_json(line, path, lineno)
        except UserFileError as err:
            raise RunDirError(str(err)) from None
        if not isinstance(record, dict):
            raise RunDirError(f"{path}:{lineno}: expected a JSON object")
        records.append(record)
    return records


def iter_lines(path: str | Path, *, inside: Path | None = None) -> Iterator[tuple[int, str]]:
    """Yield (1-based line number, line) for every non-blank line of a UTF-8 text file without a
    byte-order mark, read as it goes (``reasoning.textfile.iter_user_lines``); TextFileError
    names the file and the line of what cannot be read."""
    path = Path(path)
    try:
        for lineno, _, line in iter_user_lines(path, inside=inside, allow_bom=False):
            if line.strip():
                yield lineno, line
    except UserFileError as err:
        raise TextFileError(path, err.line, err.reason) from None


def _last_complete_record(path: Path, inside: Path | None) -> dict[str, Any] | None:
    """The last line of a log as a dict, or None when the log is empty or ends mid-line (only
    the log's tail is read)."""
    try:
        with open_user_file(path, inside=inside) as file:
            tail = _tail(file)
            if tail is None:
                return None
            line, start = tail
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError as err:
                number = _line_number(file, start)
                byte, column = line[err.start], err.start + 1
                reason = f"not UTF-8: byte 0x{byte:02x} at line {number}, column {column}"
                raise TextFileError(path, number, reason) from None
    except UserFileError as err:
        raise TextFileError(path, err.line, err.reason) from None
    try:
        record = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    return record if isinstance(record, dict) else None


_TAIL_BLOCK = 1 << 16


def _line_number(file: BinaryIO, offset: int) -> int:
    """The 1-based number of the line starting at byte ``offset`` of ``file``."""
    file.seek(0)
    newlines = 0
    while file.tell() < offset:
        newlines += file.read(min(_TAIL_BLOCK, offset - file.tell())).count(b"\n")
    return newlines + 1


def _tail(file: BinaryIO) -> tuple[bytes, int] | None:
    """The last non-blank line of ``file`` and where it starts (None when it holds none or does
    not end in a newline), read backwards block by block from its end."""
    end = file.seek(0, os.SEEK_END)
    if end == 0:
        return None
    file.seek(end - 1)
    if file.read(1) != b"\n":
        return None
    kept = b""
    position = end
    while position > 0:
        start = max(0, position - _TAIL_BLOCK)
        file.seek(start)
        kept = file.read(position - start) + kept
        position = start
        body = kept.rstrip(b" \t\r\n")
        cut = body.rfind(b"\n")
        if cut >= 0 or (position == 0 and body):
            return body[cut + 1 :], position + cut + 1
    return None


END_TYPE = "end"
"""The ``type`` of the common end event that closes every game log."""
VERSION_0_END_TYPE = "game_end"
"""The last event of a finished game in logs written before the common end event."""


def finished_record(record: dict[str, Any]) -> bool:
    """Whether ``record``, the last line of a log, marks a game played to its end."""
    kind = record.get("type")
    if kind == END_TYPE:
        return record.get("status") == "finished"
    return kind == VERSION_0_END_TYPE


def game_id(game: str, seed: int, *variant: str | int) -> str:
    """The id of one game, in one shape for every command and run:
    ``<game>[-<variant>...]-seed<seed>``, where the variant parts (a player count ``p3``, a
    matchup, a word pair, an agent) tell apart the games one run deals from the same seed."""
    return "-".join([game, *(str(part) for part in variant), f"seed{seed}"])


def game_seed(game_id: str) -> int:
    """The seed a game id (``game_id``'s shape) names; ValueError when it names none."""
    head, sep, seed = game_id.rpartition("-seed")
    if not (head and sep and seed.isdigit()):
        raise ValueError(f"game id {game_id!r}: does not end in -seed<number>")
    return int(seed)


class RunDir(Generic[C]):
    """A run directory for one configuration, created or resumed.

    When ``config.json`` already exists it must equal ``config`` (as JSON, the stored one read with
    the defaults of settings added since it was written), or RunDirError names the differing
    fields: resuming under other settings would mix incomparable games.
    """

    CONFIG_FILE = "config.json"
    SUMMARY_FILE = "summary.json"
    GAMES_DIR = "games"

    def __init__(self, path: str | Path, config: C) -> None:
        self.path = Path(path)
        self.config = config
        if self.path.exists() and not self.path.is_dir():
            raise RunDirError(f"{self.path}: is a file, not a run directory")
        if self.games_dir.is_symlink():
            raise RunDirError(f"{self.games_dir}: is a symbolic link, not a folder")
        try:
            self.games_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise RunDirError(f"{self.path}: cannot create it ({err.strerror or err})") from None
        wanted = config.model_dump(mode="json")
        if os.path.lexists(self.config_path):
            stored = self._read_json(self.config_path, self.path)
            try:
                stored = validate_strictly(type(config), stored).model_dump(mode="json")
            except ValidationError as err:
                raise RunDirError(f"{self.config_path}: {field_errors(err)}") from None
            if stored != wanted:
                keys = sorted(set(stored) | set(wanted))
                differing = [k for k in keys if stored.get(k) != wanted.get(k)]
                raise RunDirError(
                    f"{self.config_path}: stored config differs from this run's config "
                    f"in {', '.join(differing)}"
                )
        else:
            write_atomic(self.config_path, json_text(wanted, sort_keys=True), inside=self.path)

    @classmethod
    def resume(cls, path: str | Path, config_type: type[C]) -> RunDir[C]:
        """Reopen an existing run directory, reading its config back into ``config_type``."""
        config_path = Path(path) / cls.CONFIG_FILE
        if not os.path.lexists(config_path):
            raise RunDirError(f"{config_path}: no such file; not a run directory")
        try:
            config = validate_strictly(config_type, cls._read_json(config_path, Path(path)))
        except ValidationError as err:
            raise RunDirError(f"{config_path}: {field_errors(err)}") from err
        return cls(path, config)

    @property
    def config_path(self) -> Path:
        """Where the run's config is stored."""
        return self.path / self.CONFIG_FILE

    @property
    def summary_path(self) -> Path:
        """Where the run's summary is stored."""
        return self.path / self.SUMMARY_FILE

    @property
    def games_dir(self) -> Path:
        """The folder holding one event log per game."""
        return self.path / self.GAMES_DIR

    def log_path(self, game_id: str) -> Path:
        """The event log file of ``game_id``; ids are letters, digits, ``_``, ``.`` and ``-``."""
        if not _GAME_ID.fullmatch(game_id):
            raise RunDirError(
                f"game id {game_id!r}: use letters, digits, '_', '.' and '-', "
                "starting with a letter or digit"
            )
        return self.games_dir / f"{game_id}.jsonl"

    def game_log(self, game_id: str) -> EventLog:
        """Open the log of a game to (re)play; an incomplete earlier log is discarded.

        Opening the log of a finished game raises RunDirError: its result would be lost.
        """
        if self.is_finished(game_id):
            raise RunDirError(f"{self.log_path(game_id)}: game already finished")
        return EventLog(self.log_path(game_id), inside=self.path)

    def final_event(self, game_id: str) -> dict[str, Any] | None:
        """The end event of a finished game as a dict, or None when the game is not finished."""
        path = self.log_path(game_id)
        if not os.path.lexists(path):
            return None
        record = _last_complete_record(path, self.path)
        if record is None or not finished_record(record):
            return None
        return record

    def is_finished(self, game_id: str) -> bool:
        """Whether the game's log ends with a complete end event."""
        return self.final_event(game_id) is not None

    def finished_games(self) -> dict[str, dict[str, Any]]:
        """Every finished game's id mapped to its end event, in id order."""
        finished: dict[str, dict[str, Any]] = {}
        for path in sorted(self.games_dir.glob("*.jsonl")):
            event = self.final_event(path.stem)
            if event is not None:
                finished[path.stem] = event
        return finished

    def read_events(self, game_id: str) -> list[dict[str, Any]]:
        """Every event of a game's log as dicts; a line that is not JSON raises with its number."""
        path = self.log_path(game_id)
        if not os.path.lexists(path):
            raise RunDirError(f"{path}: no such game log")
        return read_jsonl(path, inside=self.path)

    def write_summary(self, summary: BaseModel) -> Path:
        """Store the run's summary (replacing an earlier one) and return its path."""
        write_atomic(self.summary_path, summary.model_dump_json(indent=2) + "\n", inside=self.path)
        return self.summary_path

    def read_summary(self) -> dict[str, Any] | None:
        """The stored summary as a dict, or None when the run has not written one yet."""
        if not os.path.lexists(self.summary_path):
            return None
        return self._read_json(self.summary_path, self.path)

    @staticmethod
    def _read_json(path: Path, inside: Path) -> dict[str, Any]:
        try:
            return read_user_json_object(path, allow_bom=False, inside=inside)
        except UserFileError as err:
            raise RunDirError(str(err)) from None
