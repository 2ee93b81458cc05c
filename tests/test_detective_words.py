"""The detective's free-text player (``llm-words``) through the scripted chat server: every
question answered in words in one prompt, each answer read (offline, or offline with the LLM
reader where it is unsure), the texts and readings logged; exact grades only where the reading is
decisive; the log replays; the audit lists every reading and the asserting words; the dataset
export has a row per slot read."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from benchmarks.freetext_bench import read_by_rule
from games.core.play import play_game
from games.core.recordings import seat_calls
from games.detective import Case, CaseKnobs
from games.detective.agents import DetectiveAgentSettings, WordsAgent
from games.detective.audit import audit_record
from games.detective.engine import DetectiveState
from games.detective.entry import ENTRY, game_case
from games.detective.events import AnswersEvent, DetectiveConfig
from reasoning.llm import LLMSettings, load_recording
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer, Step

runner = CliRunner()
KNOBS = CaseKnobs(locations=6, questions=2)
SEED = 7


@pytest.fixture(scope="module")
def case() -> Case:
    return game_case(DetectiveConfig(knobs=KNOBS), SEED)


def _words(text: str) -> str:
    return text.split(" (")[0]


def answerer(case: Case) -> Callable[[ChatRequest], Step]:
    """Answers in words by stage: no idea; a hedge between two options; a hedged guess (the
    reader is unsure); then the reference answer with a wrong option denied. Visits the first
    location listed; reading prompts get the keyword rule."""

    def answer(request: ChatRequest) -> Step:
        prompt = request.last_user
        if "Answer given:" in prompt:
            return read_by_rule(request)
        if "your own words" in prompt:
            stage = prompt.count("$$ Location:")
            given = {}
            for number, q in enumerate(case.questions, start=1):
                parts = []
                for s in q.slots:
                    right = _words(s.choice(s.answer).text)
                    wrong = next(_words(c.text) for c in s.choices if c.value != s.answer)
                    parts.append(
                        [
                            "",
                            f"either {wrong} or {right}",
                            f"maybe {right}",
                            f"not {wrong} but {right}",
                        ][min(stage, 3)]
                    )
                given[str(number)] = ", ".join(parts) if stage else "I don't know."
            return json.dumps(given)
        first = re.search(r"not visited yet are:\n- (.*)", prompt)
        return json.dumps({"LOCATION": first.group(1) if first else ""})

    return answer


def test_answers_in_words_are_read_logged_and_graded_only_where_decisive(case: Case) -> None:
    with ScriptedChatServer(answerer(case)) as server:
        settings = DetectiveAgentSettings(
            llm=LLMSettings(base_url=server.base_url, model="scripted")
        )
        played = play_game(ENTRY, ["llm-words"], SEED, settings, DetectiveConfig(knobs=KNOBS))
    state, agent = played.state, played.agents[0]
    assert isinstance(state, DetectiveState) and isinstance(agent, WordsAgent)
    assert agent.fallbacks.total == 0
    stages = [e for e in state.events() if isinstance(e, AnswersEvent)]
    assert len(stages) == len(case.locations) + 1
    outcomes = [
        {s.outcome for r in (e.readings or {}).values() for s in r.slots} for e in stages[:4]
    ]
    assert outcomes == [{"none"}, {"several"}, {"unsure"}, {"asserted"}]
    assert [e.grades for e in stages[:4]] == [[0, 0], [0, 0], [None, None], [3, 3]]
    last = stages[-1]
    assert last.texts is not None and last.readings is not None
    for q in case.questions:
        reading = last.readings[q.id]
        assert reading.values() == last.answers[q.id] == {s.name: s.answer for s in q.slots}
        for slot in reading.slots:
            denied, asserted = slot.evidence
            text = last.texts[q.id]
            assert (denied.stance, asserted.stance) == ("rejected", "asserted")
            assert text[asserted.start : asserted.end] == asserted.words
    assert state.score is None and state.result().reason == "unjudged"


def test_the_combined_reader_asks_the_llm_only_where_offline_is_unsure(case: Case) -> None:
    with ScriptedChatServer(answerer(case)) as server:
        llm = LLMSettings(base_url=server.base_url, model="scripted")
        settings = DetectiveAgentSettings(llm=llm, reader="combined")
        played = play_game(ENTRY, ["llm-words"], SEED, settings, DetectiveConfig(knobs=KNOBS))
        asked = [r.last_user for r in server.requests if "Answer given:" in r.last_user]
    state = played.state
    assert isinstance(state, DetectiveState)
    stages = [e for e in state.events() if isinstance(e, AnswersEvent)]
    hedged = stages[2].readings or {}
    assert all(r.reader == "offline+llm" for r in hedged.values())
    assert all(r.calls == 2 and r.vote is not None for r in hedged.values())
    assert len(asked) == 2 * len(case.questions)
    assert stages[2].grades == [3, 3] and stages[3].readings is not None
    assert all(r.calls == 0 for r in stages[3].readings.values())
    assert state.score is not None and state.score.final == 3.0


def test_a_run_in_words_replays_audits_and_exports_its_readings(case: Case, tmp_path: Path) -> None:
    run = tmp_path / "run"
    args = ["bench", "detective", "--cases", "1", "--first-seed", str(SEED), "--agents",
            "llm-words", "--questions", "2", "--locations", "6", "--quiet"]  # fmt: skip
    with ScriptedChatServer(answerer(case)) as server:
        llm = ["--base-url", server.base_url, "--model", "scripted", "--record"]
        done = runner.invoke(app, [*args, "--out", str(run), *llm])
    assert done.exit_code == 0, done.output
    gid = f"detective-llm-words-seed{SEED}"
    again = runner.invoke(
        app, [*args, "--out", str(tmp_path / "again"), "--replay", str(run), "--model", "scripted"]
    )
    assert again.exit_code == 0, again.output
    logged = (run / "games" / f"{gid}.jsonl").read_text()
    assert (tmp_path / "again" / "games" / f"{gid}.jsonl").read_text() == logged
    log = ENTRY.read_log(run / "games" / f"{gid}.jsonl")
    record = audit_record(log)
    assert record.figures["answers_read"] == len(record.readings) == 7 * len(case.questions)
    assert record.figures["answers_unjudged"] == len(case.questions)
    unread = [r for r in record.rows if r.judgement == "unjudged"]
    assert unread and all(r.claim.endswith("unread") for r in unread)
    assert {r.detail["outcome"] for r in unread} == {"unsure"}
    asserted = [r for r in record.rows if r.detail.get("outcome") == "asserted"]
    assert asserted and all(r.judgement in ("sound", "lucky") for r in asserted)
    calls = load_recording(seat_calls(run, gid, 0))
    first = record.readings[0]
    assert first.call is not None and "your own words" in calls[first.call].messages[-1].content
    out = tmp_path / "ds"
    exported = runner.invoke(app, ["export", "dataset", str(run), "--out", str(out),
                                   "--format", "jsonl"])  # fmt: skip
    assert exported.exit_code == 0, exported.output
    rows: list[dict[str, Any]] = [
        json.loads(line) for line in (out / "readings.jsonl").read_text().splitlines()
    ]
    slots = sum(len(q.slots) for q in case.questions)
    assert len(rows) == 7 * slots
    assert {r["outcome"] for r in rows} == {"none", "several", "unsure", "asserted"}
    for row in rows:
        for span in json.loads(row["evidence"]):
            assert row["text"][span["start"] : span["end"]] == span["words"]
