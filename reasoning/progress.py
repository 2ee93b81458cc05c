"""Progress bars on stderr (rich): the runs' bar of games, and one for long phases that report
nothing else while they run; silent when stderr is not a terminal or when asked."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

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


class Progress:
    """A progress bar on stderr (done / total, games per second, time left, errored), quiet when
    stderr is not a terminal or when asked."""

    def __init__(self, total: int, done: int, *, quiet: bool) -> None:
        from rich.console import Console

        self._console = Console(stderr=True)
        self._quiet = quiet or not self._console.is_terminal
        self._total, self._done, self._errored = total, done, 0
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> Progress:
        if self._quiet:
            return self
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as RichProgress

        self._bar = RichProgress(
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} games/s"),
            TimeRemainingColumn(),
            TextColumn("errored {task.fields[errored]}"),
            console=self._console,
        )
        self._bar.start()
        self._task = self._bar.add_task(
            "run", total=self._total, completed=self._done, rate="-", errored=0
        )
        self._started = time.perf_counter()
        self._first = self._done
        return self

    def advance(self, *, errored: bool) -> None:
        """One more game done."""
        self._done += 1
        self._errored += errored
        if self._bar is not None:
            elapsed = max(time.perf_counter() - self._started, 1e-9)
            rate = f"{(self._done - self._first) / elapsed:.2f}"
            self._bar.update(self._task, completed=self._done, rate=rate, errored=self._errored)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
