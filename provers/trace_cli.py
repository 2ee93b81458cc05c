"""``gumshoe audit trace``: audit every claim of a reasoning trace against what was observed.

With ``z3`` or ``sat`` the knowledge lives in one incremental session as the steps arrive:
propositional traces, and ground ones without equality, on the SAT session; traces in the
effectively propositional fragment (``reasoning.epr``) grounded on the SAT session; others on Z3.
So the audit's cost grows with the trace's length; other backends prove every claim from scratch.
The output names the engine that audited the trace.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer

from provers.registry import DEFAULT_PROVER, INCREMENTAL_NAMES, PROVER_NAMES, get_prover
from reasoning.epr import GroundedSession, in_fragment
from reasoning.outfile import json_text
from reasoning.prover import ProverUnavailable
from reasoning.session import (
    ConstraintEntailment,
    EntailmentSession,
    EntailmentSessionFactory,
    GroundAtoms,
)
from reasoning.trace import (
    SortedTrace,
    TraceAudit,
    TraceError,
    audit_trace_incremental,
    read_trace,
)
from reasoning.trace import audit_trace as audit_trace_steps
from reasoning.verifier import Verifier


def _sat_session() -> EntailmentSession:
    from provers.sat_session import SatSession

    return ConstraintEntailment(SatSession(), "sat")


def _ground_session() -> EntailmentSession:
    return GroundAtoms(_sat_session())


def grounded_session() -> EntailmentSession:
    """A session for effectively propositional formulas, grounded on the SAT session."""
    return GroundedSession(_sat_session())


def z3_session() -> EntailmentSession:
    """A first-order session on Z3."""
    from provers.z3_session import Z3Session

    return Z3Session()


def epr_trace(trace: SortedTrace) -> bool:
    """Whether every formula of ``trace`` lies in the effectively propositional fragment."""
    knowledge = [*trace.truth, *(f for fs in trace.observe for f in fs)]
    return in_fragment(knowledge, (c for cs in trace.claims for c in cs))


def session_factory(prover: str, trace: SortedTrace) -> EntailmentSessionFactory | None:
    """The incremental session for ``prover`` on ``trace``, or None to prove from scratch.

    ValueError when ``sat`` is asked to audit a trace outside the EPR fragment.
    """
    if prover not in INCREMENTAL_NAMES:
        return None
    if trace.propositional:
        return _sat_session
    if trace.ground:
        return _ground_session
    if epr_trace(trace):
        return grounded_session
    if prover == "sat":
        raise ValueError(
            "the sat backend takes only effectively propositional traces (no existential under "
            "a universal, no quantifier in a count), and this trace has more; use --prover z3"
        )
    return z3_session


@contextmanager
def _progress(label: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr while the block runs; nothing when stderr is not a terminal."""
    if not sys.stderr.isatty():
        yield lambda done, total: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance


def warnings(audit: TraceAudit) -> list[str]:
    """What makes some verdicts of ``audit`` say nothing: inconsistent observations or truth."""
    out: list[str] = []
    first = next((a.step for a in audit.steps if a.knowledge_consistent is False), None)
    if first is not None:
        out.append(
            f"the observations are inconsistent from step {first} on: every claim from there is "
            "ENTAILED, so those verdicts say nothing"
        )
    elif audit.knowledge_consistent is False:
        out.append("the observations of the whole trace are inconsistent")
    if audit.truth_consistent is False and audit.knowledge_consistent is not False:
        out.append(
            "the truth lines contradict the observations: every claim is TRUE, so TRUE and "
            "FALSE say nothing"
        )
    return out


def _payload(audit: TraceAudit, totals: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    return {
        "steps": [
            {
                "step": a.step,
                "note": a.note,
                "knowledge_consistent": a.knowledge_consistent,
                "checks": [
                    {
                        "claim": c.claim,
                        "status": c.status.value,
                        "correctness": c.correctness.value if c.correctness else None,
                        "kind": c.kind,
                    }
                    for c in a.checks
                ],
            }
            for a in audit.steps
        ],
        "engine": audit.engine,
        "totals": totals,
        "knowledge_consistent": audit.knowledge_consistent,
        "truth_consistent": audit.truth_consistent,
        "warnings": notes,
    }


def _fail(message: str) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(2)


def audit_trace(
    file: Annotated[Path, typer.Argument(help="JSONL reasoning trace (see reasoning.trace).")],
    prover: Annotated[
        str,
        typer.Option(
            help=f"Backend: {', '.join(PROVER_NAMES)}. {' and '.join(INCREMENTAL_NAMES)} audit "
            "incrementally, effectively propositional traces on the SAT session (grounded), "
            "others on Z3."
        ),
    ] = DEFAULT_PROVER,
    timeout: Annotated[float, typer.Option(help="Seconds per prover call.")] = 10.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Audit every claim of a reasoning trace against what was observed up to its step."""
    if not (math.isfinite(timeout) and timeout > 0):
        raise _fail(f"error: --timeout must be a positive, finite number of seconds, got {timeout}")
    try:
        _, trace = read_trace(file)
        sessions = session_factory(prover, trace)
        run = (
            partial(audit_trace_incremental, sessions, trace, timeout)
            if sessions is not None
            else partial(audit_trace_steps, Verifier(get_prover(prover), timeout), trace)
        )
    except OSError as err:
        raise _fail(f"{file}: {err.strerror or err}") from None
    except TraceError as err:
        raise _fail(str(err)) from None
    except (ProverUnavailable, ValueError) as err:
        raise _fail(f"error: {err}") from None
    with _progress(f"auditing {file.name}") as progress:
        audit = run(progress=progress)
    checks = [c for a in audit.steps for c in a.checks]
    totals = {
        "claims": len(checks),
        "status": dict(Counter(c.status.value for c in checks)),
        "kind": dict(Counter(c.kind for c in checks)),
    }
    notes = warnings(audit)
    if as_json:
        typer.echo(json_text(_payload(audit, totals, notes), indent=None), nl=False)
        return
    for a in audit.steps:
        mark = "  (inconsistent knowledge)" if a.knowledge_consistent is False else ""
        for c in a.checks:
            truth = c.correctness.value if c.correctness else "-"
            typer.echo(
                f"step {a.step:3d}  {c.status.value:12s} {truth:5s} {c.kind:8s} {c.claim}{mark}"
            )
    typer.echo(f"{totals['claims']} claims; status {totals['status']}; kind {totals['kind']}")
    typer.echo(f"engine: {audit.engine}")
    for note in notes:
        typer.echo(f"warning: {note}")
