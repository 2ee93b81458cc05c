"""The LLM writer, checked by the prover, through the scripted chat server: a faithful text is
kept; a text that drops a fact, adds one or changes a name is refused, asked again with what was
wrong, and kept once right or left with the template's text; an unusable reply is counted; the
facts, unlock sets and answers stay those of the template case of the same seed; the check
reads a model's text back; a recorded case replays identically; the command line reports bad
input in one line."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from games.detective import Case, CaseKnobs, generate_case
from games.detective.check import check_case
from games.detective.cli import detective_app
from games.detective.llm_writer import LLMWriters
from games.detective.readback import fact_wording, read_card
from provers import SatProver, SatSession
from reasoning.formula import Formula
from reasoning.llm import LLMSettings, OpenAIChatClient, RecordingClient, ReplayClient
from reasoning.llm.pytest_plugin import StartServer
from reasoning.llm.scripted_server import ChatRequest, Delay, Fail, Reply
from reasoning.prover import Axiom
from reasoning.syntax import parse_formula
from reasoning.verdict import ProofResult, Verdict

SEED = 3
KNOBS = CaseKnobs(questions=2, locations=5, red_herrings=1, distractors=2)
ARGS = ["generate", "--seed", str(SEED), "--locations", "5", "--questions", "2"]
ARGS += ["--red-herrings", "1", "--distractors", "2"]

Rewrite = Callable[[list[str]], str]
"""A scripted writer: the card's facts as the prompt numbers them, to the text it replies."""

PLACE = "The room is cold, and the curtains are drawn against the grey morning."


def faithful(facts: list[str]) -> str:
    return " ".join([PLACE, *facts, "Nothing else here catches the eye."])


def dropping(facts: list[str]) -> str:
    return faithful(facts[1:])


def adding(facts: list[str]) -> str:
    return faithful([*facts, "Tabitha Dunmore was in the orchard at six o'clock."])


def renaming(facts: list[str]) -> str:
    return faithful([f.replace("Silas", "Jasper") for f in facts])


def _facts(request: ChatRequest) -> list[str]:
    return re.findall(r"^\d+\. (.*)$", request.messages[1]["content"], re.M)


def _title(request: ChatRequest) -> str:
    found = re.search(r"^Location: (.*?)\. ", request.messages[1]["content"], re.M)
    assert found is not None
    return found.group(1)


def script(
    plan: dict[str, Sequence[Rewrite | str | Reply]],
) -> Callable[[ChatRequest], str | Reply]:
    """Answer each card by its title: the next of its planned rewrites (a string or a reply is
    sent as it is), faithful once the plan runs out."""
    asked: dict[str, int] = {}

    def answer(request: ChatRequest) -> str | Reply:
        title = _title(request)
        n = asked[title] = asked.get(title, 0) + 1
        steps = plan.get(title, ())
        step = steps[n - 1] if n <= len(steps) else faithful
        if isinstance(step, str | Reply):
            return step
        return json.dumps({"text": step(_facts(request))})

    return answer


@pytest.fixture(scope="module")
def template() -> Case:
    """The template case of the seed: the facts every writer must keep."""
    return generate_case(SEED, SatProver(), SatSession, KNOBS)


def _client(url: str) -> OpenAIChatClient:
    return OpenAIChatClient(LLMSettings(base_url=url, model="scripted"), sleep=lambda _: None)


def _written(client: object, attempts: int = 3) -> Case:
    writers = LLMWriters(client, SatProver(), attempts)  # type: ignore[arg-type]
    return generate_case(SEED, SatProver(), SatSession, KNOBS, writer=writers)


def _same_logic(one: Case, other: Case) -> None:
    assert other.intro_facts == one.intro_facts
    assert other.introduction == one.introduction
    assert [(x.id, x.facts, x.red_herring) for x in other.locations] == [
        (x.id, x.facts, x.red_herring) for x in one.locations
    ]
    assert other.questions == one.questions


def test_a_faithful_text_is_kept_and_the_case_keeps_its_facts_and_passes_the_check(
    template: Case, scripted_chat: StartServer
) -> None:
    server = scripted_chat(script({}))
    case = _written(_client(server.base_url))
    assert case.provenance is not None
    assert case.provenance.kept == len(case.locations) == len(server.requests)
    assert case.provenance.reasked == case.provenance.fallen_back == 0
    _same_logic(template, case)
    assert all(PLACE in loc.text for loc in case.locations)
    assert check_case(case, SatProver(), SatSession)[1] == []
    witness = next(c for c in case.provenance.cards if c.speaker is not None)
    assert "I " in case.location(witness.location).text


def test_wrong_texts_are_asked_again_with_what_was_wrong_then_kept_or_left_to_the_template(
    template: Case, scripted_chat: StartServer
) -> None:
    titles = {loc.id: loc.title for loc in template.locations}
    plan: dict[str, Sequence[Rewrite | str | Reply]] = {
        titles["nursery"]: [dropping, renaming, faithful],
        titles["cellar"]: ["I cannot help with that.", faithful],
        titles["bank"]: [adding, adding, adding],
    }
    server = scripted_chat(script(plan))
    case = _written(_client(server.base_url))
    provenance = case.provenance
    assert provenance is not None
    nursery, cellar, bank = (provenance.card(k) for k in ("nursery", "cellar", "bank"))
    assert nursery is not None and cellar is not None and bank is not None
    assert (nursery.written_by, nursery.attempts, nursery.unusable) == ("model", 3, 0)
    assert (cellar.written_by, cellar.attempts, cellar.unusable) == ("model", 2, 1)
    assert (bank.written_by, bank.attempts) == ("template", 3)
    assert "says something the facts do not" in bank.problems[0]
    assert case.location("bank").text == template.location("bank").text
    assert (provenance.kept, provenance.reasked, provenance.fallen_back) == (4, 3, 1)
    assert (provenance.calls, provenance.unusable) == (len(server.requests), 1) == (10, 1)
    asked_again = [r.last_user for r in server.requests if len(r.messages) > 2]
    assert any("is not stated by any one sentence" in m for m in asked_again)
    assert any("No JSON object" in m or "no JSON object" in m for m in asked_again)
    _same_logic(template, case)
    assert check_case(case, SatProver(), SatSession)[1] == []


def test_a_recorded_case_replays_identically(tmp_path: Path, scripted_chat: StartServer) -> None:
    server = scripted_chat(script({"The nursery": [dropping]}))
    calls = tmp_path / "calls.jsonl"
    first = _written(RecordingClient(_client(server.base_url), calls))
    again = _written(ReplayClient(calls))
    assert again == first
    assert first.provenance is not None
    assert [c.recorded for c in first.provenance.cards][:1] == [[0, 1]]


class AgreeingProver:
    """A prover that says every goal follows: what the check would be without a real one."""

    name = "agreeing"

    def prove(
        self, axioms: Sequence[Axiom], goal: Formula, timeout: float | None = None
    ) -> ProofResult:
        return ProofResult(verdict=Verdict.VALID, prover=self.name, elapsed_s=0.0)


def test_the_prover_decides_what_is_kept(template: Case) -> None:
    """A text with a false fact is refused by the prover; a prover that agrees with everything
    would keep it, so the refusal is the prover's."""
    assert template.setting is not None
    loc = template.location("nursery")
    facts = [parse_formula(f) for f in loc.facts]
    words = [fact_wording(f, template.setting) for f in facts]
    clauses = [w[:1].upper() + w[1:] + "." for w in words]
    known = [parse_formula(f) for f in template.intro_facts]
    assert read_card(faithful(clauses), facts, template.setting, SatProver(), known=known).ok
    bad = adding(clauses)
    refused = read_card(bad, facts, template.setting, SatProver(), known=known)
    assert not refused.ok and "says something the facts do not" in refused.problems[0]
    assert read_card(bad, facts, template.setting, AgreeingProver(), known=known).ok
    dropped = read_card(dropping(clauses), facts, template.setting, SatProver(), known=known)
    assert "is not stated by any one sentence" in dropped.problems[0]
    unread = read_card(
        faithful(["Perhaps Silas had the carving knife at ten o'clock."]),
        facts,
        template.setting,
        SatProver(),
    )
    assert "cannot be read" in unread.problems[0]


def test_the_check_reads_a_model_text_back(template: Case, scripted_chat: StartServer) -> None:
    server = scripted_chat(script({}))
    case = _written(_client(server.base_url))
    locations = [
        loc.model_copy(update={"text": adding([loc.text])}) if loc.id == "nursery" else loc
        for loc in case.locations
    ]
    tampered = case.model_copy(update={"locations": locations})
    problems = check_case(tampered, SatProver(), SatSession)[1]
    assert len(problems) == 1, problems
    assert problems[0].startswith("location 'nursery': sentence ")
    assert '("Tabitha Dunmore was in the orchard at six o\'clock.")' in problems[0]
    assert problems[0].endswith("says something the facts do not")


def test_generate_writes_records_and_replays_a_case_from_the_command_line(
    tmp_path: Path, scripted_chat: StartServer
) -> None:
    server = scripted_chat(script({"The bank": [adding, adding, adding]}))
    runner = CliRunner()
    out, again = tmp_path / "case.json", tmp_path / "again.json"
    llm = ["--writer", "llm", "--base-url", server.base_url, "--model", "scripted"]
    effort = ["--reasoning-effort", "low"]
    done = runner.invoke(detective_app, [*ARGS, "--out", str(out), *llm, *effort, "--record"])
    assert done.exit_code == 0, done.output
    assert "wrote 4 of 5 location texts (1 re-asked, 1 kept the template's text" in done.output
    assert {r.body.get("reasoning_effort") for r in server.requests} == {"low"}
    recording = tmp_path / "case.llm.jsonl"
    replay = ["--writer", "llm", "--replay", str(recording)]
    done = runner.invoke(detective_app, [*ARGS, "--out", str(again), *replay])
    assert done.exit_code == 0, done.output
    assert again.read_bytes() == out.read_bytes()
    assert runner.invoke(detective_app, ["check", str(out)]).exit_code == 0


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--writer", "llm"], "--writer llm: no endpoint"),
        (["--model", "m"], "--model: only --writer llm asks a model"),
        (["--reasoning-effort", "high"], "--reasoning-effort: only --writer llm asks a model"),
        (["--writer", "poet"], "option '--writer': Input should be 'template' or 'llm'"),
        (["--writer", "llm", "--reasoning-effort", "max"], "option '--reasoning-effort'"),
        (["--writer", "llm", "--replay", "missing.jsonl"], "no such recording"),
        (
            ["--writer", "llm", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"],
            "Connection refused",
        ),
    ],
)
def test_bad_options_and_endpoints_end_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extra: list[str], message: str
) -> None:
    monkeypatch.setenv("GUMSHOE_LLM_MAX_RETRIES", "0")
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(detective_app, [*ARGS, "--out", "case.json", *extra])
    assert done.exit_code == 2
    assert len(done.output.strip().splitlines()) == 1 and message in done.output
    assert not (tmp_path / "case.json").exists()


def test_a_replay_that_differs_and_a_time_limit_end_in_one_line(
    tmp_path: Path, scripted_chat: StartServer
) -> None:
    server = scripted_chat(script({}))
    runner = CliRunner()
    llm = ["--writer", "llm", "--base-url", server.base_url, "--model", "scripted", "--record"]
    assert (
        runner.invoke(detective_app, [*ARGS, "--out", str(tmp_path / "a.json"), *llm]).exit_code
        == 0
    )
    other = [*ARGS[:2], "4", *ARGS[3:], "--out", str(tmp_path / "b.json")]
    done = runner.invoke(
        detective_app, [*other, "--writer", "llm", "--replay", str(tmp_path / "a.llm.jsonl")]
    )
    assert done.exit_code == 2 and "differs from the recording" in done.output
    slow = scripted_chat(lambda request: Delay(3.0, json.dumps({"text": PLACE})))
    late = ["--writer", "llm", "--base-url", slow.base_url, "--model", "scripted"]
    done = runner.invoke(
        detective_app, [*ARGS, "--out", str(tmp_path / "c.json"), *late, "--time-limit", "1"]
    )
    assert done.exit_code == 2 and "gave up after 1 s" in done.output
    assert not (tmp_path / "c.json").exists()


def test_replies_cut_off_or_of_the_wrong_shape_are_counted_and_the_card_keeps_its_template(
    template: Case, scripted_chat: StartServer
) -> None:
    """Replies a writer cannot use (cut off at the token cap, JSON of another shape, an empty
    text) are counted as unusable, asked again, and after the bound the card keeps the
    template's text; the case is still whole and checked."""
    cut = Reply('{"text": "The nursery is quiet and the', finish_reason="length")
    # The client asks a reply cut off at the cap again once, with a larger cap; cut off twice,
    # it reaches the writer, which counts it and asks for a shorter text.
    plan: dict[str, Sequence[Rewrite | str | Reply]] = {
        "The nursery": [cut, cut, json.dumps({"words": "a text"}), json.dumps({"text": "  "})]
    }
    server = scripted_chat(script(plan))
    case = _written(_client(server.base_url))
    assert case.provenance is not None
    nursery = case.provenance.card("nursery")
    assert nursery is not None
    assert (nursery.written_by, nursery.attempts, nursery.unusable) == ("template", 3, 3)
    assert nursery.problems == ["the text was empty"]
    asked = [r.last_user for r in server.requests if _title(r) == "The nursery"]
    assert asked[1] == asked[0]  # the client's own second try
    again = asked[2:]
    assert again[0].startswith("Your answer was cut off at ")
    assert "is not one of the expected fields" in again[1] or "missing" in again[1]
    assert (case.provenance.unusable, case.provenance.fallen_back) == (3, 1)
    assert case.location("nursery").text == template.location("nursery").text
    _same_logic(template, case)
    assert check_case(case, SatProver(), SatSession)[1] == []


def test_an_endpoint_that_fails_ends_the_command_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scripted_chat: StartServer
) -> None:
    monkeypatch.setenv("GUMSHOE_LLM_MAX_RETRIES", "0")
    server = scripted_chat(lambda request: Fail(500, "the model fell over"))
    out = tmp_path / "case.json"
    llm = ["--writer", "llm", "--base-url", server.base_url, "--model", "scripted", "--record"]
    done = CliRunner().invoke(detective_app, [*ARGS, "--out", str(out), *llm])
    assert done.exit_code == 2, done.output
    assert len(done.output.strip().splitlines()) == 1 and "500" in done.output
    assert not out.exists()


LIVE = Path(__file__).parent / "fixtures" / "llm" / "detective-writer" / "smollm2-seed7.jsonl"
"""The calls of ``detective generate --seed 7 --locations 4 --questions 2 --red-herrings 1
--words-per-card 80 --attempts 2 --writer llm --record`` against SmolLM2-135M-Instruct."""


def test_a_live_recording_replays_to_its_counts_and_a_checked_case(tmp_path: Path) -> None:
    """The small model's texts are all refused (a bare "name: hour" line, a fact left out, a
    stray number), each with its reason, and the case keeps the template's texts and passes."""
    out = tmp_path / "case.json"
    args = ["generate", "--seed", "7", "--locations", "4", "--questions", "2"]
    args += ["--red-herrings", "1", "--words-per-card", "80", "--attempts", "2"]
    runner = CliRunner()
    done = runner.invoke(
        detective_app, [*args, "--out", str(out), "--writer", "llm", "--replay", str(LIVE)]
    )
    assert done.exit_code == 0, done.output
    assert "wrote 0 of 4 location texts (4 re-asked, 4 kept the template's text; 8 calls" in (
        done.output
    )
    case = Case.model_validate_json(out.read_text())
    assert case.provenance is not None and case.provenance.model == "SmolLM2-135M-Instruct"
    assert all(c.problems and c.recorded for c in case.provenance.cards)
    assert runner.invoke(detective_app, ["check", str(out)]).exit_code == 0
