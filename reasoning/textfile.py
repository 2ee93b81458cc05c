"""Reading a user's files: regular files only, a size limit, UTF-8 text, bounded JSON and CSV.

Every file the project reads goes through this module (its writing counterpart is
``reasoning.outfile``). Every problem is a ``UserFileError`` naming the file and, where there is
one, the line and column or the field: a FIFO is refused at once (never waited on),
``/dev/zero`` is refused before a byte is read, a file past the size limit is refused from its
size alone, a folder where a file belongs is named as such, JSON nested too deep, numbers
beyond a float (``1e400``) or past a digit limit, and CSV fields past csv's limit. Long files
are read a line at a time (``iter_user_lines``, gzip ones too). A file found inside a folder
the user named (a run directory) is read with ``inside``: no symbolic link below that folder
is followed, so a run folder from someone else cannot make a command read another file.
"""

from __future__ import annotations

import codecs
import csv
import gzip
import io
import json
import math
import os
import re
import stat
import zlib
from collections.abc import Generator
from pathlib import Path
from typing import Any, BinaryIO, cast

MAX_FILE_BYTES = 256 * 1024 * 1024
"""The largest file (and decompressed recording) a user may hand any command: 256 MiB."""
MAX_JSON_DEPTH = 100
"""The deepest nesting of arrays and objects accepted in a JSON document or JSONL line."""
MAX_INT_DIGITS = 1000
"""The most digits a JSON integer may have."""


class UserFileError(ValueError):
    """A file a user named that cannot be read as asked: ``path``, the 1-based ``line`` and
    ``column`` when known (0 otherwise), the ``field`` when known, and the ``reason``."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        reason: str,
        line: int = 0,
        column: int = 0,
        *,
        field: str = "",
    ) -> None:
        where = f":{line}" if line else ""
        where += f":{column}" if line and column else ""
        named = f"field '{field}': " if field else ""
        shown = str(path).replace("\0", "\\0")
        super().__init__(f"{shown}{where}: {named}{reason}")
        self.path = Path(path)
        self.line = line
        self.column = column
        self.field = field
        self.reason = reason


class NotUtf8Error(ValueError):
    """Bytes that are not UTF-8: the 1-based ``line`` and ``column`` (in bytes) of the first."""

    def __init__(self, line: int, column: int, byte: int) -> None:
        super().__init__(f"not UTF-8: byte 0x{byte:02x} at line {line}, column {column}")
        self.line = line
        self.column = column


def decode_utf8(data: bytes) -> str:
    """``data`` as text; a leading UTF-8 byte-order mark is dropped; NotUtf8Error otherwise."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line_start = data.rfind(b"\n", 0, err.start) + 1
        line = data.count(b"\n", 0, err.start) + 1
        raise NotUtf8Error(line, err.start - line_start + 1, data[err.start]) from None


def _size_error(path: str | os.PathLike[str], limit: int) -> UserFileError:
    return UserFileError(path, f"larger than the {limit // (1024 * 1024)} MiB limit")


def _open_below(path: Path, inside: Path) -> int:
    """A descriptor of the file ``path`` found in the folder ``inside``, opened without
    following a link anywhere below ``inside`` (UserFileError naming the link)."""
    try:
        parts = path.relative_to(inside).parts
    except ValueError:
        raise ValueError(f"{path} is not inside {inside}") from None
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOFOLLOW
    fd = os.open(inside, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    reached = inside
    try:
        for index, part in enumerate(parts):
            reached = reached / part
            last = index == len(parts) - 1
            try:
                inner = os.open(part, flags if last else flags | os.O_DIRECTORY, dir_fd=fd)
            except OSError as err:
                if os.path.islink(reached):
                    raise UserFileError(reached, "is a symbolic link; not read") from None
                raise UserFileError(reached, _os_reason(err)) from None
            os.close(fd)
            fd = inner
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_user_file(
    path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES, *, inside: Path | None = None
) -> BinaryIO:
    """The regular file at ``path`` open for reading bytes; UserFileError, before a byte is
    read, when it is missing, unreadable, a folder, a FIFO or device, or larger than ``limit``
    (nothing is waited on). ``inside``: the folder ``path`` was found in (a run directory, not
    named by the user), below which no symbolic link is followed."""
    try:
        if inside is None:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        else:
            fd = _open_below(Path(path), inside)
    except OSError as err:
        raise UserFileError(path, _os_reason(err)) from None
    except ValueError as err:
        if isinstance(err, UserFileError) or "\0" not in str(path):
            raise
        raise UserFileError(path, "the file name holds a NUL byte") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UserFileError(path, "is a folder, not a file")
        raise UserFileError(path, "not a regular file (a pipe, socket or device)")
    if info.st_size > limit:
        os.close(fd)
        raise _size_error(path, limit)
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb", buffering=1 << 16)


def file_identity(file: BinaryIO) -> tuple[int, int, int, int]:
    """What tells an open file apart from another or from itself once changed: device, inode,
    size and modification time."""
    info = os.fstat(file.fileno())
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns


def read_user_bytes(
    path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES, *, inside: Path | None = None
) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them (see
    ``open_user_file``)."""
    with open_user_file(path, limit, inside=inside) as file:
        try:
            data = file.read(limit + 1)
        except OSError as err:
            raise UserFileError(path, _os_reason(err)) from None
    if len(data) > limit:
        raise _size_error(path, limit)
    return data


def _os_reason(err: OSError) -> str:
    if isinstance(err, FileNotFoundError):
        return "no such file"
    if isinstance(err, IsADirectoryError):
        return "is a folder, not a file"
    if isinstance(err, NotADirectoryError):
        return "a part of the path is not a folder"
    return f"cannot read it ({err.strerror or err})"


def iter_user_lines(
    path: str | os.PathLike[str],
    *,
    limit: int = MAX_FILE_BYTES,
    inside: Path | None = None,
    allow_bom: bool = True,
) -> Generator[tuple[int, int, str], None, None]:
    """Every line of a user's UTF-8 text file, read as it goes (memory holds one line): the
    1-based line number, the byte offset where the line starts, and its text without the
    ``\n`` (lines end at ``\n`` only). Errors as ``read_user_text``, naming the line."""
    with open_user_file(path, limit, inside=inside) as file:
        yield from lines_of(file, path, limit=limit, allow_bom=allow_bom)


def lines_of(
    file: BinaryIO,
    path: str | os.PathLike[str],
    *,
    limit: int = MAX_FILE_BYTES,
    allow_bom: bool = True,
) -> Generator[tuple[int, int, str], None, None]:
    """The lines of ``file`` (opened by ``open_user_file`` from ``path``, or a decompressing
    reader over one) as ``iter_user_lines`` gives them; no read goes past ``limit`` bytes, so
    a line without an end cannot fill memory."""
    offset = 0
    number = 0
    while raw := file.readline(limit - offset + 1):
        number += 1
        start = offset
        offset += len(raw)
        if offset > limit:
            raise _size_error(path, limit)
        if number == 1 and raw.startswith(codecs.BOM_UTF8):
            if not allow_bom:
                raise UserFileError(
                    path, "starts with a UTF-8 byte-order mark; save it without one", 1
                )
            raw = raw[len(codecs.BOM_UTF8) :]
        yield number, start, decode_line(raw, path, number)


def iter_user_gzip_lines(
    path: str | os.PathLike[str], *, limit: int = MAX_FILE_BYTES, inside: Path | None = None
) -> Generator[tuple[int, int, str], None, None]:
    """The lines of a gzip-compressed user file as ``iter_user_lines`` gives them, decompressed
    as they are read: refused when the file or its text passes ``limit`` bytes (a small bomb
    cannot fill memory), or when it is not gzip data."""
    with open_user_file(path, limit, inside=inside) as packed:
        try:
            with gzip.GzipFile(fileobj=packed, mode="rb") as text:
                yield from lines_of(cast(BinaryIO, text), path, limit=limit)
        except (OSError, EOFError, zlib.error) as err:
            raise UserFileError(path, f"not gzip data ({err})") from None


def decode_line(raw: bytes, path: str | os.PathLike[str], number: int) -> str:
    """One line of a user's file as text, without its ``\n``; UserFileError names the line
    and the column (in bytes) of a byte that is not UTF-8."""
    try:
        return raw.decode("utf-8").removesuffix("\n")
    except UnicodeDecodeError as err:
        column = err.start + 1
        reason = f"not UTF-8: byte 0x{raw[err.start]:02x} at line {number}, column {column}"
        raise UserFileError(path, reason, number, column) from None


def read_user_text(
    path: str | os.PathLike[str],
    *,
    allow_bom: bool = True,
    limit: int = MAX_FILE_BYTES,
    inside: Path | None = None,
) -> str:
    """The UTF-8 text of a user's file (``read_user_bytes``); a leading byte-order mark is
    dropped, or refused when ``allow_bom`` is false; bad bytes name their line and column."""
    data = read_user_bytes(path, limit, inside=inside)
    if not allow_bom and data.startswith(codecs.BOM_UTF8):
        raise UserFileError(path, "starts with a UTF-8 byte-order mark; save it without one", 1)
    try:
        return decode_utf8(data)
    except NotUtf8Error as err:
        raise UserFileError(path, str(err), err.line, err.column) from None


class _Bad(Exception):
    """A JSON token refused while parsing: its text, found again to name its place."""

    def __init__(self, token: str, reason: str) -> None:
        super().__init__(reason)
        self.token = token
        self.reason = reason


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Bad(text, f"number {text} is too large for a float")
    return value


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise _Bad(text, f"integer with {digits} digits (the limit is {MAX_INT_DIGITS})")
    return int(text)


def _constant(text: str) -> float:
    raise _Bad(text, f"{text} is not a JSON number")


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def _too_deep_at(text: str, limit: int) -> int:
    """The offset where ``text``'s brackets first nest deeper than ``limit`` (0 when never)."""
    depth = 0
    position = 0
    for match in re.finditer(r'"|[\[\]{}]', text):
        if match.start() < position:
            continue
        char = match.group()
        if char == '"':
            string = _STRING.match(text, match.start())
            position = string.end() if string else len(text)
            continue
        depth += 1 if char in "[{" else -1
        if depth > limit:
            return match.start()
    return 0


def _depth(value: Any) -> int:
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item)
    return deepest


def parse_user_json(
    text: str, path: str | os.PathLike[str], first_line: int = 1, max_depth: int = MAX_JSON_DEPTH
) -> Any:
    """``text`` (from ``path``, starting at line ``first_line``) as a JSON value: finite numbers,
    no NaN, nesting at most ``max_depth``; UserFileError names the line and column otherwise."""

    def error(reason: str, offset: int) -> UserFileError:
        line, column = _position(text, offset)
        return UserFileError(path, reason, line + first_line - 1, column)

    deep = f"nested deeper than {max_depth} levels"
    try:
        value = json.loads(text, parse_float=_float, parse_int=_int, parse_constant=_constant)
    except json.JSONDecodeError as err:
        raise error(f"not valid JSON: {err.msg}", err.pos) from None
    except RecursionError:
        raise error(deep, _too_deep_at(text, max_depth)) from None
    except _Bad as bad:
        raise error(bad.reason, max(text.find(bad.token), 0)) from None
    if _depth(value) > max_depth:
        raise error(deep, _too_deep_at(text, max_depth))
    return value


def read_user_json(
    path: str | os.PathLike[str], *, allow_bom: bool = True, inside: Path | None = None
) -> Any:
    """The JSON value in a user's file (``read_user_text`` then ``parse_user_json``)."""
    return parse_user_json(read_user_text(path, allow_bom=allow_bom, inside=inside), path)


def read_user_json_object(
    path: str | os.PathLike[str], *, allow_bom: bool = True, inside: Path | None = None
) -> dict[str, Any]:
    """The JSON object in a user's file; UserFileError when it holds another kind of value."""
    value = read_user_json(path, allow_bom=allow_bom, inside=inside)
    if not isinstance(value, dict):
        raise UserFileError(path, "expected a JSON object", 1)
    return value


def parse_user_jsonl(text: str, path: str | os.PathLike[str]) -> list[tuple[int, dict[str, Any]]]:
    """Every non-blank line of ``text`` (JSONL from ``path``) as (line number, JSON object);
    UserFileError names the line of the first that is not one. Lines end at ``\n`` only (a
    JSON string may hold other line separators such as U+0085 or U+2028 unescaped)."""
    return [
        (lineno, parse_jsonl_line(line, path, lineno))
        for lineno, line in enumerate(text.split("\n"), start=1)
        if line.strip()
    ]


def parse_jsonl_line(line: str, path: str | os.PathLike[str], lineno: int) -> dict[str, Any]:
    """Line ``lineno`` of the JSONL file ``path`` as a JSON object; UserFileError names the
    line otherwise, and says so when the file ends its lines with a bare carriage return."""
    try:
        record = parse_user_json(line, path, lineno)
    except UserFileError:
        bare = re.search(r"\r(?!\n|$)", line)
        if bare is None:
            raise
        column = bare.start() + 1
        reason = (
            f"a bare carriage return (CR) at column {column} ends a line; JSONL lines end "
            "in a line feed (LF)"
        )
        raise UserFileError(path, reason, lineno, column) from None
    if not isinstance(record, dict):
        raise UserFileError(path, "expected a JSON object", lineno)
    return record


def read_user_jsonl(
    path: str | os.PathLike[str], *, allow_bom: bool = True, inside: Path | None = None
) -> list[tuple[int, dict[str, Any]]]:
    """The JSON objects of a user's JSONL file with their line numbers, read line by line
    (``iter_user_lines``, ``parse_jsonl_line``)."""
    return [
        (lineno, parse_jsonl_line(line, path, lineno))
        for lineno, _, line in iter_user_lines(path, inside=inside, allow_bom=allow_bom)
        if line.strip()
    ]


def read_user_csv(path: str | os.PathLike[str]) -> list[tuple[int, list[str]]]:
    """The rows of a user's CSV file (UTF-8, a byte-order mark allowed), each with the line it
    starts on; a malformed row, a field past the csv module's limit (128 KiB) or a NUL byte names
    its line."""
    text = read_user_text(path)
    nul = text.find("\0")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        column = nul - text.rfind("\n", 0, nul)
        raise UserFileError(path, "holds a NUL byte", line, column)
    reader = csv.reader(io.StringIO(text, newline=""))
    rows: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for row in reader:
            rows.append((start, row))
            start = reader.line_num + 1
    except csv.Error as err:
        raise UserFileError(path, f"not valid CSV: {err}", reader.line_num) from None
    return rows
