"""JSON input files: where each value starts (a map from field path to 1-based line number),
and reading a pydantic model from a file with errors that name the file, line and field.

pydantic names an invalid field by its path (``questions.1.slots.0.answer``); the map turns
that path into the line a person should look at.
"""

from __future__ import annotations

import json
from pathlib import Path as FilePath
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, ValidationError

from reasoning.textfile import UserFileError, parse_user_json, read_user_text

Path = tuple[str | int, ...]
M = TypeVar("M", bound=BaseModel)

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


def _formula_text(text: str) -> str:
    from reasoning.syntax import FormulaSyntaxError, parse_formula

    try:
        parse_formula(text)
    except FormulaSyntaxError as err:
        raise ValueError(f"not a formula: column {err.column}: {err.message}") from None
    return text


FormulaText = Annotated[str, AfterValidator(_formula_text)]
"""A formula in the text syntax as a JSON string, checked when the file is read."""


def line_in(text: str, path: Path) -> int:
    """The line of the value at ``path`` in the JSON ``text`` (1 when it cannot be told)."""
    try:
        return line_of(value_lines(text), path)
    except (RecursionError, ValueError, IndexError):
        return 1


def parse_model(
    text: str,
    model: type[M],
    source: str,
    error: type[ValueError],
    context: dict[str, Any] | None = None,
) -> M:
    """``text`` (JSON, read as ``reasoning.textfile`` reads a user's JSON) validated as ``model``
    (with ``context`` for its validators); ``error`` says ``source:line: what is wrong``, naming
    the field of the first problem (and how many more there are)."""
    try:
        data = parse_user_json(text, source)
    except UserFileError as err:
        raise error(str(err)) from None
    if not isinstance(data, dict):
        raise error(f"{source}:1: expected a JSON object")
    try:
        return model.model_validate(data, context=context)
    except ValidationError as err:
        first = err.errors(include_url=False)[0]
        loc = tuple(first["loc"])
        where = ".".join(str(part) for part in loc)
        message = first["msg"].removeprefix("Value error, ")
        field = f"field '{where}': " if where else ""
        more = f" (and {err.error_count() - 1} more)" if err.error_count() > 1 else ""
        raise error(f"{source}:{line_in(text, loc)}: {field}{message}{more}") from None


def read_json_text(path: FilePath, limit: int, error: type[ValueError]) -> str:
    """The text of the user's file ``path`` (``reasoning.textfile``), at most ``limit`` bytes;
    ``error`` naming the file otherwise."""
    try:
        return read_user_text(path, limit=limit)
    except UserFileError as err:
        raise error(str(err)) from None
