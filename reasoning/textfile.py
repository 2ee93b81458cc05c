"""Reading input text files: UTF-8 with an optional byte-order mark, errors with a position."""

from __future__ import annotations

import codecs
import os
from pathlib import Path


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


def read_utf8(path: str | os.PathLike[str]) -> str:
    """The text of the file at ``path`` (see ``decode_utf8``); OSError when it cannot be read."""
    return decode_utf8(Path(path).read_bytes())
