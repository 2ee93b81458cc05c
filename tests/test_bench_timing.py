"""Benchmark timing: CPU next to wall time, and the Clue grid benchmark's cross-checks."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import backbone_bench, clue_perf, startup_bench
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


def test_startup_bench_times_each_probe_beside_the_bare_interpreter() -> None:
    probes = (startup_bench.BASELINE, startup_bench.Probe("import json", "import json"))
    result = startup_bench.run(runs=2, probes=probes)
    rows = {row["probe"]: row for row in result["rows"]}
    assert set(rows) == {"python -c pass", "import json"}
    assert rows["python -c pass"]["cpu_over_python_s"] == 0.0
    assert all(len(s["cpu_s"]) == len(s["wall_s"]) == 2 for s in result["samples"].values())
    assert len(result["load_average_before"]) == 3


def test_startup_bench_names_a_probe_that_fails() -> None:
    with pytest.raises(RuntimeError, match="broken: exit 1"):
        startup_bench.time_probe(startup_bench.Probe("broken", "raise SystemExit(1)"))


def test_startup_probes_read_cached_bytecode_unless_told_to_compile(tmp_path: Path) -> None:
    code = "import sys; print(sys.dont_write_bytecode, sys.pycache_prefix)"
    cached = startup_bench.probe_environment(tmp_path)
    fresh = startup_bench.probe_environment(None)
    said = [
        subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        ).stdout.split()
        for env in (cached, fresh)
    ]
    assert said == [["False", str(tmp_path)], ["True", "None"]]
    assert startup_bench.run(runs=1, probes=(startup_bench.BASELINE,))["bytecode"] == "cached"


def test_startup_bench_times_another_interpreter_outside_the_tree() -> None:
    result = startup_bench.run(
        runs=1, probes=(startup_bench.BASELINE,), python=Path(sys.executable)
    )
    assert result["interpreter"] == sys.executable
    assert result["python"] == sys.version.split()[0] and result["distributions"] > 0
    with pytest.raises(ValueError, match="--python /nonexistent/python: No such file"):
        startup_bench.run(runs=1, python=Path("/nonexistent/python"))
    with pytest.raises(ValueError, match="--python /bin/false: cannot run gumshoe"):
        startup_bench.describe(startup_bench.Interpreter("/bin/false", startup_bench.ROOT))
