"""The detective LLM agents through the scripted chat server: fresh prompts at every step, JSON
answers read into elements, re-prompts and counted fallbacks, the random visiting order, and
a bench run recorded and replayed without the endpoint."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.core.play import play_game
from games.core.played import PlayedGame
from games.core.recordings import seat_calls
from games.detective import Case, CaseKnobs
from games.detective.agents import DetectiveAgentSettings, LLMAgent
from games.detective.engine import DetectiveState
from games.detective.entry import ENTRY, game_case
from games.detective.events import AnswersEvent, DetectiveConfig, VisitEvent
from reasoning.llm import LLMSettings, load_recording
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer, Step

runner = CliRunner()
QUESTION = re.compile(r"most likely answer to question (\d+):")
KNOBS = CaseKnobs(locations=6, questions=2, red_herrings=1, distractors=3, words_per_card=30)
CONFIG = DetectiveConfig(knobs=KNOBS)
SEED = 7


@pytest.fixture(scope="module")
def case() -> Case:
    return game_case(CONFIG, SEED)


def solver(case: Case) -> Callable[[ChatRequest], Step]:
    """Answers every part with its reference option (by text, in another case) and visits the
    last location the prompt lists."""

    def answer(request: ChatRequest) -> Step:
        prompt = request.last_user
        asked = QUESTION.search(prompt)
        if asked is not None:
            q = case.questions[int(asked.group(1)) - 1]
            return json.dumps(
                {"ANSWER": {s.name: s.choice(s.answer).text.upper() for s in q.slots}}
            )
        options = prompt.split("not visited yet are:\n", 1)[1].split("\n\n", 1)[0]
        return json.dumps({"LOCATION": options.splitlines()[-1].removeprefix("- ")})

    return answer


def settings_for(url: str, **paths: Any) -> DetectiveAgentSettings:
    return DetectiveAgentSettings(llm=LLMSettings(base_url=url, model="scripted", **paths))


def play_detective(agent: str, settings: DetectiveAgentSettings) -> tuple[DetectiveState, Any]:
    """The case of ``CONFIG`` and ``SEED`` played by ``agent``: the final state and the agent."""
    played: PlayedGame = play_game(ENTRY, [agent], SEED, settings, CONFIG)
    assert isinstance(played.state, DetectiveState)
    return played.state, played.agents[0]


def test_the_llm_agent_answers_from_fresh_prompts(case: Case) -> None:
    with ScriptedChatServer(solver(case)) as server:
        state, agent = play_detective("llm", settings_for(server.base_url))
        requests = list(server.requests)
    assert isinstance(agent, LLMAgent) and agent.fallbacks.total == 0
    assert all(len(r.messages) == 2 for r in requests)
    visits = [e.location for e in state.events() if isinstance(e, VisitEvent)]
    assert visits == [loc.id for loc in reversed(case.locations)]
    assert state.score is not None and state.score.final == 3.0
    answers = [e for e in state.events() if isinstance(e, AnswersEvent)]
    assert len(answers) == len(case.locations) + 1
    choose_prompts = [r for r in requests if '"LOCATION"' in r.last_user]
    assert len(choose_prompts) == len(case.locations) - 1  # the last location is forced
    assert case.house_plan and all(case.house_plan in r.last_user for r in requests)


def test_malformed_replies_are_re_prompted_then_fall_back_counted() -> None:
    with ScriptedChatServer(lambda _: "I would rather not say.") as server:
        _, agent = play_detective("llm", settings_for(server.base_url))
        served = len(server.requests)
    assert isinstance(agent, LLMAgent)
    answers = (KNOBS.locations + 1) * KNOBS.questions
    assert agent.answer_fallbacks == answers
    assert agent.choose_fallbacks == KNOBS.locations - 1
    assert served == 4 * (answers + KNOBS.locations - 1)


def test_random_order_visits_at_random_and_the_model_answers(case: Case) -> None:
    with ScriptedChatServer(solver(case)) as server:
        state, agent = play_detective("random-order", settings_for(server.base_url))
        requests = list(server.requests)
    assert agent.name == "random-order"
    assert all(QUESTION.search(r.last_user) for r in requests)
    assert len(requests) == (KNOBS.locations + 1) * KNOBS.questions
    assert state.score is not None and state.score.final == 3.0


def bench(out: Path, *args: str) -> dict[str, Any]:
    result = runner.invoke(
        app,
        [
            "bench", "detective", "--cases", "2", "--first-seed", str(SEED), "--agents", "llm",
            "--questions", "2", "--locations", "6", "--out", str(out), "--json", "--quiet", *args,
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary: dict[str, Any] = json.loads(result.stdout)
    return summary


def test_a_recorded_bench_replays_without_the_endpoint(case: Case, tmp_path: Path) -> None:
    recorded = tmp_path / "recorded"
    with ScriptedChatServer(solver(case)) as server:
        first = bench(recorded, "--base-url", server.base_url, "--model", "scripted", "--record")
    assert seat_calls(recorded, f"detective-llm-seed{SEED}", 0).is_file()
    again = bench(tmp_path / "replayed", "--replay", str(recorded), "--model", "scripted")
    for key in ("agents", "autograder"):
        assert again[key] == first[key]
    for gid in (f"detective-llm-seed{SEED}", f"detective-llm-seed{SEED + 1}"):
        logged = (recorded / "games" / f"{gid}.jsonl").read_text()
        assert (tmp_path / "replayed" / "games" / f"{gid}.jsonl").read_text() == logged
        calls = load_recording(seat_calls(recorded, gid, 0))
        answered = [
            e for e in ENTRY.read_log(recorded / "games" / f"{gid}.jsonl").events
            if isinstance(e, AnswersEvent)
        ]  # fmt: skip
        assert answered
        for event in answered:  # each question's answer names the call that asked it
            assert event.calls is not None and list(event.calls) == list(event.answers)
            for number, index in enumerate(event.calls.values(), start=1):
                asked = QUESTION.search(calls[index].messages[-1].content)
                assert asked is not None and int(asked.group(1)) == number
    missing = runner.invoke(
        app,
        ["bench", "detective", "--cases", "3", "--first-seed", str(SEED), "--agents", "llm",
         "--questions", "2", "--locations", "6", "--out", str(tmp_path / "third"),
         "--replay", str(recorded), "--quiet"],
    )  # fmt: skip
    assert missing.exit_code == 2 and "cases 2" in missing.output


def structured_solver(case: Case) -> Callable[[ChatRequest], Step]:
    """Fills the requested answer models as a grammar-constrained server would: the reference
    option of every part, by its exact text, and the first location the schema allows."""

    def answer(request: ChatRequest) -> Step:
        fmt = request.response_format
        assert fmt is not None, "every ask sends its answer model"
        schema = fmt["json_schema"]["schema"] if "json_schema" in fmt else fmt["schema"]
        asked = QUESTION.search(request.last_user)
        if asked is not None:
            q = case.questions[int(asked.group(1)) - 1]
            parts = schema["$defs"]["QuestionParts"]["properties"]
            assert set(parts) == {s.name for s in q.slots}
            for s in q.slots:
                assert parts[s.name]["enum"] == ["unknown", *(c.text for c in s.choices)]
            return json.dumps({"ANSWER": {s.name: s.choice(s.answer).text for s in q.slots}})
        return json.dumps({"location": schema["properties"]["location"]["enum"][0]})

    return answer


def test_structured_answers_fill_the_models_and_are_read_without_fallbacks(case: Case) -> None:
    with ScriptedChatServer(structured_solver(case)) as server:
        state, agent = play_detective("llm", settings_for(server.base_url))
        served = len(server.requests)
    assert isinstance(agent, LLMAgent) and agent.fallbacks.total == 0
    assert served == (KNOBS.locations + 1) * KNOBS.questions + KNOBS.locations - 1
    assert state.score is not None and state.score.final == 3.0


def test_slot_names_of_a_question_are_unique(case: Case) -> None:
    q = case.questions[0]
    twice = [q.slots[0], q.slots[0].model_copy(update={"name": q.slots[0].name.upper()})]
    with pytest.raises(ValueError, match="slot names must be unique"):
        type(q).model_validate({**q.model_dump(), "slots": [s.model_dump() for s in twice]})
