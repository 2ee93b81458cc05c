"""``bench mystery`` sums each log's audit record: on a run whose log holds every kind of graded
suspect, rated asks and lies, its summary is the one the game's own audit gives."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.core.replay import replay
from games.mystery.audit import audit_game
from games.mystery.entry import ENTRY
from games.mystery.events import GameEnd, MysteryConfig
from games.mystery.objectives import points_met

runner = CliRunner()
BENCH = ["bench", "mystery", "--games", "1", "--first-seed", "4", "--no-quiz", "--quiet", "--json"]


def _graded_and_rated(path: Path) -> None:
    """Rewrite the log at ``path``: the first civilian ask with suspects keeps one innocent per
    crime (the dropped innocents entailed out or guesses, the killers wrong) and rates every
    other player high or low; the last keeps every innocent (those ruled out by then missed)."""
    log = ENTRY.read_log(path)
    scripts = replay(ENTRY, log).scripts
    records = [json.loads(line) for line in path.read_text().splitlines()]
    asks = [
        r
        for r in records
        if r.get("type") == "question"
        and r["stated"]
        and scripts.players[r["seat"]] not in scripts.murderers
    ]
    for ask, keep in ((asks[0], 1), (asks[-1], len(scripts.players))):
        me = scripts.players[ask["seat"]]
        ask["stated"] = [
            [p for p in scripts.players if p not in (me, c.victim, *c.killers)][:keep]
            for c in scripts.world.crimes
        ]
    me = scripts.players[asks[0]["seat"]]
    others = [p for p in scripts.players if p != me]
    asks[0]["expected"] = [[p, "high" if k % 2 else "low"] for k, p in enumerate(others)]
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))


def _summary_of_the_games_audit(path: Path) -> dict[str, Any]:
    """The figures the bench reported when it read the game's own audit types."""
    log = ENTRY.read_log(path)
    scripts = replay(ENTRY, log).scripts
    audit = audit_game(scripts, log.events, MysteryConfig.model_validate(log.header.config).rounds)
    end = log.events[-1]
    assert isinstance(end, GameEnd)
    facts = Counter(f"{c.correctness.value}/{c.status.value}" for c in audit.facts)
    sides: dict[bool, list[int]] = {True: [0, 0], False: [0, 0]}
    for seat, scores in audit.objectives.items():
        met, possible = points_met(scores)
        sides[scripts.players[seat] in scripts.murderers][0] += met
        sides[scripts.players[seat] in scripts.murderers][1] += possible
    starts = [h[0] for h in audit.entropy.values()]
    return {
        "win_rate": float(end.winner == "civilians"),
        "solved_share": sum(end.solved) / len(end.solved),
        "mean_h0": sum(starts) / len(starts),
        "ig_per_round": audit.gains,
        "pruning": dict(sorted(audit.pruning.items())),
        "pruning_per_victim": [
            dict(sorted(audit.by_victim.get(c.victim, Counter()).items()))
            for c in scripts.world.crimes
        ],
        "facts": dict(sorted(facts.items())),
        "lies": len(audit.lies),
        "objectives_civilians": sides[False][0] / sides[False][1],
        "objectives_murderers": sides[True][0] / sides[True][1],
        "lies_contradicting_own_script": facts["FALSE/CONTRADICTED"],
        "calibration": {
            level: {
                "n": len(v := [e for lv, e in audit.calibration if lv == level]),
                "mean_exact_eig": sum(v) / len(v) if v else None,
            }
            for level in ("high", "medium", "low")
        },
    }


def test_the_bench_summary_is_the_games_own_audit_read_through_the_record(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert runner.invoke(app, [*BENCH, "--out", str(out)]).exit_code == 0
    path = out / "games" / "mystery-seed4.jsonl"
    _graded_and_rated(path)
    result = runner.invoke(app, [*BENCH, "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    expected = _summary_of_the_games_audit(path)
    assert {k: summary[k] for k in expected} == expected
    assert set(summary["pruning"]) == {"entailed", "guess", "wrong", "missed"}
    assert all(summary["calibration"][level]["n"] for level in ("high", "low"))
    assert summary["lies_contradicting_own_script"] > 0
