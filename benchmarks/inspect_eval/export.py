"""A gumshoe run directory written as an inspect eval log: one sample per game, the audit as its
score, the recorded LLM calls as its messages and model events, so ``inspect view`` and inspect's
log readers open runs played outside inspect."""

from __future__ import annotations

import math
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from inspect_ai.event import ModelEvent
from inspect_ai.log import (
    EvalConfig,
    EvalDataset,
    EvalLog,
    EvalMetric,
    EvalResults,
    EvalSample,
    EvalScore,
    EvalSpec,
    EvalStats,
    HeadlineMetric,
    write_eval_log,
)
from inspect_ai.model import (
    ChatMessage as InspectMessage,
)
from inspect_ai.model import (
    ChatMessageAssistant,
    GenerateConfig,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.scorer import Score

from benchmarks.inspect_eval.client import inspect_message
from benchmarks.inspect_eval.scores import SCORER, audit_score, headline, score_keys
from benchmarks.inspect_eval.tasks import LOG_KEY, sample_input, task_name
from benchmarks.viewer.game import detect_game
from games.core.recordings import CALLS_DIR, RecordingMissing, recorded_seat_calls
from games.core.registry import get_game
from games.core.runlog import RunDir
from reasoning.llm import RecordedCall
from reasoning.outfile import writing_to
from reasoning.textfile import read_user_text

NO_MODEL = "none/none"
"""The model of a run that asked none, as inspect names it."""


def recorded_calls(run: Path, game_id: str, seats: int) -> list[tuple[int, RecordedCall]]:
    """Every recorded LLM call of game ``game_id`` in ``run``, seat by seat, with its seat (none
    for a seat that asked no model)."""
    calls: list[tuple[int, RecordedCall]] = []
    for seat in range(seats):
        try:
            calls += [(seat, call) for call in recorded_seat_calls(run, game_id, seat)]
        except RecordingMissing:
            continue
    return calls


def _output(call: RecordedCall) -> ModelOutput:
    if call.reply is None:
        detail = call.failure.detail if call.failure is not None else "no reply"
        return ModelOutput.from_content(model=call.model, content="", error=detail)
    reply = call.reply
    output = ModelOutput.from_content(
        model=reply.model,
        content=reply.content,
        stop_reason="max_tokens" if reply.cut_off else "stop",
    )
    output.usage = ModelUsage(
        input_tokens=reply.prompt_tokens,
        output_tokens=reply.completion_tokens,
        total_tokens=reply.prompt_tokens + reply.completion_tokens,
    )
    output.time = reply.latency_s
    return output


def call_messages(seat: int, call: RecordedCall) -> list[InspectMessage]:
    """One recorded call as inspect messages: what was sent, then the reply, each marked with
    the seat and the call's index in that seat's recording."""
    marks = {"seat": seat, "call": call.index}
    sent = [
        inspect_message(m).model_copy(update={"metadata": {**marks, "sent": True}})
        for m in call.messages
    ]
    text = call.reply.content if call.reply is not None else ""
    return [*sent, ChatMessageAssistant(content=text, source="generate", metadata=marks)]


def call_event(call: RecordedCall) -> ModelEvent:
    """One recorded call as the model event inspect's transcript shows."""
    return ModelEvent(
        model=call.model,
        input=[inspect_message(m) for m in call.messages],
        tools=[],
        tool_choice="none",
        config=GenerateConfig(seed=call.seed),
        output=_output(call),
        error=call.failure.detail if call.failure is not None else None,
    )


def call_usage(calls: Sequence[tuple[int, RecordedCall]]) -> dict[str, ModelUsage]:
    """The tokens of recorded calls, per model that answered them."""
    usage: dict[str, ModelUsage] = {}
    for _, call in calls:
        if call.reply is None:
            continue
        reply = call.reply
        spent = ModelUsage(
            input_tokens=reply.prompt_tokens,
            output_tokens=reply.completion_tokens,
            total_tokens=reply.prompt_tokens + reply.completion_tokens,
        )
        usage[reply.model] = usage[reply.model] + spent if reply.model in usage else spent
    return usage


def call_times(
    calls: Sequence[tuple[int, RecordedCall]],
) -> tuple[datetime | None, datetime | None, float]:
    """When the first timed call was asked and the last one answered (None where no call was
    timed: recordings made before calls were), and the seconds spent waiting for replies."""
    spans = [
        (call.started_at, call.started_at + timedelta(seconds=_latency(call)))
        for _, call in calls
        if call.started_at is not None
    ]
    waited = sum(_latency(call) for _, call in calls)
    if not spans:
        return None, None, waited
    return min(a for a, _ in spans), max(b for _, b in spans), waited


def _latency(call: RecordedCall) -> float:
    return call.reply.latency_s if call.reply is not None else 0.0


def game_sample(run: Path, log_path: Path) -> tuple[EvalSample, str]:
    """The sample of one game log of ``run`` and the model its calls were made to ("" when it
    made none): the game, its score, the recorded calls as messages and model events, their
    tokens, and when the game was played (from the calls' times; the log's own time as its end
    where no call was timed). ValueError (or LogError) when the log cannot be read or
    audited."""
    entry = detect_game(log_path, run)
    log = entry.read_log(log_path, inside=run)
    record = entry.audit(log)
    seats = [s.agent for s in log.header.seats]
    seed = log.header.seed
    calls = recorded_calls(run, log_path.stem, len(seats))
    messages = [m for seat, call in calls for m in call_messages(seat, call)]
    score: Score = audit_score(entry, log, record)
    game = entry.info.name
    started, answered, waited = call_times(calls)
    completed = answered or _file_time(log_path)
    sample = EvalSample(
        id=log_path.stem,
        epoch=1,
        input=sample_input(game, seed, seats),
        target="",
        messages=messages,
        output=ModelOutput.from_content(model="", content=score.answer or ""),
        scores={SCORER: score},
        metadata={"game": game, "seed": seed, "agents": seats},
        store={LOG_KEY: read_user_text(log_path, allow_bom=False, inside=run)},
        events=[call_event(call) for _, call in calls],
        model_usage=call_usage(calls),
        started_at=_stamp(started),
        completed_at=_stamp(completed),
        total_time=(answered - started).total_seconds() if started and answered else None,
        working_time=waited if calls else None,
    )
    return sample, next((call.model for _, call in calls if call.model), "")


def results(samples: list[EvalSample], keys: Sequence[str]) -> EvalResults:
    """Each score key's mean over the samples where it is a number, as the tasks' metrics give
    it."""
    values = [v for s in samples if s.scores and isinstance(v := s.scores[SCORER].value, dict)]
    scores = []
    for key in keys:
        column = [float(v[key]) for v in values if key in v]
        given = [x for x in column if not math.isnan(x)]
        mean = sum(given) / len(given) if given else math.nan
        scores.append(
            EvalScore(
                name=key,
                scorer=SCORER,
                scored_samples=len(given),
                unscored_samples=len(values) - len(given),
                metrics={"mean": EvalMetric(name="mean", value=mean)},
            )
        )
    return EvalResults(
        total_samples=len(samples),
        completed_samples=len(samples),
        scores=scores,
        headline=HeadlineMetric(scorer=SCORER, score=keys[0], metric="mean"),
    )


def run_eval_log(run: Path) -> EvalLog:
    """The eval log of run directory ``run`` (ValueError naming the folder when it is not a run
    or holds no game; ValueError or LogError naming a log that cannot be read). Its task is
    ``gumshoe/<game>``, as a live task's is; its model is the one the recorded calls were made
    to (inspect's ``none/none`` for a run without any); its usage adds up the recorded tokens;
    it started with the run directory and completed with its last game."""
    games_dir = run / RunDir.GAMES_DIR
    if not games_dir.is_dir():
        raise ValueError(f"{run}: not a run directory (no {RunDir.GAMES_DIR}/ folder)")
    logs = sorted(games_dir.glob("*.jsonl"))
    if not logs:
        raise ValueError(f"{run}: the run holds no game logs under {RunDir.GAMES_DIR}/")
    made = [game_sample(run, path) for path in logs]
    samples = [sample for sample, _ in made]
    model = next((m for _, m in made if m), NO_MODEL)
    games = sorted({str((s.metadata or {}).get("game")) for s in samples})
    task = task_name(games[0]) if len(games) == 1 else "gumshoe/run"
    keys = list(dict.fromkeys(k for g in games for k in score_keys(get_game(g))))
    starts = [datetime.fromisoformat(s.started_at) for s in samples if s.started_at]
    ends = [datetime.fromisoformat(s.completed_at) for s in samples if s.completed_at]
    created = min([*starts, _file_time(run)])
    usage: dict[str, ModelUsage] = {}
    for sample in samples:
        for name, spent in sample.model_usage.items():
            usage[name] = usage[name] + spent if name in usage else spent
    spec = EvalSpec(
        eval_id=uuid.uuid4().hex,
        run_id=uuid.uuid4().hex,
        task_id=uuid.uuid4().hex,
        created=_stamp(created) or "",
        task=task,
        task_registry_name=task,
        dataset=EvalDataset(name=run.name, location=str(run), samples=len(samples)),
        model=model,
        config=EvalConfig(),
        metadata=_run_metadata(run),
        headline_metric=headline(get_game(games[0])),
    )
    stats = EvalStats(
        started_at=_stamp(created) or "",
        completed_at=_stamp(max(ends, default=created)) or "",
        model_usage=usage,
    )
    return EvalLog(
        status="success", eval=spec, stats=stats, results=results(samples, keys), samples=samples
    )


def _file_time(path: Path) -> datetime:
    """When ``path`` was last written, in UTC."""
    return datetime.fromtimestamp(path.stat().st_mtime, UTC)


def _stamp(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(UTC).isoformat(timespec="seconds")


def _run_metadata(run: Path) -> dict[str, Any]:
    calls = run / CALLS_DIR
    return {"gumshoe_run": str(run), "recorded_calls": calls.is_dir()}


def export_run(run: Path, out: Path | None = None) -> Path:
    """Write ``run`` as an inspect eval log to ``out`` (default: ``RUN.eval`` beside the run;
    ``.json`` for inspect's JSON format) and return where."""
    target = out if out is not None else run.with_name(run.name + ".eval")
    log = run_eval_log(run)
    inputs = sorted((run / RunDir.GAMES_DIR).glob("*.jsonl"))
    with writing_to(target, inputs=inputs) as made:
        write_eval_log(log, str(made))
    return target
