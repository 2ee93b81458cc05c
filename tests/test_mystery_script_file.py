"""The interrogation script file: it round-trips (hypothesis over edited scripts), a broken file
or one that fails the acceptance checks is one line naming the file and the part (`gumshoe
mystery check`, exit 2), and `play mystery` / `bench mystery` play a script file."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from benchmarks.console.cli import app
from formalize.interrogation import ScriptConfig
from formalize.interrogation.script import Scripts
from formalize.interrogation.script_file import (
    ScriptFileError,
    dump_scripts,
    load_scripts,
    parse_scripts,
)
from games.mystery.entry import scripts_for

runner = CliRunner()
SCRIPTS = scripts_for(3, ScriptConfig())


def _file(tmp_path: Path, data: dict[str, Any] | str) -> Path:
    path = tmp_path / "script.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2))
    return path


def _one_line(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


def test_a_generated_script_round_trips_and_passes(tmp_path: Path) -> None:
    text = dump_scripts(SCRIPTS)
    assert parse_scripts(text) == SCRIPTS
    path = tmp_path / "s.json"
    made = runner.invoke(app, ["mystery", "generate", "--seed", "3", "--out", str(path)])
    assert made.exit_code == 0, made.output
    assert path.read_text() == text
    checked = runner.invoke(app, ["mystery", "check", str(path)])
    assert checked.exit_code == 0 and "passes" in checked.output, checked.output


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_edited_scripts_round_trip(data: st.DataObject) -> None:
    """Any subset of each player's facts, in any order, with any secrets among them."""
    scripts: dict[str, tuple[Any, ...]] = {}
    secrets = {}
    for person, facts in SCRIPTS.scripts.items():
        kept = data.draw(st.permutations(facts).flatmap(lambda f: st.just(tuple(f))))
        kept = kept[: data.draw(st.integers(0, len(kept)))]
        scripts[person] = kept
        secrets[person] = frozenset(data.draw(st.sets(st.sampled_from(kept))) if kept else ())
    edited: Scripts = dataclasses.replace(SCRIPTS, scripts=scripts, secrets=secrets)
    assert parse_scripts(dump_scripts(edited)) == edited


def _data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(dump_scripts(SCRIPTS))
    return loaded


def _civilian() -> str:
    return SCRIPTS.civilians[0]


def _murderer() -> str:
    return sorted(SCRIPTS.murderers)[0]


def _forget(data: dict[str, Any]) -> None:
    for person in data["players"]:
        data["scripts"][person] = []
        data["secrets"][person] = []


BROKEN: dict[str, tuple[Any, str]] = {
    "atom-outside-the-setting": (
        lambda d: d["scripts"][_civilian()].append("at_zed_hall_1"),
        "is not an atom of the setting",
    ),
    "not-a-script-fact": (
        lambda d: d["scripts"][_civilian()].append(
            d["scripts"][_civilian()][0] + " | " + d["scripts"][_civilian()][1]
        ),
        "is not a fact a script can hold",
    ),
    "not-a-formula": (lambda d: d["intro"].append("at_ &"), "not a formula"),
    "positions-missing-a-person": (
        lambda d: d["truth"]["positions"].pop(_civilian()),
        "field 'truth.positions'",
    ),
    "cover-for-a-civilian": (
        lambda d: d["covers"].update({_civilian(): d["scripts"][_civilian()]}),
        "field 'covers'",
    ),
    "secret-not-in-script": (
        lambda d: d["secrets"][_civilian()].append("at_" + _civilian() + "_x_0"),
        "secrets",
    ),
    "unknown-player": (lambda d: d["players"].append("zed"), "field 'players'"),
    "cover-contradicts-itself": (
        lambda d: d["covers"][_murderer()].append(f"~({d['covers'][_murderer()][0]})"),
        "the cover stories are inconsistent",
    ),
    "nobody-knows-anything": (_forget, "cannot name the killers"),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_a_broken_script_file_is_one_line(tmp_path: Path, name: str) -> None:
    data = _data()
    edit, message = BROKEN[name]
    edit(data)
    path = _file(tmp_path, data)
    line = _one_line(["mystery", "check", str(path)])
    assert line.startswith(f"error: {path}") and message in line


def test_unreadable_script_files_are_one_line(tmp_path: Path) -> None:
    deep = _file(tmp_path, "[" * 100_000 + "]" * 100_000)
    assert "nested deeper than" in _one_line(["mystery", "check", str(deep)])
    assert "not a file" in _one_line(["mystery", "check", str(tmp_path)])
    torn = _file(tmp_path, dump_scripts(SCRIPTS)[:500])
    assert "not valid JSON" in _one_line(["mystery", "check", str(torn)])
    with pytest.raises(ScriptFileError, match="no such file"):
        load_scripts(tmp_path / "none.json")


def test_play_and_bench_take_a_script_file(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(dump_scripts(SCRIPTS))
    title = SCRIPTS.world.setting.title
    played = runner.invoke(app, ["play", "mystery", "--script", str(path), "--seed", "5"])
    assert played.exit_code == 0 and played.output.startswith(title), played.output
    out = tmp_path / "run"
    bench = ["bench", "mystery", "--script", str(path), "--games", "1", "--no-quiz"]
    ran = runner.invoke(app, [*bench, "--out", str(out), "--json"])
    assert ran.exit_code == 0, ran.output
    assert json.loads(ran.output)["finished"] == 1
    header = json.loads((out / "games" / "mystery-seed0.jsonl").read_text().splitlines()[0])
    assert header["config"]["script_file"] == str(path.resolve())
    data = _data()
    _forget(data)
    path.write_text(json.dumps(data))
    assert "cannot name the killers" in _one_line(["play", "mystery", "--script", str(path)])
    assert "cannot name the killers" in _one_line([*bench, "--out", str(tmp_path / "r2")])
    assert not (tmp_path / "r2").exists()
