"""What starting gumshoe costs: the CPU and wall time of a fresh interpreter that shows the
console's help, a game's play help, or imports the core, side by side with a bare ``python -c
pass`` in the same run.

Each probe runs in its own interpreter, ``runs`` times, the probes taking turns so a change in the
machine's load falls on all of them alike; the table shows medians, the CPU time (user + system
of the child) next to the wall time, and each probe's CPU above the bare interpreter's.

Modules load from cached bytecode, as they do once installed (``pip`` compiles them): the probes
write and read theirs in a private cache, filled by one untimed run of each probe, whatever
``PYTHONDONTWRITEBYTECODE`` says. With ``from_source`` every run compiles every module instead.

By default the probes run this interpreter in this source tree; given another interpreter (a
virtual environment where gumshoe was installed with ``pip install``, as its users have it), they
run it outside the tree, so that it imports its own installed copy. The distributions the
interpreter sees are counted: pydantic looks through all of them for plugins when the first model
is made, which costs more in a development environment holding every extra.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
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

REFERENCE = Probe(
    "reference: 2M additions", "total = 0\nfor i in range(2_000_000):\n    total += i"
)
"""Fixed work that imports nothing: how fast the machine runs Python during this run, so that
runs on a shared machine can be compared."""

PROBES: tuple[Probe, ...] = (
    BASELINE,
    REFERENCE,
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


def probe_environment(cache: Path | None) -> dict[str, str]:
    """The probes' environment: this one, with bytecode written to and read from ``cache``
    (None: never written, every module compiled from source)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.pop("PYTHONPYCACHEPREFIX", None)
    if cache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


@dataclass(frozen=True)
class Interpreter:
    """The Python a bench starts, and the folder it starts in."""

    executable: str
    folder: Path


THIS = Interpreter(sys.executable, ROOT)
"""This interpreter, in this source tree."""


_ABOUT = (
    "import importlib.metadata, json, sys\n"
    "import benchmarks.console.cli\n"
    "print(json.dumps([sys.version.split()[0], len(list(importlib.metadata.distributions()))]))"
)


def describe(python: Interpreter) -> tuple[str, int]:
    """The version of ``python`` and how many distributions it sees; ValueError when it cannot
    run gumshoe's console."""
    try:
        done = subprocess.run(
            [python.executable, "-c", _ABOUT],
            cwd=python.folder,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as err:
        raise ValueError(f"--python {python.executable}: {err.strerror}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise ValueError(f"--python {python.executable}: cannot run gumshoe ({last})")
    version, count = json.loads(done.stdout.splitlines()[-1])
    return str(version), int(count)


def time_probe(
    probe: Probe, env: dict[str, str] | None = None, python: Interpreter = THIS
) -> tuple[float, float]:
    """The CPU seconds (user + system) and wall seconds of one fresh ``python`` running
    ``probe`` in ``env`` (default: this one's); RuntimeError with its stderr when it fails."""
    cpu, wall = _children_cpu(), time.perf_counter()
    done = subprocess.run(
        [python.executable, "-c", probe.code],
        cwd=python.folder,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - wall, _children_cpu() - cpu
    if done.returncode != 0:
        raise RuntimeError(f"{probe.label}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
    return elapsed[1], elapsed[0]


def run(
    runs: int = 5,
    probes: tuple[Probe, ...] = PROBES,
    from_source: bool = False,
    python: Path | None = None,
) -> dict[str, Any]:
    """Every probe timed ``runs`` times, taking turns, from cached bytecode (``from_source``:
    compiling every module in every run), on this interpreter in this tree or on ``python``
    outside it; the rows (medians), every sample, the interpreter, and the load average before
    and after."""
    with tempfile.TemporaryDirectory(prefix="gumshoe-startup-") as folder:
        cache, elsewhere = Path(folder) / "bytecode", Path(folder) / "start"
        elsewhere.mkdir()
        target = THIS if python is None else Interpreter(str(python), elsewhere)
        version, distributions = describe(target)
        env = probe_environment(None if from_source else cache)
        if not from_source:
            for probe in probes:
                time_probe(probe, env, target)
        before = os.getloadavg()
        cpu: dict[str, list[float]] = {p.label: [] for p in probes}
        wall: dict[str, list[float]] = {p.label: [] for p in probes}
        for _ in range(runs):
            for probe in probes:
                spent, elapsed = time_probe(probe, env, target)
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
        "python": version,
        "interpreter": "this one" if python is None else str(python),
        "distributions": distributions,
        "bytecode": "compiled every run" if from_source else "cached",
    }


def bench_startup(
    runs: Annotated[int, typer.Option(min=1, max=100, help="Runs of each probe.")] = 5,
    out: Annotated[Path, typer.Option(help="Folder for the JSON results.")] = Path("bench-results"),
    from_source: Annotated[
        bool,
        typer.Option(
            help="Compile every module from source in every run (as under "
            "PYTHONDONTWRITEBYTECODE) instead of reading the bytecode an install caches."
        ),
    ] = False,
    python: Annotated[
        Path | None,
        typer.Option(
            metavar="PYTHON",
            help="Time this interpreter instead, outside the source tree: say, a virtual "
            "environment's bin/python after `pip install gumshoe` there.",
        ),
    ] = None,
) -> None:
    """CPU and wall time of starting gumshoe (help, a game's play help, importing the core),
    medians of fresh interpreters side by side with a bare `python -c pass`, with the load."""

    try:
        prepare_out(out)
        result = run(runs=runs, from_source=from_source, python=python)
    except (ValueError, RuntimeError) as err:
        fail(err)
    load = ", ".join(f"{x:.2f}" for x in result["load_average_before"])
    typer.echo(
        f"start-up, medians of {runs} runs on {result['cpus']} CPUs (load average {load}; "
        f"python {result['python']}, {result['interpreter']}, seeing "
        f"{result['distributions']} distributions; bytecode {result['bytecode']})"
    )
    typer.echo(format_table(result["rows"], COLUMNS))
    path = write_json(out / "startup.json", result)
    typer.echo(f"wrote {path}")
