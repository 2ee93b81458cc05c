"""``gumshoe export dataset RUN... --out DIR``: runs as flat tables with a dataset card."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from benchmarks.dataset.card import dataset_card
from benchmarks.dataset.files import Format, pyarrow_missing, table_file, write_table
from benchmarks.dataset.hub import hub_token, push_folder
from benchmarks.dataset.rows import TABLES, Tables, export_run
from games.core.cli import fail, prepare_out
from reasoning.outfile import write_atomic


def export_dataset(
    runs: Annotated[
        list[Path], typer.Argument(help="Run directories (`gumshoe bench <game> --out RUN`).")
    ],
    out: Annotated[Path, typer.Option("--out", help="The dataset folder to write.")],
    fmt: Annotated[
        Format, typer.Option("--format", help="parquet (needs the `export` extra) or jsonl.")
    ] = "parquet",
    push: Annotated[
        str | None,
        typer.Option(metavar="REPO", help="Upload the folder to this Hugging Face dataset repo."),
    ] = None,
) -> None:
    """Write one table per kind of row (claims with their exact audit, LLM decisions, games)
    over every game of the runs, and a dataset card (README.md) the Hugging Face Hub reads;
    with --push, upload the folder (needs a token: HF_TOKEN)."""
    command = shlex.join(
        ["gumshoe", "export", "dataset", *map(str, runs), "--out", str(out), "--format", fmt]
        + (["--push", push] if push else [])
    )
    try:
        token = hub_token() if push else None
        missing = pyarrow_missing() if fmt == "parquet" else None
        if missing is not None:
            raise ValueError(missing)
        tables = Tables()
        for run in runs:
            export_run(run, tables)
        prepare_out(out)
        for table in TABLES:
            (out / table_file(table, "jsonl" if fmt == "parquet" else "parquet")).unlink(
                missing_ok=True
            )
        files = {
            table: write_table(out, table, model, tables.rows(table), fmt)
            for table, model in TABLES.items()
        }
        write_atomic(out / "README.md", dataset_card(tables, fmt, command, push))
    except (ValueError, ValidationError, OSError) as err:
        fail(err)
    for table, path in files.items():
        typer.echo(f"{path}: {len(tables.rows(table))} rows")
    typer.echo(f"{out / 'README.md'}: the dataset card")
    if push and token:
        try:
            url = push_folder(out, push, token)
        except ValueError as err:
            fail(err)
        typer.echo(f"pushed to {url}")
