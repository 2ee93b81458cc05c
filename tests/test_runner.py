"""The shared runner: the same summary whatever the parallelism, on threads, processes and a
Dask cluster; errored games recorded while the run goes on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks import clue_bench
from benchmarks.runner import MemoryLog, RunOptions, run_games
from games.core.runlog import RunDir
from reasoning.llm import LLMEndpointError

CONFIG = clue_bench.ClueBenchConfig(agents=("prover", "random", "prover"), max_rounds=6)


def summary(out: Path, options: RunOptions) -> dict[str, Any]:
    result = clue_bench.run(CONFIG, 4, out, options=options)
    return result.model_dump(
        exclude={"plot", "play_wall_s", "play_cpu_s", "audit_wall_s", "audit_cpu_s"}
    )


def logs(out: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted((out / "games").glob("*.jsonl"))}


def test_threads_and_processes_give_the_single_process_summary_and_logs(tmp_path: Path) -> None:
    single = summary(tmp_path / "one", RunOptions(quiet=True))
    assert single["games"] == 4
    threads = summary(tmp_path / "threads", RunOptions(concurrency=3, quiet=True))
    processes = summary(tmp_path / "procs", RunOptions(workers=2, concurrency=2, quiet=True))
    assert threads == single and processes == single
    assert logs(tmp_path / "threads") == logs(tmp_path / "one") == logs(tmp_path / "procs")


def test_a_dask_local_cluster_gives_the_single_process_summary(tmp_path: Path) -> None:
    distributed = pytest.importorskip("dask.distributed", reason="dask.distributed not installed")
    single = summary(tmp_path / "one", RunOptions(quiet=True))
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address
        on_dask = summary(tmp_path / "dask", RunOptions(scheduler=address, quiet=True))
    assert on_dask == single
    assert logs(tmp_path / "dask") == logs(tmp_path / "one")


class FlakyPlayer:
    """Errors game ``b`` as an unreachable endpoint would; plays the others."""

    def __call__(self, game_id: str, log: MemoryLog) -> dict[str, Any]:
        if game_id == "b":
            raise LLMEndpointError("http://nowhere/v1", 3, "connection refused")
        log.write(clue_bench.ClueBenchConfig(agents=("random",) * 3))
        return {}


def test_an_errored_game_is_recorded_and_the_run_goes_on(tmp_path: Path) -> None:
    rundir = RunDir(tmp_path, CONFIG)
    report = run_games(rundir, ["a", "b", "c"], FlakyPlayer(), RunOptions(quiet=True))
    assert [g.game_id for g in report.errored] == ["b"]
    assert "connection refused" in report.errors()[0].error
    assert len(report.played) == 3 and report.resumed == 0
    assert '"status":"errored"' in rundir.log_path("b").read_text()
    again = run_games(rundir, ["a", "b", "c"], FlakyPlayer(), RunOptions(quiet=True))
    assert again.resumed == 0 and [g.game_id for g in again.played] == ["a", "b", "c"]
