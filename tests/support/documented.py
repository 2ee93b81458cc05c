"""The pages gumshoe is documented in and the fenced code blocks they show.

The README comes first, then the site's pages (``docs/``) in the order of the site's navigation
(``mkdocs.yml``), so a command shown on a later page may use the files an earlier one wrote.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
SITE_CONFIG = ROOT / "mkdocs.yml"

_FENCE = re.compile(r"^```([a-z]*)[^\n]*\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Block:
    """One fenced code block: its page, the line its fence opens on, its language and body."""

    page: Path
    line: int
    lang: str
    body: str

    @property
    def where(self) -> str:
        """``page:line``, relative to the repository."""
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def _nav_files(entries: Any) -> Iterator[str]:
    if isinstance(entries, str):
        yield entries
    elif isinstance(entries, list):
        for entry in entries:
            yield from _nav_files(entry)
    elif isinstance(entries, dict):
        for value in entries.values():
            yield from _nav_files(value)


def site_pages() -> list[Path]:
    """The site's pages in navigation order."""
    config = yaml.safe_load(SITE_CONFIG.read_text(encoding="utf-8"))
    docs = ROOT / config.get("docs_dir", "docs")
    return [docs / name for name in _nav_files(config["nav"])]


def pages() -> list[Path]:
    """The README, then the site's pages in navigation order."""
    return [ROOT / "README.md", *site_pages()]


def blocks(langs: tuple[str, ...] | None = None) -> list[Block]:
    """Every fenced block of every page in order (of the given languages only, when given)."""
    found: list[Block] = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        for match in _FENCE.finditer(text):
            lang = match.group(1)
            if langs is None or lang in langs:
                line = text.count("\n", 0, match.start()) + 1
                found.append(Block(page, line, lang, match.group(2)))
    return found
