"""What the viewer shows of one game: its steps, each seat's knowledge beside the ideal
reasoner's, and the audit record, as data a page renders (``benchmarks.viewer``).

A game's ``GameEntry.viewer`` names a function from a log to its ``KnowledgePanel`` changes; every
game gets the steps (one per logged event, with the line it stands on), the audit record and the
recorded LLM calls without writing anything. Grids are compact: a row is a string of one-letter
codes, and the legend says what each code means and how it is coloured, so a 30-round game stays
small. A panel is given only at the steps where it changes; the page shows the latest one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from games.core.audit import AuditRecord
from games.core.log import GameLog

Tone = Literal[
    "", "entailed", "contradicted", "undetermined", "unknown", "sound", "lucky", "wrong", "missed"
]
"""How a cell, a row or a deduction is coloured: by claim status, by judgement, or ``missed``
(what the ideal reasoner knew and the seat did not state)."""


class LegendEntry(BaseModel):
    """What a grid code shows: a symbol, its colour and a sentence for the tooltip."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    symbol: str
    tone: Tone
    meaning: str


class Grid(BaseModel):
    """A table of codes: ``rows[i]`` has one code per column, each a key of ``legend``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    columns: list[str]
    labels: list[str]
    rows: list[str]
    legend: dict[str, LegendEntry]


class KnowledgePanel(BaseModel):
    """One seat's knowledge from step ``step`` on: a grid and/or lines of text."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    step: int = Field(ge=0)
    seat: int = Field(ge=0)
    title: str
    grid: Grid | None = None
    lines: list[str] = Field(default_factory=list)


class Step(BaseModel):
    """One logged event: its line in the log, who acted (None for the game itself), and what
    happened in a line."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    line: int
    actor: int | None
    text: str


class Call(BaseModel):
    """One recorded LLM call of a seat: its index in the seat's recording, what was sent, what
    came back, what it cost; ``follows`` is the seat's call whose reply this one's prompt sends
    back (a re-prompt after a malformed answer, or a revision)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    index: int | None = None
    follows: int | None = None
    prompt: str
    reply: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float | None = None


class GameView(BaseModel):
    """Everything the page shows of one game."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: str
    source: str
    seed: int | None
    seats: list[str]
    steps: list[Step]
    panels: list[KnowledgePanel]
    record: AuditRecord | None
    calls: list[Call] = Field(default_factory=list)
    note: str = ""


class ViewParts(BaseModel):
    """What a game's own viewer adds: better step texts (one per event), knowledge panels, and
    the audit record when the viewer computed it on the way (else the game's auditor is asked)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    texts: list[str] | None = None
    panels: list[KnowledgePanel] = Field(default_factory=list)
    record: AuditRecord | None = None


def game_view(
    game: str,
    log: GameLog[Any],
    record: AuditRecord | None,
    parts: ViewParts | None = None,
    calls: list[Call] | None = None,
    note: str = "",
    *,
    with_steps: bool = True,
) -> GameView:
    """The view of one game: the steps of its log (texts from ``parts`` where the game gives
    them; left out without ``with_steps``, for a caller that reads them one at a time with
    ``view_steps``), its panels, its audit record and its recorded calls."""
    texts = parts.texts if parts is not None else None
    if texts is not None and len(texts) != len(log.events):
        raise ValueError(f"{game} viewer: {len(texts)} texts for {len(log.events)} events")
    return GameView(
        game=game,
        source=str(log.path),
        seed=log.header.seed,
        seats=[f"{s.name} ({s.agent})" for s in log.header.seats],
        steps=list(view_steps(log, parts)) if with_steps else [],
        panels=parts.panels if parts is not None else [],
        record=record,
        calls=calls or [],
        note=note,
    )


def view_steps(log: GameLog[Any], parts: ViewParts | None = None) -> Iterator[Step]:
    """One step per logged event, made as it is asked for (a long log's events are read from
    its file one at a time): the text ``parts`` gives for it, else the event's type and its
    fields in a line, and the seat it names as the actor."""
    texts = parts.texts if parts is not None else None
    for index, event in enumerate(log.events):
        fields = event.model_dump(mode="json", exclude={"type", "seq"})
        actor = fields.get("seat", fields.get("player"))
        if texts is not None:
            text = texts[index]
        else:
            said = [f"{k}={_short(v)}" for k, v in fields.items() if v not in (None, [], {}, "")]
            text = f"{getattr(event, 'type', type(event).__name__)}: " + ", ".join(said)
        yield Step(
            line=log.line_of(index), actor=actor if isinstance(actor, int) else None, text=text
        )


def _short(value: Any, limit: int = 80) -> str:
    text = value if isinstance(value, str) else str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
