"""A detective log names its case file relative to the log's own folder, so `gumshoe audit
detective` finds the case from any working folder; a log whose case cannot be rebuilt (the file
gone, knobs no case can meet) is refused in one line naming the log."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.detective import CaseKnobs, dump_case
from games.detective.entry import game_case
from games.detective.events import DetectiveConfig

runner = CliRunner()
KNOBS = CaseKnobs(locations=6, questions=2, red_herrings=1, distractors=3, words_per_card=30)


@contextmanager
def working_folder(path: Path) -> Iterator[None]:
    """Run the block with ``path`` as the working folder."""
    before = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def test_a_case_given_as_a_relative_path_audits_from_another_folder(tmp_path: Path) -> None:
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir()
    elsewhere.mkdir()
    (project / "case.json").write_text(dump_case(game_case(DetectiveConfig(knobs=KNOBS), 7)))
    with working_folder(project):
        played = runner.invoke(app, ["play", "detective", "--case", "case.json", "--out", "out"])
    assert played.exit_code == 0, played.output
    log = project / "out" / "detective-seed0.jsonl"
    header = json.loads(log.read_text().splitlines()[0])
    assert header["config"]["case_file"] == os.path.join("..", "case.json")
    assert "case_folder" not in header["config"]
    with working_folder(elsewhere):
        audited = runner.invoke(app, ["audit", "detective", str(log)])
    assert audited.exit_code == 0, audited.output
    assert "detective audit of" in audited.output


def _log_naming(tmp_path: Path, config: dict[str, object]) -> Path:
    """A played detective log whose header is made to name ``config``."""
    small = ["--questions", "2", "--locations", "6"]
    played = runner.invoke(
        app, ["play", "detective", "--seed", "7", *small, "--out", str(tmp_path)]
    )
    assert played.exit_code == 0, played.output
    log = tmp_path / "detective-seed7.jsonl"
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["config"] = {**header["config"], **config}
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    return log


def test_a_log_whose_case_cannot_be_rebuilt_names_the_log(tmp_path: Path) -> None:
    missing = _log_naming(tmp_path, {"case_file": "gone.json"})
    result = runner.invoke(app, ["audit", "detective", str(missing)])
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert "detective-seed7.jsonl:1: the case its header names" in lines[0]
    assert "gone.json" in lines[0] and "no such file" in lines[0]
    impossible = _log_naming(
        tmp_path, {"case_file": None, "knobs": {"locations": 6, "red_herrings": 5}}
    )
    result = runner.invoke(app, ["audit", "detective", str(impossible)])
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert "detective-seed7.jsonl:1: header config: field 'knobs'" in lines[0]
