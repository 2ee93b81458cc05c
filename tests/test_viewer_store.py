"""Stored game views: a run stores them as games finish, `gumshoe view` uses them only while they
match the log (and its recordings), and a page from stored views equals one computed afresh."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from benchmarks.clue_bench import ClueBenchConfig, run
from benchmarks.console.cli import app
from benchmarks.runner import RunOptions
from benchmarks.viewer.page import write_view
from benchmarks.viewer.store import VIEW_FORMAT, compute_view, load_view, stored_path
from games.clue.entry import ENTRY
from games.clue.view import clue_view


def played_run(folder: Path, games: int = 2) -> list[Path]:
    """A Clue run of ``games`` games whose views were stored as they finished."""
    run(
        ClueBenchConfig(agents=("prover", "random", "random")),
        games,
        folder,
        options=RunOptions(views=True, quiet=True),
    )
    return sorted((folder / "games").glob("*.jsonl"))


def test_a_run_stores_views_that_a_page_reuses_and_that_match_a_fresh_page(
    tmp_path: Path,
) -> None:
    logs = played_run(tmp_path / "run")
    for log in logs:
        stored = load_view(log)
        assert stored is not None and stored.format == VIEW_FORMAT
        fresh = compute_view(log)
        assert (stored.packed, stored.summary, stored.per_round) == (
            fresh.packed,
            fresh.summary,
            fresh.per_round,
        )
    reused = write_view(tmp_path / "run", tmp_path / "reused.html", quiet=True)
    computed = write_view(tmp_path / "run", tmp_path / "computed.html", reuse=False, quiet=True)
    assert reused.read_text(encoding="utf-8") == computed.read_text(encoding="utf-8")


def test_a_stored_view_is_stale_when_its_log_or_recordings_change(tmp_path: Path) -> None:
    log = played_run(tmp_path / "run", games=1)[0]
    assert load_view(log) is not None
    text = log.read_text(encoding="utf-8")
    log.write_text(text.replace('"seed":0', '"seed":7', 1), encoding="utf-8")
    assert load_view(log) is None
    log.write_text(text, encoding="utf-8")
    assert load_view(log) is not None
    recording = tmp_path / "run" / "llm" / f"{log.stem}.seat1.jsonl"
    recording.parent.mkdir()
    recording.write_text("", encoding="utf-8")
    assert load_view(log) is None


def test_a_damaged_stored_view_is_recomputed_and_replaced(tmp_path: Path) -> None:
    log = played_run(tmp_path / "run", games=1)[0]
    path = stored_path(log)
    good = json.loads(path.read_text(encoding="utf-8"))
    for damage in (
        {**good, "packed": good["packed"][:-8] + "AAAAAAAA"},
        {**good, "format": VIEW_FORMAT - 1},
        {**good, "summary": "nothing"},
    ):
        path.write_text(json.dumps(damage), encoding="utf-8")
        assert load_view(log) is None
    path.write_text("{not json", encoding="utf-8")
    assert load_view(log) is None
    write_view(tmp_path / "run", tmp_path / "page.html", quiet=True)
    replaced = load_view(log)
    assert replaced is not None
    assert (replaced.key, replaced.packed) == (good["key"], good["packed"])


def test_the_clue_viewer_gives_the_audit_record_its_auditor_gives(tmp_path: Path) -> None:
    log = played_run(tmp_path / "run", games=1)[0]
    read = ENTRY.read_log(log)
    assert clue_view(read).record == ENTRY.audit(read)


def test_bench_clue_views_stores_them_and_view_uses_them(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    args = ["bench", "clue", "--games", "2", "--agents", "prover,random,random", "--quiet"]
    played = CliRunner().invoke(app, [*args, "--out", str(run_dir), "--views"])
    assert played.exit_code == 0, played.output
    logs = sorted((run_dir / "games").glob("*.jsonl"))
    stored = {log.stem: load_view(log) for log in logs}
    assert len(stored) == 2 and all(stored.values())
    viewed = CliRunner().invoke(app, ["view", str(run_dir)])
    assert viewed.exit_code == 0, viewed.output
    assert {log.stem: load_view(log) for log in logs} == stored  # reused, not recomputed
