"""``bench mystery --wellplay`` on a synthetic WellPlay copy (no WellPlay text) through the scripted
chat server: introductions, rounds with suspect lists per victim and IG targeting, a vote per
victim, then the questions; win rate and per-category accuracy as mean and std over 3 runs."""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from statistics import fmean, pstdev
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from formalize.interrogation.quiz import accuracy
from games.mystery.wellplay import WellPlayError, load_script
from games.mystery.wellplay_memory import SEGMENT_TOKENS, Embedder, RetrievalMemory
from games.mystery.wellplay_play import PRESET_QUESTIONS, case_of
from reasoning.extras import MissingExtra
from reasoning.llm.scripted_server import ChatRequest

HEADER = "value,type,question,a,b,c,d,e,truth"
ROWS = [
    "a,a,Who killed Eve?,Bo,Ann,Cy,Di,,a",
    "a,a,Who killed Fay?,Cy,Ann,Bo,Di,,a",
    "b,a,Where did Eve die?,the cellar,the attic,the porch,,,a",
    'b,b,Which two do you suspect most for Fay?,Cy,Di,Ann,Bo,,"a,b"',
    'c,a,"How does Ann stand to\nBo?",cousin,rival,stranger,,,b',
]
CAST = {"Ann": "", "Bo": "Eve", "Cy": "Fay", "Di": ""}
"""Each character and the victim it killed."""


def write_copy(root: Path, name: str = "Two Fountains") -> Path:
    folder = root / name.replace(" ", "_")
    (folder / "json").mkdir(parents=True)
    (folder / "final_result").mkdir()
    info = {"agent_num": len(CAST), "script_name": name, "character_name": list(CAST)}
    (folder / "json" / "script_info.json").write_text(json.dumps(info), "utf-8")
    for who, killed in CAST.items():
        data = {
            "script": [f"I am {who}.", "I was in the garden at nine."],
            "acts_goal": f"Find out who killed Eve and Fay. Keep {who}'s debts secret.",
            "victims": "Eve, Fay",
            "kill_by_me": killed,
            "is_murderer": bool(killed),
        }
        (folder / "json" / f"{who}.json").write_text(json.dumps(data), "utf-8")
        text = "\n".join([HEADER, *ROWS]) + "\n"
        (folder / "final_result" / f"{who}.csv").write_text(text, "utf-8")
    return folder


def _me(request: ChatRequest) -> str:
    found = re.search(r"You are (\w+) in the murder mystery", request.messages[0]["content"])
    assert found is not None
    return found.group(1)


def reply(request: ChatRequest) -> str:
    """Every decision answered by what its prompt asks; suspect lists and ratings point at
    each victim's killer, whom every other character accuses."""
    text = request.last_user
    me = _me(request)
    if "Introduce your character" in text:
        return json.dumps({"introduction": f"I am {me}, a guest."})
    if "Your turn to ask" in text:
        victims, others = ["Eve", "Fay"], [c for c in CAST if c != me]
        found = re.search(r"for each victim \((.*?)\), the characters among (.*?) you", text)
        if found is not None:
            assert found.group(1).split(", ") == victims and found.group(2).split(", ") == others
        killer = {"Eve": "Bo", "Fay": "Cy"}
        suspects = {v: [o for o in others if o in (killer[v], "Di")] for v in victims}
        first = next(o for o in others if o in ("Bo", "Cy"))
        return json.dumps(
            {
                "reasoning": "Bo was seen near Eve.",
                "sensors": {
                    o: {"emotion": "negative", "motive": "yes", "opportunity": "yes"}
                    for o in others
                },
                "suspects": suspects,
                "expected": {o: "high" if o == first else "low" for o in others},
                "questions": {o: f"Where were you at nine, {o}?" for o in others},
                "target": others[-1],
                "question": "What did you see?",
                "preset": 3,
            }
        )
    if "Read your script and the conversation again" in text:
        return json.dumps({"notes": "Eve died in the cellar."})
    if "asks you:" in text:
        return json.dumps({"answer": "I was in the garden."})
    if text.startswith("Vote."):
        accused = {"Eve": "Bo" if me != "Bo" else "Ann", "Fay": "Cy" if me != "Cy" else "Ann"}
        return json.dumps({"accused": accused})
    return json.dumps({"answer": EVALUATION_ANSWERS[request.body["seed"] % 3]})


EVALUATION_ANSWERS = ("a", "b", "b")
"""The option each of a play's three evaluations picks (told apart by the seed it samples with)."""


def run(tmp_path: Path, server_url: str, agents: str, runs: int, out: str, *extra: str) -> Any:
    result = CliRunner().invoke(
        app,
        [
            "bench",
            "mystery",
            "--wellplay",
            str(tmp_path / "copy"),
            "--agents",
            agents,
            "--runs",
            str(runs),
            "--json",
            "--quiet",
            "--base-url",
            server_url,
            "--model",
            "scripted",
            "--out",
            str(tmp_path / out),
            *extra,
        ],
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def expected_accuracy(folder: Path, seed: int) -> dict[str, float]:
    """A run's accuracy per category: the mean of its three evaluations'."""
    script = load_script(folder, seed)
    graded = [q for c in script.characters for q in c.questions]
    each = [accuracy(graded, [q.key == frozenset(a) for q in graded]) for a in EVALUATION_ANSWERS]
    return {metric: fmean(e[metric] for e in each) for metric in each[0]}


def plays_of(run_dir: Path) -> list[dict[str, Any]]:
    """The plays a run logged."""
    return [
        json.loads(line)
        for path in sorted((run_dir / "games").glob("*.jsonl"))
        for line in path.read_text().splitlines()
        if '"wellplay_play"' in line
    ]


def test_questum_plays_a_copy_three_times_with_votes_and_accuracy(
    tmp_path: Path, scripted_chat: Any
) -> None:
    folder = write_copy(tmp_path / "copy")
    server = scripted_chat(reply)
    summary = run(tmp_path, server.base_url, "questum", 3, "questum")
    assert (summary["runs"], summary["finished"], summary["fallbacks"]) == (3, 3, 0)
    assert summary["evaluations_per_play"] == 3
    per_run = [expected_accuracy(folder, seed) for seed in range(3)]
    for metric in ("objective", "reasoning", "relation", "overall"):
        values = [r[metric] for r in per_run]
        got = summary["overall"][metric]
        assert got["mean"] == pytest.approx(fmean(values))
        assert got["std"] == pytest.approx(pstdev(values))
    assert len({r["overall"] for r in per_run}) > 1, "the option shuffle should differ by run"
    assert summary["overall"]["win_rate"] == {"mean": 1.0, "std": 0.0}
    assert summary["scripts"]["Two Fountains"]["win_rate"]["mean"] == 1.0
    assert all(v["accused"] == {"Eve": "Bo", "Fay": "Cy"} for v in summary["votes"])
    assert len(summary["mean_h_per_round"]) == 3
    usage = json.dumps(summary["llm_usage"])
    assert '"questum"' in usage and '"murderer:questum"' in usage
    plays = plays_of(tmp_path / "questum")
    assert len(plays) == 3
    questions = len(ROWS) * len(CAST)
    for play in plays:
        assert sorted(g["evaluation"] for g in play["graded"]) == sorted([0, 1, 2] * questions)
    civilian = [t for p in plays for t in p["turns"] if t["asker"] in ("Ann", "Di")]
    assert len(civilian) == 3 * 3 * 2
    for turn in civilian:
        assert set(turn["suspects"]) == {"Eve", "Fay"}
        assert turn["suspects"]["Eve"] != turn["suspects"]["Fay"], "one list per victim"
    rated_high = sum(t["target"] in ("Bo", "Cy") for t in civilian)
    assert rated_high >= len(civilian) - 4, "the best Score is the character rated high"
    assert all(set(t["sensors"]) == set(CAST) - {t["asker"]} for t in civilian)
    asks = [r.last_user for r in server.requests if "Your turn to ask" in r.last_user]
    assert all('"sensors"' in a and '"expected"' in a and "for each victim (" in a for a in asks)
    assert sum("Your readings at your last turn: " in a for a in asks) == 3 * 2 * len(CAST)
    system = server.requests[-1].messages[0]["content"]
    assert "Your goals:" in system and "What was said in the game:" in system
    assert "Script of " in system and "Passages of the script" not in system


def test_questum_without_sensors_asks_no_readings_and_no_information_value(
    tmp_path: Path, scripted_chat: Any
) -> None:
    write_copy(tmp_path / "copy")
    server = scripted_chat(reply)
    summary = run(tmp_path, server.base_url, "questum", 1, "blind", "--no-sensors")
    assert summary["finished"] == 1 and summary["play"]["sensors"] is False
    (play,) = plays_of(tmp_path / "blind")
    civilian = [t for t in play["turns"] if t["asker"] in ("Ann", "Di")]
    murderer = [t for t in play["turns"] if t["asker"] in ("Bo", "Cy")]
    assert civilian and all(t["sensors"] == {} for t in civilian)
    assert murderer and all(t["sensors"] for t in murderer), "murderers keep the full Questum"
    for request in server.requests:
        if "Your turn to ask" in request.last_user:
            civil = _me(request) in ("Ann", "Di")
            assert ('"sensors"' in request.last_user) != civil
            assert ('"expected"' in request.last_user) != civil


def test_questum_as_the_seed_runs_it_with_a_retrieval_memory_and_ablations(
    tmp_path: Path, scripted_chat: Any
) -> None:
    pytest.importorskip("sentence_transformers", reason="the retrieval memory needs embeddings")
    folder = write_copy(tmp_path / "copy")
    server = scripted_chat(reply)
    args = ("--memory", "retrieval", "--rounds", "2", "--no-pruner")
    summary = run(tmp_path, server.base_url, "questum", 1, "seed", *args)
    assert (summary["finished"], summary["fallbacks"], summary["evaluations_per_play"]) == (1, 0, 3)
    assert summary["play"] == {"memory": "retrieval", "rounds": 2, "pruner": False, "sensors": True}
    expected = expected_accuracy(folder, 0)
    for metric in ("objective", "reasoning", "relation", "overall"):
        assert summary["overall"][metric]["mean"] == pytest.approx(expected[metric])
    (play,) = plays_of(tmp_path / "seed")
    assert play["settings"] == summary["play"]
    assert [t["round"] for t in play["turns"]] == [1] * len(CAST) + [2] * len(CAST)
    for turn in play["turns"]:
        others = sorted(set(CAST) - {turn["asker"]})
        lists = [sorted(v) for v in turn["suspects"].values()]
        if turn["asker"] in ("Ann", "Di"):
            assert lists == [others, others], "without the pruner nobody is ruled out"
            assert turn["entropy"] == pytest.approx(2 * math.log(len(others)))
        else:
            assert all(len(v) < len(others) for v in lists), "the murderers' Questum prunes"
    evaluations = [r for r in server.requests if "Answer with a JSON object" in r.last_user]
    evaluations = [r for r in evaluations if "giving one" in r.last_user]
    assert len(evaluations) == 3 * len(ROWS) * len(CAST)
    for request in server.requests:
        system, me = request.messages[0]["content"], _me(request)
        assert "Passages of the script of" in system and "\nScript of " not in system
        assert f"I am {me}." in system, "a character recalls its own script"
        assert not any(f"I am {other}." in system for other in set(CAST) - {me})
        if "Your turn to ask" in request.last_user and me in ("Ann", "Di"):
            assert "for each victim (" not in request.last_user and '"sensors"' in request.last_user


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    pytest.importorskip("sentence_transformers", reason="the retrieval memory needs embeddings")
    return Embedder()


ROOMS = ["library", "kitchen", "cellar", "attic", "study", "porch", "hall", "chapel"]
"""Rooms of a long synthetic script."""


def long_script() -> str:
    """Eighty sentences about rooms and hours, one about where the poison was hidden, and one
    sentence far longer than a segment."""
    lines = [
        f"At {hour} o'clock I walked through the {room} and saw nothing out of place there."
        for hour in range(1, 11)
        for room in ROOMS
    ]
    lines.insert(37, "The vial of poison was hidden behind the loose brick in the greenhouse.")
    lines.append(" ".join(f"word{k}" for k in range(90)))
    return " ".join(lines)


def test_scripts_are_cut_into_segments_of_at_most_fifty_tokens(embedder: Embedder) -> None:
    text = long_script()
    segments = embedder.segments(text)
    assert all(embedder.tokens(s) <= SEGMENT_TOKENS for s in segments)
    assert " ".join(segments).split() == text.split(), "every word kept, in order"
    assert sum(embedder.tokens(s) > SEGMENT_TOKENS // 2 for s in segments) > len(segments) // 2
    assert embedder.segments("") == []


def test_recall_ranks_by_meaning_within_the_budget_in_script_order(embedder: Embedder) -> None:
    memory = RetrievalMemory({"Ann": long_script()}, embedder)
    store = memory.scripts["Ann"]
    assert len(store.texts) > 10 and sum(store.tokens) > 10 * SEGMENT_TOKENS // 2
    recalled = memory.recall("Ann", "Where was the poison hidden?", SEGMENT_TOKENS)
    assert "poison was hidden behind the loose brick" in recalled.script
    assert embedder.tokens(recalled.script) <= SEGMENT_TOKENS and recalled.said == ()
    wide = memory.recall("Ann", "Where was the poison hidden?", 6 * SEGMENT_TOKENS)
    passages = wide.script.split("\n")
    assert len(passages) >= 4 and sum(embedder.tokens(p) for p in passages) <= 6 * SEGMENT_TOKENS
    assert any("poison" in p for p in passages)
    assert passages == [t for t in store.texts if t in passages], "in the script's order"
    memory.remember("Di to Ann: Did you bake bread?\nAnn: Yes, in the kitchen at dawn.")
    memory.remember("Ann to Di: Where is the poison?\nDi: Behind a brick in the greenhouse.")
    told = memory.recall("Ann", "Where was the poison hidden?", 20)
    assert told.said == ("Ann to Di: Where is the poison?\nDi: Behind a brick in the greenhouse.",)


def test_the_baselines_play_as_agent_names(tmp_path: Path, scripted_chat: Any) -> None:
    write_copy(tmp_path / "copy")
    server = scripted_chat(reply)
    werewolf = run(tmp_path, server.base_url, "llm-werewolf", 1, "werewolf")
    assert werewolf["finished"] == 1 and werewolf["fallbacks"] == 0
    log = next((tmp_path / "werewolf" / "games").glob("*.jsonl")).read_text()
    assert PRESET_QUESTIONS[2] in log
    thrice = run(tmp_path, server.base_url, "llm-thinkthrice", 1, "thrice")
    assert thrice["finished"] == 1
    notes = [r for r in server.requests if "Read your script and the conversation" in r.last_user]
    assert len(notes) == 3 * 2, "each civilian re-reads before each question"
    assert any("Eve died in the cellar." in r.last_user for r in server.requests)


def test_bad_runs_are_one_line_exit_2(tmp_path: Path) -> None:
    folder = write_copy(tmp_path / "copy")
    runner = CliRunner()
    bad_agent = runner.invoke(
        app,
        ["bench", "mystery", "--wellplay", str(tmp_path / "copy"), "--agents", "prover"],
    )
    assert bad_agent.exit_code == 2 and "--agents" in bad_agent.output
    no_llm = runner.invoke(app, ["bench", "mystery", "--wellplay", str(tmp_path / "copy")])
    assert no_llm.exit_code == 2 and no_llm.output.count("\n") == 1
    both = ["bench", "mystery", "--wellplay", str(tmp_path / "copy"), "--record"]
    mixed = runner.invoke(app, both)
    assert mixed.exit_code == 2 and "--record" in mixed.output
    runs = runner.invoke(app, ["bench", "mystery", "--runs", "3", "--games", "1"])
    assert runs.exit_code == 2 and "--runs" in runs.output
    for option in (["--no-pruner"], ["--no-sensors"], ["--memory", "retrieval"], ["--rounds", "7"]):
        generated = runner.invoke(app, ["bench", "mystery", "--games", "1", *option])
        assert generated.exit_code == 2 and option[0] in generated.output
        assert generated.output.count("\n") == 1
    ablated = ["bench", "mystery", "--wellplay", str(tmp_path / "copy"), "--agents", "llm-cot"]
    no_pruner = runner.invoke(app, [*ablated, "--no-pruner", "--base-url", "http://127.0.0.1:9/v1"])
    assert no_pruner.exit_code == 2 and "--no-pruner" in no_pruner.output
    for who in CAST:
        data = json.loads((folder / "json" / f"{who}.json").read_text())
        data["victims"] = ""
        (folder / "json" / f"{who}.json").write_text(json.dumps(data))
    with pytest.raises(WellPlayError, match="victims"):
        case_of(load_script(folder))


def test_without_the_embeddings_extra_retrieval_is_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_copy(tmp_path / "copy")
    for name in [m for m in sys.modules if m.split(".")[0] == "sentence_transformers"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    line = (
        "the WellPlay retrieval memory (MiniLM sentence embeddings) needs sentence_transformers, "
        "which is not installed: pip install 'gumshoe[embeddings]'"
    )
    with pytest.raises(MissingExtra, match=re.escape(line)):
        Embedder()
    args = ["bench", "mystery", "--wellplay", str(tmp_path / "copy"), "--agents", "questum"]
    args += ["--memory", "retrieval"]
    args += ["--base-url", "http://127.0.0.1:9/v1", "--out", str(tmp_path / "run")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and result.output == f"error: {line}\n"
    assert not (tmp_path / "run").exists(), "nothing is written before the memory can load"
