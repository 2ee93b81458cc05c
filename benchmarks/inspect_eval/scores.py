"""A game's audit as an inspect score: one figure per key for the seats the model played."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from inspect_ai.scorer import Score, mean

from games.core.audit import AuditRecord, SeatSummary, Show, render_record
from games.core.log import GameLog
from games.core.registry import GameEntry

SCORE_KEYS = (
    "win",
    "rank",
    "return",
    "stated",
    "entailed",
    "sound",
    "lucky",
    "wrong",
    "recall",
    "fallbacks",
)
"""The keys of every gumshoe score, in order."""


SCORE_METRICS = {key: [mean()] for key in SCORE_KEYS}
"""One mean per score key, over the samples where it is a number (NaN marks it unscored)."""

NONE = float("nan")
"""The value of a figure a game or log does not have: inspect leaves NaN out of its metrics."""


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
    """The score of one game for its model seats: won (rank 1 for any of them), best rank, mean
    return, their claims stated / entailed / sound / lucky / wrong, recall (entailed facts stated
    over those there were, where the game defines it) and the counted fallbacks; ``NONE`` where
    a figure is not there (no truth in the log, no recall in the game, fallbacks of a run read
    back from its logs)."""
    seats = model_seats(entry, log)
    summaries = [s for s in record.seats if s.seat in seats]
    end = log.end if log.end is not None and log.end.status == "finished" else None
    rank = float(min(end.ranks[i] for i in seats)) if end is not None and seats else NONE
    returns = [end.returns[i] for i in seats] if end is not None else []
    recall_entailed = _total(summaries, "recall_entailed")
    recall_stated = _total(summaries, "recall_stated")
    return {
        "win": NONE if math.isnan(rank) else float(rank == 1),
        "rank": rank,
        "return": sum(returns) / len(returns) if returns else NONE,
        "stated": float(sum(s.stated for s in summaries)),
        "entailed": float(sum(s.entailed for s in summaries)),
        "sound": _total(summaries, "sound"),
        "lucky": _total(summaries, "lucky"),
        "wrong": _total(summaries, "wrong"),
        "recall": recall_stated / recall_entailed if recall_entailed > 0 else NONE,
        "fallbacks": NONE if fallbacks is None else float(fallbacks),
    }


def audit_score(
    entry: GameEntry[Any, Any, Any, Any],
    log: GameLog[Any],
    record: AuditRecord,
    fallbacks: int | None = None,
) -> Score:
    """The inspect score of one audited game: ``audit_value`` as the value, the result as the
    answer, the audit's summary table as the explanation and the whole record as metadata."""
    value = audit_value(entry, log, record, fallbacks)
    end = log.end
    answer = f"{end.status}: {end.reason}" if end is not None else "no end event"
    return Score(
        value=value,
        answer=answer,
        explanation="\n".join(render_record(record, Show.WRONG)),
        metadata={"model_seats": model_seats(entry, log), "audit": record.model_dump(mode="json")},
    )
