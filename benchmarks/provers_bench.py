"""Prover benchmark: time to decide generated Neo-Davidsonian problems per backend and size."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.problems import neo_davidsonian_problem
from benchmarks.report import percentile
from provers.eprover import eprover_available
from provers.registry import get_prover
from reasoning.verdict import Verdict

SIZES: tuple[int, ...] = (5, 10, 20, 40)


def run(
    sizes: Sequence[int] = SIZES,
    problems_per_size: int = 10,
    timeout: float = 10.0,
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """One row per backend and size: median and p95 seconds, and how many answers were right.

    Half the problems at each size are entailed, half not. The vote row's ``overhead`` is its
    median over z3's median at the same size.
    """
    backends = ["z3"] + (["eprover"] if eprover_available() else []) + ["vote"]
    rows: list[dict[str, Any]] = []
    for size in sizes:
        problems = [
            neo_davidsonian_problem(size, valid=i % 2 == 0, seed=i)
            for i in range(problems_per_size)
        ]
        medians: dict[str, float] = {}
        for name in backends:
            prover = get_prover(name)
            times: list[float] = []
            right = 0
            for problem in problems:
                start = time.perf_counter()
                result = prover.prove(problem.axioms, problem.goal, timeout)
                times.append(time.perf_counter() - start)
                expected = Verdict.VALID if problem.expected_valid else Verdict.INVALID
                right += result.verdict is expected
            medians[name] = percentile(times, 50)
            row: dict[str, Any] = {
                "backend": name,
                "axioms": size,
                "problems": len(problems),
                "right": right,
                "median_ms": medians[name] * 1000,
                "p95_ms": percentile(times, 95) * 1000,
            }
            if name == "vote":
                row["overhead_x"] = medians[name] / medians["z3"]
            rows.append(row)
            if progress:
                progress(f"{name} at {size} axioms: median {row['median_ms']:.1f} ms")
    return rows
