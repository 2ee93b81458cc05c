"""What starting gumshoe costs: the CPU and wall time of a fresh interpreter that shows the
console's help, a game's play help, or imports the core, side by side with a bare ``python -c
pass`` in the same run.

Each probe runs in its own interpreter, ``runs`` times, the probes taking turns so a change in the
machine's load falls on all of them alike; the table shows medians, the CPU time (user + system
of the child) next to the wall time, and each probe's CPU above the bare interpreter's.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from benchmarks.report import format_table, write_json
from games.core.cli import fail, prepare_out
from reasoning.percentiles import percentile

ROOT = Path(__file__).resolve().parent.parent
"""The tree whose code the probes import (their working directory)."""


def _console(*args: str) -> str:
    """Code running the ``gumshoe`` console script on ``args``, as its entry point does."""
    return (
        "import sys\nfrom benchmarks.console.cli import app\n"
        f"sys.argv[1:] = {list(args)!r}\nsys.exit(app(prog_name='gumshoe'))"
    )


@dataclass(frozen=True)
class Probe:
    """One start-up to time: its label and the code a fresh interpreter runs."""

    label: str
    code: str


BASELINE = Probe("python -c pass", "pass")
"""The bare interpreter every other probe is measured against."""

PROBES: tuple[Probe, ...] = (
    BASELINE,
    Probe("gumshoe --help", _console("--help")),
    Probe("gumshoe play clue --help", _console("play", "clue", "--help")),
    Probe("import games.core", "import games.core"),
    Probe("import games.core.play", "import games.core.play"),
    Probe("import games.clue.engine", "import games.clue.engine"),
    Probe("from reasoning import Verifier", "from reasoning import Verifier"),
)
"""The start-ups measured, the bare interpreter first."""

COLUMNS = ["probe", "cpu_median_s", "wall_median_s", "cpu_over_python_s", "runs"]
"""The table's columns."""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_probe(probe: Probe) -> tuple[float, float]:
    """The CPU seconds (user + system) and wall seconds of one fresh interpreter running
    ``probe``; RuntimeError with its stderr when it fails."""
    cpu, wall = _children_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", probe.code],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - wall, _children_cpu() - cpu
    if done.returncode != 0:
        raise RuntimeError(f"{probe.label}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
    return elapsed[1], elapsed[0]


def run(runs: int = 5, probes: tuple[Probe, ...] = PROBES) -> dict[str, Any]:
    """Every probe timed ``runs`` times, taking turns; the rows (medians), every sample, and the
    load average before and after."""
    before = os.getloadavg()
    cpu: dict[str, list[float]] = {p.label: [] for p in probes}
    wall: dict[str, list[float]] = {p.label: [] for p in probes}
    for _ in range(runs):
        for probe in probes:
            spent, elapsed = time_probe(probe)
            cpu[probe.label].append(spent)
            wall[probe.label].append(elapsed)
    after = os.getloadavg()
    base = percentile(cpu[BASELINE.label], 50) if BASELINE.label in cpu else 0.0
    rows = [
        {
            "probe": p.label,
            "cpu_median_s": percentile(cpu[p.label], 50),
            "wall_median_s": percentile(wall[p.label], 50),
            "cpu_over_python_s": percentile(cpu[p.label], 50) - base,
            "runs": runs,
        }
        for p in probes
    ]
    return {
        "rows": rows,
        "samples": {p.label: {"cpu_s": cpu[p.label], "wall_s": wall[p.label]} for p in probes},
        "load_average_before": list(before),
        "load_average_after": list(after),
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
    }


def bench_startup(
    runs: Annotated[int, typer.Option(min=1, max=100, help="Runs of each probe.")] = 5,
    out: Annotated[Path, typer.Option(help="Folder for the JSON results.")] = Path("bench-results"),
) -> None:
    """CPU and wall time of starting gumshoe (help, a game's play help, importing the core),
    medians of fresh interpreters side by side with a bare `python -c pass`, with the load."""

    try:
        prepare_out(out)
        result = run(runs=runs)
    except (ValueError, RuntimeError) as err:
        fail(err)
    load = ", ".join(f"{x:.2f}" for x in result["load_average_before"])
    typer.echo(
        f"start-up, medians of {runs} runs on {result['cpus']} CPUs (load average {load}; "
        f"python {result['python']})"
    )
    typer.echo(format_table(result["rows"], COLUMNS))
    path = write_json(out / "startup.json", result)
    typer.echo(f"wrote {path}")
