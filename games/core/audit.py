"""The one audit record every game's audit yields, and its one plain-text rendering.

A row is one stated claim in ``reasoning``'s vocabulary: its ``ClaimStatus`` against what its
author knew, its ``Correctness`` against the hidden truth, and the ``Judgement`` (sound, lucky,
wrong or unjudged) the two give; ``where`` says where in the game it was made and ``detail``
holds the game's own extra columns (never a renamed verdict). The per-seat summary has the same
keys in every game; ``figures`` holds a game's log-level figures that have no per-claim form.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from formalize.reading.reading import Reading
from games.core.llm_call import LLMCallRef
from games.core.log import GameLog, SeatInfo
from reasoning.claims import ClaimStatus, Correctness, Judgement, judge
from reasoning.outfile import json_text


class Show(StrEnum):
    """Which rows the rendering lists under the summary."""

    ALL = "all"
    WRONG = "wrong"
    NONE = "none"


Cell = str | int | float | bool | None
"""A value of a game's extra column."""


class Where(BaseModel):
    """Where a claim was made: its log line and whichever of round and turn the game counts
    (the detective counts stages as rounds)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    line: int | None = None
    round: int | None = None
    turn: int | None = None


class AuditRow(LLMCallRef):
    """One stated claim of seat ``seat``, judged; ``repeat`` marks a claim its author stated
    before (listed, not counted); ``call`` names the recorded LLM call it came from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int = Field(ge=0)
    where: Where
    claim: str
    status: ClaimStatus
    correctness: Correctness | None
    judgement: Judgement
    repeat: bool = False
    detail: dict[str, Cell] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _judged(self) -> AuditRow:
        if self.judgement != judge(self.status, self.correctness):
            raise ValueError(
                f"judgement: {self.status.value} and {self.correctness} make "
                f"{judge(self.status, self.correctness)}, not {self.judgement}"
            )
        return self


def audit_row(
    seat: int,
    where: Where,
    claim: str,
    status: ClaimStatus,
    correctness: Correctness | None,
    *,
    repeat: bool = False,
    detail: dict[str, Cell] | None = None,
    call: int | None = None,
) -> AuditRow:
    """A row whose judgement is ``reasoning.verifier.judge`` of its status and correctness."""
    return AuditRow(
        seat=seat,
        where=where,
        claim=claim,
        status=status,
        correctness=correctness,
        judgement=judge(status, correctness),
        repeat=repeat,
        detail=detail or {},
        call=call,
    )


class ReadAnswer(LLMCallRef):
    """An answer a seat gave in words and how it was read (``formalize.reading``): where it was
    given, the question it answers, its text and its reading (per slot the outcome, the option,
    and the character spans of ``text`` that decided it); ``call`` names the recorded LLM call
    the answer came from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int = Field(ge=0)
    where: Where
    question: str
    text: str
    reading: Reading


class SeatSummary(BaseModel):
    """One seat's counts over its distinct claims; the truth-based counts are None when the log
    does not hold the truth, the recall figures None where the game defines no recall."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int = Field(ge=0)
    name: str
    agent: str
    stated: int
    entailed: int
    contradicted: int
    undetermined: int
    unknown: int
    true: int | None
    false: int | None
    sound: int | None
    lucky: int | None
    wrong: int | None
    unjudged: int
    recall_stated: int | None
    recall_entailed: int | None
    recall: float | None


def summarise(
    seat: int,
    name: str,
    agent: str,
    rows: Iterable[AuditRow],
    *,
    has_truth: bool,
    recall: tuple[int, int] | None = None,
) -> SeatSummary:
    """The summary of ``seat`` over its rows that are not repeats; ``recall`` is (entailed facts
    it stated, entailed facts it could have stated) where the game defines it."""
    own = [r for r in rows if r.seat == seat and not r.repeat]
    statuses = [r.status for r in own]
    kinds = [r.judgement for r in own]

    def truth(count: int) -> int | None:
        return count if has_truth else None

    stated, entailed = recall if recall is not None else (None, None)
    return SeatSummary(
        seat=seat,
        name=name,
        agent=agent,
        stated=len(own),
        entailed=statuses.count(ClaimStatus.ENTAILED),
        contradicted=statuses.count(ClaimStatus.CONTRADICTED),
        undetermined=statuses.count(ClaimStatus.UNDETERMINED),
        unknown=statuses.count(ClaimStatus.UNKNOWN),
        true=truth(sum(r.correctness is Correctness.TRUE for r in own)),
        false=truth(sum(r.correctness is Correctness.FALSE for r in own)),
        sound=truth(kinds.count("sound")),
        lucky=truth(kinds.count("lucky")),
        wrong=truth(kinds.count("wrong")),
        unjudged=kinds.count("unjudged"),
        recall_stated=stated,
        recall_entailed=entailed,
        recall=stated / entailed if stated is not None and entailed else None,
    )


class AuditRecord(BaseModel):
    """The audit of one game log: every claim's row, each seat's summary, the game's figures,
    and the answers given in words with their readings (for games whose seats answer so).

    ``has_truth``: the log holds the hidden truth the claims are judged against; ``complete``:
    the log reaches the game's end.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: str
    source: str | None
    seed: int | None
    has_truth: bool
    complete: bool
    seats: list[SeatSummary]
    rows: list[AuditRow]
    figures: dict[str, Any] = Field(default_factory=dict)
    readings: list[ReadAnswer] = Field(default_factory=list)

    def for_seat(self, seat: int) -> AuditRecord:
        """The record cut to one seat's summary and rows; ValueError names the audited seats."""
        if seat not in {s.seat for s in self.seats}:
            audited = ", ".join(str(s.seat) for s in self.seats) or "none"
            raise ValueError(f"--seat {seat}: not an audited seat (audited: {audited})")
        return self.model_copy(
            update={
                "seats": [s for s in self.seats if s.seat == seat],
                "rows": [r for r in self.rows if r.seat == seat],
            }
        )


def reaches_end(log: GameLog[Any], terminal_type: str = "game_end") -> bool:
    """Whether ``log`` goes on to the game's own end event (else the game is incomplete)."""
    return bool(log.events) and getattr(log.events[-1], "type", None) == terminal_type


def judged_record(
    game: str,
    log: GameLog[Any],
    seed: int | None,
    seats: Sequence[SeatInfo],
    rows: list[AuditRow],
    figures: dict[str, Any],
    recall: Mapping[int, tuple[int, int]] | None = None,
    readings: Sequence[ReadAnswer] = (),
) -> AuditRecord:
    """The record of a log that holds the truth its rows are judged against: a summary for every
    seat of ``seats`` (with its ``recall`` where given), complete when the log reaches its end;
    ``readings`` are the answers its seats gave in words."""
    recall = recall or {}
    return AuditRecord(
        game=game,
        source=str(log.path),
        seed=seed,
        has_truth=True,
        complete=reaches_end(log),
        seats=[
            summarise(i, s.name, s.agent, rows, has_truth=True, recall=recall.get(i))
            for i, s in enumerate(seats)
        ],
        rows=rows,
        figures=figures,
        readings=list(readings),
    )


COLUMNS: tuple[str, ...] = (
    "stated",
    "entailed",
    "contradicted",
    "undetermined",
    "unknown",
    "true",
    "false",
    "sound",
    "lucky",
    "wrong",
)
"""The counted columns of the summary table, in order."""


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    return lines


def _recall(summary: SeatSummary) -> str:
    if summary.recall_entailed is None:
        return "-"
    if summary.recall is None:
        return f"- (0/{summary.recall_entailed})"
    return f"{summary.recall:.2f} ({summary.recall_stated}/{summary.recall_entailed})"


def shown(row: AuditRow, show: Show) -> bool:
    """Whether ``show`` lists ``row``: all rows, or the wrong ones (false claims, and claims
    contradicted by what their author knew where no truth judges them)."""
    if show is Show.NONE:
        return False
    if show is Show.ALL:
        return True
    unjudged_contradiction = row.judgement == "unjudged" and row.status is ClaimStatus.CONTRADICTED
    return not row.repeat and (row.judgement == "wrong" or unjudged_contradiction)


def describe_row(row: AuditRow, who: str) -> str:
    """One row in a line: where, ``who`` (its seat's name), the claim, its status and
    correctness, the judgement and the game's extra columns."""
    where = [f"{k} {v}" for k, v in row.where.model_dump().items() if v is not None]
    verdict = row.status.value + (f", {row.correctness.value}" if row.correctness else "")
    extra = "".join(f"; {k} {v}" for k, v in row.detail.items() if v is not None)
    repeat = " (repeat)" if row.repeat else ""
    return (
        f"{' '.join(where)}: {who} states {row.claim!r}: {verdict} -> {row.judgement}"
        f"{repeat}{extra}"
    )


def _shown(figure: Any) -> Any:
    """A figure as the text shows it: numbers to three places (the JSON keeps them whole)."""
    if isinstance(figure, float):
        return round(figure, 3)
    if isinstance(figure, dict):
        return {key: _shown(value) for key, value in figure.items()}
    if isinstance(figure, list | tuple):
        return [_shown(value) for value in figure]
    return figure


def render_record(record: AuditRecord, show: Show = Show.WRONG) -> list[str]:
    """The record in plain text: a heading, the per-seat table, the game's figures, then the
    rows ``show`` asks for."""
    head = f"{record.game} audit{' of ' + record.source if record.source else ''}"
    if not record.has_truth:
        head += " (the log holds no truth: entailment only)"
    if not record.complete:
        head += "; the game is incomplete: the log stops before its end"
    table = [
        [
            f"{s.seat} {s.name}",
            s.agent,
            *("-" if (v := getattr(s, c)) is None else str(v) for c in COLUMNS),
            _recall(s),
        ]
        for s in record.seats
    ]
    lines = [head, *_table(["seat", "agent", *COLUMNS, "recall"], table)]
    lines += [
        f"{key}: {json_text(_shown(value), indent=None).rstrip()}"
        for key, value in record.figures.items()
    ]
    names = {s.seat: s.name for s in record.seats}
    lines += [
        describe_row(r, names.get(r.seat, f"seat {r.seat}")) for r in record.rows if shown(r, show)
    ]
    return lines
