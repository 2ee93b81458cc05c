"""``bench mystery --wellplay`` on a synthetic WellPlay copy (no WellPlay text) through the scripted
chat server: introductions, rounds with suspect lists per victim and IG targeting, a vote per
victim, then the questions; win rate and per-category accuracy as mean and std over 3 runs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from statistics import fmean, pstdev
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from formalize.interrogation.quiz import accuracy
from games.mystery.wellplay import WellPlayError, load_script
from games.mystery.wellplay_play import PRESET_QUESTIONS, case_of
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
        found = re.search(r"for each victim \((.*?)\), the characters among (.*?) you", text)
        assert found is not None
        victims, others = found.group(1).split(", "), found.group(2).split(", ")
        killer = {"Eve": "Bo", "Fay": "Cy"}
        suspects = {v: [o for o in others if o in (killer[v], "Di")] for v in victims}
        first = next(o for o in others if o in ("Bo", "Cy"))
        return json.dumps(
            {
                "reasoning": "Bo was seen near Eve.",
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
    return json.dumps({"answer": "a"})


def run(tmp_path: Path, server_url: str, agents: str, runs: int, out: str) -> Any:
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
        ],
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_questum_plays_a_copy_three_times_with_votes_and_accuracy(
    tmp_path: Path, scripted_chat: Any
) -> None:
    folder = write_copy(tmp_path / "copy")
    server = scripted_chat(reply)
    summary = run(tmp_path, server.base_url, "questum", 3, "questum")
    assert (summary["runs"], summary["finished"], summary["fallbacks"]) == (3, 3, 0)
    per_run = []
    for seed in range(3):
        script = load_script(folder, seed)
        graded = [q for c in script.characters for q in c.questions]
        per_run.append(accuracy(graded, [q.key == frozenset("a") for q in graded]))
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
    plays = [
        json.loads(line)
        for path in sorted((tmp_path / "questum" / "games").glob("*.jsonl"))
        for line in path.read_text().splitlines()
        if '"wellplay_play"' in line
    ]
    assert len(plays) == 3
    civilian = [t for p in plays for t in p["turns"] if t["asker"] in ("Ann", "Di")]
    assert len(civilian) == 3 * 3 * 2
    for turn in civilian:
        assert set(turn["suspects"]) == {"Eve", "Fay"}
        assert turn["suspects"]["Eve"] != turn["suspects"]["Fay"], "one list per victim"
    rated_high = sum(t["target"] in ("Bo", "Cy") for t in civilian)
    assert rated_high >= len(civilian) - 4, "the best Score is the character rated high"
    system = server.requests[-1].messages[0]["content"]
    assert "Your goals:" in system and "What was said in the game:" in system


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
    for who in CAST:
        data = json.loads((folder / "json" / f"{who}.json").read_text())
        data["victims"] = ""
        (folder / "json" / f"{who}.json").write_text(json.dumps(data))
    with pytest.raises(WellPlayError, match="victims"):
        case_of(load_script(folder))
