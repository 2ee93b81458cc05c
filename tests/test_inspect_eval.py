"""gumshoe in inspect_ai: the games as inspect tasks played by inspect's mock model and scored by
the gumshoe audit, runs exported as eval logs and read back with inspect's own reader, and the
extra staying optional (nothing else imports inspect_ai)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

pytest.importorskip("inspect_ai", reason="inspect_ai is not installed (gumshoe's [inspect] extra)")

from inspect_ai import eval as inspect_eval
from inspect_ai._util.registry import registry_lookup
from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from inspect_ai.model import ChatMessageAssistant, Model, ModelOutput, ModelUsage, get_model
from inspect_ai.model._providers.mockllm import MockLLM

from benchmarks.console.cli import app
from benchmarks.inspect_eval.scores import audit_score, score_keys
from benchmarks.inspect_eval.tasks import LOG_KEY, game_task
from games.core.play import play_game
from games.core.recordings import seat_calls
from games.core.registry import game_names, get_game
from reasoning.llm import load_recording
from reasoning.llm.scripted_server import ScriptedChatServer
from tests.test_clue_recordings import scripted_answers
from tests.test_hanabi_llm import scripted

pytestmark = pytest.mark.filterwarnings(
    "ignore:The 'initial' parameter is deprecated:DeprecationWarning"
)
"""inspect_ai's own retry set-up warns at each model call; not ours to change."""

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
SCORER = "gumshoe_audit"
AUDITED = ("stated", "entailed", "sound", "lucky", "wrong")


def mock_model() -> Model:
    """inspect's mock model answering its default text; usage is given with each output, so the
    mock need not fetch a tokenizer to count it (no network in tests)."""

    def output(*_: Any) -> ModelOutput:
        out = ModelOutput.from_content(model="mockllm", content=MockLLM.default_output)
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    return get_model("mockllm/model", custom_outputs=output)


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, EvalLog]:
    """A Clue task (two seeds), Hanabi, Undercover-V and murder-mystery tasks (one each; the
    detective's is left out for its length) evaluated in one ``eval`` call, each log read back
    from its file."""
    log_dir = tmp_path_factory.mktemp("inspect-logs")
    tasks = [game_task("clue", seeds=2), game_task("hanabi", seeds=1, first_seed=3)]
    tasks += [game_task("undercover"), game_task("mystery")]
    logs = inspect_eval(tasks, model=mock_model(), log_dir=str(log_dir), display="none")
    return {log.eval.task.removeprefix("gumshoe/"): read_eval_log(log.location) for log in logs}


def audit_json(game: str, text: str, folder: Path) -> dict[str, Any]:
    """``gumshoe audit GAME LOG --json`` of a game log's text."""
    path = folder / f"{game}.jsonl"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["audit", game, str(path), "--json"])
    assert result.exit_code == 0, result.output
    record: dict[str, Any] = json.loads(result.stdout)
    return record


def assert_score_is_the_audit(sample: EvalSample, record: dict[str, Any], seats: list[int]) -> None:
    """The sample's score adds up the audit's figures of ``seats``."""
    value = sample.scores[SCORER].value if sample.scores else None
    assert isinstance(value, dict) and tuple(value) == score_keys(get_game(record["game"]))
    summaries = [s for s in record["seats"] if s["seat"] in seats]
    for key in AUDITED:
        assert value[key] == sum(s[key] for s in summaries), key
    entailed = sum(s["recall_entailed"] or 0 for s in summaries)
    if record["game"] == "clue" and entailed:
        assert value["recall"] == sum(s["recall_stated"] for s in summaries) / entailed
    else:
        assert math.isnan(value["recall"])


@pytest.mark.parametrize(
    ("game", "samples"), [("clue", 2), ("hanabi", 1), ("undercover", 1), ("mystery", 1)]
)
def test_game_task_plays_against_the_mock_model_and_the_audit_scores_it(
    evaluated: dict[str, EvalLog], game: str, samples: int, tmp_path: Path
) -> None:
    log = evaluated[game]
    assert log.status == "success" and log.samples is not None
    assert log.eval.task == f"gumshoe/{game}"
    assert log.results is not None and log.results.headline is not None
    assert log.results.headline.score == get_game(game).outcome_keys[0]
    assert len(log.samples) == samples
    for sample in log.samples:
        calls = [e for e in sample.events if e.event == "model"]
        assert calls, "the model played the LLM seat through inspect's model API"
        assert all(e.output.completion == MockLLM.default_output for e in calls)
        record = audit_json(game, sample.store[LOG_KEY], tmp_path)
        assert record["complete"]
        assert_score_is_the_audit(sample, record, [0])
        value = sample.scores[SCORER].value if sample.scores else {}
        assert isinstance(value, dict)
        assert value["fallbacks"] > 0, "the mock's text is never a move: counted fallbacks"
        if game == "hanabi":  # cooperative: the shared score leads, no winner
            assert "win" not in value and value["strikes"] in (0.0, 1.0, 2.0, 3.0)
            assert value["perfect"] == float(value["score"] == 25)
            end = json.loads(sample.store[LOG_KEY].splitlines()[-1])
            assert value["score"] == end["returns"][0]
            answer = sample.scores[SCORER].answer if sample.scores else ""
            assert answer == f"finished: {end['reason']}; score {value['score']:g}, " + (
                f"perfect {value['perfect']:g}, strikes {value['strikes']:g}"
            )
        else:
            assert value["win"] in (0.0, 1.0) and value["rank"] >= 1
    assert log.results is not None
    assert [s.name for s in log.results.scores] == list(score_keys(get_game(game)))


def test_a_hanabi_game_lost_to_strikes_scores_its_score_and_says_how_it_ended() -> None:
    """Hanabi is cooperative: no seat wins, the shared score leads; a game that ran out of
    lives says so, as the end reason and as three strikes."""
    entry = get_game("hanabi")
    log = play_game(entry, ["random", "random"], 0).log()
    score = audit_score(entry, log, entry.audit(log))
    assert isinstance(score.value, dict)
    assert list(score.value)[:3] == ["score", "perfect", "strikes"] and "win" not in score.value
    assert (score.value["perfect"], score.value["strikes"]) == (0.0, 3.0)
    assert score.answer == f"finished: out_of_lives; score {score.value['score']:g}, " + (
        "perfect 0, strikes 3"
    )


def test_every_game_is_a_registered_task_behind_the_entry_point() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    assert declared["inspect_ai"] == {"gumshoe": "benchmarks.inspect_eval.tasks"}
    for game in game_names():
        assert registry_lookup("task", f"gumshoe/{game}") is not None, game


def test_task_arguments_are_taken_in_inspects_list_and_string_forms() -> None:
    """``-T agents=sherlock,symbolic`` reaches a task as a list, ``-T agents=llm`` as a string,
    ``-T seeds=2`` as a number; a caller may give the numbers as strings."""
    as_list = game_task("hanabi", agents=["sherlock", "symbolic"], seeds=2)
    as_text = game_task("hanabi", agents="sherlock,symbolic", seeds="2", first_seed="0")
    for task in (as_list, as_text):
        assert task.metadata == {"game": "hanabi", "agents": ["sherlock", "symbolic"]}
        assert [s.id for s in task.dataset] == [0, 1]
    assert game_task("detective", agents="llm").metadata == {"game": "detective", "agents": ["llm"]}
    for bad, said in [({"seeds": "two"}, "seeds: not a whole number"), ({"seeds": 0}, ">= 1")]:
        with pytest.raises(ValueError, match=said):
            game_task("hanabi", **bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no LLM agent"):
        game_task("hanabi", agents=["symbolic", "symbolic"])


@pytest.fixture(scope="module")
def clue_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A two-game Clue run whose LLM seat was recorded against the scripted server."""
    run = tmp_path_factory.mktemp("runs") / "clue-llm"
    args = ["bench", "clue", "--games", "2", "--out", str(run), "--agents", "llm,prover,prover"]
    args += ["--rounds", "2", "--seed", "5", "--model", "m", "--record"]
    with ScriptedChatServer(scripted_answers()) as server:
        result = runner.invoke(app, [*args, "--base-url", server.base_url])
    assert result.exit_code == 0, result.output
    return run


def test_export_inspect_writes_a_run_that_inspect_reads_back(
    clue_run: Path, tmp_path: Path
) -> None:
    out = tmp_path / "clue.eval"
    result = runner.invoke(app, ["export", "inspect", str(clue_run), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == str(out)
    log = read_eval_log(str(out))
    games = sorted(p.stem for p in (clue_run / "games").glob("*.jsonl"))
    assert log.samples is not None and [s.id for s in log.samples] == games
    for sample in log.samples:
        path = clue_run / "games" / f"{sample.id}.jsonl"
        record = audit_json("clue", path.read_text(encoding="utf-8"), tmp_path)
        assert_score_is_the_audit(sample, record, [0])
        calls = load_recording(seat_calls(clue_run, str(sample.id), 0))
        replies = [
            m
            for m in sample.messages
            if isinstance(m, ChatMessageAssistant) and not (m.metadata or {}).get("sent")
        ]
        assert [m.text for m in replies] == [c.reply.content for c in calls if c.reply]
        assert [m.content for m in calls[0].messages] == [
            m.text for m in sample.messages[: len(calls[0].messages)]
        ]
        assert sum(e.event == "model" for e in sample.events) == len(calls)
    assert log.results is not None and log.results.total_samples == len(games)
    assert log.eval.task == log.eval.task_registry_name == "gumshoe/clue"
    recorded = [
        c.reply
        for game in games
        for c in load_recording(seat_calls(clue_run, game, 0))
        if c.reply is not None
    ]
    assert log.eval.model == "m"
    usage = log.stats.model_usage["m"]
    assert usage.input_tokens == sum(r.prompt_tokens for r in recorded) > 0
    assert usage.output_tokens == sum(r.completion_tokens for r in recorded) > 0
    assert log.stats.started_at and log.stats.completed_at
    assert log.stats.started_at <= log.stats.completed_at
    for sample in log.samples:
        assert sample.started_at and sample.completed_at and sample.model_usage["m"].total_tokens
        assert log.stats.started_at <= sample.started_at <= sample.completed_at
        assert sample.working_time is not None and sample.working_time >= 0


def test_export_inspect_scores_a_run_without_llm_seats_on_every_seat(tmp_path: Path) -> None:
    run = tmp_path / "hanabi"
    args = ["bench", "hanabi", "--players", "2", "--seeds", "1", "--agents", "symbolic"]
    assert runner.invoke(app, [*args, "--out", str(run)]).exit_code == 0
    out = tmp_path / "hanabi.json"
    assert runner.invoke(app, ["export", "inspect", str(run), "-o", str(out)]).exit_code == 0
    log = read_eval_log(str(out))
    assert log.samples and all(not s.messages for s in log.samples)
    assert log.eval.model == "none/none" and log.stats.model_usage == {}
    assert log.stats.started_at and log.stats.completed_at
    for sample in log.samples:
        record = audit_json("hanabi", sample.store[LOG_KEY], tmp_path)
        assert_score_is_the_audit(sample, record, [s["seat"] for s in record["seats"]])
        assert sample.completed_at and sample.started_at is None  # no call timed it
    assert log.results is not None and log.results.scores[0].name == "score"


def test_export_inspect_refuses_what_is_not_a_run_in_one_line(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    (empty / "games").mkdir(parents=True)
    bad = tmp_path / "bad"
    (bad / "games").mkdir(parents=True)
    (bad / "games" / "g.jsonl").write_text('{"game": "clue"\n', encoding="utf-8")
    cases = {
        tmp_path / "missing": "no such run directory",
        tmp_path: "not a run directory",
        empty: "holds no game logs",
        bad: "g.jsonl",
    }
    for path, said in cases.items():
        result = runner.invoke(app, ["export", "inspect", str(path)])
        assert result.exit_code == 2, (path, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and said in lines[0]


def test_without_the_extra_nothing_imports_inspect_ai(tmp_path: Path) -> None:
    """The console, every game and the export command's module load no inspect_ai; without it
    installed, ``export inspect`` says so in one line."""
    probe = (
        "import sys\n"
        "from benchmarks.console.cli import app\n"
        "import benchmarks.inspect_eval.cli\n"
        "from games.core.registry import game_names, get_game\n"
        "entries = [get_game(name) for name in game_names()]\n"
        "[entry.default_settings() for entry in entries]\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'inspect_ai'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"
    blocked = (
        "import sys\n"
        "sys.modules['inspect_ai'] = None\n"
        "from benchmarks.console.cli import app\n"
        f"app(['export', 'inspect', {str(tmp_path)!r}])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", blocked], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2
    assert len(lines) == 1 and "pip install 'gumshoe[inspect]'" in lines[0]


def test_a_seat_naming_its_own_model_asks_that_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``sherlock@MODEL`` seats ask inspect's ``get_model(MODEL)`` (here a chat-completions
    server, the scripted one), the other LLM seats the task's model."""
    with ScriptedChatServer(lambda request: "I pass.") as server:
        monkeypatch.setenv("LOCAL_API_KEY", "none")
        monkeypatch.setenv("LOCAL_BASE_URL", server.base_url)
        task = game_task("hanabi", agents="sherlock@openai-api/local/m,mycroft")
        (log,) = inspect_eval(task, model=mock_model(), log_dir=str(tmp_path), display="none")
        served = len(server.requests)
    assert log.status == "success" and log.samples is not None
    asked = [e.model for e in log.samples[0].events if e.event == "model"]
    assert asked.count("openai-api/local/m") == served > 0
    assert asked.count("mockllm/model") > 0
    assert set(asked) == {"openai-api/local/m", "mockllm/model"}


def test_a_server_without_response_schemas_is_asked_in_plain_text_without_hanging(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """llama-cpp-python answers a ``json_schema`` response format with 500, which inspect would
    retry for ever: the schema is tried once without retries, then the model is asked in plain
    text (counted), and the game plays on."""
    with ScriptedChatServer(scripted, reject_formats={"json_schema": 500}) as server:
        monkeypatch.setenv("NOSCHEMA_API_KEY", "none")
        monkeypatch.setenv("NOSCHEMA_BASE_URL", server.base_url)
        task = game_task("hanabi", agents="watson,symbolic")
        model = get_model("openai-api/noschema/m")
        (log,) = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none")
        kinds = [r.format_type for r in server.requests]
    assert log.status == "success" and log.samples is not None
    tried = kinds.index(None)  # the openai client's own two retries, then plain text
    assert kinds[:tried] == ["json_schema"] * tried and tried <= 3
    assert set(kinds[tried:]) == {None}
    value = log.samples[0].scores[SCORER].value if log.samples[0].scores else {}
    assert isinstance(value, dict) and value["fallbacks"] == 0


def test_a_failing_model_errors_the_sample_as_a_failing_endpoint_errors_a_game(
    tmp_path: Path,
) -> None:
    def broken(*_: Any) -> ModelOutput:
        raise RuntimeError("the model is down")

    model = get_model("mockllm/broken", custom_outputs=broken)
    task = game_task("hanabi")
    (log,) = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "error" and log.error is not None
    assert "chat endpoint mockllm/broken failed" in log.error.message
    assert "the model is down" in log.error.message
