"""Building the answer models games hand to structured output.

An answer model is a pydantic model the client sends as the response's JSON schema (a
grammar-constrained server can then only write what it allows) and the reply is validated
against. Games build them from what is legal now; these are the pieces they share.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

_FORBID = ConfigDict(extra="forbid")
_BY_KEY = ConfigDict(extra="forbid", serialize_by_alias=True, validate_by_name=False)


def answer_model(name: str, fields: Mapping[str, Any]) -> type[BaseModel]:
    """A model called ``name`` with ``fields`` (as ``create_model`` takes them) and no others."""
    model: type[BaseModel] = create_model(name, __config__=_FORBID, **dict(fields))
    return model


def keyed_model(name: str, kinds: Mapping[str, Any]) -> type[BaseModel]:
    """A model with one required field per key of ``kinds``, of that key's type, read and
    written under the key itself: keys come from game data (players' or parts' names) and need
    not be identifiers."""
    fields: dict[str, Any] = {
        f"k_{i}": (kind, Field(alias=key)) for i, (key, kind) in enumerate(kinds.items())
    }
    model: type[BaseModel] = create_model(name, __config__=_BY_KEY, **fields)
    return model


def text_field(max_length: int) -> Any:
    """A required, non-empty string field of at most ``max_length`` characters."""
    return (str, Field(min_length=1, max_length=max_length))
