"""Faults and interruptions: Ctrl-C, a killed worker process and a full disk end a command with
one line (and the command that resumes a run), never a traceback, and leave no partial file;
prover children get their CPU limit without ``preexec_fn``; a scheduler address that answers
nothing, and option values out of range, are refused in one line."""

from __future__ import annotations

import errno
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from benchmarks.runner import RunOptions, probe_scheduler
from provers.child_process import run_child
from reasoning.llm.endpoint import EndpointProbe

runner = CliRunner()
GUMSHOE = [sys.executable, "-c", "from benchmarks.console.cli import app; app()"]
CLUE_BENCH = ["bench", "clue", "--agents", "prover,prover,prover", "--quiet"]


def _one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert "Traceback" not in stderr
    return lines[0]


def _start(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    return subprocess.Popen(
        [*GUMSHOE, *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for(condition: object, process: subprocess.Popen[str], limit_s: float = 300) -> None:
    """Poll until ``condition()`` holds (the process must still be running)."""
    assert callable(condition)
    stop = time.monotonic() + limit_s
    while not condition():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < stop, "the process never reached the awaited state"
        time.sleep(0.1)


def _logs(run: Path) -> list[Path]:
    folder = run / "games"
    return sorted(folder.glob("*.jsonl")) if folder.is_dir() else []


def _no_partial_files(run: Path) -> None:
    assert not [p for p in run.rglob("*") if p.name.endswith(".tmp")]
    for log in _logs(run):
        last = log.read_text().splitlines()[-1]
        assert json.loads(last)["type"] == "end", log


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def test_ctrl_c_in_a_bench_keeps_finished_games_and_prints_the_resume_command(
    tmp_path: Path,
) -> None:
    run = tmp_path / "run"
    args = [*CLUE_BENCH, "--games", "30", "--out", str(run)]
    process = _start(args, tmp_path)
    _wait_for(lambda: len(_logs(run)) >= 1, process)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130
    line = _one_line(stderr)
    assert line.startswith("interrupted; finished games are kept; run `")
    assert "--games 30" in line and line.endswith("again to resume")
    _no_partial_files(run)


def test_a_killed_worker_stops_the_run_in_one_line_and_the_run_resumes(tmp_path: Path) -> None:
    run = tmp_path / "run"
    args = [*CLUE_BENCH, "--games", "12", "--workers", "2", "--out", str(run)]
    process = _start(args, tmp_path)
    _wait_for(lambda: len(_logs(run)) >= 1 and len(_children(process.pid)) >= 2, process)
    os.kill(_children(process.pid)[-1], signal.SIGKILL)
    _, stderr = process.communicate(timeout=120)
    if process.returncode == 0:
        pytest.skip("every game had finished before the worker was killed")
    assert process.returncode == 1
    line = _one_line(stderr)
    assert "a worker process died" in line and line.endswith("again to resume")
    _no_partial_files(run)
    finished = len(_logs(run))
    resumed = _start(args, tmp_path)
    _, stderr = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, stderr
    assert f"{finished} games finished earlier" in stderr
    assert len(_logs(run)) == 12


def _full_disk(fd: int) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("reasoning.outfile.os.fsync", _full_disk)
    run = tmp_path / "run"
    result = runner.invoke(app, ["bench", "clue", "--games", "2", "--out", str(run)])
    assert result.exit_code == 1, result.output
    line = _one_line(result.stderr)
    assert f"{run / 'config.json'}: cannot write: No space left on device" in line
    assert line.endswith("again to resume")
    assert not list(run.glob("*.tmp")) and not list(run.glob(".*.tmp"))


def test_write_atomic_leaves_the_old_file_when_the_disk_is_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reasoning.outfile import write_atomic

    path = tmp_path / "summary.json"
    write_atomic(path, "old\n")
    monkeypatch.setattr("reasoning.outfile.os.fsync", _full_disk)
    with pytest.raises(OSError, match=r"summary\.json") as caught:
        write_atomic(path, "new\n")
    assert caught.value.errno == errno.ENOSPC
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["summary.json"]


SAT_SEARCH = """
from pysat.examples.genhard import PHP
from provers.sat_solver import open_solver, solve_within
solver = open_solver("cadical195")
solver.append_formula(PHP(12).clauses)
print("solving", flush=True)
try:
    solve_within(solver, "cadical195", [], None)
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
"""


def test_ctrl_c_inside_a_sat_search_is_a_keyboard_interrupt(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    process = subprocess.Popen(
        [sys.executable, "-c", SAT_SEARCH], env=env, stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    assert process.stdout.readline() == "solving\n"
    time.sleep(2)
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=60)
    assert out == "KeyboardInterrupt\n"


def test_a_prover_child_gets_its_cpu_limit_soft_and_hard() -> None:
    done = run_child(["sh", "-c", "ulimit -St; ulimit -Ht"], "", 7, 30)
    assert done.stdout.split() == ["7", "7"]
    with pytest.raises(FileNotFoundError):
        run_child(["no-such-prover-binary"], "", 7, 30)


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    try:
        yield server.getsockname()[1]
    finally:
        server.close()


def test_a_scheduler_that_answers_nothing_is_refused(silent_port: int) -> None:
    with pytest.raises(ValueError, match=r"no Dask scheduler answered within 0\.5 s"):
        probe_scheduler(f"tcp://127.0.0.1:{silent_port}", timeout_s=0.5)
    with pytest.raises(ValueError, match="not a scheduler address"):
        RunOptions(scheduler="notanaddress")
    result = runner.invoke(app, ["bench", "clue", "--scheduler", "nohost", "--out", "x"])
    assert result.exit_code == 2
    assert "option '--scheduler'" in _one_line(result.stderr)


def test_endpoint_probes_send_nothing_past_the_call_deadline(silent_port: int) -> None:
    probe = EndpointProbe(f"http://127.0.0.1:{silent_port}/v1", None, timeout_s=60)
    with probe.until(time.monotonic() - 1):
        assert probe.models() == ()
        assert probe.count("some words") > 0


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["play", "hanabi", "--seed", str(2**32)], "'--seed'"),
        (["bench", "hanabi", "--seeds", "1000000000", "--out", "x"], "'--seeds'"),
        (["bench", "hanabi", "--first-seed", str(2**31 - 1), "--seeds", "2"], "'--first-seed'"),
        (["bench", "clue", "--games", "1000000000"], "'--games'"),
        (["play", "clue", "--agents", "llm,random,random", "--base-url", "notaurl"], "--base-url"),
        (["play", "mystery", "--agents", "llm-cot", "--base-url", "http://h:x/v1"], "--base-url"),
    ],
)
def test_options_out_of_range_exit_2_in_one_line(args: list[str], named: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert named in _one_line(result.stderr)


def test_an_llm_seat_whose_endpoint_refuses_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    monkeypatch.setenv("GUMSHOE_LLM_MAX_RETRIES", "0")
    url = f"http://127.0.0.1:{port}/v1"
    args = ["play", "mystery", "--agents", "llm-cot", "--base-url", url, "--model", "m"]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert "Connection refused" in _one_line(result.stderr)


def test_every_game_errored_exits_1_and_json_has_no_nan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GUMSHOE_LLM_MAX_RETRIES", "0")
    url = "http://127.0.0.1:9/v1"
    args = ["bench", "mystery", "--agents", "llm-cot", "--base-url", url, "--model", "m"]
    args += ["--games", "1", "--no-quiz", "--json", "--quiet", "--out", str(tmp_path / "run")]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert _one_line(result.stderr) == "every game errored (1); nothing was measured"
    summary = json.loads(result.stdout, parse_constant=lambda name: pytest.fail(name))
    assert summary["win_rate"] is None and summary["errored"] == 1


def test_a_refused_play_leaves_the_log_it_names_as_it_was(tmp_path: Path) -> None:
    case = tmp_path / "case.json"
    case.write_text('{"title": 3}\n')
    log = tmp_path / "detective-seed0.jsonl"
    log.write_text('{"kept": true}\n')
    result = runner.invoke(app, ["play", "detective", "--case", str(case), "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert str(case) in _one_line(result.stderr)
    assert log.read_text() == '{"kept": true}\n'


def test_a_header_only_clue_log_is_one_line(tmp_path: Path) -> None:
    played = runner.invoke(app, ["play", "clue", "--out", str(tmp_path)])
    assert played.exit_code == 0, played.output
    full = next(tmp_path.glob("*.jsonl"))
    header = tmp_path / "header.jsonl"
    header.write_text(full.read_text().splitlines()[0] + "\n")
    result = runner.invoke(app, ["audit", "clue", str(header)])
    assert result.exit_code == 2
    assert f"{header}:1:" in _one_line(result.stderr)


def test_a_replay_without_recordings_or_of_no_run_is_refused_at_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GUMSHOE_LLM_MAX_RETRIES", "0")
    recorded = tmp_path / "recorded"
    llm = ["--agents", "llm-cot", "--model", "m", "--games", "1", "--no-quiz", "--quiet"]
    args = ["bench", "mystery", *llm, "--base-url", "http://127.0.0.1:9/v1"]
    assert runner.invoke(app, [*args, "--out", str(recorded)]).exit_code == 1
    replayed = [*llm, "--replay", str(recorded), "--out", str(tmp_path / "again")]
    result = runner.invoke(app, ["bench", "mystery", *replayed])
    assert result.exit_code == 2, result.output
    line = _one_line(result.stderr)
    assert (
        f"no recording of this game's LLM calls at {recorded}/llm/mystery-seed0.seat<k>.jsonl"
        in line
    )
    assert not (tmp_path / "again").exists()
    for command in (["bench", "hanabi"], ["bench", "mystery"], ["bench", "clue"]):
        result = runner.invoke(app, [*command, "--replay", str(tmp_path), "--out", "x"])
        assert result.exit_code == 2, (command, result.output)
        assert "not a run directory" in _one_line(result.stderr)


def test_a_hanabi_replay_takes_its_settings_from_the_run(tmp_path: Path) -> None:
    symbolic = tmp_path / "symbolic"
    args = ["bench", "hanabi", "--players", "2", "--seeds", "1", "--quiet"]
    assert runner.invoke(app, [*args, "--out", str(symbolic)]).exit_code == 0
    result = runner.invoke(app, ["bench", "hanabi", "--replay", str(symbolic), "--out", "x"])
    assert result.exit_code == 2
    assert "played agents 'symbolic', which ask no LLM" in _one_line(result.stderr)


def test_the_progress_bar_passes_every_item_through() -> None:
    from reasoning.progress import progress_bar

    assert list(progress_bar(iter(range(5)), 5, "items")) == [0, 1, 2, 3, 4]
    assert list(progress_bar(range(3), None, "items", quiet=True)) == [0, 1, 2]


def test_ctrl_c_in_a_play_leaves_a_log_that_does_not_pose_as_finished(tmp_path: Path) -> None:
    out = tmp_path / "game"
    args = ["play", "clue", "--agents", "random*6", "--rounds", "1000", "--out", str(out)]
    process = _start(args, tmp_path)
    _wait_for(
        lambda: any(out.glob("*.jsonl")) and next(out.glob("*.jsonl")).stat().st_size, process
    )
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert _one_line(stderr).startswith("interrupted")
    [log] = out.glob("*.jsonl")
    lines = log.read_text().splitlines()
    assert lines and json.loads(lines[-1])["type"] != "end"
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]
    refused = runner.invoke(app, ["audit", "clue", str(log)])
    assert refused.exit_code == 0 and "incomplete" in refused.stdout
