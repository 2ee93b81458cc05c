"""A progress bar on stderr for long phases that report nothing else while they run (rich, as the
run's own bar); silent when stderr is not a terminal or when asked."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def progress_bar(
    items: Iterable[T],
    total: int | None,
    label: str,
    *,
    quiet: bool = False,
    detail: Callable[[], str] | None = None,
) -> Iterator[T]:
    """Yield ``items`` while a bar labelled ``label`` counts them (of ``total``) on stderr;
    ``detail()``, when given, is shown beside the count and read at every refresh, so work done
    within one item (samples drawn, calls made) shows while the item is still going."""
    from rich.console import Console

    console = Console(stderr=True)
    if quiet or not console.is_terminal:
        yield from items
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Detail(ProgressColumn):
        def render(self, task: Task) -> Text:
            return Text(detail() if detail is not None else "")

    columns: list[ProgressColumn] = [TextColumn(label), BarColumn(), MofNCompleteColumn()]
    if detail is not None:
        columns.append(Detail())
    columns += [TimeElapsedColumn(), TimeRemainingColumn()]
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(label, total=total)
        for item in items:
            yield item
            bar.advance(task)
