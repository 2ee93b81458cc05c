"""Bad Clue logs for ``gumshoe audit clue`` and bad options for the game and bench commands:
exit status 2 and one line naming the file, line or option; never a traceback or a hang."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.clue import ClueConfig, ClueGame, random_agent
from games.core.runlog import EventLog
from tests.support.played import play_clue

runner = CliRunner()
SMALL = ClueConfig(
    players=3,
    suspects=("Plum", "Green"),
    weapons=("Rope", "Knife"),
    rooms=("Hall", "Study", "Lounge"),
)


def good_lines(tmp: Path) -> list[str]:
    path = tmp / "good.jsonl"
    with EventLog(path) as log:
        play_clue(ClueGame(SMALL, 7), [random_agent(s) for s in range(3)], log)
    return path.read_text().splitlines()


@pytest.fixture(scope="module")
def lines(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return good_lines(tmp_path_factory.mktemp("log"))


def audit(path: Path) -> tuple[int, str]:
    result = runner.invoke(app, ["audit", "clue", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stderr


def assert_one_line(stderr: str, *parts: str) -> None:
    assert "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1, stderr
    for part in parts:
        assert part in stderr, stderr


def edit(lines: list[str], index: int, **fields: object) -> list[str]:
    record = json.loads(lines[index])
    record.update(fields)
    return [*lines[:index], json.dumps(record), *lines[index + 1 :]]


def index_of(lines: list[str], kind: str, **match: object) -> int:
    return next(
        i
        for i, line in enumerate(lines)
        if (r := json.loads(line))["type"] == kind and all(r.get(k) == v for k, v in match.items())
    )


def test_bad_logs_name_file_line_and_problem(lines: list[str], tmp_path: Path) -> None:
    end = index_of(lines, "game_end")
    accusation = index_of(lines, "accusation")
    winner = json.loads(lines[end])["winner"]
    later_turn = index_of(lines, "turn_start", round=2)
    cases: dict[str, tuple[bytes, str]] = {
        "empty": (b"", ":1: the log is empty"),
        "blank": (b"\n  \n\t\n", ":1: the log is empty"),
        "bom": (b"\xef\xbb\xbf" + lines[0].encode() + b"\n", ":1: starts with a UTF-8 byte-order"),
        "latin1": (lines[0].encode() + b"\n\xe9t\xe9\n", ":2: not UTF-8: byte 0xe9"),
        "after_game_end": (
            "\n".join([*lines[: end + 1], lines[2]]).encode(),
            f":{end + 2}: an event after game_end",
        ),
        "round_back": (
            "\n".join(edit(lines, later_turn + 1, round=1)).encode(),
            f":{later_turn + 2}: round 1 goes back from round 2",
        ),
        "round_jump": (
            "\n".join(edit(lines, later_turn, round=10**9)).encode(),
            f":{later_turn + 1}: round 1000000000 is past the round limit 30",
        ),
        "winner": (
            "\n".join(edit(lines, end, winner=None if winner is not None else 0)).encode(),
            f":{end + 1}: winner:",
        ),
        "ranks": (
            "\n".join(edit(lines, len(lines) - 1, ranks=[1, 2])).encode(),
            f":{len(lines)}: returns: a finished game gives one return and one rank per seat",
        ),
        "repeated_config": (
            "\n".join(edit(lines, 1, config=json.loads(lines[0])["config"])).encode(),
            ":2: field 'game_start.config': Extra inputs are not permitted",
        ),
        "seq_true": ("\n".join(edit(lines, 2, seq=True)).encode(), ":3: field 'turn_start.seq'"),
        "player_text": (
            "\n".join(
                edit(lines, accusation, seat=str(json.loads(lines[accusation])["seat"]))
            ).encode(),
            f":{accusation + 1}: field 'accusation.seat'",
        ),
    }
    for name, (data, message) in cases.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(data)
        started = time.perf_counter()
        code, stderr = audit(path)
        assert code == 2, (name, stderr)
        assert_one_line(stderr, f"{name}.jsonl{message}")
        assert time.perf_counter() - started < 30, name


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=3),
)


@st.composite
def damaged(draw: st.DrawFn, lines: list[str]) -> bytes:
    """A log damaged in one of several ways."""
    how = draw(st.sampled_from(["field", "drop", "swap", "bytes", "truncate"]))
    out = list(lines)
    if how == "field":
        index = draw(st.integers(0, len(out) - 1))
        record = json.loads(out[index])
        key = draw(st.sampled_from(sorted(record)))
        record[key] = draw(JUNK)
        out[index] = json.dumps(record)
    elif how == "drop":
        del out[draw(st.integers(0, len(out) - 1))]
    elif how == "swap":
        i, j = draw(st.integers(0, len(out) - 1)), draw(st.integers(0, len(out) - 1))
        out[i], out[j] = out[j], out[i]
    data = "\n".join(out).encode() + b"\n"
    if how == "bytes":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=4)) + data[at:]
    elif how == "truncate":
        data = data[: draw(st.integers(0, len(data)))]
    return data


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_damaged_logs_are_audited_or_refused_in_one_line(
    lines: list[str], tmp_path: Path, data: st.DataObject
) -> None:
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(data.draw(damaged(lines)))
    code, stderr = audit(path)
    assert code in (0, 2), stderr
    if code == 2:
        assert_one_line(stderr, "damaged.jsonl")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "clue", "--agents", "prover*7"], "agents: clue takes 3 to 6 players, got 7"),
        (["play", "clue", "--agents", "prover*2"], "agents: clue takes 3 to 6 players, got 2"),
        (["play", "clue", "--rounds", "5000"], "option '--rounds'"),
        (["play", "clue", "--agents", "prover*x"], "write name*count"),
        (["bench", "clue", "--agents", "prover*9"], "agents: clue takes 3 to 6 players, got 9"),
        (["bench", "clue", "--workers", "0"], "option '--workers'"),
        (["bench", "clue", "--concurrency", "100000"], "option '--concurrency'"),
        (
            ["play", "undercover", "--agents", "prover*11"],
            "agents: undercover takes 4 to 10 players, got 11",
        ),
        (["play", "undercover", "--timeout", "inf"], "option '--timeout'"),
        (
            ["bench", "undercover", "--players", "11"],
            "option '--players': undercover takes 4 to 10 players, got 11",
        ),
        (["bench", "undercover", "--fixed-citizen", "wizard"], "--fixed-citizen: unknown agent"),
        (["bench", "undercover", "--timeout", "1e300"], "field 'prover_timeout_s'"),
    ],
)
def test_bad_options_exit_2_with_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    result = runner.invoke(app, [*args, "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert_one_line(result.stderr, message)


def test_an_out_that_is_a_file_or_cannot_be_created_is_named(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    for command in (["bench", "clue", "--games", "1"], ["play", "clue"], ["bench", "clue-perf"]):
        for out, message in ((afile, "is a file"), (afile / "sub", "cannot create it")):
            result = runner.invoke(app, [*command, "--out", str(out)])
            assert result.exit_code == 2, (command, result.output)
            assert_one_line(result.stderr, str(out), message)


def test_negative_counts_are_refused() -> None:
    for option in ("--repeats", "--problems"):
        result = runner.invoke(app, ["bench", "provers", option, "-1"])
        assert result.exit_code == 2 and "Traceback" not in result.output


def test_a_resumed_run_directory_with_bad_bytes_is_named(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["bench", "clue", "--games", "1", "--agents", "random*3", "--rounds", "2"]
    assert runner.invoke(app, [*args, "--out", str(out)]).exit_code == 0
    config = out / "config.json"
    config.write_bytes(b"\xef\xbb\xbf" + config.read_bytes())
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 2
    assert_one_line(result.stderr, "config.json:1: starts with a UTF-8 byte-order mark")
    config.write_bytes(config.read_bytes()[3:])
    log = out / "games" / "clue-seed0.jsonl"
    log.write_bytes(log.read_bytes()[:-40] + b"\xff\n")
    resumed = runner.invoke(app, [*args, "--out", str(out)])
    assert resumed.exit_code == 2
    assert_one_line(resumed.stderr, "clue-seed0.jsonl", "not UTF-8: byte")
