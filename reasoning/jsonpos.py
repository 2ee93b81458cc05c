"""Where each value of a JSON document starts: a map from field path to 1-based line number.

pydantic names an invalid field by its path (``questions.1.slots.0.answer``); this map turns
that path into the line a person should look at.
"""

from __future__ import annotations

import json

Path = tuple[str | int, ...]

_DECODER = json.JSONDecoder()
_SPACE = " \t\r\n"


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _SPACE:
        i += 1
    return i


def _line(text: str, i: int) -> int:
    return text.count("\n", 0, i) + 1


def _index(text: str, i: int, path: Path, out: dict[Path, int]) -> int:
    """Record the line of the value at ``i`` and of everything inside it; return its end."""
    i = _skip(text, i)
    out[path] = _line(text, i)
    if text[i] == "{":
        i = _skip(text, i + 1)
        while text[i] != "}":
            key, i = _DECODER.raw_decode(text, i)
            i = _skip(text, i) + 1
            i = _skip(text, _index(text, i, (*path, str(key)), out))
            if text[i] == ",":
                i = _skip(text, i + 1)
        return i + 1
    if text[i] == "[":
        i = _skip(text, i + 1)
        n = 0
        while text[i] != "]":
            i = _skip(text, _index(text, i, (*path, n), out))
            n += 1
            if text[i] == ",":
                i = _skip(text, i + 1)
        return i + 1
    _, end = _DECODER.raw_decode(text, i)
    return int(end)


def value_lines(text: str) -> dict[Path, int]:
    """The line each value of the (valid) JSON ``text`` starts on, by its path from the root."""
    out: dict[Path, int] = {}
    _index(text, 0, (), out)
    return out


def line_of(lines: dict[Path, int], path: Path) -> int:
    """The line of the value at ``path``, or of its nearest recorded ancestor."""
    while path not in lines and path:
        path = path[:-1]
    return lines.get(path, 1)
