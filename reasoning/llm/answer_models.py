"""Building the answer models games hand to structured output.

An answer model is a pydantic model the client sends as the response's JSON schema (a
grammar-constrained server can then only write what it allows) and the reply is validated
against. Games build them from what is legal now; these are the pieces they share. Every answer
schema keeps to the subset all servers take (``reasoning.llm.schema_limits``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, create_model

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


def _written(text: str) -> str:
    if not text.strip():
        raise ValueError("it is empty")
    return text


NonEmptyText = Annotated[str, AfterValidator(_written)]
"""Free text that must say something; its schema is a plain string."""


def text_field() -> Any:
    """A required free-text field that must not be empty. Its schema bounds no length: a
    grammar spells a bound out character by character (a large one crashes llama.cpp servers),
    and the reply's token budget bounds the text anyway."""
    return (NonEmptyText, ...)
