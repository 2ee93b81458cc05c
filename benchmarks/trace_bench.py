"""Trace audit cost by trace length: the incremental session audit against proving from scratch.

Traces are generated, seeded: items hidden in places (each item in exactly one place), observed
step by step as placements, exclusions and two-place clues, with one claim a step that is
sometimes entailed, sometimes contradicted and sometimes a guess. The propositional form writes
``i3_p1``; the ground form ``At(i3, p1)`` (audited on the SAT session through ``GroundAtoms``);
the quantified form adds one rule with a quantifier, so its audit runs on the Z3 session.
"""

from __future__ import annotations

import json
import random
import resource
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

import typer

from benchmarks.report import format_table, write_json
from reasoning.trace import TraceAudit, audit_trace, audit_trace_incremental, parse_sorted_trace
from reasoning.verifier import Verifier

PLACES = 4
"""Places an item can be in."""

TraceForm = Literal["propositional", "ground", "quantified"]
TRACE_FORMS: tuple[TraceForm, ...] = get_args(TraceForm)
_RULE = "forall x. At(x, p0) -> ~At(x, p1)"


def generate_trace(steps: int, seed: int = 0, form: TraceForm = "propositional") -> str:
    """A JSONL trace of ``steps`` steps with a truth line (see the module docstring)."""
    rng = random.Random(seed)
    items = max(2, steps // 3)
    where = [rng.randrange(PLACES) for _ in range(items)]

    def atom(item: int, place: int) -> str:
        return f"i{item}_p{place}" if form == "propositional" else f"At(i{item}, p{place})"

    lines = [{"kind": "truth", "formulas": [atom(i, where[i]) for i in range(items)]}]
    introduced = 0
    for step in range(steps):
        observe: list[str] = [_RULE] if form == "quantified" and step == 0 else []
        if introduced < items and step % 3 == 0:
            places = ", ".join(atom(introduced, p) for p in range(PLACES))
            observe.append(f"exactly 1 of {{{places}}}")
            introduced += 1
        item = rng.randrange(introduced)
        wrong = [p for p in range(PLACES) if p != where[item]]
        clue = rng.random()
        if clue < 0.15:
            observe.append(atom(item, where[item]))
        elif clue < 0.6:
            observe.append("~" + atom(item, rng.choice(wrong)))
        else:
            observe.append(f"{atom(item, where[item])} | {atom(item, rng.choice(wrong))}")
        asked = rng.randrange(introduced)
        claim = atom(asked, rng.randrange(PLACES))
        claims = [claim if rng.random() < 0.5 else "~" + claim]
        lines.append({"kind": "step", "observe": observe, "claims": claims})
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _timed(run: Callable[[], TraceAudit]) -> tuple[TraceAudit, float, float]:
    cpu, wall = _cpu(), time.perf_counter()
    audit = run()
    return audit, _cpu() - cpu, time.perf_counter() - wall


def _verdicts(audit: TraceAudit) -> list[tuple[str, str | None]]:
    return [
        (c.status.value, c.correctness.value if c.correctness else None)
        for a in audit.steps
        for c in a.checks
    ]


def run(
    lengths: Sequence[int],
    scratch_max: int,
    form: TraceForm = "propositional",
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """One row per (trace length, method): CPU and wall seconds, claims, per-step milliseconds.

    Traces up to ``scratch_max`` steps are also audited from scratch, and the two audits'
    verdicts compared (``same_verdicts``).
    """
    from provers.sat_prover import SatProver
    from provers.trace_cli import session_factory
    from provers.z3_prover import Z3Prover

    rows: list[dict[str, Any]] = []
    scratch_prover = SatProver() if form == "propositional" else Z3Prover()
    for steps in lengths:
        text = generate_trace(steps, seed=steps, form=form)
        start_cpu, start_wall = _cpu(), time.perf_counter()
        _, trace = parse_sorted_trace(text, f"<generated {steps}>")
        load_cpu, load_wall = _cpu() - start_cpu, time.perf_counter() - start_wall
        sessions = session_factory("z3", trace)
        if sessions is None:
            raise RuntimeError("z3 audits traces incrementally")
        incremental, cpu, wall = _timed(partial(audit_trace_incremental, sessions, trace, 10.0))
        claims = sum(len(a.checks) for a in incremental.steps)
        base = {"trace": form, "steps": steps, "claims": claims, "load_cpu_s": load_cpu}
        base["load_wall_s"] = load_wall
        rows.append(
            base
            | {
                "method": "incremental",
                "cpu_s": cpu,
                "wall_s": wall,
                "cpu_ms_per_step": 1000 * cpu / steps,
                "same_verdicts": "",
            }
        )
        if progress:
            progress(f"{form} {steps} steps: incremental {cpu:.2f} s CPU")
        if steps <= scratch_max:
            verifier = Verifier(scratch_prover, 10.0)
            scratch, cpu, wall = _timed(partial(audit_trace, verifier, trace))
            rows.append(
                base
                | {
                    "method": "from scratch",
                    "cpu_s": cpu,
                    "wall_s": wall,
                    "cpu_ms_per_step": 1000 * cpu / steps,
                    "same_verdicts": _verdicts(scratch) == _verdicts(incremental),
                }
            )
            if progress:
                progress(f"{form} {steps} steps: from scratch {cpu:.2f} s CPU")
    return rows


COLUMNS = [
    "trace",
    "steps",
    "claims",
    "method",
    "load_cpu_s",
    "cpu_s",
    "wall_s",
    "cpu_ms_per_step",
    "same_verdicts",
]

MAX_STEPS = 100_000
"""The longest trace the benchmark generates."""


def _int_list(text: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",")]
    except ValueError:
        raise typer.BadParameter(f"expected comma-separated whole numbers, got {text!r}") from None
    if any(v < 1 or v > MAX_STEPS for v in values):
        raise typer.BadParameter(f"every length must be between 1 and {MAX_STEPS}")
    return values


def bench_trace(
    lengths: Annotated[
        str, typer.Option(help="Trace lengths in steps, comma-separated.")
    ] = "100,300,1000,3000",
    forms: Annotated[
        str, typer.Option(help=f"Trace forms, comma-separated: {', '.join(TRACE_FORMS)}.")
    ] = "propositional,ground",
    scratch_max: Annotated[
        int, typer.Option(min=0, help="Also audit from scratch traces up to this many steps.")
    ] = 300,
    out: Annotated[Path, typer.Option(help="Folder for the JSON results.")] = Path("bench-results"),
) -> None:
    """Trace audit cost by length: the incremental audit, and proving from scratch on short
    traces, in CPU and wall seconds, with the two audits' verdicts compared."""
    try:
        steps = _int_list(lengths)
    except typer.BadParameter as err:
        typer.echo(f"error: --lengths: {err.message}", err=True)
        raise typer.Exit(2) from None
    chosen = [f.strip() for f in forms.split(",")]
    unknown = [f for f in chosen if f not in TRACE_FORMS]
    if unknown:
        typer.echo(
            f"error: --forms: unknown {unknown[0]!r}; choose from {', '.join(TRACE_FORMS)}",
            err=True,
        )
        raise typer.Exit(2)
    rows: list[dict[str, Any]] = []
    for form in TRACE_FORMS:
        if form in chosen:
            rows += run(steps, scratch_max, form, progress=lambda m: typer.echo(m, err=True))
    typer.echo(format_table(rows, COLUMNS))
    try:
        path = write_json(out / "trace.json", {"trace": rows})
    except OSError as err:
        typer.echo(f"error: --out {out}: {err.strerror or err}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"\nwrote {path}")
