"""The tables of a dataset as files: Parquet (through pyarrow, the ``[export]`` extra) or JSONL.

Each column's type comes from its row model's annotation, so the Parquet schema, the dataset
card's features and the rows are one definition (``benchmarks.dataset.rows``). A column holds a
scalar (``string``, ``int64``, ``float64``, ``bool``), a list of scalars, or a list of records
(a row model of its own, such as a chat message ``{role, content}``).
"""

from __future__ import annotations

import types
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from reasoning.extras import optional_import
from reasoning.outfile import atomic_file, write_atomic

Format = Literal["parquet", "jsonl"]
"""The file formats a dataset is written in."""

_SCALARS: dict[type, str] = {str: "string", int: "int64", float: "float64", bool: "bool"}


@dataclass(frozen=True)
class Struct:
    """A record type: its fields' names and types, in order."""

    fields: tuple[tuple[str, Dtype], ...]


@dataclass(frozen=True)
class ListOf:
    """A list of one type."""

    item: Dtype


Dtype = str | Struct | ListOf
"""A column's type: a scalar's name as the Hugging Face card writes it, a record or a list."""


def _scalar(annotation: Any) -> str:
    if get_origin(annotation) is Literal:
        kinds = {type(value) for value in get_args(annotation)}
        if len(kinds) == 1:
            return _SCALARS[kinds.pop()]
    return _SCALARS[annotation]


def dtype(annotation: Any) -> Dtype:
    """The type of a (non-null) annotation: a scalar, a list, or a row model as a record."""
    if get_origin(annotation) is list:
        (item,) = get_args(annotation)
        return ListOf(dtype(item))
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        fields = annotation.model_fields.items()
        return Struct(tuple((name, dtype(field.annotation)) for name, field in fields))
    return _scalar(annotation)


def feature(annotation: Any) -> tuple[Dtype, bool]:
    """A column's type and whether it may be null."""
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        (single,) = args
        return dtype(single), len(args) < len(get_args(annotation))
    return dtype(annotation), False


def shown(kind: Dtype) -> str:
    """A type as the card's tables write it: ``list<int64>``, ``list<struct<role: string,
    content: string>>``."""
    if isinstance(kind, ListOf):
        return f"list<{shown(kind.item)}>"
    if isinstance(kind, Struct):
        return "struct<" + ", ".join(f"{name}: {shown(k)}" for name, k in kind.fields) + ">"
    return kind


def yaml_feature(name: str | None, kind: Dtype, indent: str) -> list[str]:
    """A feature in the card's YAML, as ``datasets`` writes it (``dtype``, ``list``, records as
    lists of named features); ``name`` None for a record's field list alone."""
    head = [f"{indent}- name: {name}"] if name is not None else []
    inner = indent + "  "
    if isinstance(kind, ListOf) and isinstance(kind.item, str):
        return [*head, f"{inner}list: {kind.item}"]
    if isinstance(kind, ListOf) and isinstance(kind.item, Struct):
        lines = [*head, f"{inner}list:"]
        for field, sub in kind.item.fields:
            lines += yaml_feature(field, sub, inner)
        return lines
    if isinstance(kind, Struct):
        lines = [*head, f"{inner}struct:"]
        for field, sub in kind.fields:
            lines += yaml_feature(field, sub, inner)
        return lines
    if isinstance(kind, ListOf):
        raise ValueError(f"{name}: lists of lists are not a dataset feature here")
    return [*head, f"{inner}dtype: {kind}"]


def features(model: type[BaseModel]) -> list[tuple[str, Dtype, bool, str]]:
    """Every column of ``model``'s table: name, type, nullable, description."""
    return [
        (name, *feature(field.annotation), field.description or "")
        for name, field in model.model_fields.items()
    ]


PARQUET = "--format parquet (--format jsonl needs no extra)"
"""What pyarrow (the ``export`` extra) writes, as a missing extra names it."""


def arrow_type(kind: Dtype) -> Any:
    """The pyarrow type of a column type."""
    pa = optional_import("pyarrow", "export", PARQUET)
    if isinstance(kind, ListOf):
        return pa.list_(arrow_type(kind.item))
    if isinstance(kind, Struct):
        return pa.struct([pa.field(name, arrow_type(k)) for name, k in kind.fields])
    scalars = {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64()}
    return scalars.get(kind, pa.bool_())


def arrow_schema(model: type[BaseModel]) -> Any:
    """The pyarrow schema of ``model``'s table."""
    pa = optional_import("pyarrow", "export", PARQUET)
    return pa.schema(
        [pa.field(name, arrow_type(kind), nullable=null) for name, kind, null, _ in features(model)]
    )


def arrow_table(model: type[BaseModel], rows: Sequence[BaseModel]) -> Any:
    """``rows`` of ``model`` as a pyarrow table with the model's schema."""
    pa = optional_import("pyarrow", "export", PARQUET)
    return pa.Table.from_pylist([row.model_dump() for row in rows], schema=arrow_schema(model))


def split_bytes(model: type[BaseModel], rows: Sequence[BaseModel], path: Path) -> int:
    """The size of a table's rows as ``datasets`` counts a split (``num_bytes``: the Arrow
    table's buffers), or, where pyarrow is not installed, of its file."""
    if find_spec("pyarrow") is None:
        return path.stat().st_size
    return int(arrow_table(model, rows).nbytes)


def table_file(table: str, fmt: Format) -> str:
    """The file name of ``table`` in format ``fmt``."""
    return f"{table}.{fmt}"


def write_table(
    folder: Path, table: str, model: type[BaseModel], rows: Sequence[BaseModel], fmt: Format
) -> Path:
    """Write ``rows`` of ``model`` to ``folder`` as ``table`` in ``fmt``; return the file."""
    path = folder / table_file(table, fmt)
    if fmt == "jsonl":
        write_atomic(path, "".join(row.model_dump_json() + "\n" for row in rows))
        return path
    pq = optional_import("pyarrow.parquet", "export", PARQUET)
    data = arrow_table(model, rows)
    with atomic_file(path, binary=True) as out, pq.ParquetWriter(out, data.schema) as writer:
        if data.num_rows:  # no row group for no rows: `datasets` fails on an empty one
            writer.write_table(data)
    return path
