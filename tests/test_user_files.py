"""Every reader of a user's file goes through ``reasoning.textfile``: whatever the file holds
(bytes that are not UTF-8, JSON nested past the limit, numbers past a float, a huge CSV field) or
whatever it is (a FIFO, a device, a folder, nothing), the reader raises its own error in one line
naming the file, and never hangs, exhausts memory or lets a Python error escape."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel
from typer.testing import CliRunner

from benchmarks.clue_bench import read_seats
from benchmarks.console.cli import app
from games.core.registry import get_game
from games.core.runlog import RunDir
from games.detective.case import load_case
from games.mystery.wellplay import read_questions
from games.undercover.lexicon import Lexicon
from games.undercover.words import load_pairs
from reasoning.llm.prices import PriceTable
from reasoning.llm.recording import load_recording
from reasoning.textfile import (
    MAX_INT_DIGITS,
    MAX_JSON_DEPTH,
    UserFileError,
    iter_user_gzip_lines,
    read_user_bytes,
    read_user_csv,
    read_user_json,
    read_user_jsonl,
)
from reasoning.theory import load_theory
from reasoning.trace import load_trace

runner = CliRunner()


class _Config(BaseModel):
    games: int = 1


def _resume(path: Path) -> object:
    """A run directory whose config.json is the fuzzed file."""
    folder = path.parent / "run"
    folder.mkdir(exist_ok=True)
    os.replace(path, folder / "config.json")
    return RunDir.resume(folder, _Config)


def _lexicon(path: Path) -> object:
    """A lexicon folder holding the fuzzed file."""
    folder = path.parent / "lexicon"
    folder.mkdir(exist_ok=True)
    moved = folder / path.name
    os.replace(path, moved)
    try:
        return Lexicon.load(folder)
    finally:
        os.replace(moved, path)


READERS: dict[str, tuple[str, Callable[[Path], object]]] = {
    "json": (".json", read_user_json),
    "jsonl": (".jsonl", read_user_jsonl),
    "case": (".json", load_case),
    "pairs": (".json", load_pairs),
    "lexicon": (".json", _lexicon),
    "wellplay csv": (".csv", lambda p: read_questions(p, 0)),
    "trace": (".jsonl", load_trace),
    "theory": (".thy", load_theory),
    "recording": (".jsonl", load_recording),
    "prices": (".json", PriceTable.load),
    "seats": (".jsonl", read_seats),
    "run config": (".json", _resume),
    "clue log": (".jsonl", lambda p: get_game("clue").read_log(p)),
    "hanabi log": (".jsonl", lambda p: get_game("hanabi").read_log(p)),
}
"""Each reader of a user's file: the suffix of its files and how to read one."""

JSON_READERS = sorted(name for name in READERS if name not in ("theory", "wellplay csv"))

NOT_UTF8 = (b"\xff", b"\xc3(", b"\x80", b"\xed\xa0\x80")


def _deep(depth: int, kind: str) -> bytes:
    opening, closing = ("[", "]") if kind == "list" else ('{"a":', "}")
    return (opening * depth + "1" + closing * depth).encode()


def _line(data: bytes) -> bytes:
    return data + b"\n"


bad_json = st.one_of(
    st.builds(_deep, st.integers(MAX_JSON_DEPTH + 1, 20_000), st.sampled_from(["list", "dict"])),
    st.builds(
        lambda key, n: json.dumps({key: 1}).replace("1", f"1e{n}").encode(),
        st.sampled_from(["title", "pairs", "kind", "type", "games"]),
        st.integers(309, 100_000),
    ),
    st.builds(lambda n: b'{"a": ' + b"9" * n + b"}", st.integers(MAX_INT_DIGITS + 1, 6000)),
    st.sampled_from([b'{"a": NaN}', b'{"a": -Infinity}', b'{"a": 1,}', b"{", b'{"a"']),
    st.builds(
        lambda good, bad, at: good[:at] + bad + good[at:],
        st.just(b'{"title": "x", "pairs": []}'),
        st.sampled_from(NOT_UTF8),
        st.integers(0, 26),
    ),
)
"""JSON documents (and JSONL lines) no reader may accept."""


def _check(name: str, data: bytes) -> str:
    """Read ``data`` with reader ``name``: the one-line error message (the test fails when the
    reader accepts the file or raises anything but a ValueError naming it)."""
    suffix, read = READERS[name]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"input{suffix}"
        path.write_bytes(data)
        with pytest.raises(ValueError) as caught:
            read(path)
    message = str(caught.value)
    assert "\n" not in message, message
    assert "input" in message or "config.json" in message, message
    return message


@pytest.mark.parametrize("name", JSON_READERS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=bad_json)
def test_bad_json_is_one_line_naming_the_file(name: str, data: bytes) -> None:
    _check(name, _line(data) if READERS[name][0] == ".jsonl" else data)


@pytest.mark.parametrize("name", sorted(READERS))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(min_size=1, max_size=200), bad=st.sampled_from(NOT_UTF8))
def test_bytes_that_are_not_utf8_are_one_line(name: str, data: bytes, bad: bytes) -> None:
    message = _check(name, bad + data)  # first, so no byte before it can complete it
    assert "UTF-8" in message or "CSV" in message or "JSON" in message, message


@pytest.mark.parametrize("name", sorted(READERS))
def test_a_fifo_a_device_a_folder_and_nothing_are_refused(name: str, tmp_path: Path) -> None:
    suffix, read = READERS[name]
    if name == "run config":
        pytest.skip("a run directory is a folder: RunDir names its missing config.json")
    fifo = tmp_path / f"fifo{suffix}"
    os.mkfifo(fifo)
    folder = tmp_path / f"folder{suffix}"
    folder.mkdir()
    cases = {
        fifo: "not a regular file",
        Path("/dev/zero"): "not a regular file",
        folder: "is a folder",
        tmp_path / f"missing{suffix}": "no such file",
    }
    for path, reason in cases.items():
        if name in ("recording", "lexicon", "seats") and path.name.startswith("missing"):
            continue
        if name == "lexicon" and not path.name.startswith(("fifo", "folder")):
            continue
        with pytest.raises(ValueError, match=reason) as caught:
            read(path)
        assert path.name in str(caught.value)


def test_json_limits_name_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{\n  "a": [1, 2e400]\n}')
    with pytest.raises(UserFileError, match=r"x\.json:2:12: number 2e400 is too large"):
        read_user_json(path)
    path.write_text("[" * 500 + "]" * 500)
    with pytest.raises(UserFileError, match=rf"x\.json:1:{MAX_JSON_DEPTH + 1}: nested deeper"):
        read_user_json(path)
    path.write_text("[" * 100_000)
    with pytest.raises(UserFileError, match="nested deeper than"):
        read_user_json(path)
    path.write_text('{"a": 1}\n\n[2]\n')
    with pytest.raises(UserFileError, match=r"x\.json:3: expected a JSON object"):
        read_user_jsonl(path)
    path.write_text('{"a": "\u2028\x85"}\n')
    assert read_user_jsonl(path) == [(1, {"a": "\u2028\x85"})]


def test_size_limit_and_gzip_bombs(tmp_path: Path) -> None:
    import gzip

    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 2000)
    assert len(read_user_bytes(path, limit=2000)) == 2000
    with pytest.raises(UserFileError, match="larger than"):
        read_user_bytes(path, limit=1999)
    packed = tmp_path / "bomb.jsonl.gz"
    packed.write_bytes(gzip.compress(b"\n" * 100_000))
    with pytest.raises(UserFileError, match="larger than"):
        list(iter_user_gzip_lines(packed, limit=50_000))
    packed.write_bytes(b"not gzip")
    with pytest.raises(UserFileError, match="not gzip data"):
        list(iter_user_gzip_lines(packed))


def test_csv_rows_keep_their_lines_and_a_huge_field_is_named(tmp_path: Path) -> None:
    path = tmp_path / "q.csv"
    path.write_text('a,b\n"two\nlines",x\nc,d\n')
    assert read_user_csv(path) == [(1, ["a", "b"]), (2, ["two\nlines", "x"]), (4, ["c", "d"])]
    path.write_text('a,b\n"' + "x" * 200_000 + '"\n')
    with pytest.raises(UserFileError, match=r"q\.csv:2: not valid CSV: field larger"):
        read_user_csv(path)


def test_a_torn_last_seats_line_is_dropped_and_other_bad_lines_named(tmp_path: Path) -> None:
    path = tmp_path / "seats.jsonl"
    good = '{"game_id": "game-00000", "fallbacks": [0, 0, 0]}\n'
    path.write_text(good + '{"game_id": "game-0')
    assert list(read_seats(path)) == ["game-00000"]
    path.write_text('{"game_id": "game-0\n' + good)
    with pytest.raises(ValueError, match=r"seats\.jsonl:1:"):
        read_seats(path)


def _commands(path: Path) -> list[list[str]]:
    """Command lines that read ``path`` as a user's file."""
    return [
        ["detective", "check", str(path)],
        ["audit", "detective", str(path)],
        ["audit", "clue", str(path)],
        ["audit", "hanabi", str(path)],
        ["audit", "trace", str(path)],
        ["prove", str(path)],
        ["play", "detective", "--case", str(path)],
        ["play", "undercover", "--pairs-file", str(path)],
    ]


@pytest.mark.parametrize("kind", ["fifo", "folder", "missing", "deep", "1e400"])
def test_commands_refuse_bad_files_in_one_line(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "input.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "deep":
        path.write_bytes(_deep(100_000, "list"))
    elif kind == "1e400":
        path.write_text('{"type": "header", "title": 1e400}\n')
    for args in _commands(path):
        result = runner.invoke(app, args)
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert result.exit_code == 2, (args, result.output)
        assert len(lines) == 1 and str(path) in lines[0], (args, lines)
        assert "Traceback" not in result.output
