"""Every `gumshoe` command of the shell blocks of the README and the documentation site runs as
written, in page order (``tests/support/documented.py``), in one scratch folder (so a command
finds the files the commands before it wrote; the repository's ``examples`` and ``tests``
folders are linked into it), and exits 0; the sample case file of the detective's page passes
`detective check`.

Rules, stated once:
- run: the lines of ```sh and unlabelled fences that start with ``gumshoe`` (a trailing ``\\``
  joins the next line, ``&&`` separates two commands); ```console fences are transcripts and are
  not run;
- skipped, needing an endpoint or a recorded run: a command naming ``--base-url``, ``URL``, an
  LLM agent first (``--agent llm``, ``--agents 'llm-verified,...'``), ``--replay``, a run that
  only an endpoint makes (``runs/sherlock``, ``runs/mycroft``, ``runs/llm``, ``runs/clue-llm``;
  ``tests/test_inspect_readme.py`` runs the inspect section's commands against the scripted
  server) or the user's WellPlay copy (``~/WellPlay``);
- skipped, reading the user's own files: a command naming ``mine.json`` (the user's case),
  ``answers.jsonl`` or ``grades.csv``;
- skipped, needing a system that may be absent: ``--prover eprover`` without ``eprover``;
- kept short: the counts a command repeats its work by are cut to the smallest the README
  itself uses (``--games 1``, ``--seeds 1``, ``--cases 1``, ``--samples 1``), and the long
  measurement suites (``bench provers``, ``bench clue-perf``, ``bench undercover`` with its
  round-robin over every word pair, ``bench undercover-similarity``, which loads MiniLM) are
  marked slow.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from tests.support.documented import ROOT, blocks, pages

NEEDS_ENDPOINT = re.compile(
    r"--base-url|\bURL\b|--agents? '?llm|--replay|runs/(sherlock|mycroft|llm|clue-llm)\b"
    r"|~/WellPlay"
)
USERS_OWN = re.compile(r"\bmine\.json\b|\banswers\.jsonl\b|\bgrades\.csv\b")
SHORT = {"--games": "1", "--seeds": "1", "--cases": "1", "--samples": "1"}
SLOW = ("bench provers", "bench clue-perf", "bench undercover")


def readme_commands() -> list[str]:
    """The ``gumshoe`` command lines of the pages' sh and unlabelled fences, in order."""
    out: list[str] = []
    for block in blocks(("", "sh")):
        joined = re.sub(r"\\\n\s*", " ", block.body)
        for line in joined.splitlines():
            if line.startswith("gumshoe "):
                out += [part.strip() for part in line.split(" && ")]
    return out


def _args(command: str) -> list[str]:
    words = shlex.split(command.split("  #")[0], comments=True)[1:]
    return [SHORT.get(words[i - 1], w) if i else w for i, w in enumerate(words)]


def _skip_reason(command: str) -> str | None:
    if NEEDS_ENDPOINT.search(command):
        return "needs a live LLM endpoint or a run recorded from one"
    if USERS_OWN.search(command):
        return "reads the user's own case, answers or grades"
    if "--prover eprover" in command and shutil.which("eprover") is None:
        return "the E prover (eprover) is not installed"
    return None


COMMANDS = readme_commands()


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("readme")
    for name in ("examples", "tests"):
        (folder / name).symlink_to(ROOT / name)
    return folder


def test_the_readme_has_commands_to_run() -> None:
    assert len(COMMANDS) > 20
    assert sum(_skip_reason(c) is None for c in COMMANDS) > 15


@pytest.mark.parametrize(
    "command",
    [pytest.param(c, marks=pytest.mark.slow) if any(s in c for s in SLOW) else c for c in COMMANDS],
)
def test_a_readme_command_runs(
    command: str, scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reason = _skip_reason(command)
    if reason is not None:
        pytest.skip(reason)
    monkeypatch.chdir(scratch)
    for name in ("GUMSHOE_LLM_BASE_URL", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    result = CliRunner().invoke(app, _args(command))
    assert result.exit_code == 0, f"{command}\n{result.output}"


def test_the_sample_case_passes_check(tmp_path: Path) -> None:
    text = next(t for t in (p.read_text() for p in pages()) if "A case file is JSON" in t)
    start = text.index("A case file is JSON")
    sample = re.search(r"```json\n(.*?)```", text[start:], re.S)
    assert sample is not None
    path = tmp_path / "sample.json"
    path.write_text(sample.group(1))
    json.loads(path.read_text())
    result = CliRunner().invoke(app, ["detective", "check", str(path)])
    assert result.exit_code == 0 and "passes" in result.output, result.output
