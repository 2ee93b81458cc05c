"""A run folder or log from someone else is untrusted input: a symbolic link, a FIFO or a device
planted at any path `view`, `export`, `audit` or `bench` reads or writes gets exit status 2 and
one line naming it, nothing waits on a FIFO, and no file outside the output is touched. Files
are written whole, with the umask's mode; a full disk and a bad header name their file."""

from __future__ import annotations

import errno
import gzip
import json
import os
import shutil
import stat
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from benchmarks.report import format_table, write_json
from reasoning.deadline import time_limit
from reasoning.outfile import atomic_file, open_append, open_fresh, write_atomic, writing_to
from reasoning.textfile import (
    MAX_FILE_BYTES,
    UserFileError,
    iter_user_gzip_lines,
    iter_user_lines,
    read_user_bytes,
)

runner = CliRunner()
GAME = "clue-seed0"
BENCH = ["bench", "clue", "--games", "1", "--agents", "random*3", "--rounds", "2", "--quiet"]


class Hung(Exception):
    """A command that did not end within the test's time limit (it waited on a FIFO)."""


def gumshoe(*args: str) -> tuple[int, list[str]]:
    """Run ``gumshoe ARGS`` in this process, bounded in time: exit status and stderr lines."""
    with time_limit(120, Hung):
        result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output, result.output
    return result.exit_code, [line for line in result.stderr.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished one-game Clue run with a recording, viewed once (so it stores its view)."""
    run = tmp_path_factory.mktemp("played") / "run"
    code, lines = gumshoe(*BENCH, "--out", str(run))
    assert code == 0, lines
    (run / "llm").mkdir()
    (run / "llm" / f"{GAME}.seat0.jsonl").write_text("")
    assert gumshoe("view", str(run))[0] == 0
    return run


class Outside:
    """Files outside every output: a victim a planted link points at, and a folder."""

    def __init__(self, root: Path) -> None:
        self.victim = root / "victim.txt"
        self.victim.write_text("the user's own file\n")
        self.folder = root / "elsewhere"
        self.folder.mkdir()
        self.before = self._state()

    def mark(self) -> None:
        """Take what is outside as it is now (after planting) as what must stay."""
        self.before = self._state()

    def _state(self) -> dict[str, Any]:
        found = sorted(self.folder.rglob("*"))
        info = self.victim.stat()
        return {"victim": (self.victim.read_text(), info.st_mtime_ns), "folder": found}

    def untouched(self) -> bool:
        """Whether nothing outside the outputs changed."""
        return self._state() == self.before


def _link(target: Path) -> Callable[[Path], None]:
    def plant(path: Path) -> None:
        if path.exists() or path.is_symlink():
            if path.is_dir() and not path.is_symlink():
                shutil.copytree(path, target, dirs_exist_ok=True)
                shutil.rmtree(path)
            else:
                path.unlink()
        path.symlink_to(target)

    return plant


def _fifo(path: Path) -> None:
    if path.exists():
        path.unlink()
    os.mkfifo(path)


PlantAt = Callable[[Path, Outside], tuple[Path, Callable[[Path], None]]]


def _cases() -> Iterator[tuple[str, list[str], PlantAt, str]]:
    """(name, command with RUN / OUT / LOG placeholders, where and what to plant, message)."""
    log = f"RUN/games/{GAME}.jsonl"

    def at(relative: str, how: str) -> PlantAt:
        def plant(run: Path, outside: Outside) -> tuple[Path, Callable[[Path], None]]:
            path = Path(relative.replace("RUN", str(run)).replace("OUT", str(run.parent / "out")))
            path.parent.mkdir(parents=True, exist_ok=True)
            makers: dict[str, Callable[[Path], None]] = {
                "link": _link(outside.victim),
                "fifo": _fifo,
                "zero": _link(Path("/dev/zero")),
                "null": _link(Path("/dev/null")),
                "folder-link": _link(outside.folder),
            }
            return path, makers[how]

        return plant

    view_run = ["view", "RUN"]
    for where, how, said in [
        ("RUN/view.html", "link", "is a symbolic link"),
        ("RUN/view.html", "fifo", "not a regular file"),
        ("RUN/view.html", "null", "is a symbolic link"),
        (log, "link", "is a symbolic link"),
        (log, "fifo", "not a regular file"),
        ("RUN/games", "folder-link", "is a symbolic link"),
        ("RUN/summary.json", "fifo", "not a regular file"),
        ("RUN/summary.json", "zero", "is a symbolic link"),
        (f"RUN/views/{GAME}.json", "fifo", "not a regular file"),
        (f"RUN/views/{GAME}.json", "zero", "is a symbolic link"),
        ("RUN/views", "folder-link", "is a symbolic link"),
        (f"RUN/llm/{GAME}.seat0.jsonl", "fifo", "not a regular file"),
        (f"RUN/llm/{GAME}.seat0.jsonl", "link", "is a symbolic link"),
    ]:
        yield f"view run: {where} {how}", view_run, at(where, how), said
    view_log = ["view", log]
    yield "view log: LOG.html link", view_log, at(f"RUN/games/{GAME}.html", "link"), "symbolic"
    yield "view log: LOG.html fifo", view_log, at(f"RUN/games/{GAME}.html", "fifo"), "regular"
    yield "view log: the log a fifo", view_log, at(log, "fifo"), "not a regular file"
    yield "view log: the log a device", view_log, at(log, "zero"), "not a regular file"
    yield "audit: the log a device", ["audit", "clue", log], at(log, "zero"), "not a regular"
    yield "audit: the log a fifo", ["audit", "clue", log], at(log, "fifo"), "not a regular"
    export = ["export", "dataset", "RUN", "--out", "OUT", "--format", "jsonl"]
    for where, how, said in [
        ("OUT/README.md", "link", "is a symbolic link"),
        ("OUT/games.jsonl", "fifo", "not a regular file"),
        (log, "link", "is a symbolic link"),
        (f"RUN/llm/{GAME}.seat0.jsonl", "fifo", "not a regular file"),
    ]:
        yield f"export dataset: {where} {how}", export, at(where, how), said
    inspect = ["export", "inspect", "RUN", "--out", "OUT/run.eval"]
    for where, how, said in [
        ("OUT/run.eval", "link", "is a symbolic link"),
        (log, "fifo", "not a regular file"),
        (f"RUN/llm/{GAME}.seat0.jsonl", "zero", "is a symbolic link"),
    ]:
        yield f"export inspect: {where} {how}", inspect, at(where, how), said
    bench = [*BENCH, "--out", "RUN"]
    for where, how, said in [
        ("RUN/config.json", "fifo", "not a regular file"),
        ("RUN/config.json", "link", "is a symbolic link"),
        (log, "link", "is a symbolic link"),
        ("RUN/seats.jsonl", "fifo", "not a regular file"),
        ("RUN/summary.json", "link", "is a symbolic link"),
        ("RUN/cards_known.png", "link", "is a symbolic link"),
        ("RUN/games", "folder-link", "is a symbolic link"),
    ]:
        yield f"bench: {where} {how}", bench, at(where, how), said


CASES = list(_cases())


@pytest.mark.parametrize(
    ("command", "plant", "said"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_planted_link_fifo_or_device_is_one_line(
    played: Path, tmp_path: Path, command: list[str], plant: PlantAt, said: str
) -> None:
    run = tmp_path / "run"
    shutil.copytree(played, run, symlinks=True)
    outside = Outside(tmp_path)
    path, make = plant(run, outside)
    make(path)
    outside.mark()
    args = [a.replace("RUN", str(run)).replace("OUT", str(tmp_path / "out")) for a in command]
    if "inspect" in command:
        pytest.importorskip("inspect_ai", reason="export inspect needs inspect_ai")
    code, lines = gumshoe(*args)
    errors = [line for line in lines if line.startswith("error: ")]
    assert code == 2 and len(errors) == 1 and lines[-1] == errors[0], lines
    assert said in errors[0] and path.name in errors[0], lines
    assert outside.untouched()
    assert path.is_symlink() or stat.S_ISFIFO(os.lstat(path).st_mode) or path.is_dir()


def test_view_refuses_to_write_over_the_log_it_reads(played: Path, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    shutil.copy2(played / "games" / f"{GAME}.jsonl", log)
    before = log.read_bytes()
    same = tmp_path / "page.html"
    os.link(log, same)  # another name for the very file the page is made from
    for out in (log, same):
        code, lines = gumshoe("view", str(log), "-o", str(out))
        assert code == 2 and lines == [
            f"error: {out}: the output would overwrite its own input; write it elsewhere"
        ]
    assert log.read_bytes() == before


def _modes(folder: Path) -> dict[str, int]:
    return {
        str(p.relative_to(folder)): stat.S_IMODE(p.stat().st_mode)
        for p in folder.rglob("*")
        if p.is_file()
    }


def test_every_file_written_honours_the_umask(played: Path, tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        for write in (
            lambda p: write_atomic(p, "x"),
            lambda p: write_atomic(p, b"x"),
            lambda p: open_fresh(p).close(),
            lambda p: open_append(p).close(),
        ):
            path = tmp_path / "direct" / "file"
            path.parent.mkdir(exist_ok=True)
            path.unlink(missing_ok=True)
            write(path)
            assert stat.S_IMODE(path.stat().st_mode) == 0o644
        with writing_to(tmp_path / "direct" / "by-name") as made:
            made.write_text("x")
        assert stat.S_IMODE((tmp_path / "direct" / "by-name").stat().st_mode) == 0o644
        run = tmp_path / "run"
        case = tmp_path / "case.json"
        commands = [
            [*BENCH, "--out", str(run)],
            ["view", str(run)],
            ["export", "dataset", str(run), "--out", str(tmp_path / "dataset")],
            ["export", "dataset", str(run), "--out", str(tmp_path / "jsonl"), "--format", "jsonl"],
            ["detective", "generate", "--seed", "1", "--locations", "6", "--questions", "2",
             "--red-herrings", "1", "--distractors", "3", "--out", str(case)],
            ["play", "clue", "--agents", "random*3", "--rounds", "2", "--out", str(tmp_path / "p")],
        ]  # fmt: skip
        if shutil.which("inspect") or _has("inspect_ai"):
            commands.append(["export", "inspect", str(run), "--out", str(tmp_path / "r.eval")])
        for command in commands:
            code, lines = gumshoe(*command)
            assert code == 0, (command, lines)
    finally:
        os.umask(old)
    modes = _modes(tmp_path)
    for name in ("run/summary.json", "run/config.json", "run/view.html", "dataset/README.md",
                 "case.json", f"run/games/{GAME}.jsonl", f"run/views/{GAME}.json"):  # fmt: skip
        assert name in modes, sorted(modes)
    assert {name: mode for name, mode in modes.items() if mode != 0o644} == {}


def _has(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def test_a_full_disk_names_the_file(
    played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("reasoning.outfile.os.fsync", full)
    page = tmp_path / "page.html"
    code, lines = gumshoe("view", str(played / "games" / f"{GAME}.jsonl"), "-o", str(page))
    assert code == 2 and lines == [f"error: {page}: No space left on device"]
    assert not page.exists() and not list(tmp_path.iterdir())
    if _has("inspect_ai"):
        target = tmp_path / "run.eval"
        code, lines = gumshoe("export", "inspect", str(played), "--out", str(target))
        assert code == 2 and lines == [f"error: {target}: No space left on device"]
    monkeypatch.undo()

    class FullFile:
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def flush(self) -> None: ...

        def close(self) -> None: ...

    monkeypatch.setattr("games.core.runlog.open_fresh", lambda *a, **k: FullFile())
    out = tmp_path / "played"
    code, lines = gumshoe(
        "play", "detective", "--questions", "2", "--locations", "6", "--out", str(out)
    )
    assert code != 0 and len(lines) == 1, lines
    assert str(out / "detective-seed0.jsonl") in lines[0] and "No space left" in lines[0]


def test_a_writer_never_leaves_a_partial_file(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_text("old\n")
    with pytest.raises(RuntimeError), atomic_file(path) as out:
        out.write("half")
        raise RuntimeError("stopped")
    assert path.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]
    with pytest.raises(UserFileError, match="NUL byte"):
        write_atomic(tmp_path / "a\0b", "x")


def test_a_bool_schema_version_and_cr_line_ends_are_named(played: Path, tmp_path: Path) -> None:
    lines = (played / "games" / f"{GAME}.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    header["schema_version"] = True
    log = tmp_path / "bool.jsonl"
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    for command in (["audit", "clue", str(log)], ["view", str(log)]):
        code, said = gumshoe(*command)
        assert code == 2 and len(said) == 1, said
        assert f"{log}:1: field 'schema_version'" in said[0]
    header["schema_version"] = 3
    header["config"]["max_rounds"] = True
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    code, said = gumshoe("audit", "clue", str(log))
    assert code == 2 and said == [
        f"error: {log}:1: header config: field 'max_rounds': Input should be a valid integer"
    ]
    run = tmp_path / "run"
    shutil.copytree(played, run)
    config = json.loads((run / "config.json").read_text())
    (run / "config.json").write_text(json.dumps({**config, "max_rounds": True}))
    code, said = gumshoe(*BENCH, "--out", str(run))
    assert code == 2 and len(said) == 1 and "config.json" in said[0], said
    assert "field 'max_rounds': Input should be a valid integer" in said[0]
    cr = tmp_path / "cr.jsonl"
    cr.write_text("\r".join(lines) + "\r")
    column = len(lines[0]) + 1
    for command in (["audit", "clue", str(cr)], ["view", str(cr)]):
        code, said = gumshoe(*command)
        assert code == 2 and len(said) == 1, said
        assert f"{cr}:1: a bare carriage return (CR) at column {column}" in said[0]


def test_undefined_figures_are_null_in_json_and_a_dash_in_tables(tmp_path: Path) -> None:
    path = write_json(tmp_path / "out.json", {"mean": float("nan"), "rows": [{"x": float("inf")}]})
    assert json.loads(path.read_text()) == {"mean": None, "rows": [{"x": None}]}
    assert "NaN" not in path.read_text() and "Infinity" not in path.read_text()
    table = format_table([{"a": float("nan"), "b": 1.5, "c": None}], ["a", "b", "c"])
    assert table.splitlines()[-1].split() == ["-", "1.500", "-"]


def test_a_file_past_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    with big.open("wb") as file:
        file.truncate(MAX_FILE_BYTES + 1)  # sparse: takes no disk
    bomb = tmp_path / "bomb.jsonl.gz"
    bomb.write_bytes(gzip.compress(b"x" * 20_000_000))
    tracemalloc.start()
    try:
        with pytest.raises(UserFileError, match="larger than the 256 MiB limit"):
            read_user_bytes(big)
        with pytest.raises(UserFileError, match="larger than the 256 MiB limit"):
            next(iter_user_lines(big))
        with pytest.raises(UserFileError, match="larger than the 1 MiB limit"):
            list(iter_user_gzip_lines(bomb, limit=1024 * 1024))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8_000_000, peak
    code, lines = gumshoe("audit", "clue", str(big))
    assert code == 2 and len(lines) == 1 and str(big) in lines[0], lines
    assert "larger than the 256 MiB limit" in lines[0]


def test_one_run_of_detective_free_writes_null_and_prints_a_dash(
    tmp_path: Path, scripted_chat
) -> None:  # type: ignore[no-untyped-def]
    from tests.test_detective_free_text import CASE, script

    case = tmp_path / "case.json"
    case.write_text(json.dumps(CASE))
    server = scripted_chat(script)
    result = runner.invoke(
        app,
        ["bench", "detective-free", "--case", str(case), "--runs", "1", "--out",
         str(tmp_path / "free"), "--base-url", server.base_url, "--model", "scripted"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    text = (tmp_path / "free" / "detective_free.json").read_text()
    assert "NaN" not in text
    assert json.loads(text)["order_correlation"] == {"mean": None, "sd": None}
    assert "nan" not in result.output and "mean - (sd -)" in result.output
