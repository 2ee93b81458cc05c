"""Prover benchmark: CPU and wall time to decide generated Neo-Davidsonian problems, per backend.

Every backend, and ``direct-z3`` (the same problems written straight in z3py: no checking, no
unsat core, no countermodel), answers each problem in turn, so all are measured side by side in
one run on the same machine load. CPU time counts this process and its waited-for children (E);
ratios to direct z3 are taken from CPU time.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
import z3

from benchmarks import backbone_bench
from benchmarks.problems import ChainSpec, Problem, build_problem, chain_spec
from benchmarks.report import format_table, write_json
from games.core.cli import fail, prepare_out
from provers.registry import available_names, get_prover
from reasoning.percentiles import percentile
from reasoning.verdict import Verdict

SIZES: tuple[int, ...] = (5, 10, 20, 40, 80)
DIRECT = "direct-z3"
COLUMNS: tuple[str, ...] = (
    "backend",
    "axioms",
    "problems",
    "right",
    "cpu_median_ms",
    "cpu_p95_ms",
    "wall_median_ms",
    "wall_p95_ms",
    "cpu_x_direct",
    "wall_x_direct",
)
"""The table's columns, in order."""


def cpu_seconds() -> float:
    """CPU seconds used so far by this process (all threads) and its waited-for children."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def direct_z3(spec: ChainSpec, timeout: float) -> Verdict:
    """Decide the problem of ``spec`` through a plain z3py encoding: VALID, INVALID or UNKNOWN."""
    entity, event = z3.DeclareSort("entity"), z3.DeclareSort("event")
    boolean = z3.BoolSort()
    x, y = z3.Const("x", entity), z3.Const("y", entity)
    e, e2 = z3.Const("e", event), z3.Const("e2", event)
    agent = z3.Function("Agent", event, entity, boolean)
    patient = z3.Function("Patient", event, entity, boolean)

    def prop(i: int) -> Any:
        return z3.Function(f"Prop{i}", entity, boolean)

    def act(i: int) -> Any:
        return z3.Function(f"Act{i}", event, boolean)

    solver = z3.Solver()
    solver.set("timeout", max(1, round(timeout * 1000)))
    leaf = z3.Function("Leaf", entity, boolean)
    solver.add(
        z3.Exists([x, y, e], z3.And(prop(0)(x), leaf(y), act(0)(e), agent(e, x), patient(e, y)))
    )
    for i in range(spec.chain):
        body = z3.And(prop(i)(x), act(i)(e), agent(e, x), patient(e, y))
        then = z3.Exists([e2], z3.And(act(i + 1)(e2), agent(e2, x), patient(e2, y)))
        solver.add(z3.ForAll([x, y, e], z3.Implies(body, z3.And(prop(i + 1)(x), then))))
    for a, b in spec.noise:
        noise_a = z3.Function(f"Noise{a}", entity, boolean)
        noise_b = z3.Function(f"Noise{b}", entity, boolean)
        solver.add(z3.ForAll([x], z3.Implies(noise_a(x), z3.Not(noise_b(x)))))
    target = prop(spec.chain) if spec.valid else z3.Function("Unrelated", entity, boolean)
    solver.add(z3.Not(z3.Exists([x], target(x))))
    answer = solver.check()
    if answer == z3.unsat:
        return Verdict.VALID
    return Verdict.INVALID if answer == z3.sat else Verdict.UNKNOWN


def backend_names() -> list[str]:
    """The backends measured here: the first-order ones that can run here (the vote last)."""
    return list(available_names(first_order=True))


def run(
    sizes: Sequence[int] = SIZES,
    problems_per_size: int = 10,
    timeout: float = 10.0,
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """One row per backend and size: CPU and wall medians and p95, right answers, CPU ratios.

    Half the problems at each size are entailed, half not. ``cpu_x_direct`` is a backend's
    median CPU time over direct z3's at the same size; ``wall_x_direct`` the same for wall time.
    """
    if problems_per_size < 1:
        raise ValueError(f"problems_per_size must be at least 1, got {problems_per_size}")
    names = backend_names()
    provers = {name: get_prover(name) for name in names}
    warm = build_problem(chain_spec(5, True))
    for prover in provers.values():
        prover.prove(warm.axioms, warm.goal, timeout)
    direct_z3(chain_spec(5, True), timeout)
    rows: list[dict[str, Any]] = []
    for size in sizes:
        specs = [chain_spec(size, valid=i % 2 == 0, seed=i) for i in range(problems_per_size)]
        problems = [build_problem(spec) for spec in specs]
        cpu: dict[str, list[float]] = {name: [] for name in [DIRECT, *names]}
        wall: dict[str, list[float]] = {name: [] for name in cpu}
        right = dict.fromkeys(cpu, 0)
        for spec, problem in zip(specs, problems, strict=True):
            expected = Verdict.VALID if problem.expected_valid else Verdict.INVALID
            for name in cpu:
                verdict, cpu_s, wall_s = _measure(name, provers, spec, problem, timeout)
                cpu[name].append(cpu_s)
                wall[name].append(wall_s)
                right[name] += verdict is expected
        direct_cpu = percentile(cpu[DIRECT], 50)
        direct_wall = percentile(wall[DIRECT], 50)
        for name in cpu:
            row: dict[str, Any] = {
                "backend": name,
                "axioms": size,
                "problems": len(problems),
                "right": right[name],
                "cpu_median_ms": percentile(cpu[name], 50) * 1000,
                "cpu_p95_ms": percentile(cpu[name], 95) * 1000,
                "wall_median_ms": percentile(wall[name], 50) * 1000,
                "wall_p95_ms": percentile(wall[name], 95) * 1000,
                "cpu_x_direct": percentile(cpu[name], 50) / direct_cpu,
                "wall_x_direct": percentile(wall[name], 50) / direct_wall,
            }
            rows.append(row)
            if progress:
                progress(
                    f"{name} at {size} axioms: median {row['cpu_median_ms']:.1f} ms CPU, "
                    f"{row['wall_median_ms']:.1f} ms wall"
                )
    return rows


def _measure(
    name: str, provers: dict[str, Any], spec: ChainSpec, problem: Problem, timeout: float
) -> tuple[Verdict, float, float]:
    """One backend on one problem: its verdict, CPU seconds and wall seconds."""
    cpu_start, wall_start = cpu_seconds(), time.perf_counter()
    if name == DIRECT:
        verdict = direct_z3(spec, timeout)
    else:
        verdict = provers[name].prove(problem.axioms, problem.goal, timeout).verdict
    return verdict, cpu_seconds() - cpu_start, time.perf_counter() - wall_start


def bench_provers(
    out: Annotated[Path, typer.Option(help="Folder for the JSON results.")] = Path("bench-results"),
    problems: Annotated[int, typer.Option(help="Problems per size (at least 1).")] = 10,
    repeats: Annotated[int, typer.Option(help="Backbone repetitions (at least 1).")] = 50,
) -> None:
    """CPU and wall time per backend and direct z3 on 5-80 axiom problems; SAT backbone time."""
    for option, value in (("--problems", problems), ("--repeats", repeats)):
        if value < 1:
            typer.echo(f"error: {option} must be at least 1, got {value}", err=True)
            raise typer.Exit(2)
    try:
        prepare_out(out)
    except ValueError as err:
        fail(err)
    rows = run(problems_per_size=problems, progress=lambda m: typer.echo(m, err=True))
    typer.echo(format_table(rows, COLUMNS))
    backbone = backbone_bench.run(repeats=repeats)
    typer.echo("")
    typer.echo("SAT backbone on a Clue-sized set (21 cards x 7 places, 40 three-card clauses)")
    typer.echo(format_table(backbone, backbone_bench.TABLE_COLUMNS))
    path = write_json(out / "provers.json", {"provers": rows, "backbone": backbone})
    typer.echo(f"\nwrote {path}")
