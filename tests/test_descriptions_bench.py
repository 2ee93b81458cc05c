"""``bench descriptions``: the labelled set reads and is valid, the offline reader is never wrong
on it (every kind), and a bad labelled file stops the command in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from benchmarks.descriptions_bench import KINDS, LABELLED, load_labelled, run
from games.undercover.lexicon import Lexicon

runner = CliRunner()


def test_the_labelled_set_covers_every_kind_and_both_words_of_every_pair() -> None:
    lexicon = Lexicon.load()
    labelled = load_labelled(LABELLED, lexicon).descriptions
    assert len(labelled) >= 150
    assert {d.kind for d in labelled} == set(KINDS)
    assert {d.word for d in labelled} == set(lexicon.words)
    assert {d.batch for d in labelled} == {"tuning", "held-out"}
    assert len({d.id for d in labelled}) == len(labelled)


def test_the_offline_reader_is_never_wrong_on_the_labelled_set() -> None:
    lexicon = Lexicon.load()
    rows, scored, _ = run(load_labelled(LABELLED, lexicon).descriptions, lexicon, ["offline"], None)
    assert all(r["wrong"] == 0 and r["false violations"] == 0 for r in rows), rows
    total = rows[-1]
    assert total["kind"] == "all" and total["decided"] == total["right"] > 150
    assert total["decided"] + total["unsure"] == total["descriptions"]
    assert all(s.calls == 0 for s in scored["offline"])


def test_the_command_prints_its_table_and_writes_json(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["bench", "descriptions", "--batch", "held-out", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    assert "false violations" in result.output and "offline: CPU" in result.output
    payload = json.loads((tmp_path / "descriptions.json").read_text())
    assert payload["batch"] == "held-out" and payload["table"][-1]["kind"] == "all"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"word": "Green Tea"}, "description t001"),
        ({"truth": "Tea(item"}, "description t001"),
        ({"truth": "Tea(item) | Flavoured(item)"}, "not a conjunction of literals"),
        ({"truth": "Island(item)"}, "no attribute of the pair"),
    ],
)
def test_a_bad_labelled_file_stops_the_command_in_one_line(
    tmp_path: Path, change: dict[str, str], message: str
) -> None:
    data = json.loads(LABELLED.read_text())
    data["descriptions"][0] |= change
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = runner.invoke(app, ["bench", "descriptions", "--labelled", str(bad)])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and str(bad) in lines[0]
