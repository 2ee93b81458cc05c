"""Mixed-model Undercover-V: a model (and endpoint) per LLM seat, from ``--agents 'nli@MODEL'`` or
a seats file, and ``bench undercover``'s contest over models; each of two scripted chat servers
sees only the calls of its own seats, with greedy decoding in the bench."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.undercover.entry import ENTRY
from reasoning.llm.pytest_plugin import StartServer
from reasoning.llm.scripted_server import ChatRequest
from tests.test_undercover_cli import TEA_ID, _scripted
from tests.test_undercover_llm_recording import WordOverlap

runner = CliRunner()
KEY = "sk-beta-only"


def players_asked(server_requests: list[ChatRequest]) -> set[int]:
    """The seats that asked: every prompt names its player ("You are player N")."""
    found = set()
    for request in server_requests:
        text = " ".join(str(m.get("content", "")) for m in request.messages)
        found.update(int(n) for n in re.findall(r"You are player (\d+)", text))
    return found


def test_play_seats_two_models_at_two_endpoints(
    tmp_path: Path, scripted_chat: StartServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    alpha, beta = scripted_chat(_scripted), scripted_chat(_scripted)
    monkeypatch.setenv("BETA_KEY", KEY)
    seats = tmp_path / "seats.jsonl"
    entries = [
        {"agent": "nli", "model": "alpha", "base_url": alpha.base_url},
        {"agent": "prover"},
        {"agent": "prover"},
        {"agent": "att-nli", "model": "beta", "base_url": beta.base_url, "api_key_env": "BETA_KEY"},
    ]
    seats.write_text("".join(json.dumps(e) + "\n" for e in entries))
    out = tmp_path / "games"
    args = ["play", "undercover", "--seats", str(seats), "--pair", TEA_ID, "--seed", "1"]
    result = runner.invoke(app, [*args, "--out", str(out), "--record"])
    assert result.exit_code == 0, result.output
    asked = len(alpha.requests) + len(beta.requests)
    again = runner.invoke(app, [*args, "--replay", str(out)])
    assert again.exit_code == 0, again.output
    assert again.output.splitlines() == result.output.splitlines()[:-1], "replayed seat by seat"
    assert len(alpha.requests) + len(beta.requests) == asked
    assert alpha.requests and beta.requests
    assert {r.model for r in alpha.requests} == {"alpha"}
    assert {r.model for r in beta.requests} == {"beta"}
    assert players_asked(alpha.requests) == {0} and players_asked(beta.requests) == {3}
    assert all(r.headers.get("authorization") == f"Bearer {KEY}" for r in beta.requests)
    assert all(r.headers.get("authorization") != f"Bearer {KEY}" for r in alpha.requests)
    (log_path,) = out.glob("*.jsonl")
    agents = [s.agent for s in ENTRY.read_log(log_path).header.seats]
    assert agents == ["nli@alpha", "prover", "prover", "att-nli@beta"]


def test_an_llm_seat_names_its_model_in_the_seat_list(scripted_chat: StartServer) -> None:
    server = scripted_chat(_scripted)
    args = ["play", "undercover", "--agents", "nli@gamma,prover*2,nli", "--pair", TEA_ID]
    result = runner.invoke(app, [*args, "--base-url", server.base_url, "--model", "delta"])
    assert result.exit_code == 0, result.output
    assert {r.model for r in server.requests} == {"gamma", "delta"}
    assert players_asked([r for r in server.requests if r.model == "gamma"]) == {0}
    assert players_asked([r for r in server.requests if r.model == "delta"]) == {3}
    assert "seat 0 [nli@gamma]:" in result.output


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        (
            [{"agent": "prover", "model": "m"}] * 4,
            "field 'seats.0.model': agent 'prover' asks no LLM",
        ),
        ([{"agent": "nli@m"}] * 4, "the model goes in 'model'"),
        ([{"agent": "prover"}] * 3, "3 seats; a table has 4 to 10"),
        ([{"agent": "nli", "api_key_env": "NO_SUCH_KEY_SET"}] * 4, "NO_SUCH_KEY_SET is not set"),
    ],
)
def test_a_bad_seats_file_is_one_line(
    tmp_path: Path, entries: list[dict[str, str]], message: str
) -> None:
    seats = tmp_path / "seats.json"
    seats.write_text(json.dumps({"seats": entries}))
    result = runner.invoke(app, ["play", "undercover", "--seats", str(seats)])
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_bench_runs_the_contest_over_models_each_server_seeing_its_own(
    tmp_path: Path, scripted_chat: StartServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seed 002's Figure 3 at small scale: nli at each model as the spy against nli citizens at
    the fixed model alpha; beta's server hears only the spy, alpha's every other seat (scores by
    word overlap, not MiniLM, which only slows the test)."""
    monkeypatch.setattr("benchmarks.undercover_bench.MiniLMSimilarity", WordOverlap)
    alpha, beta = scripted_chat(_scripted), scripted_chat(_scripted)
    contestants = tmp_path / "contestants.json"
    entries = [
        {"agent": "nli", "model": "alpha", "base_url": alpha.base_url},
        {"agent": "nli", "model": "beta", "base_url": beta.base_url},
    ]
    contestants.write_text(json.dumps({"seats": entries}))
    args = ["bench", "undercover", "--seats", str(contestants), "--pairs", TEA_ID]
    args += ["--seeds", "1", "--players", "4", "--out", str(tmp_path / "run"), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.splitlines()[-1])
    assert summary["errors"] == [] and summary["games_played"] == 2
    config = summary["config"]
    assert config["models"] == ["alpha", "beta"] and config["fixed_model"] == "alpha"
    assert config["temperature"] == 0.0 and config["fixed_citizen"] is None
    matchups = {(m["spy"], m["citizens"]): m["contests"] for m in summary["matchups"]}
    assert matchups == {("nli@alpha", "nli@alpha"): ["fixed"], ("nli@beta", "nli@alpha"): ["fixed"]}
    assert {r.model for r in alpha.requests} == {"alpha"}
    assert {r.model for r in beta.requests} == {"beta"}
    assert all(r.body.get("temperature") == 0.0 for r in [*alpha.requests, *beta.requests])
    spy = {json.loads(line)["spy_seat"] for line in game_starts(tmp_path / "run", "nli_beta")}
    assert players_asked(beta.requests) == spy


def game_starts(run: Path, spy: str) -> list[str]:
    """The game_start lines of the run's games whose spy is ``spy``."""
    lines = []
    for path in (run / "games").glob(f"undercover-{spy}-vs-*.jsonl"):
        lines += [line for line in path.read_text().splitlines() if '"game_start"' in line]
    return lines
