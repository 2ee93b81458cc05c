"""Trace audit cost by trace length: the incremental session audit against proving from scratch,
and the grounded EPR session against the Z3 session.

Traces are generated, seeded: items hidden in places (each item in exactly one place), observed
step by step as placements, exclusions and two-place clues, with one claim a step that is
sometimes entailed, sometimes contradicted and sometimes a guess. The propositional form writes
``i3_p1``; the ground form ``At(i3, p1)`` (audited on the SAT session through ``GroundAtoms``);
the quantified form adds one rule with a quantifier. The undercover form describes cards with the
Undercover-V lexicon (seed 002's word theories): every word's rules, then existential event
descriptions of the cards, and claims of facts and words. Quantified and undercover traces are
audited by both engines, grounded EPR on the SAT session and the Z3 session, side by side.
"""

from __future__ import annotations

import json
import random
import re
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

TraceForm = Literal["propositional", "ground", "quantified", "undercover"]
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


def generate_undercover_trace(steps: int, seed: int = 0) -> str:
    """A JSONL trace describing cards with the Undercover-V lexicon (see the module docstring).

    Words whose rules lie outside the EPR fragment (an existential under a universal) are left
    out. A new card every three steps, its word's card axiom observed half of the time; each step
    describes a card with one of its word's facts (most are existential event descriptions) and
    claims a fact, of its word or of another, or that a card is or is not some word.
    """
    from games.undercover.lexicon import Lexicon
    from reasoning.epr import in_fragment

    lexicon = Lexicon.load()
    rng = random.Random(seed)
    entries = [
        entry
        for entry in map(lexicon.entry, lexicon.words)
        if in_fragment((r.formula for r in entry.rules), (f.formula for f in entry.facts))
    ]
    rules = list(dict.fromkeys(r.formula_text for e in entries for r in e.rules))
    cards: list[int] = []

    def about(text: str, card: int) -> str:
        return re.sub(r"\bitem\b", f"card{card}", text)

    truth: list[str] = []
    lines: list[dict[str, Any]] = []
    for step in range(steps):
        observe = rules if step == 0 else []
        if step % 3 == 0:
            cards.append(rng.randrange(len(entries)))
            card_text = f"{entries[cards[-1]].predicate}(card{len(cards) - 1})"
            truth.append(card_text)
            if rng.random() < 0.5:
                observe = [*observe, card_text]
        card = rng.randrange(len(cards))
        entry = entries[cards[card]]
        observe = [*observe, about(rng.choice(entry.facts).formula_text, card)]
        asked = rng.randrange(len(cards))
        other = entries[cards[asked]] if rng.random() < 0.5 else rng.choice(entries)
        claim = (
            about(rng.choice(other.facts).formula_text, asked)
            if rng.random() < 0.7
            else f"{'~' if rng.random() < 0.5 else ''}{other.predicate}(card{asked})"
        )
        lines.append({"kind": "step", "observe": observe, "claims": [claim]})
    head = {"kind": "truth", "formulas": truth}
    return "\n".join(json.dumps(line) for line in [head, *lines]) + "\n"


def _generate(steps: int, form: TraceForm) -> str:
    if form == "undercover":
        return generate_undercover_trace(steps, seed=steps)
    return generate_trace(steps, seed=steps, form=form)


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


class _Capped(Exception):
    """An audit stopped when it used up its CPU allowance."""

    def __init__(self, step: int, cpu: float, wall: float) -> None:
        super().__init__(f"stopped at step {step}")
        self.step, self.cpu, self.wall = step, cpu, wall


def _cap(seconds: float | None) -> Callable[[int, int], None]:
    """A progress callback that stops an audit once it has used ``seconds`` of CPU (None: never)."""
    cpu, wall = _cpu(), time.perf_counter()

    def check(done: int, total: int) -> None:
        used = _cpu() - cpu
        if seconds is not None and used > seconds and done < total:
            raise _Capped(done, used, time.perf_counter() - wall)

    return check


def _row(
    form: str,
    steps: int,
    method: str,
    engine: str,
    load_cpu: float,
    load_wall: float,
    cpu: float,
    wall: float,
) -> dict[str, Any]:
    return {
        "trace": form,
        "steps": steps,
        "method": method,
        "engine": engine,
        "load_cpu_s": load_cpu,
        "load_wall_s": load_wall,
        "cpu_s": cpu,
        "wall_s": wall,
        "cpu_ms_per_step": 1000 * cpu / steps,
    }


ENGINE_FORMS: tuple[TraceForm, ...] = ("quantified", "undercover")
"""Forms audited by both first-order engines; the others compare incremental and scratch."""


def run(
    lengths: Sequence[int],
    scratch_max: int,
    form: TraceForm = "propositional",
    progress: Callable[[str], None] | None = None,
    z3_cap: float = 60.0,
) -> list[dict[str, Any]]:
    """One row per (trace length, method): CPU and wall seconds, claims, per-step milliseconds.

    Propositional and ground traces up to ``scratch_max`` steps are also audited from scratch;
    quantified and undercover traces by the grounded EPR session and by the Z3 session, the
    latter stopped once it has used ``z3_cap`` CPU seconds on a trace, and not started on longer
    traces after that.
    ``same_verdicts`` compares each row's verdicts with the first row of its length.
    """
    from provers.registry import get_prover
    from provers.trace_cli import grounded_session, session_factory, z3_session

    rows: list[dict[str, Any]] = []
    z3_stopped = False
    for steps in lengths:
        text = _generate(steps, form)
        start_cpu, start_wall = _cpu(), time.perf_counter()
        _, trace = parse_sorted_trace(text, f"<generated {steps}>")
        load_cpu, load_wall = _cpu() - start_cpu, time.perf_counter() - start_wall
        audits: list[tuple[str, Callable[..., TraceAudit]]] = []
        if form in ENGINE_FORMS:
            chosen = session_factory("z3", trace)
            if chosen is not grounded_session:
                raise RuntimeError(f"the {form} trace of {steps} steps is not EPR")
            audits.append(("epr-sat", partial(audit_trace_incremental, grounded_session, trace)))
            if not z3_stopped:
                audits.append(("z3", partial(audit_trace_incremental, z3_session, trace, 10.0)))
        else:
            sessions = session_factory("z3", trace)
            if sessions is None:
                raise RuntimeError("z3 audits traces incrementally")
            audits.append(("incremental", partial(audit_trace_incremental, sessions, trace, 10.0)))
            if steps <= scratch_max:
                scratch_prover = get_prover("sat" if form == "propositional" else "z3")
                verifier = Verifier(scratch_prover, 10.0)
                audits.append(("from scratch", partial(audit_trace, verifier, trace)))
        first: list[tuple[str, str | None]] | None = None
        for method, audit_run in audits:
            capped = method == "z3"
            try:
                audit, cpu, wall = _timed(
                    partial(audit_run, progress=_cap(z3_cap if capped else None))
                )
            except _Capped as stop:
                cpu, wall = stop.cpu, stop.wall
                rows.append(
                    _row(form, steps, method, "z3", load_cpu, load_wall, cpu, wall)
                    | {"same_verdicts": f"stopped at step {stop.step}"}
                )
                z3_stopped = True
                if progress:
                    progress(f"{form} {steps} steps: {method} stopped at step {stop.step}")
                continue
            verdicts = _verdicts(audit)
            rows.append(
                _row(form, steps, method, audit.engine, load_cpu, load_wall, cpu, wall)
                | {
                    "claims": len(verdicts),
                    "same_verdicts": "" if first is None else verdicts == first,
                }
            )
            first = verdicts if first is None else first
            if progress:
                progress(f"{form} {steps} steps: {method} {cpu:.2f} s CPU")
    return rows


def scaling(rows: Sequence[dict[str, Any]], base: int = 100) -> list[dict[str, Any]]:
    """Per (form, method): CPU ms per step at ``base`` steps and at the longest trace, and their
    ratio (how far the cost per step grows with the trace)."""
    out: list[dict[str, Any]] = []
    keys = dict.fromkeys((r["trace"], r["method"]) for r in rows)
    for form, method in keys:
        mine = {
            r["steps"]: r
            for r in rows
            if (r["trace"], r["method"]) == (form, method)
            and not str(r["same_verdicts"]).startswith("stopped")
        }
        longest = max(mine, default=base)
        if base not in mine or longest == base:
            continue
        at_base, at_longest = mine[base]["cpu_ms_per_step"], mine[longest]["cpu_ms_per_step"]
        out.append(
            {
                "trace": form,
                "method": method,
                f"ms_per_step_{base}": at_base,
                "longest": longest,
                "ms_per_step_longest": at_longest,
                "ratio": at_longest / at_base if at_base else None,
            }
        )
    return out


COLUMNS = [
    "trace",
    "steps",
    "claims",
    "method",
    "engine",
    "load_cpu_s",
    "cpu_s",
    "wall_s",
    "cpu_ms_per_step",
    "same_verdicts",
]

SCALING_COLUMNS = [
    "trace",
    "method",
    "ms_per_step_100",
    "longest",
    "ms_per_step_longest",
    "ratio",
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
    ] = "50,100,200,400,1000,2000,3000",
    undercover_lengths: Annotated[
        str, typer.Option(help="Lengths of the undercover traces, comma-separated.")
    ] = "100,1000",
    forms: Annotated[
        str, typer.Option(help=f"Trace forms, comma-separated: {', '.join(TRACE_FORMS)}.")
    ] = ",".join(TRACE_FORMS),
    scratch_max: Annotated[
        int, typer.Option(min=0, help="Also audit from scratch traces up to this many steps.")
    ] = 300,
    z3_cap: Annotated[
        float,
        typer.Option(
            min=0,
            help="CPU seconds the Z3 session may spend on one quantified or undercover trace; "
            "once stopped, it skips the longer ones.",
        ),
    ] = 60.0,
    out: Annotated[Path, typer.Option(help="Folder for the JSON results.")] = Path("bench-results"),
) -> None:
    """Trace audit cost by length, in CPU and wall seconds: the incremental audit against
    proving from scratch on short traces, and the grounded EPR engine against the Z3 session on
    quantified and undercover traces, with verdicts compared and per-step cost ratios."""
    try:
        steps = _int_list(lengths)
    except typer.BadParameter as err:
        typer.echo(f"error: --lengths: {err.message}", err=True)
        raise typer.Exit(2) from None
    try:
        undercover_steps = _int_list(undercover_lengths)
    except typer.BadParameter as err:
        typer.echo(f"error: --undercover-lengths: {err.message}", err=True)
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
            rows += run(
                undercover_steps if form == "undercover" else steps,
                scratch_max,
                form,
                progress=lambda m: typer.echo(m, err=True),
                z3_cap=z3_cap,
            )
    ratios = scaling(rows)
    typer.echo(format_table(rows, COLUMNS))
    typer.echo("\nCPU per step at the longest trace against 100 steps:")
    typer.echo(format_table(ratios, SCALING_COLUMNS))
    try:
        path = write_json(out / "trace.json", {"trace": rows, "scaling": ratios})
    except OSError as err:
        typer.echo(f"error: --out {out}: {err.strerror or err}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"\nwrote {path}")
