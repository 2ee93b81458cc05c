"""The log format every game shares: a common header, the game's own events, a common end.

A log is JSONL, one event a line::

    {"type": "header", "schema_version": 3, "game": "clue", "seed": 3, "config": {...},
     "seats": [{"name": "P0", "agent": "prover"}, ...]}
    ... the game's own events ...
    {"type": "end", "status": "finished", "returns": [...], "ranks": [...], "reason": "..."}

The header alone says what was played (config, seed, seats) and the end alone how it ended
(returns, ranks); the game's events do not repeat them. Logs of an older schema are migrated once,
as they are read (the game drops or renames what changed; see ``GameEntry.migrate_record``):
logs written before the header existed (schema version 0) get one built from their first event
(``GameEntry.header_of_start``), so a read log always has its header. A log of a game played
elsewhere may have no seed (``seed: null``): it reads and audits, but does not replay.
``read_game_log`` validates every line with strict types (a ``"seq": true`` or ``"seat": "0"``
is refused) and raises LogError naming the file and line of the first problem.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, BinaryIO, Generic, Literal, TypeVar, overload

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    model_serializer,
    model_validator,
)

from games.core.runlog import END_TYPE, LogError, field_errors, validate_strictly
from reasoning.textfile import (
    UserFileError,
    file_identity,
    lines_of,
    open_user_file,
    parse_jsonl_line,
)

SCHEMA_VERSION = 3
"""The version of the log format this code writes."""
HEADER_TYPE = "header"
"""The ``type`` of the common header event."""

E = TypeVar("E", bound=BaseModel)

EventCheck = Callable[["LogHeader", Sequence[Any]], "tuple[int, str] | None"]
"""A game's consistency check over a log's header and events: (index of the bad event, why) or
None."""
Migration = Callable[[dict[str, Any], int], dict[str, Any]]
"""A game's migration of one record (its header or one of its events) of a log written at an
older schema version to the current one."""
HeaderOfStart = Callable[[dict[str, Any]], "dict[str, Any] | None"]
"""A game's header for a log written before headers existed (schema version 0), built from the
log's first record; None when that record cannot give one."""


class SeatInfo(BaseModel):
    """Who sits at a seat: a display name and the agent's name."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    name: str
    agent: str


class LogHeader(BaseModel):
    """The common first event: format version, game, seed (None for a game played elsewhere,
    whose deal is unknown), the game's config and the seats; for a log kept as a record of a
    real model's play (a fixture, a published run), its ``provenance``: how and where it was
    recorded (the command, the server and model, the date), said in words. Play never writes
    one, so the same seed still gives the same log; a header without it is written as before."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    type: Literal["header"] = "header"
    schema_version: Annotated[int, Field(strict=True, ge=SCHEMA_VERSION, le=SCHEMA_VERSION)] = (
        SCHEMA_VERSION
    )
    """An integer (a ``Literal`` would take JSON ``true`` or ``3.0`` for it)."""
    game: str
    seed: int | None
    config: dict[str, Any]
    seats: tuple[SeatInfo, ...] = Field(min_length=1)
    provenance: dict[str, str] | None = None

    @model_serializer(mode="wrap")
    def _without_absent_provenance(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict) and data.get("provenance") is None:
            data.pop("provenance", None)
        return data


class LogEnd(BaseModel):
    """The common last event: ``finished`` with every seat's return and rank and the reason the
    game ended, or ``errored`` with the error (and no returns)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    type: Literal["end"] = "end"
    status: Literal["finished", "errored"]
    returns: tuple[float, ...] = ()
    ranks: tuple[int, ...] = ()
    reason: str
    error: str | None = None

    @model_validator(mode="after")
    def _status_fits(self) -> LogEnd:
        if self.status == "finished" and (not self.returns or len(self.ranks) != len(self.returns)):
            raise ValueError("returns: a finished game gives one return and one rank per seat")
        if self.status == "errored" and self.error is None:
            raise ValueError("error: an errored game says what went wrong")
        return self


def make_header(
    game: str, config: BaseModel, seed: int | None, seats: Sequence[SeatInfo]
) -> LogHeader:
    """The common header of a log of ``game`` played under ``config`` from ``seed``."""
    return LogHeader(
        game=game, seed=seed, config=config.model_dump(mode="json"), seats=tuple(seats)
    )


_HEADER: TypeAdapter[LogHeader] = TypeAdapter(LogHeader)
_END: TypeAdapter[LogEnd] = TypeAdapter(LogEnd)


CACHED_EVENTS = 20_000
"""A read log keeps its events in memory up to this many; a longer log keeps only where each
event's line starts and reads the events again from the file as they are asked for, so reading
and auditing it takes memory for the state of the game, not for the size of the log."""
_BLOCK = 256
"""Events read at once when a long log's event is asked for by its index."""

Decode = Callable[[str], E]
"""A log's line turned into its game event (migrated, for a log of an older schema)."""


class LogEvents(Sequence[E]):
    """The game events of a log read from a file: held in memory (``CACHED_EVENTS`` or fewer),
    or read again from the file, which must not change in the meantime (LogError otherwise)."""

    def __init__(
        self,
        path: Path,
        inside: Path | None,
        decode: Decode[E],
        starts: array[int],
        held: list[E] | None,
    ) -> None:
        self._path = path
        self._inside = inside
        self._decode = decode
        self._starts = starts
        self._held = held
        self._identity: tuple[int, int, int, int] | None = None
        self._block: tuple[int, list[E]] = (-1, [])

    def _open(self) -> BinaryIO:
        try:
            file = open_user_file(self._path, inside=self._inside)
        except UserFileError as err:
            raise LogError(self._path, err.line, err.reason) from None
        if file_identity(file) != self._identity:
            file.close()
            raise LogError(self._path, 0, "the log changed while it was being read")
        return file

    def _events(self, file: BinaryIO, first: int, stop: int) -> Iterator[E]:
        for index in range(first, stop):
            file.seek(self._starts[index])
            line = file.readline().decode("utf-8").removesuffix("\n")
            yield self._decode(line)

    def __len__(self) -> int:
        return len(self._starts)

    def __iter__(self) -> Iterator[E]:
        if self._held is not None:
            yield from self._held
            return
        with self._open() as file:
            yield from self._events(file, 0, len(self._starts))

    @overload
    def __getitem__(self, index: int) -> E: ...

    @overload
    def __getitem__(self, index: slice) -> list[E]: ...

    def __getitem__(self, index: int | slice) -> E | list[E]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if self._held is not None:
            return self._held[index]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"event {index} of {len(self)}")
        first, block = self._block
        if not first <= index < first + len(block):
            first = index - index % _BLOCK
            with self._open() as file:
                block = list(self._events(file, first, min(first + _BLOCK, len(self))))
            self._block = (first, block)
        return block[index - first]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LogEvents | list | tuple):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def seal(self, identity: tuple[int, int, int, int]) -> None:
        """Record which file the events were read from (its identity after the reading)."""
        self._identity = identity


@dataclass(frozen=True)
class GameLog(Generic[E]):
    """A read log: its header, the game's events, the line each event came from, and its end
    (None while a game is unfinished or in logs written before the end existed)."""

    path: Path
    header: LogHeader
    events: Sequence[E]
    lines: Sequence[int]
    end: LogEnd | None

    @classmethod
    def of_events(
        cls,
        header: LogHeader,
        events: Sequence[E],
        source: str = "<events>",
        end: LogEnd | None = None,
    ) -> GameLog[E]:
        """A log held in memory: the header, then the game's events (event i on line i + 2),
        then ``end`` where given."""
        return cls(
            path=Path(source),
            header=header,
            events=list(events),
            lines=list(range(2, len(events) + 2)),
            end=end,
        )

    @property
    def seed(self) -> int:
        """The seed the game was dealt from; LogError when the header gives none (a game played
        elsewhere: it reads and audits, but cannot be dealt again)."""
        if self.header.seed is None:
            raise LogError(self.path, 1, "the header gives no seed: the game cannot be dealt again")
        return self.header.seed

    def line_of(self, index: int) -> int:
        """The line of event ``index`` (the last line for an index past the end)."""
        if not self.lines:
            return 1
        return self.lines[min(index, len(self.lines) - 1)]


def _record(path: Path, lineno: int, line: str) -> dict[str, Any]:
    """The JSON object on a line; LogError for anything else."""
    try:
        return parse_jsonl_line(line, path, lineno)
    except UserFileError as err:
        raise LogError(path, lineno, err.reason) from None


def _game_event(adapter: TypeAdapter[E], line: str) -> E | None:
    """The game event on a line of a current log, parsed and validated in one pass; None when
    the line is anything else (a header, an end, or an error, which the careful path names)."""
    try:
        return adapter.validate_json(line, strict=True)
    except ValidationError:
        return None


def _written_version(first: dict[str, Any]) -> int:
    """The schema version a log was written at, from its first record: 0 without a header (a
    ``schema_version`` that is not an integer, such as ``true``, is left for the header's
    validation to name)."""
    if first.get("type") != HEADER_TYPE:
        return 0
    version = first.get("schema_version")
    return version if type(version) is int and 0 < version < SCHEMA_VERSION else SCHEMA_VERSION


def _migrated_line(record: dict[str, Any], version: int, migrate: Migration | None) -> str:
    kind = record.get("type")
    if kind == END_TYPE:
        return json.dumps(record)
    if migrate is not None:
        record = migrate(record, version)
    if kind == HEADER_TYPE:
        record = {**record, "schema_version": SCHEMA_VERSION}
    return json.dumps(record)


def read_game_log(
    path: str | Path,
    adapter: TypeAdapter[E],
    *,
    game: str,
    terminal_type: str = "game_end",
    check: EventCheck | None = None,
    migrate: Migration | None = None,
    header_of_start: HeaderOfStart | None = None,
    inside: Path | None = None,
    config_type: type[BaseModel] | None = None,
) -> GameLog[E]:
    """Read and validate a log of ``game`` whose own events ``adapter`` validates.

    The header may only be the first line and the end only the last; nothing may follow the
    game's ``terminal_type`` event but the end. ``check`` adds the game's own consistency rules.
    A log written at an older schema version is migrated as it is read: ``migrate`` brings each
    of its records (header and game events) to the current version; a log without a header
    (version 0) gets the one ``header_of_start`` builds from its first record. ``config_type``:
    the game's config, which the header's must be with strict types (``true`` is no integer).
    The file is read line by line (``inside``: the run folder it was found in; see
    ``reasoning.textfile.open_user_file``), and a long log's events are not all kept (see
    ``CACHED_EVENTS``). Raises LogError (file and line) for every problem, an empty or
    blank-only file included.
    """
    path = Path(path)
    header: LogHeader | None = None
    end: LogEnd | None = None
    held: list[E] | None = []
    starts: array[int] = array("q")
    lines: array[int] = array("q")
    over_at: int | None = None
    version = SCHEMA_VERSION
    last = 0
    position = -1
    try:
        with open_user_file(path, inside=inside) as file:
            for lineno, start, line in lines_of(file, path, allow_bom=False):
                if not line.strip():
                    continue
                position += 1
                last = lineno
                event: E | None = None
                if position and version == SCHEMA_VERSION and end is None and over_at is None:
                    event = _game_event(adapter, line)
                if event is None:
                    record = _record(path, lineno, line)
                    if position == 0:
                        version = _written_version(record)
                        if version == 0:
                            header = _built_header(path, record, game, header_of_start)
                    kind = record.get("type")
                    if end is not None:
                        raise LogError(path, lineno, "an event after the log's end event")
                    if version < SCHEMA_VERSION:
                        line = _migrated_line(record, version, migrate)
                    try:
                        if kind == HEADER_TYPE:
                            if position != 0:
                                raise LogError(
                                    path, lineno, "a header event that is not the first line"
                                )
                            header = _HEADER.validate_json(line)
                            if header.game != game:
                                raise LogError(
                                    path, lineno, f"a {header.game!r} log, not a {game!r} log"
                                )
                            continue
                        if kind == END_TYPE:
                            end = _END.validate_json(line)
                            continue
                        if over_at is not None:
                            raise LogError(
                                path, lineno, f"an event after {terminal_type} (line {over_at})"
                            )
                        event = adapter.validate_json(line, strict=True)
                    except ValidationError as err:
                        raise LogError(path, lineno, field_errors(err)) from None
                if getattr(event, "type", None) == terminal_type:
                    over_at = lineno
                starts.append(start)
                lines.append(lineno)
                if held is not None:
                    held.append(event)
                    if len(held) > CACHED_EVENTS:
                        held = None
            identity = file_identity(file)
    except UserFileError as err:
        raise LogError(path, err.line, err.reason) from None
    if not last:
        raise LogError(path, 1, "the log is empty")
    if end is not None and end.status == "finished" and over_at is None:
        raise LogError(path, last, f"a finished end event without {terminal_type}")
    if header is None:
        raise LogError(path, 1, 'a log opens with its header ({"type": "header", ...})')
    if config_type is not None:
        try:
            validate_strictly(config_type, header.config)
        except ValidationError as err:
            raise LogError(path, 1, "header config: " + field_errors(err)) from None
    events = LogEvents(path, inside, _decoder(adapter, version, migrate), starts, held)
    events.seal(identity)
    if check is not None:
        problem = check(header, events)
        if problem is not None:
            index, message = problem
            raise LogError(path, lines[index] if lines else 1, message)
    numbers: Sequence[int] = lines if held is None else list(lines)
    return GameLog(path=path, header=header, events=events, lines=numbers, end=end)


def _decoder(adapter: TypeAdapter[E], version: int, migrate: Migration | None) -> Decode[E]:
    """How a read log's event lines become events again (as ``read_game_log`` made them)."""
    if version == SCHEMA_VERSION:
        return lambda line: adapter.validate_json(line, strict=True)
    return lambda line: adapter.validate_json(
        _migrated_line(json.loads(line), version, migrate), strict=True
    )


def _built_header(
    path: Path, first: dict[str, Any], game: str, header_of_start: HeaderOfStart | None
) -> LogHeader | None:
    """The header of a log written before headers existed, built by the game from its first
    record (None when the game builds none); LogError when the one it builds is wrong."""
    record = None if header_of_start is None else header_of_start(first)
    if record is None:
        return None
    try:
        return _HEADER.validate_json(
            json.dumps(
                {**record, "type": HEADER_TYPE, "schema_version": SCHEMA_VERSION, "game": game}
            )
        )
    except ValidationError as err:
        raise LogError(path, 1, field_errors(err)) from None
