"""Every committed game log under tests/fixtures reads, audits and replays with the outcome it had
before logs moved to schema 2 (the literals were printed by `gumshoe audit <game> LOG --json` and
a replay on main before the change); the logs are of schema 1 (Clue) and 0 (Undercover-V), and
the live Clue game's current log, of schema 3, audits and replays as its first one did; a live
Undercover-V game of schema 3 whose descriptions were read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.core.audit import COLUMNS
from games.core.registry import get_game
from games.core.replay import replay

FIXTURES = Path(__file__).parent / "fixtures"

COUNTS = (*COLUMNS, "unjudged", "recall_stated", "recall_entailed")
"""The per-seat counts of an audit record compared below, in this order."""

CLUE_JUDGEMENTS = [
    "lucky",
    "wrong",
    "lucky",
    *["sound"] * 17,
    "wrong",
    "sound",
    "sound",
    "wrong",
    "sound",
]

LIVE_CLUE: dict[str, Any] = {
    "game": "clue",
    "seed": 0,
    "agents": ["llm-verified", *["random"] * 5],
    "counts": [(12, 7, 2, 3, 0, 9, 3, 7, 2, 3, 0, 0, 15), *[(0,) * 12 + (15,)] * 5],
    "judgements": CLUE_JUDGEMENTS,
    "figures": {"rounds": 30, "winner": None},
    "returns": [0.0] * 6,
    "ranks": (3, 2, 4, 1, 5, 6),
}
"""The live SmolLM2 Clue game, as first logged (schema 1) and as committed now (schema 3)."""

EXPECTED: dict[str, dict[str, Any]] = {
    "clue/schema1-llm-verified-30r.jsonl": LIVE_CLUE,
    "llm/clue-live-30r/clue-seed0.jsonl": LIVE_CLUE,
    "llm/undercover-live/undercover-earl-grey-tea-ceylon-tea-seed1.jsonl": {
        "game": "undercover",
        "seed": 1,
        "agents": ["att-nli", "nli", "prover", "prover"],
        "counts": [(1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, None, None)] * 2
        + [(2, 2, 0, 0, 0, 2, 0, 2, 0, 0, 0, None, None)] * 2,
        "judgements": ["unjudged", "sound", "sound", "unjudged", "sound", "sound"],
        "figures": {
            "spy_seat": 1,
            "pair": "earl-grey-tea-ceylon-tea",
            "winner": "citizens",
            "rounds": 2,
            "unread": 2,
        },
        "returns": [1.0, 0.0, 1.0, 1.0],
        "ranks": None,
    },
    "undercover/legacy_syntax_errors.jsonl": {
        "game": "undercover",
        "seed": 5,
        "agents": ["scripted"] * 4,
        "counts": [(1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, None, None)] * 4,
        "judgements": ["unjudged"] * 4,
        "figures": {
            "spy_seat": 2,
            "pair": "earl-grey-tea-ceylon-tea",
            "winner": "citizens",
            "rounds": 1,
        },
        "returns": [1.0, 1.0, 0.0, 1.0],
        "ranks": None,
    },
}


def test_every_committed_game_log_is_covered() -> None:
    logs = {
        str(p.relative_to(FIXTURES))
        for p in FIXTURES.rglob("*.jsonl")
        if json.loads(p.read_text().splitlines()[0]).get("type") in ("header", "game_start")
    }
    assert logs == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_committed_log_audits_as_before(name: str) -> None:
    expected = EXPECTED[name]
    result = CliRunner().invoke(app, ["audit", expected["game"], str(FIXTURES / name), "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert (record["game"], record["seed"], record["complete"]) == (
        expected["game"],
        expected["seed"],
        True,
    )
    assert [s["agent"] for s in record["seats"]] == expected["agents"]
    assert [tuple(s[k] for k in COUNTS) for s in record["seats"]] == expected["counts"]
    assert [r["judgement"] for r in record["rows"]] == expected["judgements"]
    assert {k: record["figures"][k] for k in expected["figures"]} == expected["figures"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_committed_log_replays_as_before(name: str) -> None:
    expected = EXPECTED[name]
    entry = get_game(expected["game"])
    log = entry.read_log(FIXTURES / name)
    state = replay(entry, log)
    assert state.is_terminal() and list(state.events()) == log.events
    assert list(state.returns()) == expected["returns"]
    if expected["ranks"] is not None:
        assert log.end is not None and log.end.ranks == expected["ranks"]
