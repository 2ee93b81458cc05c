"""`gumshoe export dataset`: runs of every game as flat tables with a dataset card, read back with
pyarrow and checked against `gumshoe audit --json`; LLM decisions joined to their recorded calls;
the push to the Hub with the client mocked; bad input in one line."""

from __future__ import annotations

import json
import shutil
import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest
import yaml
from typer.testing import CliRunner

from benchmarks.console.cli import app
from benchmarks.dataset.files import features
from benchmarks.dataset.rows import TABLES
from games.core.play import play_game
from games.core.registry import get_game
from games.core.runlog import RunDir
from games.detective.events import DetectiveConfig
from games.hanabi.events import DecisionEvent
from games.hanabi.position import Position
from games.hanabi.reward import decision_reward
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer
from tests.test_hanabi_llm import scripted

pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow (gumshoe's `export` extra)")
runner = CliRunner()

SEATS: dict[str, list[str]] = {
    "clue": ["prover", "random", "random"],
    "hanabi": ["symbolic", "symbolic"],
    "detective": ["prover"],
    "mystery": ["prover"] * 5,
    "undercover": ["prover"] * 6,
}
"""Symbolic agents for one small game of each registered game."""


def small_config(game: str) -> Any:
    """The standard config, with a small detective case (its audit is the costly one)."""
    config = get_game(game).default_config(len(SEATS[game]))
    if game == "detective":
        knobs = config.knobs.model_dump() | {"locations": 6, "questions": 2, "distractors": 2}
        return DetectiveConfig.model_validate(config.model_dump() | {"knobs": knobs})
    return config


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A run directory per game, one game each (symbolic agents, through the one play path), a
    Hanabi run with a recorded Mycroft seat, and a Clue run with a recorded LLM seat whose
    answers never parse."""
    root = tmp_path_factory.mktemp("runs")
    made: dict[str, Path] = {}
    for game, specs in SEATS.items():
        config = small_config(game)
        run = RunDir(root / game, config)
        with run.game_log(f"{game}-0") as log:
            play_game(get_game(game), specs, 0, config=config, log=log)
        made[game] = run.path
    llm = ["--model", "scripted", "--record", "--quiet"]
    with ScriptedChatServer(scripted) as server:
        bench = ["bench", "hanabi", "--players", "2", "--seeds", "1"]
        bench += ["--agents", "mycroft,symbolic"]
        done = runner.invoke(
            app, [*bench, *llm, "--base-url", server.base_url, "--out", str(root / "mycroft")]
        )
        assert done.exit_code == 0, done.output
    with ScriptedChatServer(lambda request: "I would rather not say.") as server:
        bench = ["bench", "clue", "--games", "1", "--agents", "llm,prover,prover", "--rounds", "1"]
        done = runner.invoke(
            app, [*bench, *llm, "--base-url", server.base_url, "--out", str(root / "clue-llm")]
        )
        assert done.exit_code == 0, done.output
    made["mycroft"], made["clue-llm"] = root / "mycroft", root / "clue-llm"
    return made


def export(*args: str) -> Any:
    return runner.invoke(app, ["export", "dataset", *args])


def card_front_matter(folder: Path) -> dict[str, Any]:
    text = (folder / "README.md").read_text()
    assert text.startswith("---\n")
    loaded = yaml.safe_load(text.split("---\n")[1])
    assert isinstance(loaded, dict)
    return loaded


def test_runs_of_all_five_games_export_and_load_back_with_the_audits_counts(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "ds"
    done = export(*(str(runs[g]) for g in SEATS), "--out", str(out))
    assert done.exit_code == 0, done.output
    assert sorted(p.name for p in out.iterdir()) == [
        "README.md",
        "claims.parquet",
        "decisions.parquet",
        "games.parquet",
        "readings.parquet",
    ]
    tables = {name: pq.read_table(out / f"{name}.parquet") for name in TABLES}
    for name, model in TABLES.items():
        assert tables[name].schema.names == [f[0] for f in features(model)]
    claims = tables["claims"].to_pylist()
    games = {row["game"]: row for row in tables["games"].to_pylist()}
    assert sorted(games) == sorted(SEATS) and tables["decisions"].num_rows == 0
    for game, run in runs.items():
        if game not in SEATS:
            continue
        log = run / "games" / f"{game}-0.jsonl"
        audited = runner.invoke(app, ["audit", game, str(log), "--json"])
        assert audited.exit_code == 0, audited.output
        record = json.loads(audited.output)
        mine = [row for row in claims if row["game"] == game]
        assert len(mine) == len(record["rows"])
        assert Counter(r["judgement"] for r in mine) == Counter(
            r["judgement"] for r in record["rows"]
        )
        assert [r["claim"] for r in mine] == [r["claim"] for r in record["rows"]]
        assert games[game]["stated"] == sum(s["stated"] for s in record["seats"])
        assert games[game]["agents"] == SEATS[game] and games[game]["status"] == "finished"
        assert json.loads(games[game]["figures"]) == record["figures"]
    assert "sound" in {r["judgement"] for r in claims}
    meta = card_front_matter(out)
    assert [c["config_name"] for c in meta["configs"]] == ["claims", "games"]  # none empty
    counts = {i["config_name"]: i["splits"][0]["num_examples"] for i in meta["dataset_info"]}
    assert counts == {name: table.num_rows for name, table in tables.items() if table.num_rows}
    assert meta["license"] == "mit" and meta["language"] == ["en"]
    assert (
        meta["size_categories"] == ["n<1K"] and "reinforcement-learning" in meta["task_categories"]
    )
    card = (out / "README.md").read_text()
    assert "gumshoe export dataset" in card and "| clue | 1 |" in card
    assert "| legal | list<int64> | The legal moves" in card


def test_llm_decisions_join_their_recorded_calls_and_score_exactly(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    mycroft, clue = runs["mycroft"], runs["clue-llm"]
    annotated = runner.invoke(app, ["hanabi", "annotate", str(mycroft), "--samples", "0"])
    assert annotated.exit_code == 0 and "no rollouts" in annotated.output, annotated.output
    lines = [json.loads(x) for x in (mycroft / "decisions.jsonl").read_text().splitlines()]
    assert lines and all(x["values"] == [] and x["samples"] == 0 for x in lines)
    lines[0]["values"] = [float(i) for i in range(len(lines[0]["legal"]))]
    (mycroft / "decisions.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    out = tmp_path / "ds"
    done = export(str(mycroft), str(clue), "--out", str(out), "--format", "jsonl")
    assert done.exit_code == 0, done.output
    rows = [json.loads(x) for x in (out / "decisions.jsonl").read_text().splitlines()]
    log = get_game("hanabi").read_log(mycroft / "games" / "hanabi-p2-seed0.jsonl")
    logged = [e for e in log.events if isinstance(e, DecisionEvent)]
    hanabi = [r for r in rows if r["game"] == "hanabi"]
    assert [r["turn"] for r in hanabi if r["logged"]] == [d.turn for d in logged]
    recorded = (mycroft / "llm" / "hanabi-p2-seed0.seat0.jsonl").read_text().splitlines()
    assert [r["call"] for r in hanabi] == list(range(len(recorded)))
    first = hanabi[0]
    assert first["values"] == lines[0]["values"] and first["model"] == "scripted"
    assert first["system_prompt"].startswith("You play Hanabi") and first["completion"]
    assert first["messages"] == first["prompt"] + first["completion"]
    assert [m["role"] for m in first["prompt"]] == ["system", "user"]
    assert first["completion"][0]["role"] == "assistant"
    assert len(first["ratings"]) == len(first["legal"]) and first["chosen"] in first["legal"]
    claims = [json.loads(x) for x in (out / "claims.jsonl").read_text().splitlines()]
    for row in hanabi[:3]:
        position = Position.model_validate_json(row["position"])
        scored = decision_reward(position, row["completion"][0]["content"])
        stated = [c for c in claims if c["game"] == "hanabi" and c["turn"] == row["turn"]]
        assert scored.parsed and scored.claims == len(stated)
        assert scored.sound == sum(c["judgement"] == "sound" for c in stated)
    calls = [r for r in rows if r["game"] == "clue"]
    seat0 = (clue / "llm" / "clue-seed0.seat0.jsonl").read_text().splitlines()
    assert len(calls) == len(seat0) > 0
    assert all(not r["logged"] and r["parsed"] is None and r["turn"] is None for r in calls)
    said = [{"role": "assistant", "content": "I would rather not say."}]
    assert all(r["completion"] == said and r["position"] is None for r in calls)
    games = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert {g["game"]: g["calls"] for g in games} == {"hanabi": len(recorded), "clue": len(seat0)}
    refused = runner.invoke(app, ["hanabi", "annotate", str(mycroft), "--samples", "1"])
    assert refused.exit_code == 2 and "--samples" in refused.output


LIVE = Path(__file__).parent / "fixtures" / "llm" / "clue-live-30r"
"""The committed live SmolLM2 Clue game and its recorded calls."""


def test_the_live_clue_game_links_every_deduction_to_its_call(tmp_path: Path) -> None:
    run = tmp_path / "clue-live"  # the played game as a run of one
    (run / "games").mkdir(parents=True)
    shutil.copy(LIVE / "clue-seed0.jsonl", run / "games")
    header = json.loads((LIVE / "clue-seed0.jsonl").read_text().splitlines()[0])
    (run / "config.json").write_text(json.dumps(header["config"]))
    shutil.copytree(LIVE / "llm", run / "llm")
    out = tmp_path / "ds"
    done = export(str(run), "--out", str(out), "--format", "jsonl")
    assert done.exit_code == 0, done.output
    claims = [json.loads(x) for x in (out / "claims.jsonl").read_text().splitlines()]
    rows = [json.loads(x) for x in (out / "decisions.jsonl").read_text().splitlines()]
    calls = {r["call"]: r for r in rows if r["seat"] == 0}
    stated = [c for c in claims if c["seat"] == 0]
    assert stated and all(c["call"] in calls for c in stated)
    for claim in stated:
        assert claim["claim"] in calls[claim["call"]]["completion"][0]["content"], claim


def test_jsonl_needs_no_pyarrow_and_parquet_says_how_to_get_it(
    runs: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    parquet = export(str(runs["clue"]), "--out", str(tmp_path / "p"))
    assert parquet.exit_code == 2 and "gumshoe[export]" in parquet.output
    assert len(parquet.output.strip().splitlines()) == 1 and not (tmp_path / "p").exists()
    (tmp_path / "j").mkdir()
    (tmp_path / "j" / "games.parquet").write_text("from an earlier export\n")
    done = export(str(runs["clue"]), "--out", str(tmp_path / "j"), "--format", "jsonl")
    assert done.exit_code == 0, done.output
    assert sorted(p.suffix for p in (tmp_path / "j").iterdir()) == [".jsonl"] * 4 + [".md"]
    assert card_front_matter(tmp_path / "j")["configs"][0]["data_files"][0]["path"] == (
        "claims.jsonl"
    )


def copy_run(run: Path, into: Path) -> None:
    """The config and game logs of ``run`` copied into ``into`` (a link inside a run folder is
    refused, so a test's variant of a run holds copies)."""
    shutil.copy2(run / "config.json", into / "config.json")
    shutil.copytree(run / "games", into / "games")


def test_bad_runs_and_outputs_exit_2_in_one_line(runs: dict[str, Path], tmp_path: Path) -> None:
    no_games = tmp_path / "empty-run"
    (no_games / "games").mkdir(parents=True)
    (no_games / "config.json").write_text("{}\n")
    a_file = tmp_path / "file.txt"
    a_file.write_text("x\n")
    annotated = tmp_path / "annotated"
    annotated.mkdir()
    copy_run(runs["hanabi"], annotated)
    (annotated / "decisions.jsonl").write_text('{"game": "hanabi-0"}\n')
    bad_calls = tmp_path / "bad-calls"
    (bad_calls / "llm").mkdir(parents=True)
    copy_run(runs["clue-llm"], bad_calls)
    (bad_calls / "llm" / "clue-seed0.seat0.jsonl").write_text("not JSON\n")
    cases = [
        ([str(bad_calls)], "clue-seed0.seat0.jsonl: not a readable recording: line 1"),
        ([str(tmp_path)], "not a run directory"),
        ([str(a_file)], "not a run directory"),
        ([str(no_games)], "a run without games"),
        ([str(annotated)], "decisions.jsonl:1"),
        ([str(runs["clue"]), str(runs["clue"])], "a second run named"),
    ]
    for args, message in cases:
        result = export(*args, "--out", str(tmp_path / "out"), "--format", "jsonl")
        assert result.exit_code == 2 and message in result.output, result.output
        assert len(result.output.strip().splitlines()) == 1
    for out in (a_file, a_file / "below"):
        result = export(str(runs["clue"]), "--out", str(out), "--format", "jsonl")
        assert result.exit_code == 2 and str(a_file) in result.output, result.output
        assert len(result.output.strip().splitlines()) == 1


class FakeHub:
    """Stands in for ``huggingface_hub.HfApi``: records what it was asked, or fails."""

    calls: ClassVar[list[tuple[str, dict[str, Any]]]] = []
    fail = False

    def __init__(self, token: str) -> None:
        self.calls.append(("init", {"token": token}))

    def create_repo(self, repo_id: str, **options: Any) -> str:
        if self.fail:
            raise OSError("Name or service not known")
        self.calls.append(("create_repo", {"repo_id": repo_id, **options}))
        return f"https://huggingface.co/datasets/{repo_id}"

    def upload_folder(self, **options: Any) -> None:
        self.calls.append(("upload_folder", options))


def test_push_needs_a_token_and_uploads_the_folder(
    runs: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import huggingface_hub

    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setattr(huggingface_hub, "HfApi", FakeHub)
    monkeypatch.setattr(FakeHub, "calls", [])
    out = tmp_path / "ds"
    args = [str(runs["clue"]), "--out", str(out), "--format", "jsonl", "--push", "me/runs"]
    missing = export(*args)
    assert missing.exit_code == 2 and "HF_TOKEN" in missing.output and not out.exists()
    assert len(missing.output.strip().splitlines()) == 1 and FakeHub.calls == []
    monkeypatch.setenv("HF_TOKEN", "hf_test")
    done = export(*args)
    assert done.exit_code == 0, done.output
    assert "pushed to https://huggingface.co/datasets/me/runs" in done.output
    kinds = [kind for kind, _ in FakeHub.calls]
    assert kinds == ["init", "create_repo", "upload_folder"]
    assert FakeHub.calls[0][1] == {"token": "hf_test"}
    assert FakeHub.calls[1][1]["repo_type"] == "dataset"
    upload = FakeHub.calls[2][1]
    assert upload["repo_id"] == "me/runs" and Path(upload["folder_path"]) == out
    assert "load_dataset(\"me/runs\", 'claims'" in (out / "README.md").read_text()
    monkeypatch.setattr(FakeHub, "fail", True)
    failed = export(*args)
    assert failed.exit_code == 2 and "--push me/runs: Name or service not known" in failed.output


def test_a_reprompted_call_belongs_to_the_turn_its_decision_answers(tmp_path: Path) -> None:
    def once_malformed(request: ChatRequest) -> str:
        if len(request.messages) == 2:
            return "not JSON"
        question = SimpleNamespace(
            last_user=request.messages[1]["content"], messages=request.messages
        )
        return scripted(question)  # type: ignore[arg-type]

    run = tmp_path / "watson"
    bench = ["bench", "hanabi", "--players", "2", "--seeds", "1", "--agents", "watson,symbolic"]
    bench += ["--model", "scripted", "--record", "--quiet", "--out", str(run)]
    with ScriptedChatServer(once_malformed) as server:
        done = runner.invoke(app, [*bench, "--base-url", server.base_url])
        assert done.exit_code == 0, done.output
    out = tmp_path / "ds"
    assert export(str(run), "--out", str(out), "--format", "jsonl").exit_code == 0
    rows = [json.loads(x) for x in (out / "decisions.jsonl").read_text().splitlines()]
    assert rows and [r["logged"] for r in rows] == [False, True] * (len(rows) // 2)
    for asked, answered in zip(rows[::2], rows[1::2], strict=True):
        assert asked["turn"] == answered["turn"] and asked["call"] + 1 == answered["call"]
        assert asked["completion"][0]["content"] == "not JSON" and asked["parsed"] is None
        assert answered["prompt"][2] == {"role": "assistant", "content": "not JSON"}
        assert not answered["fallback"] and answered["parsed"] is not None
