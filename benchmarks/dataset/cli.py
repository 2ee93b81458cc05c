"""``gumshoe export dataset RUN... --out DIR``: runs as flat tables with a dataset card."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from benchmarks.dataset.card import SplitSize, dataset_card, license_id
from benchmarks.dataset.files import PARQUET, Format, split_bytes, table_file, write_table
from benchmarks.dataset.hub import hub_token, push_folder
from benchmarks.dataset.rows import TABLES, Tables, export_run
from games.core.cli import fail, prepare_out
from reasoning.extras import optional_import
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
    license: Annotated[
        str | None,
        typer.Option(
            metavar="ID",
            help="The dataset's licence, as the Hub names it (cc-by-4.0, other, ...). "
            "[default: gumshoe's own, mit]",
        ),
    ] = None,
) -> None:
    """Write one table per kind of row (claims with their exact audit, LLM decisions, games)
    over every game of the runs, and a dataset card (README.md) the Hugging Face Hub reads;
    with --push, upload the folder (needs a token: HF_TOKEN)."""
    command = shlex.join(
        ["gumshoe", "export", "dataset", *map(str, runs), "--out", str(out), "--format", fmt]
        + (["--push", push] if push else [])
        + (["--license", license] if license else [])
    )
    try:
        chosen = license_id(license) if license is not None else None
        token = hub_token() if push else None
        if fmt == "parquet":
            optional_import("pyarrow.parquet", "export", PARQUET)
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
        sizes = {
            table: SplitSize(
                num_bytes=split_bytes(TABLES[table], tables.rows(table), path),
                file_bytes=path.stat().st_size,
            )
            for table, path in files.items()
        }
        card = dataset_card(tables, fmt, command, sizes, push, chosen)
        write_atomic(out / "README.md", card)
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
