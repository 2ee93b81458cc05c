"""``gumshoe prove``: decide a theory file's goal (or its consistency) with a chosen backend."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from provers.registry import DEFAULT_PROVER, PROVER_NAMES, get_prover
from reasoning.formula import BOTTOM
from reasoning.prover import ProverUnavailable
from reasoning.theory import TheoryError, load_theory
from reasoning.verdict import Verdict

app = typer.Typer(help="Prove goals of theory files.", no_args_is_help=True)


@app.command("prove")
def prove(
    file: Annotated[
        Path, typer.Argument(help="Theory file: `axiom NAME: ...` lines and a `goal: ...`.")
    ],
    prover: Annotated[
        str, typer.Option(help=f"Backend: {', '.join(PROVER_NAMES)}.")
    ] = DEFAULT_PROVER,
    timeout: Annotated[float, typer.Option(help="Seconds per prover call.")] = 10.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Prove the goal from the axioms; without a goal, check the axioms' consistency.

    For a goal-less file VALID means the axioms are inconsistent (false is entailed) and INVALID
    means they are consistent (the countermodel is a model of them).
    """
    try:
        theory = load_theory(file)
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
    goal = theory.goal if theory.goal is not None else BOTTOM
    result = backend.prove(theory.axioms, goal, timeout)
    if as_json:
        payload = {
            "verdict": result.verdict.value,
            "prover": result.prover,
            "elapsed_s": round(result.elapsed_s, 6),
            "countermodel": result.countermodel.model_dump() if result.countermodel else None,
            "used_axioms": result.used_axioms,
            "message": result.message,
            "goal": "consistency" if theory.goal is None else "entailment",
        }
        typer.echo(json.dumps(payload))
        return
    what = "inconsistency" if theory.goal is None else "goal"
    typer.echo(f"{result.verdict.value}  ({what}; {result.prover}, {result.elapsed_s:.3f} s)")
    if result.message:
        typer.echo(result.message)
    if result.used_axioms:
        typer.echo("used axioms: " + ", ".join(result.used_axioms))
    if result.countermodel is not None:
        typer.echo("countermodel:" if theory.goal is not None else "model:")
        for line in result.countermodel.render().splitlines():
            typer.echo("  " + line)
    if result.verdict is Verdict.SYNTAX_ERROR:
        raise typer.Exit(2)
