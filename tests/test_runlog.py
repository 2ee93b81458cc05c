"""Run directories: config check, per-game JSONL logs flushed per line, summary, and resume."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel

from games.clue import (
    ClueAction,
    ClueConfig,
    ClueGame,
    ClueObservation,
    ClueResult,
    GameEnd,
    random_agent,
)
from games.clue.entry import ENTRY as CLUE
from games.core.recordings import CALLS_DIR, migrate_game_ids
from games.core.replay import replay as replay_log
from games.core.runlog import EventLog, RunDir, RunDirError, game_id, game_seed, read_jsonl
from tests.support.played import play_clue


class ToyConfig(BaseModel):
    games: int
    label: str = "toy"


class ToyEvent(BaseModel):
    type: Literal["step", "game_end", "finished"]
    n: int


def write_log(run: RunDir[ToyConfig], game_id: str, types: list[str]) -> Path:
    with run.game_log(game_id) as log:
        for i, kind in enumerate(types):
            log.write(ToyEvent(type=kind, n=i))  # type: ignore[arg-type]
    return run.log_path(game_id)


def test_event_log_writes_one_flushed_line_per_event(tmp_path: Path) -> None:
    path = tmp_path / "e.jsonl"
    log = EventLog(path)
    log.write(ToyEvent(type="step", n=1))
    assert path.read_text() == '{"type":"step","n":1}\n'  # visible before close
    log.write(ToyEvent(type="step", n=2))
    assert len(path.read_text().splitlines()) == 2 and log.count == 2
    log.close()
    with pytest.raises(RunDirError, match="closed"):
        log.write(ToyEvent(type="step", n=3))
    assert read_jsonl(path) == [{"type": "step", "n": 1}, {"type": "step", "n": 2}]


def test_read_jsonl_names_the_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"a": 1}\n\n[1, 2]\n')
    with pytest.raises(RunDirError, match=r"bad\.jsonl:3: expected a JSON object"):
        read_jsonl(path)
    path.write_text('{"a": 1}\n{"a": \n')
    with pytest.raises(RunDirError, match=r"bad\.jsonl:2:7: not valid JSON"):
        read_jsonl(path)


def test_config_is_written_and_checked_on_reopen(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "run", ToyConfig(games=2))
    assert json.loads(run.config_path.read_text()) == {"games": 2, "label": "toy"}
    RunDir(tmp_path / "run", ToyConfig(games=2))
    with pytest.raises(RunDirError, match=r"config\.json: .*differs.* games"):
        RunDir(tmp_path / "run", ToyConfig(games=3))
    again = RunDir.resume(tmp_path / "run", ToyConfig)
    assert again.config == ToyConfig(games=2)
    with pytest.raises(RunDirError, match="not a run directory"):
        RunDir.resume(tmp_path / "elsewhere", ToyConfig)
    run.config_path.write_text('{"games": "many"}')
    with pytest.raises(RunDirError, match="games"):
        RunDir.resume(tmp_path / "run", ToyConfig)


def test_game_ids_are_plain_file_names(tmp_path: Path) -> None:
    run = RunDir(tmp_path, ToyConfig(games=1))
    assert run.log_path("seed-1_a.b") == tmp_path / "games" / "seed-1_a.b.jsonl"
    for bad in ("", "../x", "a/b", ".hidden", "a b"):
        with pytest.raises(RunDirError, match="game id"):
            run.log_path(bad)


def test_finished_and_unfinished_logs(tmp_path: Path) -> None:
    run = RunDir(tmp_path, ToyConfig(games=5))
    write_log(run, "done", ["step", "step", "game_end"])
    write_log(run, "open", ["step", "step"])
    cut = write_log(run, "cut", ["step", "game_end"])
    cut.write_text(cut.read_text()[:-5])  # the end event lost its tail
    broken = write_log(run, "broken", ["step"])
    broken.write_text(broken.read_text() + '{"type": "game_end"\n')
    write_log(run, "empty", [])
    assert run.finished_games() == {"done": {"type": "game_end", "n": 2}}
    assert run.is_finished("done") and not run.is_finished("cut")
    assert run.final_event("missing") is None
    assert run.read_events("done")[0] == {"type": "step", "n": 0}
    with pytest.raises(RunDirError, match="no such game log"):
        run.read_events("missing")
    with pytest.raises(RunDirError, match="already finished"):
        run.game_log("done")
    with run.game_log("cut") as log:  # an incomplete log is started afresh at its first event
        log.write(ToyEvent(type="game_end", n=0))
        assert cut.read_text().splitlines() == [ToyEvent(type="game_end", n=0).model_dump_json()]
    assert set(run.finished_games()) == {"cut", "done"}


def test_the_common_end_event_finishes_a_game_only_with_status_finished(tmp_path: Path) -> None:
    run = RunDir(tmp_path, ToyConfig(games=1))
    for gid, status in (("a", "finished"), ("b", "errored")):
        path = run.log_path(gid)
        path.write_text('{"type": "step"}\n' + f'{{"type": "end", "status": "{status}"}}\n')
    assert set(run.finished_games()) == {"a"}


def test_a_config_with_a_byte_order_mark_or_bad_bytes_is_named(tmp_path: Path) -> None:
    RunDir(tmp_path, ToyConfig(games=1))
    config = tmp_path / "config.json"
    text = config.read_bytes()
    config.write_bytes(b"\xef\xbb\xbf" + text)
    with pytest.raises(RunDirError, match=r"config\.json:1: starts with a UTF-8 byte-order mark"):
        RunDir(tmp_path, ToyConfig(games=1))
    config.write_bytes(text + b"\xff\n")
    with pytest.raises(RunDirError, match=r"config.json:\d+(:\d+)?: not UTF-8: byte 0xff"):
        RunDir(tmp_path, ToyConfig(games=1))


def test_summary_round_trip(tmp_path: Path) -> None:
    run = RunDir(tmp_path, ToyConfig(games=1))
    assert run.read_summary() is None
    path = run.write_summary(ToyConfig(games=7, label="summary"))
    assert path == tmp_path / "summary.json"
    assert run.read_summary() == {"games": 7, "label": "summary"}
    run.write_summary(ToyConfig(games=8))
    assert run.read_summary() == {"games": 8, "label": "toy"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.json", "games", "summary.json"]


# --- resuming an interrupted Clue run ---------------------------------------------------------


class ClueRun(BaseModel):
    games: int
    seed: int
    n_players: int = 3


class Summary(BaseModel):
    results: dict[str, ClueResult]


class Interrupted(Exception):
    """Stands in for the process being killed."""


class CountingAgent:
    """A random agent that counts its decisions and can be told to stop after some of them."""

    def __init__(self, seed: int, calls: dict[str, int], game_id: str, stop_after: int | None):
        self.inner = random_agent(seed)
        self.name = "counting"
        self.calls = calls
        self.game_id = game_id
        self.stop_after = stop_after

    def act(self, obs: ClueObservation) -> ClueAction:
        self.calls[self.game_id] = self.calls.get(self.game_id, 0) + 1
        if self.stop_after is not None and self.calls[self.game_id] > self.stop_after:
            raise Interrupted
        return self.inner.choose(obs, obs.legal_actions())


def run_clue(
    run: RunDir[ClueRun], calls: dict[str, int], stop: tuple[str, int] | None = None
) -> dict[str, ClueResult]:
    """Play every game of the run not finished yet, then write the summary."""
    results: dict[str, ClueResult] = {}
    for i in range(run.config.games):
        game_id = f"game{i:02d}"
        if run.is_finished(game_id):
            log = CLUE.read_log(run.log_path(game_id))
            end = log.events[-1]
            assert isinstance(end, GameEnd) and log.end is not None
            results[game_id] = ClueResult(**end.outcome().model_dump(), ranks=log.end.ranks)
            continue
        seed = run.config.seed + i
        stop_after = stop[1] if stop is not None and stop[0] == game_id else None
        agents = [
            CountingAgent(seed * 7 + s, calls, game_id, stop_after)
            for s in range(run.config.n_players)
        ]
        game = ClueGame(ClueConfig(players=run.config.n_players, max_rounds=8), seed)
        with run.game_log(game_id) as log:
            results[game_id] = play_clue(game, agents, log)
    run.write_summary(Summary(results=results))
    return results


def test_interrupted_run_resumes_skipping_finished_games(tmp_path: Path) -> None:
    config = ClueRun(games=3, seed=40)
    reference = run_clue(RunDir(tmp_path / "ref", config), {})

    run = RunDir(tmp_path / "run", config)
    calls: dict[str, int] = {}
    with pytest.raises(Interrupted):
        run_clue(run, calls, stop=("game01", 20))
    assert run.read_summary() is None
    assert set(run.finished_games()) == {"game00"}
    partial = run.log_path("game01")
    assert partial.read_text().count("\n") > 1
    partial.write_text(partial.read_text()[:-7])  # killed in the middle of a line
    assert not (run.log_path("game02")).exists()

    finished_log = run.log_path("game00").read_text()
    resumed = RunDir.resume(tmp_path / "run", ClueRun)
    calls.clear()
    results = run_clue(resumed, calls)
    assert "game00" not in calls and calls["game01"] > 20 and calls["game02"] > 0
    assert results == reference
    assert run.log_path("game00").read_text() == finished_log
    for gid in ("game00", "game01", "game02"):
        ours = run.log_path(gid).read_text()
        assert ours == (tmp_path / "ref" / "games" / f"{gid}.jsonl").read_text()
        replay_log(CLUE, CLUE.read_log(run.log_path(gid)))
    summary = resumed.read_summary()
    assert summary is not None
    assert Summary.model_validate(summary) == Summary(results=reference)


def test_game_ids_have_one_shape_and_name_their_seed() -> None:
    assert game_id("clue", 5) == "clue-seed5"
    assert game_id("hanabi", 0, "p3") == "hanabi-p3-seed0"
    assert game_id("undercover", 2, "nli-vs-prover", "tea-coffee") == (
        "undercover-nli-vs-prover-tea-coffee-seed2"
    )
    assert game_seed(game_id("detective", 12, "llm-verified")) == 12
    with pytest.raises(ValueError, match="does not end in -seed<number>"):
        game_seed("game-00001")


def test_old_game_ids_are_renamed_with_their_recordings_unless_taken(tmp_path: Path) -> None:
    games, calls = tmp_path / "games", tmp_path / CALLS_DIR
    games.mkdir()
    calls.mkdir()
    (games / "seed-1.jsonl").write_text("old\n")
    (calls / "seed-1.seat0.jsonl.gz").write_text("calls\n")
    (games / "seed-2.jsonl").write_text("stale\n")
    (games / "mystery-seed2.jsonl").write_text("current\n")
    migrate_game_ids(tmp_path, {"seed-1": "mystery-seed1", "seed-2": "mystery-seed2"})
    assert (games / "mystery-seed1.jsonl").read_text() == "old\n"
    assert (calls / "mystery-seed1.seat0.jsonl.gz").read_text() == "calls\n"
    assert (games / "mystery-seed2.jsonl").read_text() == "current\n"
    assert (games / "seed-2.jsonl").exists() and not (games / "seed-1.jsonl").exists()


def test_a_run_written_before_a_setting_existed_resumes_under_its_default(tmp_path: Path) -> None:
    class Before(BaseModel):
        games: int

    class After(BaseModel):
        games: int
        effort: str | None = None

    RunDir(tmp_path / "run", Before(games=2))
    resumed = RunDir(tmp_path / "run", After(games=2))
    assert resumed.config == After(games=2)
    with pytest.raises(RunDirError, match="differs from this run's config in effort"):
        RunDir(tmp_path / "run", After(games=2, effort="high"))
    with pytest.raises(RunDirError, match="differs from this run's config in games"):
        RunDir(tmp_path / "run", After(games=3))
