"""Smoke tests of `gumshoe play undercover`, `gumshoe bench undercover` (offline and with the
scripted chat server), `gumshoe bench undercover-similarity` and the demo's Undercover-V section."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks import undercover_bench
from benchmarks.console.cli import app
from benchmarks.console.demo import undercover_section
from benchmarks.undercover_bench import UndercoverBenchConfig
from games.undercover import builtin_pairs, replay
from games.undercover.entry import ENTRY as UNDERCOVER
from games.undercover.events import DescriptionEvent, GameEnd
from games.undercover.playing import find_pair
from reasoning.llm.pytest_plugin import StartServer
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer

runner = CliRunner()
TEA_ID = "earl-grey-tea-ceylon-tea"


def test_play_prints_rounds_checks_and_votes_and_writes_a_replayable_log(tmp_path: Path) -> None:
    args = ["play", "undercover", "--seed", "3", "--pair", "Ceylon Tea/earl grey tea"]
    result = runner.invoke(app, [*args, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "spy: seat 1 holding 'Earl Grey Tea'" in out
    assert "Round 1" in out and "Round 2" in out
    assert out.count("check: consistent") >= 6
    assert "vote:" in out and "believes spy" in out and "believes citizen" in out
    assert "Result: the citizens win" in out
    log = tmp_path / f"undercover-{TEA_ID}-seed3.jsonl"
    read = UNDERCOVER.read_log(log)
    events = read.events
    described = [e for e in events if isinstance(e, DescriptionEvent)]
    assert len(described) == out.count("check: ")
    assert all(e.formula is not None for e in described)
    assert isinstance(events[-1], GameEnd)
    assert replay(read.header, events).result == events[-1].result()
    again = runner.invoke(app, args)
    assert again.output.splitlines() == out.splitlines()[:-1]


def test_play_with_a_spy_agent_and_scores() -> None:
    args = ["play", "undercover", "--agents", "prover*4", "--spy-agent", "plain", "--seed", "1"]
    result = runner.invoke(app, [*args, "--pair", "ethics-morality", "--scores"])
    assert result.exit_code == 0, result.output
    assert "4 players" in result.output
    assert re.search(r"agents: .*=plain", result.output)
    assert "Attributional Score" in result.output
    assert len(re.findall(r"seat \d \[\w+, (?:spy|citizens)\]: soundness", result.output)) == 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pair", "Tea/Coffee"], "no word pair 'Tea/Coffee'"),
        (["--agents", "prover,oracle,prover,prover"], "unknown agent 'oracle'"),
        (["--agents", "prover*3"], "players"),
        (["--agents", "prover*5,nli"], "needs an LLM endpoint"),
        (["--prover", "magic"], "unknown prover 'magic'"),
        (["--spy-agent", "oracle"], "unknown agent 'oracle'"),
    ],
)
def test_play_rejects_bad_settings(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", "undercover", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_play_rejects_a_pair_without_lexicon(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.json"
    pairs.write_text('{"pairs": [{"id": "tea-coffee", "words": ["Tea", "Coffee"]}]}')
    args = ["play", "undercover", "--pairs-file", str(pairs), "--pair", "tea-coffee"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "no lexicon entry for 'Tea'" in result.output


def test_find_pair() -> None:
    catalogue = {p.id: p for p in builtin_pairs()}
    assert find_pair(TEA_ID, catalogue).id == TEA_ID
    assert find_pair(" naja / OPHIOPHAGUS ", catalogue).id == "ophiophagus-naja"
    with pytest.raises(ValueError, match="choose one of"):
        find_pair("Naja", catalogue)


def bench_config(agents: tuple[str, ...], **fields: Any) -> UndercoverBenchConfig:
    return UndercoverBenchConfig.model_validate(
        {"agents": agents, "pairs": (TEA_ID,), "fixed_citizen": "prover", **fields}
    )


def test_matchups_merge_the_two_contests() -> None:
    found = undercover_bench.matchups(bench_config(("prover", "plain")))
    assert [(m.spy, m.citizens, m.contests) for m in found] == [
        ("prover", "prover", ("fixed",)),
        ("plain", "prover", ("fixed", "round-robin")),
        ("prover", "plain", ("round-robin",)),
    ]
    three = undercover_bench.matchups(bench_config(("prover", "prover-guess", "plain")))
    assert len(three) == 3 + 6 - 2
    assert sum("fixed" in m.contests for m in three) == 3
    assert sum("round-robin" in m.contests for m in three) == 6
    assert len({m.id for m in three}) == len(three)


def test_matchups_over_models_are_seed_002s_contests() -> None:
    """Figure 3: each type at each model as the spy against its own type at the fixed model;
    Figures 4-6: every ordered pair of types within each model; offline types play no model."""
    config = bench_config(
        ("nli", "att-nli", "prover"),
        fixed_citizen=None,
        models=("mini", "big"),
        fixed_model="mini",
    )
    found = {(m.spy, m.citizens): m.contests for m in undercover_bench.matchups(config)}
    fixed = sorted(k for k, v in found.items() if "fixed" in v)
    assert fixed == sorted(
        [
            ("nli@mini", "nli@mini"),
            ("nli@big", "nli@mini"),
            ("att-nli@mini", "att-nli@mini"),
            ("att-nli@big", "att-nli@mini"),
            ("prover", "prover"),
        ]
    )
    robin = [k for k, v in found.items() if "round-robin" in v]
    assert ("nli@big", "att-nli@big") in robin and ("prover", "nli@mini") in robin
    assert ("nli@big", "att-nli@mini") not in robin
    assert len(robin) == 2 * 6
    assert all(v.count(c) <= 1 for v in found.values() for c in v)
    with pytest.raises(ValueError, match="fixed_model"):
        bench_config(("nli",), models=("mini",), fixed_model="other")
    with pytest.raises(ValueError, match="give agent types here"):
        bench_config(("nli@mini",))


def test_bench_offline_tables_json_plot_and_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["bench", "undercover", "--seeds", "2", "--pairs", f"{TEA_ID},ethics-morality"]
    args += ["--agents", "prover,plain"]
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    for title in ("Fixed-opponent contest", "Round-robin", "Agent types by role", "Per word pair"):
        assert title in result.output
    assert "Word-pair similarity" in result.output and "definition_cos" in result.output
    assert (out / "undercover.png").stat().st_size > 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games_played"] == 3 * 2 * 2 and summary["games_resumed"] == 0
    ids = {(m["spy"], m["citizens"]) for m in summary["matchups"]}
    assert ids == {("prover", "prover"), ("plain", "prover"), ("prover", "plain")}
    for m in summary["matchups"]:
        assert m["overall"]["games"] == 4 and set(m["by_pair"]) == {TEA_ID, "ethics-morality"}
    assert len(list((out / "games").glob("*.jsonl"))) == 12
    again = runner.invoke(app, [*args, "--out", str(out), "--json"])
    assert again.exit_code == 0, again.output
    resumed = json.loads(again.stdout.splitlines()[-1])
    assert resumed["games_played"] == 0 and resumed["games_resumed"] == 12
    assert resumed["matchups"] == summary["matchups"]
    other = runner.invoke(app, [*args, "--out", str(out), "--players", "5"])
    assert other.exit_code == 2 and "players" in other.output


def _scripted(request: ChatRequest) -> str:
    prompt = request.last_user
    if "VOTE:" in prompt:
        choices = re.search(r"You may vote for: player (\d+)", prompt)
        seat = choices.group(1) if choices else "0"
        return f"REASONING: the others fit.\nROLE: citizen\nVOTE: player {seat}"
    if "DESCRIPTION:" in prompt:
        number = len(re.findall(r"round \d+:", prompt))
        return f"REASONING: none yet.\nROLE: citizen\nDESCRIPTION: It has trait number {number}."
    return "GUESS: Something"


def test_bench_with_an_llm_type_over_the_scripted_server(tmp_path: Path) -> None:
    with ScriptedChatServer(_scripted) as server:
        args = [
            "bench",
            "undercover",
            "--seeds",
            "1",
            "--pairs",
            TEA_ID,
            "--agents",
            "prover,nli",
            "--base-url",
            server.base_url,
            "--model",
            "scripted",
            "--out",
            str(tmp_path / "run"),
            "--json",
        ]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        assert server.requests and not server.errors
    summary = json.loads(result.stdout.splitlines()[-1])
    assert summary["config"]["llm_model"] == "scripted"
    assert summary["errors"] == [] and summary["fallbacks"] is not None
    assert summary["fallbacks"]["total"] == summary["llm_usage"]["total"]["fallbacks"]
    pairs = {(m["spy"], m["citizens"]) for m in summary["matchups"]}
    assert ("nli", "prover") in pairs and ("prover", "nli") in pairs
    assert {a["agent"] for a in summary["agent_types"]} == {"prover", "nli"}


def test_play_prints_the_fallbacks_of_an_llm_seat_that_never_answers(
    scripted_chat: StartServer,
) -> None:
    server = scripted_chat(lambda _: "I would rather not say.")
    args = ["play", "undercover", "--agents", "prover*3,nli", "--pair", TEA_ID, "--seed", "1"]
    result = runner.invoke(app, [*args, "--base-url", server.base_url, "--model", "scripted"])
    assert result.exit_code == 0, result.output
    described, voted = result.output.count("seat 3 [nli]:"), result.output.count("seat 3 -> ")
    found = re.search(r"LLM fallbacks: (\{.*\})", result.output)
    assert found is not None and described > 0 and voted > 0, result.output
    assert ast.literal_eval(found[1]) == {
        "describe": {"unparsed": described},
        "vote": {"unparsed": voted},
    }


def test_bench_without_an_endpoint_refuses_llm_types(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["bench", "undercover", "--agents", "prover,att-nli", "--out", str(tmp_path)]
    )
    assert result.exit_code == 2
    assert "needs an LLM endpoint" in result.output


def test_similarity_command(tmp_path: Path) -> None:
    result = runner.invoke(app, ["bench", "undercover-similarity", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    rows = json.loads((tmp_path / "undercover_similarity.json").read_text())
    assert len(rows) == 10
    sims = [r["word_similarity"] for r in rows]
    assert sims == sorted(sims, reverse=True) and all(-1 <= s <= 1 for s in sims)
    assert all(r["definition_similarity"] is not None for r in rows)
    assert "Earl Grey Tea / Ceylon Tea" in result.output


def test_demo_section_prints_the_verification_record(capsys: pytest.CaptureFixture[str]) -> None:
    undercover_section()
    out = capsys.readouterr().out
    assert "== Undercover-V" in out and "Round 1" in out
    assert "check: consistent (z3:" in out and "vote:" in out and "Result:" in out
