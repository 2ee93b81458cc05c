"""The dataset card (``README.md``) of an exported dataset, as the Hugging Face Hub reads it.

The YAML front matter carries what the Hub indexes (licence, task categories, size category,
language, a pretty name), names each table as a config with its data file, and gives each
config's features and its one split as ``datasets`` writes them (``num_bytes``,
``num_examples``, sizes), so loading the folder raises no warning; the text says what a row is,
lists every column with its type, and how the folder was made (gumshoe's version, the command,
the runs).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from importlib.metadata import PackageNotFoundError, metadata, version

from pydantic import BaseModel, ConfigDict, Field

from benchmarks.dataset.files import Format, features, shown, table_file, yaml_feature
from benchmarks.dataset.rows import TABLES, Tables

TASK_CATEGORIES = ("text-generation", "reinforcement-learning")
"""What the tables serve: chat prompts and completions to train on, exact rewards to train by."""
SIZE_CATEGORIES: tuple[tuple[int, str], ...] = (
    (1_000, "n<1K"),
    (10_000, "1K<n<10K"),
    (100_000, "10K<n<100K"),
    (1_000_000, "100K<n<1M"),
    (10_000_000, "1M<n<10M"),
)
"""The Hub's size categories, by the largest table's rows (below each bound)."""
LICENSE_ID = re.compile(r"[a-z0-9][a-z0-9.+-]*")
"""A licence as the Hub names one (``mit``, ``apache-2.0``, ``cc-by-4.0``, ``other``)."""


class SplitSize(BaseModel):
    """One table's written size: its rows' bytes as ``datasets`` counts them, and its file's."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    num_bytes: int = Field(ge=0)
    file_bytes: int = Field(ge=0)


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


def package_license() -> str:
    """The licence gumshoe is released under, as the Hub names it (``mit``)."""
    try:
        found = metadata("gumshoe")["License-Expression"]
    except PackageNotFoundError:
        found = None
    return (found or "MIT").lower()


def license_id(text: str) -> str:
    """``text`` as a Hub licence id; ValueError naming the option when it is not one."""
    if not LICENSE_ID.fullmatch(text):
        raise ValueError(
            f"--license {text!r}: not a licence id as the Hub names one (mit, apache-2.0, "
            "cc-by-4.0, other: lower case letters, digits, '.', '+' and '-')"
        )
    return text


def size_category(tables: Tables) -> str:
    """The Hub's size category of the largest table."""
    rows = max(len(tables.rows(table)) for table in TABLES)
    return next((name for bound, name in SIZE_CATEGORIES if rows < bound), "n>10M")


def front_matter(
    tables: Tables, fmt: Format, sizes: Mapping[str, SplitSize], license: str
) -> list[str]:
    """The card's YAML front matter: what the Hub indexes, configs with data files, and each
    config's features and split sizes. A table without rows is no config (``datasets`` cannot
    load a split of none); its file is still written, and the card's text lists it."""
    loadable = [table for table in TABLES if tables.rows(table)]
    lines = [
        "---",
        f"license: {license}",
        "language:",
        "- en",
        "pretty_name: gumshoe deduction-game runs",
    ]
    lines += ["task_categories:", *(f"- {task}" for task in TASK_CATEGORIES)]
    lines += ["size_categories:", f"- {size_category(tables)}", "tags:"]
    lines += ["- gumshoe", "- reasoning", "- deduction", "- games", "configs:"]
    for table in loadable:
        lines += [f"- config_name: {table}", "  data_files:", "  - split: train"]
        lines.append(f"    path: {table_file(table, fmt)}")
    lines.append("dataset_info:")
    for table in loadable:
        lines += [f"- config_name: {table}", "  features:"]
        for name, kind, _, _ in features(TABLES[table]):
            lines += yaml_feature(name, kind, "  ")
        size = sizes[table]
        lines += ["  splits:", "  - name: train", f"    num_bytes: {size.num_bytes}"]
        lines += [f"    num_examples: {len(tables.rows(table))}"]
        lines += [f"  download_size: {size.file_bytes}", f"  dataset_size: {size.num_bytes}"]
    return [*lines, "---"]


def dataset_card(
    tables: Tables,
    fmt: Format,
    command: str,
    sizes: Mapping[str, SplitSize],
    repo: str | None = None,
    license: str | None = None,
) -> str:
    """The whole card of ``tables`` written in ``fmt`` by ``command``, with each table's
    ``sizes``, (for the Hub repository ``repo`` when it is pushed to one), under ``license``
    (default: gumshoe's own)."""
    lines = front_matter(tables, fmt, sizes, license or package_license())
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
            typed = shown(kind) + (" (nullable)" if nullable else "")
            lines.append(f"| {name} | {typed} | {text.replace('|', '/')} |")
    lines += ["", "Load a table with `datasets`:", "", "```python"]
    if repo is not None:
        load = f"load_dataset({json.dumps(repo)}, 'claims', split='train')"
    else:
        loader = "parquet" if fmt == "parquet" else "json"
        load = f"load_dataset('{loader}', data_files='{table_file('claims', fmt)}', split='train')"
    lines += ["from datasets import load_dataset", f"claims = {load}", "```", ""]
    lines += [
        "## Training on the decisions",
        "",
        "`prompt`, `completion` and `messages` are lists of `{role, content}` messages, the "
        "conversational format of TRL's trainers and of chat templates. Each game has an exact "
        "reward function in TRL's shape, `games.<game>.reward.reward(prompts, completions, "
        "position=..., **columns)` in gumshoe: the claims a new reply states are judged by the "
        "game's audit where the row's `position` says the decision was made (sound +1, lucky 0, "
        "wrong -1, averaged), plus the seat's recall and, in Hanabi, the move's value; rows of "
        "other games or without a position get None.",
        "",
    ]
    return "\n".join(lines)
