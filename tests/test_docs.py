"""The documentation site builds in strict mode, and every code block it or the README shows runs
or is checked.

Rules, stated once (shell blocks are run by ``tests/test_readme_commands.py``):
- ``python``: a block found verbatim in a file under ``examples/`` is an excerpt of it (the file
  runs in ``tests/test_examples.py``); any other block runs in a fresh namespace in a scratch
  folder, and when it ends in comment lines those are the output it prints, compared with the
  spacing of each line normalised;
- ``json`` parses as one JSON document, ``jsonl`` as one per line;
- ``console``: every ``$ gumshoe ...`` line names a command that exists (its ``--help`` exits 0);
  the other lines are printed output, and the text beside the block names the command that
  produced them.
"""

from __future__ import annotations

import contextlib
import io
import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from tests.support.documented import ROOT, Block, blocks

pytest.importorskip("mkdocs", reason="mkdocs (the docs extra) builds the documentation site")

EXAMPLES = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").rglob("*.py"))]


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "WARNING" not in result.stderr, result.stderr[-3000:]
    assert (tmp_path / "index.html").is_file()


def _expected_output(body: str) -> tuple[str, list[str]]:
    lines = body.rstrip("\n").splitlines()
    cut = len(lines)
    while cut and lines[cut - 1].startswith("# "):
        cut -= 1
    return "\n".join(lines[:cut]), [line[2:] for line in lines[cut:]]


def _spaced(line: str) -> str:
    return " ".join(line.split())


PYTHON = blocks(("python",))


def test_the_pages_show_python() -> None:
    assert len(PYTHON) >= 3


@pytest.mark.parametrize("block", PYTHON, ids=[b.where for b in PYTHON])
def test_a_python_block_runs_or_is_an_excerpt(
    block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if any(block.body.strip() in text for text in EXAMPLES):
        return
    code, expected = _expected_output(block.body)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, block.where, "exec"), {"__name__": "__docs__"})
    if expected:
        shown = [_spaced(line) for line in printed.getvalue().splitlines()]
        assert shown == [_spaced(line) for line in expected], block.where


@pytest.mark.parametrize("block", blocks(("json", "jsonl")), ids=lambda b: b.where)
def test_a_json_block_parses(block: Block) -> None:
    if block.lang == "json":
        json.loads(block.body)
    else:
        for line in block.body.splitlines():
            json.loads(line)


CONSOLE = [
    (block, line[2:])
    for block in blocks(("console",))
    for line in block.body.splitlines()
    if line.startswith("$ gumshoe ")
]


@pytest.mark.parametrize("shown", CONSOLE, ids=[f"{b.where} {c}" for b, c in CONSOLE])
def test_a_transcripts_command_exists(shown: tuple[Block, str]) -> None:
    block, command = shown
    words = shlex.split(command)[1:]
    path = [w for w in words if not w.startswith("-")][:2]
    for depth in (2, 1):
        result = CliRunner().invoke(app, [*path[:depth], "--help"])
        if result.exit_code == 0:
            return
    raise AssertionError(f"{block.where}: no such command: {command}")
