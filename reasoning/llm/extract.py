"""Pulling an answer out of free model text: JSON objects, or labelled lines like ``KEY: value``."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)
# strict=False: small models put raw newlines and tabs inside JSON strings.
_DECODER = json.JSONDecoder(strict=False)
# Markdown decoration a model may put around a label: list bullets, headings, quotes, bold.
_DECORATION = " \t-*#>_`"


class MalformedAnswer(ValueError):
    """A reply that does not hold an answer in the requested form; the message says why."""


def json_objects(text: str) -> list[dict[str, Any]]:
    """Every top-level JSON object in ``text``: fenced code blocks first, then bare objects.

    Objects nested in a found object are not listed separately; duplicates are dropped.
    """
    found: list[dict[str, Any]] = []
    for block in _FENCE.findall(text):
        _scan(block, found)
    _scan(text, found)
    return found


def _scan(text: str, found: list[dict[str, Any]]) -> None:
    position = text.find("{")
    while position != -1:
        try:
            value, end = _DECODER.raw_decode(text, position)
        except json.JSONDecodeError:
            position = text.find("{", position + 1)
            continue
        if isinstance(value, dict) and value not in found:
            found.append(value)
        position = text.find("{", end)


def labelled_fields(
    text: str, labels: Iterable[str], *, required: Iterable[str] = ()
) -> dict[str, str]:
    """Read ``LABEL: value`` lines for the given labels (case-insensitive, markdown-tolerant).

    A value runs on over following lines until the next known label, so multi-line fields such
    as a step-by-step reasoning stay whole. When a label appears more than once the last one
    wins (models often echo the template before answering). Keys are the labels as given;
    a missing ``required`` label or an empty required value raises ``MalformedAnswer``.
    """
    wanted = list(required)
    canonical = {label.strip().upper(): label for label in [*labels, *wanted]}
    fields: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        label, value = _split_label(line)
        if label is not None and label in canonical:
            current = fields[canonical[label]] = [value]
        elif current is not None:
            current.append(line.strip())
    result = {key: "\n".join(lines).strip() for key, lines in fields.items()}
    missing = [label for label in wanted if not result.get(label)]
    if missing:
        names = ", ".join(f"{label.upper()}:" for label in missing)
        raise MalformedAnswer(f"no line starting with {names} (or it was left empty)")
    return result


def _split_label(line: str) -> tuple[str | None, str]:
    head, colon, rest = line.partition(":")
    if not colon:
        return None, ""
    label = head.strip(_DECORATION).upper()
    return label, rest.strip(" \t*")


def labelled_text(answer: BaseModel) -> str:
    """An answer model as ``LABEL: value`` lines (the field names upper-cased), the form
    ``labelled_fields`` reads: list items one per line, an empty list or None as ``NONE``."""
    lines = []
    for name, value in answer:
        if isinstance(value, list | tuple):
            text = "\n".join(str(item) for item in value) or "NONE"
        elif value is None:
            text = "NONE"
        else:
            text = str(value)
        lines.append(f"{name.upper()}: {text}")
    return "\n".join(lines)
