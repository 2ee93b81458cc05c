"""A progress bar on stderr for long phases that report nothing else while they run (rich, as the
run's own bar); silent when stderr is not a terminal or when asked."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def progress_bar(
    items: Iterable[T], total: int | None, label: str, *, quiet: bool = False
) -> Iterator[T]:
    """Yield ``items`` while a bar labelled ``label`` counts them (of ``total``) on stderr."""
    from rich.console import Console

    console = Console(stderr=True)
    if quiet or not console.is_terminal:
        yield from items
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, TimeRemainingColumn(), console=console, transient=True) as bar:
        task = bar.add_task(label, total=total)
        for item in items:
            yield item
            bar.advance(task)
