"""The tables of a dataset as files: Parquet (through pyarrow, the ``[export]`` extra) or JSONL.

Each column's type comes from its row model's annotation, so the Parquet schema, the dataset
card's features and the rows are one definition (``benchmarks.dataset.rows``).
"""

from __future__ import annotations

import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from reasoning.outfile import atomic_file, write_atomic

Format = Literal["parquet", "jsonl"]
"""The file formats a dataset is written in."""

_SCALARS: dict[type, str] = {str: "string", int: "int64", float: "float64", bool: "bool"}


def feature(annotation: Any) -> tuple[str, bool]:
    """A column's type as the Hugging Face dataset card names it (``string``, ``int64``,
    ``float64``, ``bool``, or ``list<...>`` of one of them) and whether it may be null."""
    nullable = False
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        nullable = len(args) < len(get_args(annotation))
        (annotation,) = args
    if get_origin(annotation) is list:
        (item,) = get_args(annotation)
        return f"list<{_SCALARS[item]}>", nullable
    return _SCALARS[annotation], nullable


def features(model: type[BaseModel]) -> list[tuple[str, str, bool, str]]:
    """Every column of ``model``'s table: name, type, nullable, description."""
    return [
        (name, *feature(field.annotation), field.description or "")
        for name, field in model.model_fields.items()
    ]


def arrow_schema(model: type[BaseModel]) -> Any:
    """The pyarrow schema of ``model``'s table."""
    import pyarrow as pa

    scalars = {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64()}
    scalars["bool"] = pa.bool_()

    def arrow(kind: str) -> Any:
        if kind.startswith("list<"):
            return pa.list_(scalars[kind[5:-1]])
        return scalars[kind]

    return pa.schema(
        [pa.field(name, arrow(kind), nullable=null) for name, kind, null, _ in features(model)]
    )


def pyarrow_missing() -> str | None:
    """Why Parquet cannot be written here (pyarrow absent), or None."""
    try:
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return (
            "--format parquet needs pyarrow: install gumshoe's `export` extra "
            "(pip install 'gumshoe[export]'), or use --format jsonl"
        )
    return None


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
    import pyarrow as pa
    import pyarrow.parquet as pq

    data = pa.Table.from_pylist([row.model_dump() for row in rows], schema=arrow_schema(model))
    with atomic_file(path, binary=True) as out:
        pq.write_table(data, out)
    return path
