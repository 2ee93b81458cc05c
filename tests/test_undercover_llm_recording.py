"""LLM calls of Undercover-V recorded one file per game and seat and replayed: `gumshoe bench
undercover` and `gumshoe play undercover` with --record / --replay against the scripted chat
server."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks import undercover_bench
from benchmarks.console.cli import app
from benchmarks.undercover_bench import UndercoverBenchConfig
from games.core.recordings import CALLS_DIR, seat_calls
from games.undercover import UndercoverConfig, UndercoverGame, pair_catalogue
from games.undercover.agents import UndercoverAgentSettings
from games.undercover.entry import ENTRY
from games.undercover.events import DescriptionEvent
from reasoning.llm import ChatClient, LLMSettings, load_recording, make_client
from reasoning.llm.scripted_server import ChatRequest, Fail, ScriptedChatServer, Step
from tests.test_undercover_cli import _scripted

runner = CliRunner()
TEA = pair_catalogue()["earl-grey-tea-ceylon-tea"]
SIX = UndercoverConfig(players=6, tie_limit=3)
BENCH = ["bench", "undercover", "--seeds", "2", "--pairs", TEA.id, "--agents", "nli"]
BENCH += ["--fixed-citizen", "prover", "--json"]
"""Two games, each an LLM spy (nli) against five prover citizens: seeds 0 and 1."""
GAME_IDS = (
    "undercover-nli-vs-prover-earl-grey-tea-ceylon-tea-seed0",
    "undercover-nli-vs-prover-earl-grey-tea-ceylon-tea-seed1",
)


def summary_of(output: str) -> dict[str, Any]:
    summary: dict[str, Any] = json.loads(output.splitlines()[-1])
    return summary


def without(summary: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in keys}


def game_logs(run: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted((run / "games").glob("*.jsonl"))}


def bench(run: Path, *extra: str) -> dict[str, Any]:
    result = runner.invoke(app, [*BENCH, "--out", str(run), *extra])
    assert result.exit_code == 0, result.output
    return summary_of(result.stdout)


def test_a_two_game_bench_replays_from_its_recordings_with_an_identical_summary(
    tmp_path: Path,
) -> None:
    recorded_run = tmp_path / "recorded"
    with ScriptedChatServer(_scripted) as server:
        recorded = bench(
            recorded_run,
            *("--base-url", server.base_url, "--model", "scripted", "--record", "--players", "5"),
        )
        requests = len(server.requests)
    assert recorded["errors"] == [] and recorded["games_played"] == 2
    files = sorted((recorded_run / CALLS_DIR).glob("*.jsonl"))
    five = UndercoverConfig(players=5, tie_limit=3)
    spies = [UndercoverGame(five, TEA, seed).spy_seat for seed in (0, 1)]
    assert [f.name for f in files] == [
        f"{gid}.seat{spy}.jsonl" for gid, spy in zip(GAME_IDS, spies, strict=True)
    ]
    calls = [load_recording(f) for f in files]
    assert all(c and [r.index for r in c] == list(range(len(c))) for c in calls)
    assert sum(len(c) for c in calls) == requests
    usage = recorded["llm_usage"]
    assert list(usage["seats"]) == ["nli"] and usage["total"]["calls"] == requests
    bare = ["bench", "undercover", "--seeds", "2", "--json", "--out", str(tmp_path / "replayed")]
    result = runner.invoke(app, [*bare, "--replay", str(recorded_run)])
    assert result.exit_code == 0, result.output
    replayed = summary_of(result.stdout)
    timing = ("play_wall_s", "play_cpu_s", "plot")
    assert without(replayed, timing) == without(recorded, timing)
    assert game_logs(tmp_path / "replayed") == game_logs(recorded_run)
    for gid, spy, spy_calls in zip(GAME_IDS, spies, calls, strict=True):
        events = ENTRY.read_log(recorded_run / "games" / f"{gid}.jsonl").events
        spoken = [e for e in events if isinstance(e, DescriptionEvent)]
        assert any(e.seat == spy for e in spoken)
        for event in spoken:  # the spy's descriptions name the call they came from
            if event.seat != spy:
                assert event.call is None
                continue
            assert event.call is not None
            reply = spy_calls[event.call].reply
            assert reply is not None and event.text in reply.content
    differing = ["--replay", str(recorded_run), "--model", "x", "--timeout", "5"]
    other = runner.invoke(app, [*BENCH, "--out", str(tmp_path / "other"), *differing])
    assert other.exit_code == 2
    assert "timeout_s 10.0 (this run: 5.0), llm_model 'scripted' (this run: 'x')" in other.output


class WordOverlap:
    """A cheap stand-in for MiniLM in runs whose scores do not matter: shared words over all."""

    def embed(self, texts: Iterable[str]) -> None:
        """Nothing to prepare."""

    def similarity(self, a: str, b: str) -> float:
        """The Jaccard overlap of the two sentences' lower-cased words."""
        left, right = set(a.lower().split()), set(b.lower().split())
        return len(left & right) / max(1, len(left | right))


CONFIG = UndercoverBenchConfig(
    agents=("nli",), fixed_citizen="prover", pairs=(TEA.id,), llm_model="scripted"
)


def run_bench(
    out: Path, client: ChatClient | None, **options: Any
) -> undercover_bench.UndercoverBenchSummary:
    settings = UndercoverAgentSettings.create(client=client)
    return undercover_bench.run(CONFIG, 2, out, settings, [TEA], WordOverlap(), **options)


def test_a_game_played_again_replaces_its_recording_and_a_missing_one_is_named(
    tmp_path: Path,
) -> None:
    run = tmp_path / "run"
    spy = UndercoverGame(SIX, TEA, 1).spy_seat
    assert spy != UndercoverGame(SIX, TEA, 0).spy_seat
    failed: list[ChatRequest] = []

    def fail_once_in_the_second_game(request: ChatRequest) -> Step:
        if not failed and f"You are player {spy}" in request.last_user:
            failed.append(request)
            return Fail(400, "scripted outage")
        return _scripted(request)

    with ScriptedChatServer(fail_once_in_the_second_game) as server:
        # In plain text: a 400 to a structured request would first degrade the format.
        settings = LLMSettings(base_url=server.base_url, model="scripted", structured="off")
        client = make_client(settings)
        first = run_bench(run, client, record=True)
        assert failed and [e.game_id for e in first.errors] == [GAME_IDS[1]]
        broken = load_recording(seat_calls(run, GAME_IDS[1], spy))
        assert broken[-1].failure is not None
        before = len(server.requests)
        second = run_bench(run, client, record=True)
        assert second.errors == [] and second.games_resumed == 1
        again = load_recording(seat_calls(run, GAME_IDS[1], spy))
        assert all(c.failure is None for c in again)
        assert len(again) == len(server.requests) - before
    seat_calls(run, GAME_IDS[0], UndercoverGame(SIX, TEA, 0).spy_seat).unlink()
    replayed = run_bench(tmp_path / "replayed", None, replay_from=run)
    assert [e.game_id for e in replayed.errors] == [GAME_IDS[0]]
    assert "no recording of this game's LLM calls" in replayed.errors[0].error
    logs = game_logs(tmp_path / "replayed")
    errored = logs.pop(f"{GAME_IDS[0]}.jsonl").splitlines()
    assert json.loads(errored[-1])["status"] == "errored" and "RecordingMissing" in errored[-1]
    assert logs == {name: text for name, text in game_logs(run).items() if GAME_IDS[1] in name}


PLAY = ["play", "undercover", "--agents", "prover*5,nli", "--pair", TEA.id]


def transcript(output: str) -> list[str]:
    """The printed game without the closing ``log:`` line of a game with --out."""
    lines = output.splitlines()
    return lines[:-1] if lines[-1].startswith("log:") else lines


def test_play_records_each_game_apart_and_replays_any_of_them(tmp_path: Path) -> None:
    out = tmp_path / "games"
    played: dict[int, list[str]] = {}
    with ScriptedChatServer(_scripted) as server:
        for seed in (0, 1):
            args = [*PLAY, "--seed", str(seed), "--out", str(out), "--record"]
            result = runner.invoke(app, [*args, "--base-url", server.base_url, "--model", "m"])
            assert result.exit_code == 0, result.output
            played[seed] = transcript(result.output)
    names = sorted(p.name for p in (out / CALLS_DIR).iterdir())
    assert names == [f"undercover-{TEA.id}-seed{s}.seat5.jsonl" for s in (0, 1)]  # the nli seat
    usage = played[0][
        played[0].index("LLM usage (latency in seconds, cost in the price table's currency):") + 1 :
    ]
    assert usage[0].split()[:2] == ["seat", "calls"]
    assert usage[1].split()[:2] == ["P5", "nli"] and usage[2].split()[0] == "total"
    for seed in (1, 0):
        result = runner.invoke(app, [*PLAY, "--seed", str(seed), "--replay", str(out)])
        assert result.exit_code == 0, result.output
        assert transcript(result.output) == played[seed]
    missing = runner.invoke(app, [*PLAY, "--seed", "2", "--replay", str(out)])
    assert missing.exit_code == 2 and "no recording of this game's LLM calls" in missing.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--record"], "--record needs --out"),
        (["--record", "--out", "x", "--replay", "y"], "cannot be used together"),
    ],
)
def test_play_rejects_record_without_a_folder(args: list[str], message: str) -> None:
    result = runner.invoke(app, [*PLAY, *args])
    assert result.exit_code == 2 and message in result.output


def test_a_single_recording_file_from_the_environment_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GUMSHOE_LLM_RECORD_PATH", str(tmp_path / "calls.jsonl"))
    command = [*BENCH, "--out", str(tmp_path / "run"), "--base-url", "http://127.0.0.1:9/v1"]
    result = runner.invoke(app, command)
    assert result.exit_code == 2 and "one file per game and seat" in result.output


def test_help_documents_the_per_game_recordings() -> None:
    for command in (["play", "undercover"], ["bench", "undercover"]):
        result = runner.invoke(app, [*command, "--help"])
        assert result.exit_code == 0
        assert "--record" in result.output and "--replay" in result.output
        text = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
        assert "one file per game and seat" in text
