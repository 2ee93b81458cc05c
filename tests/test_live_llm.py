"""Live checks against a real OpenAI-compatible server (``make llm-server``, then ``make
test-live``, which points ``GUMSHOE_LLM_BASE_URL`` at it unless set); skipped without one. The last
check asks the server to build a grammar from every game's largest answer schema, runs the
README's inspect evaluation against it, and finds it still up."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import urllib.request
from collections import Counter
from importlib.metadata import entry_points
from pathlib import Path
from typing import get_args

import pytest
from pydantic import BaseModel, ConfigDict

from benchmarks.freetext_bench import LABELLED, load_labelled
from benchmarks.llm_parse_rate import GameName, run_game
from formalize.reading.llm_reader import DEFAULT_MAX_ATTEMPTS, LLMReader
from formalize.reading.reading import OUTCOMES
from formalize.world.facts import Seen, fact_formula
from formalize.world.generate import generate_world
from games.core.play import play_game
from games.core.registry import game_names, get_game
from games.core.settings import AgentSettings as MysterySettings
from games.detective import CaseKnobs
from games.detective.agents import DetectiveAgentSettings as DetectiveSettings
from games.detective.agents import LLMAgent as DetectiveLLMAgent
from games.detective.entry import ENTRY as DETECTIVE
from games.detective.events import DetectiveConfig
from games.detective.generator import WORLD
from games.detective.llm_writer import LLMWriter
from games.detective.readback import read_card
from games.detective.reading import question_task
from games.detective.voices import Voice
from games.detective.writer import Card, TemplateWriter
from games.hanabi.agents import HanabiAgentSettings
from games.hanabi.entry import ENTRY as HANABI
from games.hanabi.events import HanabiConfig
from games.hanabi.llm_agents import HanabiLLMAgent
from games.mystery.agents import LLMAgent as MysteryLLMAgent
from games.mystery.entry import ENTRY as MYSTERY
from games.undercover.agent import Description
from games.undercover.lexicon import Lexicon
from games.undercover.reading import DescriptionReader
from provers import SatProver
from reasoning.llm import (
    ChatOptions,
    LLMSettings,
    OpenAIChatClient,
    ask_structured,
    combined,
    history,
    system,
    user,
)

# Read before the suite's fixture clears the endpoint settings from every test's environment.
LIVE_ENV = {k: v for k, v in os.environ.items() if k.startswith("GUMSHOE_LLM_")}

pytestmark = [
    pytest.mark.live_llm,
    pytest.mark.skipif(
        not LIVE_ENV.get("GUMSHOE_LLM_BASE_URL"),
        reason="no live endpoint: start `make llm-server` and set GUMSHOE_LLM_BASE_URL",
    ),
]

# A small model on one CPU thread: short answers, and time for the prompt to be read.
LIVE = {"max_tokens": 256, "request_timeout_s": 300.0}


@pytest.fixture(autouse=True)
def _live_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    """The endpoint settings given to ``make test-live``, with defaults for a small CPU model."""
    for name, value in LIVE.items():
        monkeypatch.setenv(f"GUMSHOE_LLM_{name.upper()}", str(value))
    for variable, setting in LIVE_ENV.items():
        monkeypatch.setenv(variable, setting)


class Room(BaseModel):
    """A one-field answer."""

    model_config = ConfigDict(extra="forbid")

    room: str


def live_client() -> OpenAIChatClient:
    return OpenAIChatClient(LLMSettings())


def test_model_and_structured_mode_are_found_and_an_answer_parses_first_time() -> None:
    client = live_client()
    assert client.model  # given, or the first the server lists
    prompt = [system("Answer with JSON."), user("Name one room of a house.")]
    outcome = ask_structured(client, prompt, Room, answer=Room, seed=1)
    assert outcome.first_try, outcome.errors
    assert client.structured_mode in ("json_schema", "json_object")


def test_history_beyond_the_context_is_trimmed_not_fatal() -> None:
    client = live_client()
    rounds = [history(f"Round {r}: " + "P1 suggested Rope in the Hall. " * 60) for r in range(40)]
    prompt = [system("You play Clue."), *rounds, user("Which room next? Answer with JSON.")]
    outcome = ask_structured(client, prompt, Room, answer=Room, seed=2, max_reprompts=1)
    usage = client.meter.snapshot()
    assert usage.trimmed > 0 and usage.errors == 0
    assert outcome.attempts >= 1


@pytest.mark.parametrize("game", get_args(GameName))
def test_a_short_game_with_an_llm_seat_finishes_with_structured_output(game: GameName) -> None:
    client = run_game(game, "on", 1, LLMSettings())
    asks = sum(t.asks for t in client.tallies.values())
    in_format = sum(t.format_first for t in client.tallies.values())
    assert asks > 0 and in_format / asks >= 0.8, client.tallies
    assert client.meter.snapshot().errors == 0


def test_a_short_detective_case_is_played_on_structured_answers() -> None:
    knobs = CaseKnobs(locations=4, questions=2, red_herrings=1, distractors=3, words_per_card=30)
    settings = DetectiveSettings(llm=LLMSettings())
    played = play_game(DETECTIVE, ["llm"], 1, settings, DetectiveConfig(knobs=knobs))
    agent = played.agents[0]
    assert isinstance(agent, DetectiveLLMAgent) and played.result.returns[0] >= 0
    usage = combined(agent.meters)
    asks = (knobs.locations + 1) * knobs.questions + knobs.locations - 1
    assert usage.calls >= asks and usage.errors == 0
    assert agent.fallbacks.total == 0  # every answer fills its enums


def test_the_llm_reader_reads_answers_in_words_under_the_vote() -> None:
    labelled = load_labelled(LABELLED)
    case = labelled.cases[0]
    client = live_client()
    reader = LLMReader(client)
    for qid, text in (("how", "She was shot with the service revolver."), ("who", "No idea.")):
        question = next(q for q in case.questions if q.id == qid)
        reading = reader.read(question_task(question, case.setting), text)
        assert [s.slot for s in reading.slots] == [s.name for s in question.slots]
        assert all(s.outcome in OUTCOMES and s.reader == "llm" for s in reading.slots)
        assert reading.vote is not None
        assert 2 <= len(reading.vote.ballots) == reading.calls <= DEFAULT_MAX_ATTEMPTS
    # The endpoint took the reading schema (its grammar) and answered every call.
    assert client.structured_mode in ("json_schema", "json_object")
    assert client.meter.snapshot().errors == 0


def test_the_llm_writer_writes_a_card_and_keeps_it_only_when_the_prover_agrees() -> None:
    """One card of two facts, at most two replies: the model's text is kept only when it reads
    back to exactly the facts, else the card keeps the template's text; the record says which."""
    world = generate_world(0, WORLD)
    setting = world.setting
    witness = setting.suspects[0]
    facts = (
        Seen(witness.id, world.positions[witness.id][1], 1),
        Seen(witness.id, world.positions[witness.id][2], 2),
    )
    card = Card(Voice("witness", witness.id, f"{witness.name}, {witness.role}"), facts)
    client = live_client()
    writer = LLMWriter(setting, random.Random(0), 40, client, SatProver(), attempts=2)
    lines = writer.card(card)
    (record,) = writer.cards
    assert 1 <= record.attempts <= 2 and record.unusable <= record.attempts
    text = " ".join(line.text for line in lines)
    if record.written_by == "model":
        wanted = [fact_formula(f, setting) for f in facts]
        assert read_card(text, wanted, setting, SatProver(), speaker=witness.id).ok
    else:
        assert record.problems
        assert lines == TemplateWriter(setting, random.Random(0), 40).card(card)
    assert Counter(f for line in lines for f in line.facts) == Counter(facts)
    assert client.meter.snapshot().errors == 0


def test_a_hanabi_game_of_two_watson_seats_is_played_on_structured_answers() -> None:
    settings = HanabiAgentSettings(llm=LLMSettings())
    played = play_game(HANABI, ("watson",) * 2, 1, settings, HanabiConfig(players=2))
    assert played.state.is_terminal()
    for agent in played.agents:
        assert isinstance(agent, HanabiLLMAgent)
        usage = combined(agent.meters)
        assert usage.calls > 0 and usage.errors == 0
        assert agent.fallbacks.total == 0  # every reply rates each legal move and picks one


def test_an_interrogation_game_with_a_questum_seat_asks_and_votes_on_structured_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An ask names a typed question for every other player: it needs the default reply length.
    monkeypatch.setenv("GUMSHOE_LLM_MAX_TOKENS", "512")
    specs = ["questum", "prover", "prover", "prover", "prover"]
    played = play_game(MYSTERY, specs, 2, MysterySettings(llm=LLMSettings()))
    seat = played.agents[0]
    assert isinstance(seat, MysteryLLMAgent)
    usage = combined(seat.meters)
    assert usage.calls > 0 and usage.errors == 0
    # Spoken answers go through the formaliser and may fall back; votes fill an enum.
    fallbacks = seat.player.fallbacks.counts
    assert "vote" not in fallbacks, fallbacks
    rounds = MYSTERY.default_config(len(specs)).rounds
    assert sum(fallbacks.get("ask", {}).values()) < rounds, fallbacks


def test_the_llm_reader_reads_an_undercover_description_under_the_vote() -> None:
    client = live_client()
    reader = DescriptionReader(Lexicon.load(), "llm", LLMReader(client))
    record = reader.read("Earl Grey Tea", Description("It has no added flavouring.")).record
    assert record.reader == "llm" and record.outcome in ("claims", "nothing", "unsure")
    assert record.vote is not None
    ballots = len(record.vote.ballots)
    assert 2 <= ballots <= DEFAULT_MAX_ATTEMPTS
    # A ballot is one call, or two when a reply cut off by the token budget was asked again.
    assert ballots <= record.calls <= 2 * ballots
    # The endpoint took the attribute reading schema (its grammar) and answered every call.
    assert client.structured_mode in ("json_schema", "json_object")
    assert client.meter.snapshot().errors == 0


def test_the_server_builds_a_grammar_from_every_games_largest_answer_schema() -> None:
    """Each schema, sent as the structured-output mode the endpoint settled on, is answered: no
    request is degraded to plain text, none errors, and the server lives through them all."""
    client = OpenAIChatClient(LLMSettings())
    prompt = [system("Answer with JSON."), user("Begin.")]
    asked = 0
    for game in game_names():
        for model in get_game(game).answer_models():
            reply = client.complete(prompt, seed=3, options=ChatOptions(answer=model, max_tokens=8))
            assert reply.response_format is not None, (game, model.__name__)
            asked += 1
    usage = client.meter.snapshot()
    assert usage.calls == asked and usage.errors == 0
    assert usage.format_degrades <= 1  # json_schema, if the server takes only json_object
    assert client.structured_mode in ("json_schema", "json_object")


@pytest.mark.skipif(
    not entry_points(group="inspect_ai", name="gumshoe"),
    reason="gumshoe's inspect_ai entry point is not installed (pip install -e '.[inspect]')",
)
def test_the_readme_inspect_evaluation_runs_against_the_server(tmp_path: Path) -> None:
    """``inspect eval gumshoe/hanabi --model llama-cpp-python/MODEL`` as the README writes it,
    the server reached as llama-cpp-python's; it ends, scored, with no endpoint error."""
    base_url = LIVE_ENV["GUMSHOE_LLM_BASE_URL"]
    model = OpenAIChatClient(LLMSettings(base_url=base_url)).model
    inspect = Path(sys.executable).with_name("inspect")
    command = [str(inspect), "eval", "gumshoe/hanabi", "--model", f"llama-cpp-python/{model}"]
    command += ["-T", "agents=watson,symbolic", "--log-dir", str(tmp_path), "--display", "none"]
    env = dict(os.environ, LLAMA_CPP_PYTHON_BASE_URL=base_url)
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    from inspect_ai.log import read_eval_log

    (path,) = tmp_path.glob("*.eval")
    log = read_eval_log(str(path))
    assert log.status == "success" and log.eval.task == "gumshoe/hanabi"
    assert log.results is not None and log.results.scores[0].name == "score"


def test_the_server_is_still_up() -> None:
    with urllib.request.urlopen(f"{LIVE_ENV['GUMSHOE_LLM_BASE_URL']}/models", timeout=30) as got:
        assert got.status == 200
