"""How well answers in words are read: ``bench freetext`` runs each reader over a labelled set of
answers to generated detective cases (hand-written, with their true grades) and reports per kind
of answer and per reader: answers, decided (every slot's reading decided, so the answer gets an
exact grade), exact agreement with the true grade among the decided, over-credited and
under-credited answers (the reader's grade above / below the true one), unsure (unjudged), and
LLM calls per answer, with CPU and wall time.

Readers: ``offline`` (no endpoint), ``llm`` and ``combined`` (the LLM where the offline reader
is unsure) against the endpoint, or with ``--scripted`` against a local scripted chat server
that answers the reader's prompt by a keyword rule (the options whose words the answer
contains: one is asserted, more are ``several``), which exercises the LLM path and shows what
keyword matching does; it is a rule, not a model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, Protocol, TypeVar

import typer
from pydantic import BaseModel, ConfigDict, Field

from benchmarks.report import Timing, format_table, measure, write_json
from formalize.reading.reader import READER_KINDS, Reader, ReaderKind
from formalize.world.setting import Setting
from games.core.cli import EndpointOptions, fail, with_options
from games.core.errors import GAME_ERRORS
from games.detective.case import Question
from games.detective.grading import grade_answer
from games.detective.reading import make_reader, question_task, reading_grade
from reasoning.jsonpos import parse_model
from reasoning.llm import ChatClient, LLMSettings, make_client
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer, Step
from reasoning.textfile import UserFileError, read_user_text

LABELLED = Path(__file__).resolve().parent / "data" / "freetext" / "labelled.json"
"""The labelled set, shipped with the package (the tests read it too)."""

KINDS: tuple[str, ...] = (
    "plain",
    "negation",
    "list/hedge",
    "role/alias",
    "paraphrase",
    "partial",
    "misspelling",
    "unknown",
    "victim",
    "two values",
    "deny/doubt",
    "attribution",
    "witness",
    "reason",
    "comparative",
    "question",
    "everyday",
)
"""The kinds of answer the labelled set holds, in the table's order."""

COLUMNS = (
    "reader",
    "kind",
    "answers",
    "decided",
    "decided %",
    "exact %",
    "over",
    "under",
    "unsure",
    "calls/answer",
)
"""The table's columns."""


class LabelledCase(BaseModel):
    """A generated case as the set stores it: the seed and knobs it was generated with, its
    setting and its questions."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    seed: int
    knobs: dict[str, Any]
    title: str
    setting: Setting
    questions: list[Question]


Batch = Literal["tuning", "held-out", "adversarial", "fresh"]
"""Which batch an answer is in: the one the offline reader was tuned on; one written after and
measured as it came; one written later still to break the reader (predicates that deny or doubt,
someone else's belief, reported speech, witnesses, reasons, comparatives, questions back),
measured before the reader was rebuilt for it; or one written after that rebuild, in new words of
the same kinds, and measured as it came."""


class LabelledAnswer(BaseModel):
    """One answer: the case and question it answers, its kind, its batch, its text, its truth
    (per slot the option it asserts, None where it asserts none) and its true grade."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    case: str
    question: str
    kind: str
    batch: Batch
    text: str
    truth: dict[str, str | None]
    grade: int = Field(ge=0, le=3)


class LabelledSet(BaseModel):
    """The labelled set: the cases and the answers to them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    about: str
    cases: list[LabelledCase]
    answers: list[LabelledAnswer]

    def question(self, answer: LabelledAnswer) -> tuple[LabelledCase, Question]:
        """The case and question ``answer`` answers."""
        case = next(c for c in self.cases if c.name == answer.case)
        return case, next(q for q in case.questions if q.id == answer.question)


def load_labelled(path: Path) -> LabelledSet:
    """Read a labelled set (ValueError naming the file and what is wrong)."""
    try:
        text = read_user_text(path)
    except UserFileError as err:
        raise ValueError(str(err)) from None
    found = parse_model(text, LabelledSet, str(path), ValueError)
    for a in found.answers:
        if a.case not in {c.name for c in found.cases}:
            raise ValueError(f"{path}: answer {a.id} names an unknown case {a.case!r}")
        case = next(c for c in found.cases if c.name == a.case)
        q = next((q for q in case.questions if q.id == a.question), None)
        if q is None or set(a.truth) != {s.name for s in q.slots}:
            raise ValueError(f"{path}: answer {a.id}: its truth must name the question's slots")
        if grade_answer(q, a.truth).score != a.grade:
            raise ValueError(f"{path}: answer {a.id}: grade {a.grade} is not its truth's")
    return found


class Scored(BaseModel):
    """One answer read: the reader's grade (None: unjudged), the true grade, the LLM calls,
    and the reading."""

    model_config = ConfigDict(frozen=True)

    id: str
    kind: str
    grade: int | None
    truth: int
    calls: int
    reading: dict[str, Any]


def score(labelled: LabelledSet, reader_for: dict[str, Reader]) -> list[Scored]:
    """Every answer read by the reader of its case (``reader_for``: case name -> reader)."""
    out = []
    for answer in labelled.answers:
        case, question = labelled.question(answer)
        reading = reader_for[case.name].read(question_task(question, case.setting), answer.text)
        grade = reading_grade(question, reading)
        out.append(
            Scored(
                id=answer.id,
                kind=answer.kind,
                grade=grade,
                truth=answer.grade,
                calls=reading.calls,
                reading=reading.model_dump(),
            )
        )
    return out


def table_row(reader: str, kind: str, scored: Sequence[Scored]) -> dict[str, Any]:
    """One row of the table over ``scored``."""
    decided = [s for s in scored if s.grade is not None]
    exact = sum(s.grade == s.truth for s in decided)
    n = len(scored)
    return {
        "reader": reader,
        "kind": kind,
        "answers": n,
        "decided": len(decided),
        "decided %": 100.0 * len(decided) / n if n else 0.0,
        "exact %": 100.0 * exact / len(decided) if decided else 0.0,
        "over": sum(s.grade is not None and s.grade > s.truth for s in decided),
        "under": sum(s.grade is not None and s.grade < s.truth for s in decided),
        "unsure": n - len(decided),
        "calls/answer": sum(s.calls for s in scored) / n if n else 0.0,
    }


def table_rows(reader: str, scored: Sequence[Scored]) -> list[dict[str, Any]]:
    """The reader's rows: one per kind present, then ``all``."""
    return rows_per_kind(reader, scored, KINDS, table_row)


class Kinded(Protocol):
    """A scored item of a labelled set, counted in the row of its kind."""

    @property
    def kind(self) -> str:
        """The kind of item, a row of the table."""


ScoredItem = TypeVar("ScoredItem", bound=Kinded)


def rows_per_kind(
    reader: str,
    scored: Sequence[ScoredItem],
    order: Sequence[str],
    row: Callable[[str, str, Sequence[ScoredItem]], dict[str, Any]],
) -> list[dict[str, Any]]:
    """A reader's rows of a readers' bench, each made by ``row``: one per kind present (in
    ``order``, then any other by name), then ``all``."""
    kinds = [k for k in order if any(s.kind == k for s in scored)]
    kinds += sorted({s.kind for s in scored} - set(kinds))
    rows = [row(reader, k, [s for s in scored if s.kind == k]) for k in kinds]
    return [*rows, row(reader, "all", scored)]


_ANSWER = re.compile(r'^Answer given: """(.*)"""$', re.MULTILINE | re.DOTALL)
_PART = re.compile(r"^- (\S+): (.*)$", re.MULTILINE)


def _bare(text: str) -> str:
    cut = re.sub(r"\s*\(.*?\)", "", text).strip().casefold()
    return re.sub(r"^(the|a|an) ", "", cut)


def read_by_rule(request: ChatRequest) -> Step:
    """A keyword rule standing in for a reading model: per part, the options whose words (less
    a parenthesis and an article) the answer contains; one is the reading, more are
    ``several``, none is ``none``. Not a model: it shows the LLM path at work, and what
    keyword matching does."""
    prompt = request.last_user
    found = _ANSWER.search(prompt.split("\n\nFor each part")[0] + "\n")
    answer = found.group(1).casefold() if found else ""
    reply: dict[str, dict[str, str]] = {}
    for name, listed in _PART.findall(prompt):
        options = re.findall(r'"([^"]*)"', listed)
        named = [o for o in options if _bare(o) and _bare(o) in answer]
        reading = named[0] if len(named) == 1 else ("several" if named else "none")
        reply[name] = {"words": _bare(named[0]) if len(named) == 1 else "", "reading": reading}
    return json.dumps(reply)


@contextmanager
def reader_client(
    kinds: Sequence[ReaderKind], scripted: bool, settings: LLMSettings
) -> Iterator[ChatClient | None]:
    """The chat client the LLM readers use: none for the offline reader alone, the scripted
    server's with ``scripted``, else the endpoint's."""
    if all(k == "offline" for k in kinds):
        yield None
        return
    server = ScriptedChatServer(read_by_rule) if scripted else nullcontext()
    with server as running:
        if isinstance(running, ScriptedChatServer):
            settings = settings.model_copy(update={"base_url": running.base_url, "model": "rule"})
        yield make_client(settings)


def run(
    labelled: LabelledSet, kinds: Sequence[ReaderKind], client: ChatClient | None
) -> tuple[list[dict[str, Any]], dict[str, list[Scored]], dict[str, Timing]]:
    """Every reader of ``kinds`` over the set: the table's rows, each answer scored, and each
    reader's CPU and wall time."""
    rows: list[dict[str, Any]] = []
    scored: dict[str, list[Scored]] = {}
    timings: dict[str, Timing] = {}
    for kind in kinds:
        readers = {c.name: make_reader(c.setting, kind, client) for c in labelled.cases}
        with measure() as timing:
            scored[kind] = score(labelled, readers)
        timings[kind] = timing
        rows += table_rows(kind, scored[kind])
    return rows, scored, timings


class Labelled(Kinded, Protocol):
    """An item of a labelled set: its kind and its batch."""

    @property
    def batch(self) -> str:
        """The batch it was written in."""


LabelledItem = TypeVar("LabelledItem", bound=Labelled)


def sample(
    items: Sequence[LabelledItem], batch: str | None, per_kind: int | None
) -> list[LabelledItem]:
    """The items of ``batch`` (all without one), at most the first ``per_kind`` of each kind."""
    kept: list[LabelledItem] = []
    for item in items:
        if batch is not None and item.batch != batch:
            continue
        if per_kind is not None and sum(k.kind == item.kind for k in kept) >= per_kind:
            continue
        kept.append(item)
    return kept


def parse_readers(text: str) -> list[ReaderKind]:
    """The reader kinds of a comma-separated ``--readers`` option, in their fixed order."""
    names = [p.strip() for p in text.split(",") if p.strip()]
    chosen = [k for k in READER_KINDS if k in names]
    if not names or len(chosen) != len(set(names)):
        known = ", ".join(READER_KINDS)
        raise ValueError(f"--readers: comma-separated readers among {known}, got {text!r}")
    return chosen


class ReaderBenchOptions(EndpointOptions):
    """The options every readers' bench shares: the endpoint (``EndpointOptions``), which readers
    to run, the scripted stand-in for an LLM, and a table of totals only."""

    DECLARATIONS: ClassVar[dict[str, Any]] = {
        "readers": Annotated[
            str, typer.Option(help="Readers, comma-separated: offline, llm, combined.")
        ],
        "scripted": Annotated[
            bool,
            typer.Option(
                "--scripted",
                help="Answer the LLM readers from a keyword rule on a local scripted chat server.",
            ),
        ],
        **EndpointOptions.DECLARATIONS,
        "totals": Annotated[
            bool, typer.Option("--totals", help="Print each reader's row over all kinds only.")
        ],
    }

    readers: str = "offline"
    scripted: bool = False
    totals: bool = False

    def reading(self) -> tuple[list[ReaderKind], LLMSettings]:
        """The readers asked for, in their fixed order, and the LLM settings they read with;
        ValueError naming the option when a reader is unknown or an LLM reader has neither an
        endpoint nor ``--scripted``."""
        kinds = parse_readers(self.readers)
        settings = self.llm()
        if not self.scripted and any(k != "offline" for k in kinds) and not settings.configured:
            raise ValueError("--readers llm/combined: give --base-url (or --scripted)")
        return kinds, settings


@dataclass(frozen=True)
class ReadersBench:
    """A bench of readers on a labelled set: its name (of its JSON file too), its table's
    columns and what its items are called."""

    name: str
    columns: Sequence[str]
    items: str


BENCH = ReadersBench("freetext", COLUMNS, "answers")
"""This bench: ``freetext.json``, a row per reader and kind of answer."""


def report_readers(
    bench: ReadersBench,
    asked: dict[str, Any],
    result: tuple[list[dict[str, Any]], dict[str, list[Any]], dict[str, Timing]],
    totals: bool,
    out: Path,
) -> None:
    """Print a readers' bench (the table, only the ``all`` rows with ``totals``, and each
    reader's CPU and wall time) and write ``<name>.json`` into ``out``: what was ``asked``, the
    table, every item scored and the timings."""
    rows, scored, timings = result
    shown = [r for r in rows if r["kind"] == "all"] if totals else rows
    typer.echo(format_table(shown, list(bench.columns)))
    for kind, timing in timings.items():
        typer.echo(f"{kind}: CPU {timing.cpu:.2f} s, wall {timing.wall:.2f} s")
    payload = {
        "benchmark": bench.name,
        **asked,
        "table": rows,
        bench.items: {k: [s.model_dump() for s in v] for k, v in scored.items()},
        "timing": {k: {"cpu_s": t.cpu, "wall_s": t.wall} for k, t in timings.items()},
    }
    typer.echo(f"wrote {write_json(out / f'{bench.name}.json', payload)}")


def readers_asked(
    labelled: Path,
    batch: str | None,
    per_kind: int | None,
    scripted: bool,
    kinds: Sequence[ReaderKind],
    settings: LLMSettings,
) -> dict[str, Any]:
    """What a readers' bench was asked, as its JSON records it: the set, the sample, and the
    model read with (None for the offline reader alone, ``rule`` for the scripted one)."""
    offline = all(k == "offline" for k in kinds)
    return {
        "labelled": str(labelled),
        "batch": batch,
        "per_kind": per_kind,
        "scripted": scripted,
        "model": None if offline else ("rule" if scripted else settings.model),
    }


@with_options(ReaderBenchOptions)
def bench_freetext(
    shared: ReaderBenchOptions,
    labelled: Annotated[
        Path, typer.Option(help="The labelled set (JSON); the one shipped with gumshoe by default.")
    ] = LABELLED,
    batch: Annotated[
        Batch | None,
        typer.Option(
            help="Only this batch: tuning, held-out, adversarial or fresh (default: all)."
        ),
    ] = None,
    per_kind: Annotated[
        int | None,
        typer.Option(
            min=1, help="Only the first N answers of each kind (a sample for slow models)."
        ),
    ] = None,
    out: Annotated[Path, typer.Option(help="Folder for freetext.json.")] = Path("runs/bench"),
) -> None:
    """Readers of answers in words on the labelled set, per kind of answer."""
    try:
        kinds, settings = shared.reading()
        found = load_labelled(labelled)
        found = found.model_copy(update={"answers": sample(found.answers, batch, per_kind)})
    except ValueError as err:
        fail(err)
    try:
        with reader_client(kinds, shared.scripted, settings) as client:
            result = run(found, kinds, client)
    except GAME_ERRORS as err:
        fail(err, 1)
    asked = readers_asked(labelled, batch, per_kind, shared.scripted, kinds, settings)
    report_readers(BENCH, asked, result, shared.totals, out)
