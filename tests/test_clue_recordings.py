"""Recording and replaying the LLM calls of `gumshoe bench clue` and `gumshoe play clue`: one file
per game and seat in the run directory, replayed game by game without the endpoint."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.clue_bench import SEATS_FILE
from benchmarks.console.cli import app
from games.clue import DeductionEvent, read_clue_log
from games.clue.agents import ClueAgentSettings
from games.clue.llm_agent import make_llm_agent
from games.core.llm_player import seat_client
from games.core.recordings import CALLS_DIR, seat_calls
from reasoning.llm import LLMSettings, load_recording
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer, Step
from tests.test_clue_llm_agent import phase_script

runner = CliRunner()

AGENTS = "llm,llm-verified,prover"
GUESS = "ANALYSIS: A hunch.\nDEDUCTIONS: Miss Scarlet is in the envelope"


def scripted_answers() -> Callable[[ChatRequest], Step]:
    """Answers for a standard game: the verified seat's guess is sent back (when not entailed)
    and withdrawn; the final accusation names 'Scarlet', no standard suspect, so it is
    re-prompted and then falls back (counted)."""
    return phase_script(GUESS)


def comparable(summary: dict[str, Any]) -> dict[str, Any]:
    """A bench summary without what differs between two runs of the same games."""
    timing = ("_seconds", "_wall_s", "_cpu_s")
    return {k: v for k, v in summary.items() if k != "plot" and not k.endswith(timing)}


def bench(out: Path, *args: str) -> dict[str, Any]:
    result = runner.invoke(
        app, ["bench", "clue", "--games", "2", "--out", str(out), "--json", *args]
    )
    assert result.exit_code == 0, result.output
    summary: dict[str, Any] = json.loads(result.stdout)
    return summary


@dataclass(frozen=True)
class Recorded:
    """A 2-game bench run recorded against the scripted server, which is stopped afterwards."""

    run_dir: Path
    summary: dict[str, Any]
    served: int


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    run_dir = tmp_path_factory.mktemp("bench") / "recorded"
    settings = ["--agents", AGENTS, "--rounds", "2", "--seed", "5", "--model", "m"]
    with ScriptedChatServer(scripted_answers()) as srv:
        summary = bench(run_dir, *settings, "--base-url", srv.base_url, "--record")
        assert srv.errors == []
        served = len(srv.requests)
    return Recorded(run_dir, summary, served)


def test_bench_replays_from_per_game_recordings_without_the_server(
    recorded: Recorded, tmp_path: Path
) -> None:
    calls_dir = recorded.run_dir / CALLS_DIR
    files = sorted(p.name for p in calls_dir.iterdir())
    assert files == [f"clue-seed{g}.seat{s}.jsonl" for g in (5, 6) for s in (0, 1)]
    calls = [len(load_recording(calls_dir / name)) for name in files]
    assert sum(calls) == recorded.served and all(calls)

    replayed = bench(tmp_path / "replayed", "--replay", str(recorded.run_dir))
    assert comparable(replayed) == comparable(recorded.summary)
    assert recorded.summary["games"] == 2 and recorded.summary["errored"] == []
    usage = recorded.summary["llm_usage"]
    assert set(usage["seats"]) == {"llm", "llm-verified"}
    assert usage["total"]["calls"] == recorded.served
    assert usage["total"]["fallbacks"] == sum(
        a["fallbacks"] * a["seat_games"] for a in recorded.summary["per_agent"]
    )
    assert usage["total"]["latency_p95_s"] >= usage["total"]["latency_median_s"] > 0
    assert any(a["fallbacks"] > 0 for a in recorded.summary["per_agent"])
    for game in ("clue-seed5", "clue-seed6"):
        first = (recorded.run_dir / "games" / f"{game}.jsonl").read_text()
        assert (tmp_path / "replayed" / "games" / f"{game}.jsonl").read_text() == first
        assert '"type":"deduction_review"' in first
    assert not (tmp_path / "replayed" / CALLS_DIR).exists()


def test_a_replayed_bench_refuses_other_settings_and_errors_games_it_cannot_replay(
    recorded: Recorded, tmp_path: Path
) -> None:
    def replay(out: str, source: Path, *args: str) -> str:
        result = runner.invoke(
            app, ["bench", "clue", "--out", str(tmp_path / out), "--replay", str(source), *args]
        )
        assert result.exit_code == 2
        return result.output

    def errored(out: str, source: Path, *args: str) -> dict[str, str]:
        summary = bench(tmp_path / out, "--replay", str(source), *args)
        return {e["game_id"]: e["error"] for e in summary["errored"]}

    other_seed = replay("a", recorded.run_dir, "--seed", "6")
    assert "was recorded with seed 5 (this run: 6)" in other_seed
    missing = replay("b", recorded.run_dir, "--games", "3")
    assert "no recording of this game's LLM calls at" in missing
    assert "clue-seed7.seat<k>.jsonl" in missing
    assert "not a run directory" in replay("c", tmp_path)
    edited = tmp_path / "edited"
    shutil.copytree(recorded.run_dir, edited)
    first = edited / CALLS_DIR / "clue-seed5.seat0.jsonl"
    first.write_text(first.read_text().replace("ACTION PHASE", "ACTION TIME", 1))
    differs = errored("d", edited)
    assert list(differs) == ["clue-seed5"]
    assert "messages[1].content differs from the recording" in differs["clue-seed5"]
    both = runner.invoke(app, ["bench", "clue", "--record", "--replay", str(recorded.run_dir)])
    assert both.exit_code == 2 and "cannot be used together" in both.output


def test_a_bench_in_which_every_game_errored_exits_1(recorded: Recorded, tmp_path: Path) -> None:
    bare = tmp_path / "bare"
    shutil.copytree(recorded.run_dir, bare)
    for calls in (bare / CALLS_DIR).glob("*.jsonl"):
        calls.write_text(calls.read_text().replace("ACTION PHASE", "ACTION TIME"))
    args = ["bench", "clue", "--out", str(tmp_path / "out"), "--replay", str(bare), "--games", "2"]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert "every game errored (2)" in result.output
    as_json = runner.invoke(app, [*args[:3], str(tmp_path / "json"), *args[4:], "--json"])
    assert as_json.exit_code == 1 and json.loads(as_json.stdout)["games"] == 0


def test_play_records_into_its_out_folder_and_replays_from_it(tmp_path: Path) -> None:
    args = ["play", "clue", "--agents", AGENTS, "--rounds", "2", "--seed", "3"]
    with ScriptedChatServer(scripted_answers()) as srv:
        endpoint = ["--model", "m", "--base-url", srv.base_url]
        first = runner.invoke(app, [*args, *endpoint, "--out", str(tmp_path / "a"), "--record"])
        assert first.exit_code == 0, first.output
    assert (tmp_path / "a" / CALLS_DIR / "clue-seed3.seat1.jsonl").stat().st_size > 0
    again = runner.invoke(  # seed, agents, rounds and model all come from the recording
        app, ["play", "clue", "--out", str(tmp_path / "b"), "--replay", str(tmp_path / "a")]
    )
    assert again.exit_code == 0, again.output
    log = (tmp_path / "a" / "clue-seed3.jsonl").read_text()
    assert (tmp_path / "b" / "clue-seed3.jsonl").read_text() == log
    assert again.output.replace(str(tmp_path / "b"), "") == first.output.replace(
        str(tmp_path / "a"), ""
    )
    assert "is checked:" in first.output
    assert "LLM usage" in first.output
    usage = first.output[first.output.index("LLM usage") :].splitlines()
    assert usage[1].split()[:2] == ["seat", "calls"]
    rows = [line.split() for line in usage[2:5]]
    assert [row[0] for row in rows] == ["P0", "P1", "total"]
    assert rows[0][1] == "llm" and rows[1][1] == "llm-verified"
    assert int(rows[2][1]) == int(rows[0][2]) + int(rows[1][2]) > 0  # calls add up
    other_seed = runner.invoke(
        app, ["play", "clue", "--seed", "4", "--replay", str(tmp_path / "a")]
    )
    assert other_seed.exit_code == 2 and "no game log" in other_seed.output
    no_out = runner.invoke(app, [*args, "--model", "m", "--record"])
    assert no_out.exit_code == 2 and "--record needs --out" in no_out.output


def test_recording_a_game_again_starts_its_files_afresh(tmp_path: Path) -> None:
    settings = ClueAgentSettings(llm=LLMSettings(model="m", base_url="http://127.0.0.1:9/v1"))
    recording = settings.model_copy(
        update={"llm": settings.llm_settings().model_copy(update={"record_path": tmp_path})}
    )
    stale = seat_calls(tmp_path, "game-00003", 1)
    stale.parent.mkdir()
    stale.write_text("left by an interrupted game\n")
    kept = seat_calls(tmp_path, "game-00004", 1)
    kept.write_text("another game's calls\n")
    game = recording.for_game("game-00003", 3)
    assert not stale.exists() and kept.exists()
    assert game.llm_settings().record_path == tmp_path / CALLS_DIR / "game-00003.jsonl"
    make_llm_agent(game.llm_settings(), 1, seed=0)  # a seat that never calls leaves a file
    assert stale.read_text() == ""
    assert settings.for_game("game-00003", 3) == settings


def test_replay_names_the_seat_without_a_recording(tmp_path: Path) -> None:
    settings = LLMSettings(model="m", replay_path=tmp_path / "llm" / "game-00000.jsonl")
    with pytest.raises(
        ValueError, match=r"no recording of this game's LLM calls at .*game-00000\.seat2\.jsonl"
    ):
        seat_client(settings, 2)


def test_a_run_made_with_the_old_game_ids_resumes_and_replays(
    recorded: Recorded, tmp_path: Path
) -> None:
    old = tmp_path / "old"
    shutil.copytree(recorded.run_dir, old)
    for index, new in enumerate(("clue-seed5", "clue-seed6")):
        (old / "games" / f"{new}.jsonl").rename(old / "games" / f"game-{index:05d}.jsonl")
        for path in (old / CALLS_DIR).glob(f"{new}.seat*"):
            path.rename(path.with_name(path.name.replace(new, f"game-{index:05d}")))
    seats = old / SEATS_FILE
    seats.write_text(seats.read_text().replace("clue-seed5", "game-00000"))
    seats.write_text(seats.read_text().replace("clue-seed6", "game-00001"))

    replayed = bench(tmp_path / "replayed", "--replay", str(old))
    assert comparable(replayed) == comparable(recorded.summary)
    settings = ["--agents", AGENTS, "--rounds", "2", "--seed", "5", "--model", "m"]
    resumed = bench(old, *settings, "--base-url", "http://127.0.0.1:9/v1")
    assert comparable(resumed) == comparable(recorded.summary)
    assert sorted(p.name for p in (old / "games").iterdir()) == [
        "clue-seed5.jsonl",
        "clue-seed6.jsonl",
    ]


def test_each_stated_deduction_names_the_recorded_call_it_came_from(recorded: Recorded) -> None:
    stated = []
    for game in ("clue-seed5", "clue-seed6"):
        events = read_clue_log(recorded.run_dir / "games" / f"{game}.jsonl")
        for event in events:
            if isinstance(event, DeductionEvent) and event.seat == 2:  # the prover asks no model
                assert event.call is None
            elif isinstance(event, DeductionEvent):
                calls = load_recording(seat_calls(recorded.run_dir, game, event.seat))
                assert event.call is not None and calls[event.call].index == event.call
                reply = calls[event.call].reply
                assert reply is not None and "DEDUCTIONS" in reply.content
                assert all(d.card.name in reply.content for d in event.deductions)
                stated.append(event)
    assert stated
