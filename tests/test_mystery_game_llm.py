"""LLM agents of the interrogation game against the scripted chat server: play, record, replay."""

from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from benchmarks.console.cli import app
from formalize.davidsonian.autoformalize import Autoformalizer
from formalize.interrogation.questions import Where
from formalize.interrogation.script_generate import ScriptConfig
from games.core.llm_player import LLMPlayer
from games.core.loop import decide
from games.core.random_agent import RandomAgent
from games.mystery.engine import MysteryState
from games.mystery.entry import ENTRY, scripts_for
from games.mystery.events import Asked, MysteryConfig
from games.mystery.llm_agents import (
    Credit,
    MysteryPrompter,
    QuestionSpec,
    Variant,
    parse_question,
    score,
    weighted_gain,
)
from games.mystery.spoken import AnswerReader
from provers.sat_prover import SatProver
from reasoning.llm import LLMSettings, OpenAIChatClient, load_recording
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer


def answer(request: ChatRequest) -> str:
    """Answers by what the prompt asks: a question to the first other player, a spoken refusal
    (formalised as true), a vote."""
    text = request.last_user
    if text.startswith("Sentence:"):
        return "FORMULA: true"
    if '"suspects"' in text:
        others = re.search(r"Other players: (.*?)\. Times: (.*?)\. Weapons", text)
        victims = re.search(r"Victims: (.*?)\.\n", text)
        assert others is not None and victims is not None
        names = others.group(1).split(", ")
        time = others.group(2).split(", ")[-1]
        return json.dumps(
            {
                "suspects": {
                    v: names[k : k + 2] for k, v in enumerate(victims.group(1).split(", "))
                },
                "expected": {n: ("high" if k == 1 else "low") for k, n in enumerate(names)},
                "target": names[0],
                "questions": {n: {"kind": "where", "about": n, "time": time} for n in names},
            }
        )
    if '"say"' in text:
        return json.dumps({"say": "I would rather not say."})
    found = re.search(r"Choose one of: (.*?)\. Fill", text)
    assert found is not None
    return json.dumps({"accused": found.group(1).split(", ")[0]})


def test_llm_agents_play_record_and_replay_through_the_bench(tmp_path: Path) -> None:
    runner = CliRunner()
    agents = "questum,llm-random,llm-cot,prover,prover"
    with ScriptedChatServer(answer) as server:
        first = runner.invoke(
            app,
            [
                "bench",
                "mystery",
                "--games",
                "2",
                "--agents",
                agents,
                "--quiet",
                "--no-quiz",
                "--json",
                "--base-url",
                server.base_url,
                "--model",
                "scripted",
                "--record",
                "--out",
                str(tmp_path / "rec"),
            ],
        )
    assert first.exit_code == 0, first.output
    summary = json.loads(first.output)
    assert summary["finished"] == 2 and len(summary["ig_per_round"]) == 3
    calibration = summary["calibration"]
    assert calibration["high"]["n"] > 0 and calibration["low"]["n"] > 0
    assert calibration["high"]["mean_exact_eig"] >= 0.0
    recording = (tmp_path / "rec" / "llm" / "mystery-seed0.seat0.jsonl").read_text()
    assert "Sentence: I would rather not say." in recording
    again = runner.invoke(
        app,
        [
            "bench",
            "mystery",
            "--games",
            "2",
            "--agents",
            agents,
            "--quiet",
            "--no-quiz",
            "--json",
            "--model",
            "scripted",
            "--replay",
            str(tmp_path / "rec"),
            "--out",
            str(tmp_path / "replayed"),
        ],
    )
    assert again.exit_code == 0, again.output
    for name in ("mystery-seed0.jsonl", "mystery-seed1.jsonl"):
        recorded = (tmp_path / "rec" / "games" / name).read_text()
        assert (tmp_path / "replayed" / "games" / name).read_text() == recorded
    log = (tmp_path / "rec" / "games" / "mystery-seed0.jsonl").read_text()
    assert '"stated":[[' in log
    events = ENTRY.read_log(tmp_path / "rec" / "games" / "mystery-seed0.jsonl").events
    asked = [e for e in events if isinstance(e, Asked) and e.stated]
    llm_seats = {0, 1, 2}  # questum, llm-random, llm-cot
    assert {e.seat for e in asked} >= llm_seats
    for event in asked:  # the suspects an LLM seat states name the call it stated them in
        if event.seat not in llm_seats:
            assert event.call is None
            continue
        assert event.call is not None
        calls = load_recording(tmp_path / "rec" / "llm" / f"mystery-seed0.seat{event.seat}.jsonl")
        reply = calls[event.call].reply
        assert reply is not None and '"suspects"' in reply.content
    per_victim = [
        event["stated"]
        for line in log.splitlines()
        if (event := json.loads(line)).get("type") == "question" and event["seat"] == 0
    ]
    assert per_victim and all(len(s) == len(per_victim[0]) for s in per_victim)
    if len(per_victim[0]) > 1:
        assert per_victim[0][0] != per_victim[0][1], "one suspect list per victim"
    assert len(summary["pruning_per_victim"]) >= 1


def test_an_llm_agent_without_an_endpoint_is_one_line_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["bench", "mystery", "--games", "1", "--agents", "questum*5", "--out", str(tmp_path)]
    )
    assert result.exit_code == 2
    assert "error:" in result.output and "Traceback" not in result.output


def test_questum_score_weights_recent_credit_more_and_expected_gain_most() -> None:
    credits = [Credit(1, "ada", 1.0), Credit(2, "ada", 0.0), Credit(1, "basil", 0.5)]
    recent = weighted_gain(credits, "ada", 2)
    assert 0.0 < recent < 0.5
    assert weighted_gain(credits, "cora", 2) == 0.0
    assert score(credits, "ada", 2, 1.0) > score(credits, "basil", 2, 0.0)
    assert score(credits, "basil", 2, 0.0) == 0.2 * 0.5


def test_typed_questions_parse_from_names_and_times() -> None:
    from formalize.world.generate import generate_world

    setting = generate_world(1).setting
    who = setting.people[0]
    spec = QuestionSpec(kind="where", about=who.name, time=setting.slots[1])
    assert parse_question(setting, spec) == Where(who.id, 1)
    assert parse_question(setting, QuestionSpec(kind="where", about="Nobody")) is None


def fill(schema: dict[str, Any], node: dict[str, Any]) -> Any:
    """What a grammar-constrained server may answer for ``node`` of ``schema``: the first
    option of every enum, every field filled."""
    if "$ref" in node:
        return fill(schema, schema["$defs"][node["$ref"].split("/")[-1]])
    for choice in ("anyOf", "oneOf"):
        if choice in node:
            return fill(schema, next(n for n in node[choice] if n.get("type") != "null"))
    if "const" in node:
        return node["const"]
    if "enum" in node:
        return node["enum"][0]
    if node.get("type") == "object":
        return {key: fill(schema, value) for key, value in node["properties"].items()}
    if node.get("type") == "array":
        return [fill(schema, node["items"])]
    return "I would rather not say."


def test_every_decision_sends_its_answer_model_and_a_filled_one_is_played() -> None:
    asked: list[dict[str, Any]] = []

    def structured(request: ChatRequest) -> str:
        if request.last_user.startswith("Sentence:"):
            return "FORMULA: true"
        fmt = request.response_format
        assert fmt is not None, request.last_user[-200:]
        schema = fmt["json_schema"]["schema"] if "json_schema" in fmt else fmt["schema"]
        asked.append(schema)
        return json.dumps(fill(schema, schema))

    config = MysteryConfig(scripts=ScriptConfig(players=5))
    state = MysteryState(scripts_for(3, config.scripts), config, 3)
    with ScriptedChatServer(structured) as server:
        client = OpenAIChatClient(
            LLMSettings(base_url=server.base_url, model="scripted"), sleep=lambda _: None
        )
        reader = AnswerReader(Autoformalizer(client, prover=SatProver(), seed=1), SatProver())
        variants: tuple[Variant, ...] = ("questum", "llm-random", "llm-cot")
        players = [
            LLMPlayer(MysteryPrompter(v, k, reader), client, seed=k) for k, v in enumerate(variants)
        ]
        agents: list[Any] = [*players, RandomAgent(3), RandomAgent(4)]
        while not state.is_terminal():
            views = {k: state.observation(k) for k in state.current_players()}
            legal = {k: partial(state.legal_actions, k) for k in views}
            state.apply({k: decide(agents[k], v, legal[k]) for k, v in views.items()})
    titles = {schema["title"] for schema in asked}
    assert titles == {"AskAnswer", "SpokenAnswer", "VoteAnswer"}
    assert all(p.fallbacks.total == 0 for p in players), [p.fallbacks for p in players]
    shapes = next(s for s in asked if s["title"] == "AskAnswer")["$defs"]
    assert {kind: shapes[kind]["required"] for kind in ("Where", "Saw", "Held", "Related")} == {
        "Where": ["kind", "about", "time"],
        "Saw": ["kind", "about", "other", "time"],
        "Held": ["kind", "about", "item"],
        "Related": ["kind", "about", "other"],
    }
    cot = [s for s in asked if "reasoning" in s["properties"]]
    assert cot and all(s["required"][0] == "reasoning" for s in cot)
