"""Interrogation logs are replayed through the rules before a resumed or audited run uses them:
a civilian's lie, a ballot for a seat that does not exist, a wrong reveal, reordered events or
an unknown person is refused with one line naming the file and line (``bench mystery`` exits
2). A hypothesis suite applies each breach at a random place."""

from __future__ import annotations

import json
import random
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.core.runlog import LogError
from games.mystery.logs import read_checked_log

runner = CliRunner()
Record = dict[str, Any]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("mystery") / "run"
    result = runner.invoke(
        app, ["bench", "mystery", "--games", "1", "--no-quiz", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    return out


def _records(run: Path) -> list[Record]:
    text = (run / "games" / "mystery-seed0.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def _start(records: list[Record]) -> Record:
    return next(r for r in records if r["type"] == "game_start")


def _civilian_lies(records: list[Record], rng: random.Random) -> None:
    start = _start(records)
    answers = [
        r
        for r in records
        if r["type"] == "answer"
        and r["facts"]
        and start["players"][r["seat"]] not in start["murderers"]
    ]
    fact = rng.choice(rng.choice(answers)["facts"])
    fact["value"] = not fact["value"]


def _ballot_for_no_seat(records: list[Record], rng: random.Random) -> None:
    vote = rng.choice([r for r in records if r["type"] == "vote"])
    rng.choice(vote["ballots"])["target"] = rng.choice([42, 5, -1])


def _wrong_reveal(records: list[Record], rng: random.Random) -> None:
    end = next(r for r in records if r["type"] == "game_end")
    end["winner"] = rng.choice(
        [w for w in ("civilians", "murderers", "draw") if w != end["winner"]]
    )


def _reordered(records: list[Record], rng: random.Random) -> None:
    events = [i for i, r in enumerate(records) if r["type"] not in ("header", "end")]
    while True:
        i, j = sorted(rng.sample(events, 2))
        if records[i] != records[j]:
            records[i], records[j] = records[j], records[i]
            return


def _unknown_person(records: list[Record], rng: random.Random) -> None:
    said = [r for r in records if r["type"] in ("question", "answer") and r.get("facts", True)]
    event = rng.choice(said)
    part = event["question"] if event["type"] == "question" else rng.choice(event["facts"])
    part["a"] = "zed"


BREACHES: dict[str, Callable[[list[Record], random.Random], None]] = {
    "civilian-lies": _civilian_lies,
    "ballot-for-no-seat": _ballot_for_no_seat,
    "wrong-reveal": _wrong_reveal,
    "reordered": _reordered,
    "unknown-person": _unknown_person,
}


def _write(run: Path, records: list[Record], into: Path) -> Path:
    shutil.copytree(run, into)
    path = into / "games" / "mystery-seed0.jsonl"
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))
    return path


def test_a_played_log_replays(run: Path) -> None:
    log = read_checked_log(run / "games" / "mystery-seed0.jsonl")
    assert log.events[-1].type == "game_end"


@pytest.mark.parametrize("name", list(BREACHES))
def test_a_resumed_run_refuses_a_log_the_rules_forbid(run: Path, tmp_path: Path, name: str) -> None:
    records = _records(run)
    BREACHES[name](records, random.Random(0))
    path = _write(run, records, tmp_path / "run")
    result = runner.invoke(
        app, ["bench", "mystery", "--games", "1", "--no-quiz", "--out", str(tmp_path / "run")]
    )
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {path}:"), result.output


def test_a_missing_log_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(LogError, match=r"none\.jsonl: no such file"):
        read_checked_log(tmp_path / "none.jsonl")


SEEN: Counter[str] = Counter()


def _every_breach(test: Callable[..., None]) -> Callable[..., None]:
    """Examples that apply every breach once, whatever the random draws."""
    for name in BREACHES:
        test = example(name=name, rng=random.Random(1))(test)
    return test


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@_every_breach
@given(name=st.sampled_from(sorted(BREACHES)), rng=st.randoms(use_true_random=False))
def test_fuzzed_logs_are_refused_at_a_line(
    run: Path, tmp_path_factory: pytest.TempPathFactory, name: str, rng: random.Random
) -> None:
    records = _records(run)
    BREACHES[name](records, rng)
    path = _write(run, records, tmp_path_factory.mktemp("fuzz") / "run")
    with pytest.raises(LogError) as info:
        read_checked_log(path)
    message = str(info.value)
    assert message.startswith(f"{path}:") and "\n" not in message
    SEEN[name] += 1


def test_the_fuzz_tried_every_breach() -> None:
    if not SEEN:
        pytest.skip("runs after the fuzz test")
    assert set(SEEN) == set(BREACHES), SEEN
