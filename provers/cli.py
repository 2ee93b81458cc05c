"""``gumshoe prove``: decide a theory file's goal (or its consistency) with a chosen backend."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Annotated

import typer

from provers.registry import DEFAULT_PROVER, PROVER_NAMES, get_prover
from reasoning.formula import BOTTOM
from reasoning.prover import ProverUnavailable
from reasoning.theory import TheoryError, TheoryTimeout, load_theory
from reasoning.verdict import ProofResult, Verdict

app = typer.Typer(help="Prove goals of theory files.", no_args_is_help=True, add_completion=False)


MAX_TIMEOUT_S = 86_400.0
"""The longest time limit ``prove`` accepts: one day."""

FAILED_VERDICTS = (Verdict.SYNTAX_ERROR, Verdict.UNSUPPORTED)
"""Verdicts that mean the input could not be checked: exit status 2."""


def check_timeout(timeout: float) -> str | None:
    """Why ``timeout`` is not a usable time limit, or None when it is."""
    if not math.isfinite(timeout) or not 0 < timeout <= MAX_TIMEOUT_S:
        return f"--timeout must be seconds above 0 and at most {MAX_TIMEOUT_S:g}, got {timeout!r}"
    return None


@app.command("prove")
def prove(
    file: Annotated[
        Path, typer.Argument(help="Theory file: `axiom NAME: ...` lines and a `goal: ...`.")
    ],
    prover: Annotated[
        str, typer.Option(help=f"Backend: {', '.join(PROVER_NAMES)}.")
    ] = DEFAULT_PROVER,
    timeout: Annotated[
        float,
        typer.Option(help="Seconds for the whole call, reading and encoding included (E: CPU)."),
    ] = 10.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Prove the goal from the axioms; without a goal, check the axioms' consistency.

    For a goal-less file VALID means the axioms are inconsistent (false is entailed) and INVALID
    means they are consistent (the countermodel is a model of them). A malformed file, input
    the backend does not support (UNSUPPORTED) or a SYNTAX_ERROR verdict exit with status 2.
    """
    start = time.perf_counter()
    problem = check_timeout(timeout)
    if problem is not None:
        typer.echo(f"error: {problem}", err=True)
        raise typer.Exit(2)
    try:
        theory = load_theory(file, deadline=time.monotonic() + timeout)
        cut_short = None
    except TheoryTimeout as err:
        theory, cut_short = None, str(err)
    except OSError as err:
        typer.echo(f"{file}: {err.strerror or err}", err=True)
        raise typer.Exit(2) from None
    except TheoryError as err:
        typer.echo(str(err), err=True)
        raise typer.Exit(2) from None
    try:
        backend = get_prover(prover)
    except (ProverUnavailable, ValueError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    spent = time.perf_counter() - start
    if theory is None or spent >= timeout:
        result = ProofResult(
            verdict=Verdict.TIMEOUT,
            prover=backend.name,
            elapsed_s=spent,
            message=f"time limit of {timeout:g} s reached while reading {file} "
            f"({cut_short or f'{spent:.2f} s'}); no prover ran",
        )
    else:
        goal = theory.goal if theory.goal is not None else BOTTOM
        try:
            result = backend.prove(theory.axioms, goal, timeout - spent)
        except ProverUnavailable as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(2) from None
    consistency = theory is not None and theory.goal is None
    if as_json:
        payload = {
            "verdict": result.verdict.value,
            "prover": result.prover,
            "elapsed_s": round(result.elapsed_s, 6),
            "countermodel": result.countermodel.model_dump() if result.countermodel else None,
            "used_axioms": result.used_axioms,
            "message": result.message,
            "goal": "consistency" if consistency else "entailment",
        }
        typer.echo(json.dumps(payload))
    else:
        what = "inconsistency" if consistency else "goal"
        typer.echo(f"{result.verdict.value}  ({what}; {result.prover}, {result.elapsed_s:.3f} s)")
        if result.message:
            typer.echo(result.message)
        if result.used_axioms:
            typer.echo("used axioms: " + ", ".join(result.used_axioms))
        if result.countermodel is not None:
            typer.echo("model:" if consistency else "countermodel:")
            for line in result.countermodel.render().splitlines():
                typer.echo("  " + line)
    if result.verdict in FAILED_VERDICTS:
        raise typer.Exit(2)
