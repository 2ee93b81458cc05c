"""How well Undercover-V descriptions are read: ``bench descriptions`` runs each reader over a
labelled set of descriptions (hand-written, for both words of every pair, each with what it
truly asserts about the card in the pair's vocabulary) and reports per kind of description and
per reader: descriptions, decided (read: literals, or nothing about the card), right (the
reading is the truth), wrong (a decided reading that is not), unsure, the card violations the
readings give (the reading contradicts the speaker's card), the false ones among them (the
truth does not), and LLM calls per description, with CPU and wall time.

A description's truth is a formula in the pair's vocabulary (``true``: it asserts nothing about
the card: a question, a hedge, a sentence about the other word) or null when what it asserts
lies outside the vocabulary (a comparison, a fact the lexicon does not hold): then no reading
is right and only ``unsure`` is not wrong.

Readers: ``offline`` (no endpoint), ``llm`` and ``combined`` (the LLM where the offline reader
is unsure) against the endpoint, or with ``--scripted`` against the keyword rule of ``bench
freetext`` on a local scripted chat server: it exercises the LLM path; it is a rule, not a
model.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from pydantic import BaseModel, ConfigDict

from benchmarks.freetext_bench import (
    ReaderBenchOptions,
    ReadersBench,
    reader_client,
    readers_asked,
    report_readers,
    rows_per_kind,
    sample,
)
from benchmarks.report import Timing, measure
from formalize.davidsonian.literals import Claim, literals_of
from formalize.reading.reader import ReaderKind
from games.core.cli import fail, with_options
from games.core.errors import GAME_ERRORS
from games.undercover.agent import Description
from games.undercover.checker import ConsistencyTest, ProverChecker
from games.undercover.events import CheckOutcome
from games.undercover.lexicon import Lexicon, UnknownWord
from games.undercover.reading import description_reader, pair_vocabulary
from reasoning.jsonpos import parse_model
from reasoning.llm import ChatClient
from reasoning.syntax import FormulaSyntaxError, parse_formula
from reasoning.textfile import UserFileError, read_user_text

LABELLED = Path(__file__).resolve().parent / "data" / "undercover" / "descriptions.json"
"""The labelled set, shipped with the package (the tests read it too)."""

KINDS: tuple[str, ...] = (
    "plain",
    "synonym",
    "paraphrase",
    "negation",
    "two properties",
    "hedge",
    "question",
    "other word",
    "comparison",
    "unknown",
)
"""The kinds of description the labelled set holds, in the table's order."""

COLUMNS = (
    "reader",
    "kind",
    "descriptions",
    "decided",
    "right",
    "wrong",
    "unsure",
    "violations",
    "false violations",
    "calls/description",
)
"""The table's columns."""

BENCH = ReadersBench("descriptions", COLUMNS, "descriptions")
"""This bench: ``descriptions.json``, a row per reader and kind of description."""

Batch = Literal["tuning", "held-out"]
"""Which batch a description is in: the one the offline reader was tuned on, or one written
after and measured as it came."""


class LabelledDescription(BaseModel):
    """One description: the word on its speaker's card, its kind, its batch, its text and its
    truth (a formula about ``item`` in the pair's vocabulary; ``true`` for nothing about the
    card; None when it asserts what the vocabulary cannot say)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    word: str
    kind: str
    batch: Batch
    text: str
    truth: str | None


class LabelledDescriptions(BaseModel):
    """The labelled set."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    about: str
    descriptions: list[LabelledDescription]


def load_labelled(path: Path, lexicon: Lexicon) -> LabelledDescriptions:
    """Read a labelled set (ValueError naming the file, the description and what is wrong): every
    word has a lexicon entry and every truth is a set of the pair's attribute literals."""
    try:
        text = read_user_text(path)
    except UserFileError as err:
        raise ValueError(str(err)) from None
    found = parse_model(text, LabelledDescriptions, str(path), ValueError)
    for d in found.descriptions:
        try:
            truth_of(d, lexicon)
        except (UnknownWord, FormulaSyntaxError, ValueError) as err:
            first = str(err).splitlines()[0]
            raise ValueError(f"{path}: description {d.id}: {first}") from None
    return found


def truth_of(described: LabelledDescription, lexicon: Lexicon) -> frozenset[Claim] | None:
    """The literals a labelled description truly asserts (None: outside the vocabulary);
    ValueError when its truth is no set of the pair's attribute literals."""
    if described.truth is None:
        return None
    claims = literals_of(lexicon.canonical(described.word, parse_formula(described.truth)))
    if claims is None:
        raise ValueError(f"truth {described.truth!r} is not a conjunction of literals")
    vocabulary = pair_vocabulary(lexicon, described.word)
    unknown = [c for c in claims if vocabulary.slot_of(c) is None]
    if unknown:
        raise ValueError(f"truth: {unknown[0].core} is no attribute of the pair")
    return frozenset(claims)


class Scored(BaseModel):
    """One description read: whether decided, right, the card check of the reading and of the
    truth, the LLM calls, and the reading."""

    model_config = ConfigDict(frozen=True)

    id: str
    kind: str
    decided: bool
    right: bool
    violation: bool
    false_violation: bool
    calls: int
    reading: dict[str, Any]


def score(
    labelled: Sequence[LabelledDescription],
    lexicon: Lexicon,
    kind: ReaderKind,
    client: ChatClient | None,
) -> list[Scored]:
    """Every description read by the reader ``kind``, and its reading checked against the card
    of its word and against its truth."""
    checker = ProverChecker(ConsistencyTest(lexicon), description_reader(lexicon, kind, client))
    out = []
    for d in labelled:
        read = checker.reader.read(d.word, Description(d.text))
        truth = truth_of(d, lexicon)
        claims = literals_of(read.formula) if read.formula is not None else ()
        decided = read.record.outcome != "unsure"
        right = decided and truth is not None and frozenset(claims or ()) == truth
        violation = checker.judge(d.word, read).status is CheckOutcome.CONTRADICTS_CARD
        truly = False
        if truth:
            truth_formula = parse_formula(d.truth or "true")
            truly = checker.test.test(d.word, [truth_formula]).status is (
                CheckOutcome.CONTRADICTS_CARD
            )
        out.append(
            Scored(
                id=d.id,
                kind=d.kind,
                decided=decided,
                right=right,
                violation=violation,
                false_violation=violation and not truly,
                calls=read.record.calls,
                reading=read.record.model_dump(),
            )
        )
    return out


def table_row(reader: str, kind: str, scored: Sequence[Scored]) -> dict[str, Any]:
    """One row of the table over ``scored``."""
    n = len(scored)
    decided = [s for s in scored if s.decided]
    return {
        "reader": reader,
        "kind": kind,
        "descriptions": n,
        "decided": len(decided),
        "right": sum(s.right for s in decided),
        "wrong": sum(not s.right for s in decided),
        "unsure": n - len(decided),
        "violations": sum(s.violation for s in scored),
        "false violations": sum(s.false_violation for s in scored),
        "calls/description": sum(s.calls for s in scored) / n if n else 0.0,
    }


def table_rows(reader: str, scored: Sequence[Scored]) -> list[dict[str, Any]]:
    """The reader's rows: one per kind present, then ``all``."""
    return rows_per_kind(reader, scored, KINDS, table_row)


def run(
    labelled: Sequence[LabelledDescription],
    lexicon: Lexicon,
    kinds: Sequence[ReaderKind],
    client: ChatClient | None,
) -> tuple[list[dict[str, Any]], dict[str, list[Scored]], dict[str, Timing]]:
    """Every reader of ``kinds`` over the set: the table's rows, each description scored, and
    each reader's CPU and wall time."""
    rows: list[dict[str, Any]] = []
    scored: dict[str, list[Scored]] = {}
    timings: dict[str, Timing] = {}
    for kind in kinds:
        with measure() as timing:
            scored[kind] = score(labelled, lexicon, kind, client)
        timings[kind] = timing
        rows += table_rows(kind, scored[kind])
    return rows, scored, timings


@with_options(ReaderBenchOptions)
def bench_descriptions(
    shared: ReaderBenchOptions,
    labelled: Annotated[
        Path, typer.Option(help="The labelled set (JSON); the one shipped with gumshoe by default.")
    ] = LABELLED,
    batch: Annotated[
        Batch | None,
        typer.Option(help="Only this batch: tuning or held-out (default: both)."),
    ] = None,
    per_kind: Annotated[
        int | None,
        typer.Option(
            min=1, help="Only the first N descriptions of each kind (a sample for slow models)."
        ),
    ] = None,
    out: Annotated[Path, typer.Option(help="Folder for descriptions.json.")] = Path("runs/bench"),
) -> None:
    """Readers of Undercover-V descriptions on the labelled set, per kind of description."""
    lexicon = Lexicon.load()
    try:
        kinds, settings = shared.reading()
        found = load_labelled(labelled, lexicon)
        chosen = sample(found.descriptions, batch, per_kind)
    except ValueError as err:
        fail(err)
    try:
        with reader_client(kinds, shared.scripted, settings) as client:
            result = run(chosen, lexicon, kinds, client)
    except GAME_ERRORS as err:
        fail(err, 1)
    asked = readers_asked(labelled, batch, per_kind, shared.scripted, kinds, settings)
    report_readers(BENCH, asked, result, shared.totals, out)
