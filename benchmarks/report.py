"""Tables on the terminal, JSON files, and CPU time next to wall time: how benchmarks report."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reasoning.extras import extra_missing, optional_import
from reasoning.outfile import atomic_file, json_text, write_atomic
from reasoning.percentiles import percentile


def _cell(value: Any) -> str:
    if isinstance(value, float) or value is None:
        return figure(value, ".3f")
    return str(value)


def figure(value: float | None, spec: str = ".2f") -> str:
    """A figure as printed in a table or a line: ``-`` where it is undefined (None, NaN)."""
    if value is None or not math.isfinite(value):
        return "-"
    return format(value, spec)


def format_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """A plain-text table with a header row, columns padded to their widest cell."""
    cells = [[_cell(r.get(c, "")) for c in columns] for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)) for row in cells]
    return "\n".join(lines)


def write_json(path: Path, payload: Any) -> Path:
    """Write ``payload`` as indented JSON (atomically, an undefined figure such as NaN as
    ``null``), creating parent folders; returns the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json_text(payload, default=str))
    return path


@dataclass(slots=True)
class Timing:
    """The CPU seconds (``time.process_time``) and wall seconds of one measured stretch."""

    cpu: float = 0.0
    wall: float = 0.0


@contextmanager
def measure() -> Iterator[Timing]:
    """Time the with-block: the yielded ``Timing`` is filled in when the block ends."""
    timing = Timing()
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        yield timing
    finally:
        timing.cpu = time.process_time() - cpu
        timing.wall = time.perf_counter() - wall


@dataclass(slots=True)
class TimeSamples:
    """Many timings of one method, summarised in milliseconds, CPU next to wall."""

    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.cpu)

    def add(self, timing: Timing) -> None:
        """Record one timing."""
        self.cpu.append(timing.cpu)
        self.wall.append(timing.wall)

    def summary(self) -> dict[str, float]:
        """Median, 95th percentile and mean in ms: ``cpu_median_ms`` ... ``wall_mean_ms``."""
        out: dict[str, float] = {}
        for kind, values in (("cpu", self.cpu), ("wall", self.wall)):
            out[f"{kind}_median_ms"] = percentile(values, 50) * 1000.0
            out[f"{kind}_p95_ms"] = percentile(values, 95) * 1000.0
            out[f"{kind}_mean_ms"] = sum(values) / len(values) * 1000.0 if values else math.nan
        return out


def save_figure(fig: Any, path: Path, **options: Any) -> Path:
    """Write a matplotlib figure to ``path`` (its format from the suffix) through the one
    writer (``reasoning.outfile``); returns the path."""
    with atomic_file(path, binary=True) as out:
        fig.savefig(out, format=path.suffix.lstrip(".") or "png", **options)
    return path


PLOTS = "a run's plot"
"""What the ``plots`` extra (matplotlib) draws, as a missing extra names it."""


def pyplot() -> Any:
    """``matplotlib.pyplot`` drawing off-screen (the Agg backend), imported on first use
    (MissingExtra naming the ``plots`` extra when matplotlib is not installed)."""
    matplotlib = optional_import("matplotlib", "plots", PLOTS)
    matplotlib.use("Agg")
    return optional_import("matplotlib.pyplot", "plots", PLOTS)


def can_plot() -> bool:
    """Whether plots can be drawn here (matplotlib, the ``plots`` extra, is installed): a run
    without it writes its tables and JSON and says how to get the plot."""
    return extra_missing("plots", PLOTS) is None


def plot_note(plot: str | Path | None) -> str:
    """The plot's file for a command's last line, or why there is none."""
    if plot:
        return str(plot)
    missing = extra_missing("plots", PLOTS)
    return "no plot" if missing is None else f"no plot ({missing})"
