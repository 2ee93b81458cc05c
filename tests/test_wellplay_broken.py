"""Broken copies of WellPlay: each is refused with one line naming the file, and the row and
column or the field (``bench wellplay`` exits 2); a quoted CSV cell may hold a newline; a
hypothesis suite tears and edits copies and sees every one loaded or refused, nothing else."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.mystery.wellplay import WellPlayError, load_script, load_wellplay
from tests.test_wellplay_loader import ROWS, write_script

GOOD = [r for r in ROWS if "noon" not in r]


def _info(folder: Path, **fields: object) -> None:
    path = folder / "json" / "script_info.json"
    data = json.loads(path.read_text("utf-8-sig"))
    data.update(fields)
    path.write_text(json.dumps(data), "utf-8")


def _character(folder: Path, **fields: object) -> None:
    path = folder / "json" / "Ann.json"
    data = json.loads(path.read_text())
    data.update(fields)
    path.write_text(json.dumps(data), "utf-8")


def _csv(folder: Path, text: str) -> None:
    (folder / "final_result" / "Ann.csv").write_text(text, "utf-8")


def _dir_instead(folder: Path, relative: str) -> None:
    path = folder / relative
    path.unlink()
    path.mkdir()


HEADER = "value,type,question,a,b,c,d,e,truth"
BROKEN: dict[str, tuple[Callable[[Path], None], str]] = {
    "single-choice-two-keys": (
        lambda f: _csv(f, f'{HEADER}\na,a,Who?,Ann,Bo,,,,"a,b"\n'),
        r"Ann\.csv:2:9: column 'truth': a single-choice question",
    ),
    "key-outside-options": (
        lambda f: _csv(f, f"{HEADER}\na,a,Who?,Ann,Bo,Cy,,,d\n"),
        r"Ann\.csv:2:9: column 'truth': 'd' names an empty option",
    ),
    "one-option": (
        lambda f: _csv(f, f"{HEADER}\na,a,Who?,Ann,,,,,a\n"),
        r"Ann\.csv:2:4: columns 'a'-'e': a question needs two options",
    ),
    "no-questions": (lambda f: _csv(f, HEADER + "\n"), r"Ann\.csv: no questions"),
    "duplicate-column": (
        lambda f: _csv(f, "value,type,question,a,a,truth\na,a,Q?,x,y,a\n"),
        r"Ann\.csv:1:5: column 'a' appears twice",
    ),
    "missing-column": (
        lambda f: _csv(f, "value,question,a,b,truth\na,Q?,x,y,a\n"),
        r"Ann\.csv:1: column 'type' is missing",
    ),
    "huge-cell": (
        lambda f: _csv(f, f'{HEADER}\na,a,"{"x" * 200_000}",A,B,,,,a\n'),
        r"Ann\.csv:2: not valid CSV",
    ),
    "no-characters": (
        lambda f: _info(f, character_name=[]),
        r"script_info\.json: field 'character_name' lists no characters",
    ),
    "character-twice": (
        lambda f: _info(f, character_name=["Ann", "Ann"]),
        r"script_info\.json: field 'character_name' lists 'Ann' twice",
    ),
    "character-path": (
        lambda f: _info(f, character_name=["Ann", "../Bo"]),
        r"script_info\.json: field 'character_name': '\.\./Bo' cannot name a file",
    ),
    "missing-character-file": (
        lambda f: _info(f, character_name=["Ann", "Bo", "Cy"], agent_num=3),
        r"Cy\.json: no such file",
    ),
    "agent-num-fraction": (
        lambda f: _info(f, agent_num=2.5),
        r"script_info\.json: field 'agent_num' must be a whole number",
    ),
    "agent-num-infinite": (
        lambda f: (f / "json" / "script_info.json").write_text(
            '{"agent_num": 1e400, "script_name": "x", "character_name": ["Ann"]}'
        ),
        r"script_info\.json:1:15: number 1e400 is too large",
    ),
    "agent-num-zero": (lambda f: _info(f, agent_num=0), r"field 'agent_num'"),
    "empty-script": (lambda f: _character(f, script=""), r"Ann\.json: field 'script' is empty"),
    "script-not-text": (
        lambda f: _character(f, script={"a": 1}),
        r"Ann\.json: field 'script' must be text",
    ),
    "murderer-not-a-flag": (
        lambda f: _character(f, is_murderer=[1]),
        r"Ann\.json: field 'is_murderer' is not a yes/no value",
    ),
    "script-name-empty": (
        lambda f: _info(f, script_name=""),
        r"script_info\.json: field 'script_name' is empty",
    ),
    "json-a-directory": (
        lambda f: _dir_instead(f, "json/Ann.json"),
        r"Ann\.json: is a folder, not a file",
    ),
    "csv-a-directory": (
        lambda f: _dir_instead(f, "final_result/Ann.csv"),
        r"Ann\.csv: is a folder, not a file",
    ),
    "json-nested-deeply": (
        lambda f: (f / "json" / "Ann.json").write_text("[" * 100_000 + "]" * 100_000),
        r"Ann\.json:1:101: nested deeper than",
    ),
    "json-not-an-object": (
        lambda f: (f / "json" / "Ann.json").write_text("[1]"),
        r"Ann\.json:1: expected a JSON object",
    ),
    "json-torn": (
        lambda f: (f / "json" / "Ann.json").write_text('{"script": "x",\n'),
        r"Ann\.json:2:1: not valid JSON",
    ),
    "agent-num-disagrees": (
        lambda f: _info(f, agent_num=3),
        r"script_info\.json: field 'agent_num': 3 players, but 'character_name' lists 2",
    ),
    "duplicate-options": (
        lambda f: _csv(f, f"{HEADER}\na,a,Who?,Ann,Bo,ann ,,,a\n"),
        r"Ann\.csv:2:6: column 'c': the same option as column 'a'",
    ),
    "nul-byte": (
        lambda f: _csv(f, f"{HEADER}\na,a,Who?,An\0n,Bo,,,,a\n"),
        r"Ann\.csv:2:12: holds a NUL byte",
    ),
    "cells-past-the-last-column": (
        lambda f: _csv(f, f"{HEADER}\na,a,Who?,Ann,Bo,,,,,x,b\n"),
        r"Ann\.csv:2:10: 2 cells past the last column",
    ),
    "nul-in-a-name": (
        lambda f: _info(f, character_name=["Ann", "B\0o"]),
        r"script_info\.json: field 'character_name': 'B\\x00o' cannot name a file",
    ),
    "not-utf8": (
        lambda f: (f / "final_result" / "Ann.csv").write_bytes(b"value,type\n\xff\n"),
        r"Ann\.csv:2:1: not UTF-8",
    ),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_a_broken_copy_is_one_line_naming_its_place(tmp_path: Path, name: str) -> None:
    folder = write_script(tmp_path, rows=GOOD)
    breaking, message = BROKEN[name]
    breaking(folder)
    with pytest.raises(WellPlayError, match=message) as info:
        load_script(folder)
    assert "\n" not in str(info.value)
    result = CliRunner().invoke(app, ["bench", "wellplay", "--data", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and result.output.startswith("error: ")


def test_a_quoted_cell_may_hold_a_newline(tmp_path: Path) -> None:
    folder = write_script(tmp_path, rows=GOOD)
    _csv(folder, f'{HEADER}\na,a,"Who broke\nthe vase?",Ann,Bo,,,,a\nb,a,Q?,x,"y\nz",,,,q\n')
    with pytest.raises(WellPlayError, match=r"Ann\.csv:4:9: column 'truth'"):
        load_script(folder)
    _csv(folder, f'{HEADER}\na,a,"Who broke\nthe vase?",Ann,Bo,,,,a\n')
    (question,) = load_script(folder).characters[0].questions
    assert question.question == "Who broke\nthe vase?"


def test_a_quoted_newline_reads_the_same_in_a_crlf_file(tmp_path: Path) -> None:
    folder = write_script(tmp_path, rows=GOOD)
    text = f'{HEADER}\na,a,"Who broke\nthe vase?",Ann,"B\no",,,,a\nb,a,Q?,x,y,,,,b\n'
    path = folder / "final_result" / "Ann.csv"
    path.write_bytes(text.encode())
    unix = load_script(folder).characters[0].questions
    path.write_bytes(text.replace("\n", "\r\n").encode())
    assert load_script(folder).characters[0].questions == unix
    assert unix[0].question == "Who broke\nthe vase?" and "B\no" in unix[0].options.values()


def test_a_script_folder_without_its_info_file_is_named(tmp_path: Path) -> None:
    write_script(tmp_path, rows=GOOD)
    stray = write_script(tmp_path, name="Stray", rows=GOOD)
    (stray / "json" / "script_info.json").unlink()
    with pytest.raises(WellPlayError, match=r"Stray/json/script_info\.json: no such file"):
        load_wellplay(tmp_path)
    result = CliRunner().invoke(app, ["bench", "wellplay", "--data", str(tmp_path)])
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output


def test_the_root_must_hold_scripts(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    for root in (tmp_path / "file", tmp_path / "none"):
        with pytest.raises(WellPlayError, match=r"no \*/json/script_info\.json"):
            load_wellplay(root)


OUTCOMES: Counter[str] = Counter()


def _mutate(folder: Path, rng: random.Random) -> None:
    """Tear a random file of the copy at a random byte, or overwrite a random CSV cell or
    JSON field with a random value."""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    path = rng.choice(files)
    text = path.read_text("utf-8-sig")
    choice = rng.randrange(3)
    if choice == 0:
        path.write_text(text[: rng.randrange(len(text) + 1)], "utf-8")
    elif choice == 1 and path.suffix == ".csv":
        rows = [line.split(",") for line in text.splitlines()]
        row = rng.choice(rows)
        row[rng.randrange(len(row))] = rng.choice(["", "a", "b", "a,b", "z", "x" * 5, '"'])
        path.write_text("\n".join(",".join(r) for r in rows), "utf-8")
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return
        if isinstance(data, dict) and data:
            key = rng.choice(sorted(data))
            data[key] = rng.choice([None, 0, -1, 2.5, "", "x", [], ["Ann"], {"a": 1}, True])
            path.write_text(json.dumps(data), "utf-8")


def _both_outcomes(test: Callable[..., None]) -> Callable[..., None]:
    """Examples that load (nothing changed that matters) and that are refused."""
    for seed in range(4):
        test = example(rng=random.Random(seed))(test)
    return test


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@_both_outcomes
@given(rng=st.randoms(use_true_random=False))
def test_fuzzed_copies_load_or_are_refused_in_one_line(
    tmp_path_factory: pytest.TempPathFactory, rng: random.Random
) -> None:
    root = tmp_path_factory.mktemp("wellplay")
    folder = write_script(root, rows=GOOD)
    _mutate(folder, rng)
    try:
        load_wellplay(root)
    except WellPlayError as err:
        assert "\n" not in str(err) and str(folder) in str(err)
        OUTCOMES["refused"] += 1
    else:
        OUTCOMES["loaded"] += 1


def test_the_fuzz_saw_both_outcomes() -> None:
    if not OUTCOMES:
        pytest.skip("runs after the fuzz test")
    assert set(OUTCOMES) == {"loaded", "refused"}, OUTCOMES
