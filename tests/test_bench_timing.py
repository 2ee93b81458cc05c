"""Benchmark timing: CPU next to wall time, and the Clue grid benchmark's cross-checks."""

from __future__ import annotations

import math

from benchmarks import backbone_bench, clue_perf
from benchmarks.report import TimeSamples, Timing, measure


def test_measure_fills_cpu_and_wall() -> None:
    with measure() as timing:
        sum(range(10_000))
    assert timing.cpu >= 0.0
    assert timing.wall >= 0.0


def test_samples_summarise_cpu_next_to_wall_in_ms() -> None:
    samples = TimeSamples()
    for cpu, wall in ((0.001, 0.004), (0.003, 0.002), (0.002, 0.009)):
        samples.add(Timing(cpu=cpu, wall=wall))
    summary = samples.summary()
    assert len(samples) == 3
    assert math.isclose(summary["cpu_median_ms"], 2.0)
    assert math.isclose(summary["wall_median_ms"], 4.0)
    assert math.isclose(summary["cpu_mean_ms"], 2.0)
    assert math.isnan(TimeSamples().summary()["wall_p95_ms"])


def test_clue_perf_methods_agree_and_rules_are_sound() -> None:
    result = clue_perf.run(seed=3, games=1, rounds=3)
    updates = result["grid_updates"]
    assert updates["grid_mismatches"] == 0
    assert updates["rules"]["wrong_cells"] == 0
    counts = {row["updates"] for row in updates["rows"]}
    assert len(counts) == 1 and counts.pop() > 0
    for row in updates["rows"]:
        assert set(clue_perf.TABLE_COLUMNS) <= set(row)
    assert {"cpu_s", "wall_s"} <= set(result["audits"][0])


def test_backbone_bench_rows_have_cpu_and_wall() -> None:
    rows = backbone_bench.run(repeats=1)
    assert [row["method"] for row in rows] == ["backbone", "naive", "backbone-update"]
    for row in rows:
        assert set(backbone_bench.TABLE_COLUMNS) <= set(row)
