"""The dataset card (``README.md``) of an exported dataset, as the Hugging Face Hub reads it.

The YAML front matter names each table as a config with its data file and features; the text
says what a row is, lists every column with its type, and how the folder was made (gumshoe's
version, the command, the runs).
"""

from __future__ import annotations

import json
from importlib.metadata import PackageNotFoundError, version

from benchmarks.dataset.files import Format, features, table_file
from benchmarks.dataset.rows import TABLES, Tables

WHAT: dict[str, str] = {
    "claims": "one row per claim a seat stated, as the game's exact audit judged it: its status "
    "against what the seat knew (ENTAILED, CONTRADICTED, UNDETERMINED, UNKNOWN), its truth "
    "(TRUE, FALSE) and the judgement the two give (sound, lucky, wrong, unjudged)",
    "decisions": "one row per LLM call a run recorded (`--record`), joined to the decision the "
    "game logged from it; games that log their decisions (Hanabi) also give a row for each "
    "logged decision whose call was not recorded",
    "games": "one row per game: seats, result and the audit's counts",
    "readings": "one row per slot of an answer a seat gave in words (the detective's free-text "
    "player): the text, how it was read (asserted, several, rejected, none, unsure), the option, "
    "the character spans of the words that decided it, the reader and its LLM vote",
}
"""What a row of each table is."""


def gumshoe_version() -> str:
    """The installed gumshoe's version (``unknown`` when not installed)."""
    try:
        return version("gumshoe")
    except PackageNotFoundError:
        return "unknown"


def _yaml_feature(name: str, kind: str) -> list[str]:
    if kind.startswith("list<"):
        return [f"  - name: {name}", f"    sequence: {kind[5:-1]}"]
    return [f"  - name: {name}", f"    dtype: {kind}"]


def front_matter(tables: Tables, fmt: Format) -> list[str]:
    """The card's YAML front matter: configs with data files, and features per config."""
    lines = ["---", "pretty_name: gumshoe deduction-game runs", "tags:"]
    lines += ["- gumshoe", "- reasoning", "- deduction", "- games", "configs:"]
    for table in TABLES:
        lines += [f"- config_name: {table}", "  data_files:", "  - split: train"]
        lines.append(f"    path: {table_file(table, fmt)}")
    lines.append("dataset_info:")
    for table, model in TABLES.items():
        lines += [f"- config_name: {table}", "  features:"]
        for name, kind, _, _ in features(model):
            lines += [f"  {line}" for line in _yaml_feature(name, kind)]
        lines += ["  splits:", "  - name: train", f"    num_examples: {len(tables.rows(table))}"]
    return [*lines, "---"]


def dataset_card(tables: Tables, fmt: Format, command: str, repo: str | None = None) -> str:
    """The whole card of ``tables`` written in ``fmt`` by ``command`` (for the Hub repository
    ``repo`` when it is pushed to one)."""
    lines = front_matter(tables, fmt)
    lines += ["", "# gumshoe deduction-game runs", ""]
    lines += [
        "Games played with gumshoe and audited exactly: every claim an agent stated is judged "
        "by what it knew and by the hidden truth.",
        "",
        "## How it was made",
        "",
        f"gumshoe {gumshoe_version()}, with:",
        "",
        "```",
        command,
        "```",
        "",
        "| run | games |",
        "| --- | --- |",
        *(f"| {run} | {games} |" for run, games in tables.runs.items()),
        "",
        "## Tables",
    ]
    for table, model in TABLES.items():
        rows = len(tables.rows(table))
        lines += [
            "",
            f"### {table}",
            "",
            f"`{table_file(table, fmt)}`, {rows} rows: {WHAT[table]}.",
        ]
        lines += ["", "| column | type | description |", "| --- | --- | --- |"]
        for name, kind, nullable, text in features(model):
            shown = kind + (" (nullable)" if nullable else "")
            lines.append(f"| {name} | {shown} | {text.replace('|', '/')} |")
    lines += ["", "Load a table with `datasets`:", "", "```python"]
    if repo is not None:
        load = f"load_dataset({json.dumps(repo)}, 'claims', split='train')"
    else:
        loader = "parquet" if fmt == "parquet" else "json"
        load = f"load_dataset('{loader}', data_files='{table_file('claims', fmt)}', split='train')"
    lines += ["from datasets import load_dataset", f"claims = {load}", "```", ""]
    return "\n".join(lines)
