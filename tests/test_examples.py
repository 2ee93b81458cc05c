"""The examples the documentation points to run and print what it says."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_audit_claims_example() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "audit_claims.py")],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    rows = [line.split() for line in done.stdout.splitlines()]
    assert rows == [
        ["~bob_knife", "ENTAILED", "TRUE", "sound"],
        ["envelope_knife", "CONTRADICTED", "FALSE", "wrong"],
    ]


@pytest.mark.parametrize("example", ["test_agent_soundness.py", "test_clue_claims.py"])
def test_the_soundness_example_passes_and_catches_the_guessing_agent(example: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            str(ROOT / "examples" / example),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert "2 passed" in done.stdout


def test_the_reward_example_ranks_exact_over_unsure_over_guessed_replies() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "hanabi_rewards.py")],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    scores: dict[str, dict[str, float]] = {}
    for line in done.stdout.splitlines():
        words = line.split()
        scores.setdefault(words[1], {})[" ".join(words[2:-1])] = float(words[-1])
    assert list(scores) == ["1", "2", "3"]
    for turn in scores.values():
        assert turn["exact"] == 2.0 and turn["no JSON"] == -1.0
        assert turn["guess"] < turn["unsure"] <= turn["exact"]
    assert scores["1"]["unsure"] == 2.0 > scores["3"]["unsure"]
