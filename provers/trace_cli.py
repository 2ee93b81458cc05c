"""``gumshoe audit trace``: audit every claim of a reasoning trace against what was observed."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from provers.registry import DEFAULT_PROVER, PROVER_NAMES, get_prover
from reasoning.prover import ProverUnavailable
from reasoning.trace import TraceError, load_trace
from reasoning.trace import audit_trace as audit_trace_steps
from reasoning.verifier import Verifier


def audit_trace(
    file: Annotated[Path, typer.Argument(help="JSONL reasoning trace (see reasoning.trace).")],
    prover: Annotated[
        str, typer.Option(help=f"Backend: {', '.join(PROVER_NAMES)}.")
    ] = DEFAULT_PROVER,
    timeout: Annotated[float, typer.Option(help="Seconds per prover call.")] = 10.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Audit every claim of a reasoning trace against what was observed up to its step."""
    try:
        trace = load_trace(file)
        backend = get_prover(prover)
    except OSError as err:
        typer.echo(f"{file}: {err.strerror or err}", err=True)
        raise typer.Exit(2) from None
    except (TraceError, ProverUnavailable, ValueError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    audits = audit_trace_steps(Verifier(backend, timeout), trace)
    checks = [c for a in audits for c in a.checks]
    totals = {
        "claims": len(checks),
        "status": dict(Counter(c.status.value for c in checks)),
        "kind": dict(Counter(c.kind for c in checks)),
    }
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "steps": [
                        {
                            "step": a.step,
                            "note": a.note,
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
                        for a in audits
                    ],
                    "totals": totals,
                }
            )
        )
        return
    for a in audits:
        for c in a.checks:
            truth = c.correctness.value if c.correctness else "-"
            typer.echo(f"step {a.step:3d}  {c.status.value:12s} {truth:5s} {c.kind:8s} {c.claim}")
    typer.echo(f"{totals['claims']} claims; status {totals['status']}; kind {totals['kind']}")
