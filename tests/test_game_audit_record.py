"""The one audit record: `gumshoe audit <game> LOG --json` has one schema for every registered
game, the committed fixture logs audit with the counts they had before the record, and a bad
path or log gets exit status 2 and one line naming the file and line."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError
from typer.testing import CliRunner

from benchmarks.console import cli
from benchmarks.console.cli import app, audit_rows
from benchmarks.console.command_group import Generated, Group
from benchmarks.runner import MemoryLog
from games.core.audit import AuditRecord, AuditRow, Show, Where, audit_row, render_record, summarise
from games.core.log import SeatInfo
from games.core.loop import Agent, play
from games.core.registry import GAME_MODULES, game_names, get_game
from games.detective.case import CaseKnobs
from games.detective.events import DetectiveConfig
from reasoning.claims import ClaimStatus, Correctness
from tests.test_hanabi_llm import TrackingAgent

runner = CliRunner()
FIXTURES = Path(__file__).parent / "fixtures"
CLUE_FIXTURE = FIXTURES / "clue" / "schema1-llm-verified-30r.jsonl"
UNDERCOVER_FIXTURE = FIXTURES / "undercover" / "legacy_syntax_errors.jsonl"


def played(name: str, agents: Sequence[Agent], seed: int, config: BaseModel | None = None) -> str:
    """One game of ``name`` between ``agents``, as the text of its log."""
    entry = get_game(name)
    seats = [SeatInfo(name=f"P{i}", agent=a.name) for i, a in enumerate(agents)]
    config = config or entry.default_config(len(agents))
    log = MemoryLog()
    state = entry.new_state(config, seed, seats)
    play(
        state,
        agents,
        entry.header(config, seed, seats),
        log,
        max_decisions=entry.info.max_decisions,
    )
    return "".join(line + "\n" for line in log.lines)


def registry_agents(name: str, specs: Sequence[str], seed: int) -> list[Agent]:
    entry = get_game(name)
    settings = entry.default_settings()
    return [entry.seat(entry.make_agent(s, i, seed, settings)) for i, s in enumerate(specs)]


SMALL_CASE = DetectiveConfig(knobs=CaseKnobs(locations=6, questions=2, red_herrings=1))


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A small played log of every registered game, each with stated claims."""
    texts = {
        "clue": played("clue", registry_agents("clue", ["prover", "prover", "random"], 4), 4),
        "detective": played(
            "detective", registry_agents("detective", ["prover"], 7), 7, SMALL_CASE
        ),
        "hanabi": played("hanabi", [TrackingAgent(0), TrackingAgent(1)], 3),
        "undercover": played("undercover", registry_agents("undercover", ["prover"] * 4, 1), 1),
        "mystery": played("mystery", registry_agents("mystery", ["prover"] * 5, 0), 0),
    }
    folder = tmp_path_factory.mktemp("logs")
    paths = {}
    for name, text in texts.items():
        paths[name] = folder / f"{name}.jsonl"
        paths[name].write_text(text)
    return paths


def audit_json(game: str, path: Path, *options: str) -> dict[str, Any]:
    result = runner.invoke(app, ["audit", game, str(path), "--json", *options])
    assert result.exit_code == 0, result.output
    payload: dict[str, Any] = json.loads(result.stdout)
    return payload


def test_every_registered_game_has_a_log_here(logs: dict[str, Path]) -> None:
    assert set(logs) == set(game_names())


def test_every_game_audit_json_has_one_schema(logs: dict[str, Path]) -> None:
    shapes = {}
    for game, path in logs.items():
        record = audit_json(game, path)
        assert record["game"] == game and record["complete"] and record["rows"], game
        AuditRecord.model_validate(record)
        shapes[game] = (
            tuple(record),
            {tuple(s) for s in record["seats"]},
            {tuple(r) for r in record["rows"]},
            {tuple(r["where"]) for r in record["rows"]},
        )
        for row in record["rows"]:
            assert row["status"] in ("ENTAILED", "CONTRADICTED", "UNDETERMINED", "UNKNOWN")
            assert row["judgement"] in ("sound", "lucky", "wrong", "unjudged")
    first = shapes["clue"]
    for game, shape in shapes.items():
        assert shape == first, game
        assert len(shape[1]) == len(shape[2]) == len(shape[3]) == 1, game


def test_a_registered_game_gets_the_audit_command(
    logs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(GAME_MODULES, "clue-again", "games.clue.entry")
    audit = Group("audit", Generated(audit_rows))
    monkeypatch.setitem(cli.COMMANDS, "audit", audit)
    assert audit_json("clue-again", logs["clue"]) == audit_json("clue", logs["clue"])


def test_seat_and_show_options(logs: dict[str, Path]) -> None:
    record = audit_json("clue", logs["clue"], "--seat", "1")
    assert [s["seat"] for s in record["seats"]] == [1]
    assert {r["seat"] for r in record["rows"]} <= {1}
    full = AuditRecord.model_validate(audit_json("mystery", logs["mystery"]))
    listed = render_record(full, Show.ALL)
    assert len(listed) == len(render_record(full, Show.NONE)) + len(full.rows)
    bad_seat = runner.invoke(app, ["audit", "clue", str(logs["clue"]), "--seat", "9"])
    assert bad_seat.exit_code == 2 and "--seat 9" in bad_seat.output
    bad_show = runner.invoke(app, ["audit", "clue", str(logs["clue"]), "--show", "some"])
    assert bad_show.exit_code == 2 and len(bad_show.output.strip().splitlines()) == 1


def test_the_summary_counts_the_rows_that_are_not_repeats(logs: dict[str, Path]) -> None:
    for game, path in logs.items():
        record = AuditRecord.model_validate(audit_json(game, path))
        for seat in record.seats:
            own = [r for r in record.rows if r.seat == seat.seat and not r.repeat]
            assert seat.stated == len(own), game
            assert seat.sound == sum(r.judgement == "sound" for r in own), game
            assert seat.entailed == sum(r.status.value == "ENTAILED" for r in own), game


def test_the_committed_clue_log_audits_as_before() -> None:
    record = AuditRecord.model_validate(audit_json("clue", CLUE_FIXTURE))
    p0, *others = record.seats
    # The counts `gumshoe audit clue --json` gave before the record (main at 399c4f6).
    assert (p0.stated, p0.entailed, p0.contradicted, p0.undetermined, p0.unknown) == (
        12,
        7,
        2,
        3,
        0,
    )
    assert (p0.true, p0.false, p0.sound, p0.lucky, p0.wrong) == (9, 3, 7, 2, 3)
    assert len(record.rows) == 25 and sum(r.repeat for r in record.rows) == 13
    assert all(s.stated == 0 for s in others)
    assert {(s.recall_stated, s.recall_entailed) for s in record.seats} == {(0, 15)}
    assert record.figures["rounds"] == 30 and record.complete


def test_the_committed_undercover_log_audits_as_before() -> None:
    record = AuditRecord.model_validate(audit_json("undercover", UNDERCOVER_FIXTURE))
    # Of its four descriptions, written before descriptions were read: two formulas that do
    # not parse or fit the vocabulary, and two sentences the offline reader does not read (the
    # log says not_formalised for all four).
    assert Counter(r.detail["consistency"] for r in record.rows) == {
        "syntax_error": 2,
        "unread": 2,
    }
    assert {r.detail["reader"] for r in record.rows} == {"offline"}
    assert Counter(r.detail["logged_consistency"] for r in record.rows) == {"not_formalised": 4}
    assert {r.status.value for r in record.rows} == {"UNKNOWN"}
    assert [s.stated for s in record.seats] == [1, 1, 1, 1]


def one_line_error(game: str, path: Path) -> str:
    result = runner.invoke(app, ["audit", game, str(path)])
    assert result.exit_code == 2, (game, result.output)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, (game, result.output)
    return lines[0]


@pytest.mark.parametrize("game", game_names())
def test_bad_paths_and_logs_exit_2_in_one_line(
    game: str, logs: dict[str, Path], tmp_path: Path
) -> None:
    assert "none.jsonl" in one_line_error(game, tmp_path / "none.jsonl")
    assert str(tmp_path) in one_line_error(game, tmp_path)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    assert "bad.jsonl:1" in one_line_error(game, bad)
    lines = logs[game].read_text().splitlines(keepends=True)
    bad.write_text(lines[0])
    cut = runner.invoke(app, ["audit", game, str(bad), "--json"])
    if cut.exit_code == 0:
        assert not json.loads(cut.stdout)["complete"]
    else:
        assert "bad.jsonl:" in one_line_error(game, bad)
    broken = [*lines[:3], '{"type": "nonsense"}\n', *lines[4:]]
    bad.write_text("".join(broken))
    assert "bad.jsonl:4" in one_line_error(game, bad)


def test_a_row_judgement_follows_from_its_status_and_correctness() -> None:
    row = audit_row(0, Where(line=3), "x", ClaimStatus.UNDETERMINED, Correctness.TRUE)
    assert row.judgement == "lucky"
    with pytest.raises(ValidationError, match="judgement"):
        AuditRow.model_validate(row.model_dump() | {"judgement": "sound"})
    summary = summarise(
        0, "P0", "a", [row, row.model_copy(update={"repeat": True})], has_truth=True
    )
    assert (summary.stated, summary.undetermined, summary.lucky, summary.recall) == (1, 1, 1, None)
    blind = summarise(0, "P0", "a", [row], has_truth=False, recall=(0, 0))
    assert (blind.true, blind.sound, blind.recall_entailed, blind.recall) == (None, None, 0, None)


def test_the_text_shows_figures_to_three_places_and_the_json_keeps_them_whole() -> None:
    figures = {"ig_per_round": [1.2424533, 0.0], "entropy": {"P0": 1.38629}, "lies": 1}
    record = AuditRecord(
        game="mystery",
        source=None,
        seed=1,
        has_truth=True,
        complete=True,
        seats=[],
        rows=[],
        figures=figures,
    )
    text = render_record(record)
    assert "ig_per_round: [1.242, 0.0]" in text and 'entropy: {"P0": 1.386}' in text
    assert "lies: 1" in text
    assert record.model_dump(mode="json")["figures"] == figures
