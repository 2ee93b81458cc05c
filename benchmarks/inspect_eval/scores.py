"""A game's audit as an inspect score: how the game ended (the game's own outcome figures,
headline first), then the audit's figures for the seats the model played."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from inspect_ai.log import HeadlineMetric
from inspect_ai.scorer import Metric, Score, mean

from games.core.audit import AuditRecord, SeatSummary, Show, render_record
from games.core.log import GameLog
from games.core.registry import GameEntry

AUDIT_KEYS = ("stated", "entailed", "sound", "lucky", "wrong", "recall", "fallbacks")
"""The audit's keys in every gumshoe score, after the game's outcome keys."""

SCORER = "gumshoe_audit"
"""The name the gumshoe scores are given under, live and exported."""

NONE = float("nan")
"""The value of a figure a game or log does not have: inspect leaves NaN out of its metrics."""


def score_keys(entry: GameEntry[Any, Any, Any, Any]) -> tuple[str, ...]:
    """The keys of a score of ``entry``'s game, in order: its outcome (win, rank and return, or
    a cooperative game's own: Hanabi's score, perfect games and strikes), then the audit's."""
    return (*entry.outcome_keys, *AUDIT_KEYS)


def headline(entry: GameEntry[Any, Any, Any, Any]) -> HeadlineMetric:
    """The figure that sums up an evaluation of ``entry``'s game: the mean of its first outcome
    key (how often the model's seat won; Hanabi's score)."""
    return HeadlineMetric(scorer=SCORER, score=entry.outcome_keys[0], metric="mean")


def score_metrics(keys: Sequence[str]) -> dict[str, list[Metric]]:
    """One mean per score key, over the samples where it is a number (NaN marks it unscored)."""
    return {key: [mean()] for key in keys}


def model_seats(entry: GameEntry[Any, Any, Any, Any], log: GameLog[Any]) -> list[int]:
    """The seats an LLM agent played (by the agent names in the log's header); every seat when
    none did, so a run of symbolic agents is scored too."""
    seats = log.header.seats if log.header is not None else []
    chosen = [i for i, s in enumerate(seats) if _needs_llm(entry, s.agent)]
    return chosen or list(range(len(seats)))


def _needs_llm(entry: GameEntry[Any, Any, Any, Any], agent: str) -> bool:
    try:
        return entry.agents.get(agent).needs_llm
    except ValueError:
        return False


def _total(summaries: Sequence[SeatSummary], key: str) -> float:
    values = [getattr(s, key) for s in summaries]
    return NONE if any(v is None for v in values) else float(sum(values))


def audit_value(
    entry: GameEntry[Any, Any, Any, Any],
    log: GameLog[Any],
    record: AuditRecord,
    fallbacks: int | None,
) -> dict[str, float]:
    """The score of one game for its model seats: the game's outcome (``GameEntry.outcome``),
    their claims stated / entailed / sound / lucky / wrong, recall (entailed facts stated over
    those there were, where the game defines it) and the counted fallbacks; ``NONE`` where a
    figure is not there (an unfinished game, no truth in the log, no recall in the game,
    fallbacks of a run read back from its logs)."""
    seats = model_seats(entry, log)
    summaries = [s for s in record.seats if s.seat in seats]
    outcome = entry.outcome(log, seats)
    recall_entailed = _total(summaries, "recall_entailed")
    recall_stated = _total(summaries, "recall_stated")
    audit = {
        "stated": float(sum(s.stated for s in summaries)),
        "entailed": float(sum(s.entailed for s in summaries)),
        "sound": _total(summaries, "sound"),
        "lucky": _total(summaries, "lucky"),
        "wrong": _total(summaries, "wrong"),
        "recall": recall_stated / recall_entailed if recall_entailed > 0 else NONE,
        "fallbacks": NONE if fallbacks is None else float(fallbacks),
    }
    return {key: outcome.get(key, NONE) for key in entry.outcome_keys} | audit


def audit_score(
    entry: GameEntry[Any, Any, Any, Any],
    log: GameLog[Any],
    record: AuditRecord,
    fallbacks: int | None = None,
) -> Score:
    """The inspect score of one audited game: ``audit_value`` as the value, how the game ended
    as the answer (the end's status and reason, then the outcome figures: a Hanabi game lost to
    strikes reads ``finished: out_of_lives; score 4, perfect 0, strikes 3``), the audit's summary
    table as the explanation and the whole record as metadata."""
    value = audit_value(entry, log, record, fallbacks)
    end = log.end
    answer = f"{end.status}: {end.reason}" if end is not None else "no end event"
    figures = [f"{key} {value[key]:g}" for key in entry.outcome_keys if not math.isnan(value[key])]
    if figures:
        answer += "; " + ", ".join(figures)
    return Score(
        value=value,
        answer=answer,
        explanation="\n".join(render_record(record, Show.WRONG)),
        metadata={"model_seats": model_seats(entry, log), "audit": record.model_dump(mode="json")},
    )
