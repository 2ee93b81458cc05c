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

from formalize.reading.reading import Stance
from games.core.audit import AuditRecord
from games.core.log import GameLog

Tone = Literal[
    "",
    "entailed",
    "contradicted",
    "undetermined",
    "unknown",
    "sound",
    "lucky",
    "wrong",
    "missed",
    "fact",
]
"""How a cell, a row, a line or a deduction is coloured: by claim status, by judgement,
``missed`` (what the ideal reasoner knew and the seat did not state) or ``fact`` (a sentence
that carries facts)."""


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


class Segment(BaseModel):
    """A stretch of a text: in a document, ``facts`` counts the facts it carries (0: narration);
    in an answer in words, ``stance`` is how the answer takes these words (None: words no slot
    was read from); ``note`` says which facts, or which slots and options."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    facts: int = Field(default=0, ge=0)
    stance: Stance | None = None
    note: str = ""


class Line(BaseModel):
    """A line of words, coloured by ``tone``; ``formula`` is what it states in logic, shown on
    demand; ``segments``, when given, are ``text`` cut into stretches, some marked (an answer
    in words with the words that decided its reading)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    tone: Tone = ""
    formula: str | None = None
    segments: list[Segment] = Field(default_factory=list)


class Cell(BaseModel):
    """A table cell in words, coloured by ``tone``, with ``note`` as its tooltip."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    tone: Tone = ""
    note: str = ""


class Table(BaseModel):
    """A table in words: ``rows[i]`` is the row labelled ``labels[i]``, one cell per column."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    caption: str
    columns: list[str]
    labels: list[str]
    rows: list[list[Cell]]


class Card(BaseModel):
    """A playing card as the page draws it: its ``face`` (empty when its holder cannot see it),
    the ``suit`` colour it is painted in and its ``rank``, the colour and rank its holder was
    told (clue marks), and ``note``: what its holder knows of it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    face: str
    suit: str | None = None
    rank: str | None = None
    clue_suit: str | None = None
    clue_rank: str | None = None
    note: str = ""


class CardRow(BaseModel):
    """A labelled row of cards (a hand, the fireworks, the discards)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: str
    cards: list[Card]
    note: str = ""


class Document(BaseModel):
    """A text a seat reads (a case's introduction, a location's card), in segments whose facts
    are marked."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    title: str
    segments: list[Segment]


class KnowledgePanel(BaseModel):
    """One seat's knowledge from step ``step`` on (``seat`` None: what every seat sees, such as
    the table): a grid, a table, rows of cards, the documents read so far (ids of
    ``GameView.documents``, the one being read last) and/or lines of words."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    step: int = Field(ge=0)
    seat: int | None = Field(ge=0)
    title: str
    grid: Grid | None = None
    table: Table | None = None
    cards: list[CardRow] = Field(default_factory=list)
    documents: list[str] = Field(default_factory=list)
    lines: list[Line] = Field(default_factory=list)


class Step(BaseModel):
    """One logged event: its line in the log, who acted (None for the game itself), what
    happened in words (naming the actor), and the formula it stated, shown on demand."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    line: int
    actor: int | None
    text: str
    formula: str | None = None


class Message(BaseModel):
    """One message of a prompt: who speaks (system, user, assistant) and what it says."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: str
    content: str


class Call(BaseModel):
    """One recorded LLM call of a seat: its index in the seat's recording, the messages sent,
    what came back, what it cost; ``follows`` is the seat's call whose reply this one's prompt
    sends back (a re-prompt after a malformed answer, or a revision)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    index: int | None = None
    follows: int | None = None
    messages: list[Message]
    reply: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float | None = None


class Outcome(BaseModel):
    """How a game ended: finished or errored, why (in words), each seat's return and rank, and
    the seats that won (none when every seat ranks alike, as in a cooperative game)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    status: Literal["finished", "errored", "unfinished"]
    reason: str
    returns: list[float]
    ranks: list[int]
    winners: list[int]


class GameView(BaseModel):
    """Everything the page shows of one game; ``claims`` words each audit row's claim (the
    formula on demand)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: str
    title: str
    source: str
    seed: int | None
    seats: list[str]
    agents: list[str]
    outcome: Outcome
    steps: list[Step]
    panels: list[KnowledgePanel]
    record: AuditRecord | None
    claims: list[Line] = Field(default_factory=list)
    documents: list[Document] = Field(default_factory=list)
    calls: list[Call] = Field(default_factory=list)
    note: str = ""


class ViewParts(BaseModel):
    """What a game's own viewer adds: step texts in words (one per event) and the formulas they
    state, knowledge panels, the documents its seats read, each audit row's claim in words, a
    title, and the audit record when the viewer computed it on the way (else the game's auditor
    is asked)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    texts: list[str] | None = None
    formulas: list[str | None] | None = None
    panels: list[KnowledgePanel] = Field(default_factory=list)
    documents: list[Document] = Field(default_factory=list)
    claims: list[Line] | None = None
    title: str | None = None
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
    """The view of one game: the steps of its log (texts and formulas from ``parts`` where the
    game gives them; left out without ``with_steps``, for a caller that reads them one at a
    time with ``view_steps``), its outcome, panels, documents, audit record with each claim in
    words, and its recorded calls."""
    parts = parts or ViewParts()
    events = len(log.events)
    for name, given in (("texts", parts.texts), ("formulas", parts.formulas)):
        if given is not None and len(given) != events:
            raise ValueError(f"{game} viewer: {len(given)} {name} for {events} events")
    rows = record.rows if record is not None else []
    claims = parts.claims if parts.claims is not None else [Line(text=r.claim) for r in rows]
    if len(claims) != len(rows):
        raise ValueError(f"{game} viewer: {len(claims)} claims in words for {len(rows)} rows")
    seats = [f"{s.name} ({s.agent})" for s in log.header.seats]
    return GameView(
        game=game,
        title=parts.title or f"{game} seed {log.header.seed}",
        source=str(log.path),
        seed=log.header.seed,
        seats=seats,
        agents=[s.agent for s in log.header.seats],
        outcome=outcome(log),
        steps=list(view_steps(log, parts)) if with_steps else [],
        panels=parts.panels,
        record=record,
        claims=claims,
        documents=parts.documents,
        calls=calls or [],
        note=note,
    )


def outcome(log: GameLog[Any]) -> Outcome:
    """How ``log``'s game ended, from its end line (``unfinished`` without one); the winners are
    the seats ranked first when the ranks tell the seats apart."""
    end = log.end
    if end is None:
        return Outcome(
            status="unfinished",
            reason="the log stops before the end",
            returns=[],
            ranks=[],
            winners=[],
        )
    ranks = list(end.ranks)
    winners = [seat for seat, rank in enumerate(ranks) if rank == 1] if len(set(ranks)) > 1 else []
    reason = end.reason.replace("_", " ")
    if end.status == "errored" and end.error:
        reason = f"{reason}: {end.error}"
    return Outcome(
        status=end.status, reason=reason, returns=list(end.returns), ranks=ranks, winners=winners
    )


def view_steps(log: GameLog[Any], parts: ViewParts | None = None) -> Iterator[Step]:
    """One step per logged event, in words, made as it is asked for (a long log's events are
    read from its file one at a time): the text and formula ``parts`` gives for it, else what
    kind of event it is, who acted, and its plain fields (a game's own viewer describes its
    events better), with the seat it names as the actor."""
    parts = parts or ViewParts()
    names = [s.name for s in log.header.seats]
    for index, event in enumerate(log.events):
        fields = event.model_dump(mode="json", exclude={"type", "seq"})
        actor = fields.pop("seat", fields.pop("player", None))
        actor = actor if isinstance(actor, int) and 0 <= actor < len(names) else None
        if parts.texts is not None:
            text = parts.texts[index]
        else:
            kind = str(getattr(event, "type", type(event).__name__)).replace("_", " ")
            said = [
                f"{key.replace('_', ' ')} {value}"
                for key, value in fields.items()
                if isinstance(value, str | int) and not isinstance(value, bool) and value != ""
            ]
            who = f"{names[actor]}: " if actor is not None else ""
            text = who + kind + (f" ({', '.join(said)})" if said else "")
        formula = parts.formulas[index] if parts.formulas is not None else None
        yield Step(line=log.line_of(index), actor=actor, text=text, formula=formula)
