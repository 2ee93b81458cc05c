"""Per-element audit of an answer: sound, lucky or wrong, by what had been read.

Each element given is a claim; the Verifier classifies it against the theory, the introduction
and the locations read so far (ENTAILED / CONTRADICTED / UNDETERMINED) and against the solution
(TRUE / FALSE): sound (entailed and true), lucky (true, not entailed) or wrong (false). A value
outside the slot's choices states no fact, so it is not audited (grading counts it wrong). A
log's audit judges every stage's elements against the locations read by that stage.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from pydantic import BaseModel, ConfigDict, ValidationError

from formalize.reading.reading import Reading, SlotReading
from games.core.audit import AuditRecord, Cell, ReadAnswer, Where, audit_row, judged_record
from games.core.log import GameLog
from games.core.replay import replay
from games.core.runlog import LogError, field_errors
from games.detective.case import Case
from games.detective.engine import case_digest
from games.detective.entry import ENTRY, game_case
from games.detective.events import AnswersEvent, CaseStart, DetectiveEvent
from games.detective.generator import GenerationError
from games.detective.verify import card_formulas, slot_formula, theory_formulas
from provers import get_prover
from reasoning.claims import ClaimStatus, Judgement
from reasoning.formula import Card, Formula
from reasoning.prover import Axiom
from reasoning.verifier import ClaimCheck, Verifier

AUDIT_PROVER = "sat"
"""The backend that audits a log's answers (the case theory is propositional)."""


class ElementAudit(BaseModel):
    """One given element: the question and slot, the value, and its claim check."""

    model_config = ConfigDict(frozen=True)

    question: str
    slot: str
    value: str
    check: ClaimCheck

    @property
    def kind(self) -> Judgement:
        """sound, lucky or wrong (or unjudged when the prover could not tell)."""
        return self.check.kind


def _truth(case: Case) -> list[Formula]:
    """The solution: per slot, exactly one value, and it is the reference one."""
    out: list[Formula] = []
    for q in case.questions:
        for slot in q.slots:
            values = tuple(slot_formula(slot, c.value) for c in slot.choices)
            out += [Card("exactly", 1, values), slot_formula(slot, slot.answer)]
    return out


def audit_answers(
    case: Case,
    read: Collection[str],
    answers: Mapping[str, Mapping[str, str | None]],
    verifier: Verifier,
) -> list[ElementAudit]:
    """Classify every element given in ``answers`` after reading the locations ``read``."""
    intro, cards = card_formulas(case)
    knowledge = [Axiom(f"theory_{i}", f) for i, f in enumerate(theory_formulas(case))]
    knowledge += [Axiom(f"intro_{i}", f) for i, f in enumerate(intro)]
    for loc, facts in zip(case.locations, cards, strict=True):
        if loc.id in read:
            knowledge += [Axiom(f"{loc.id}_{i}", f) for i, f in enumerate(facts)]
    given = [
        (q.id, slot, value)
        for q in case.questions
        for slot in q.slots
        if (value := answers.get(q.id, {}).get(slot.name)) is not None
        and value in {c.value for c in slot.choices}
    ]
    if not given:
        return []
    report = verifier.audit(
        knowledge, [slot_formula(slot, value) for _, slot, value in given], _truth(case)
    )
    return [
        ElementAudit(question=qid, slot=slot.name, value=value, check=check)
        for (qid, slot, value), check in zip(given, report.checks, strict=True)
    ]


class StageAudit(BaseModel):
    """How a stage's given elements split: sound, lucky, wrong (and unjudged)."""

    model_config = ConfigDict(frozen=True)

    stage: int
    sound: int
    lucky: int
    wrong: int
    unjudged: int


def audit_stages(
    case: Case, stages: Sequence[AnswersEvent], verifier: Verifier
) -> list[StageAudit]:
    """Every stage's elements judged against what had been read (``audit_answers``)."""
    out = []
    for event in stages:
        kinds = [a.kind for a in audit_answers(case, event.read, event.answers, verifier)]
        out.append(
            StageAudit(
                stage=event.stage,
                sound=kinds.count("sound"),
                lucky=kinds.count("lucky"),
                wrong=kinds.count("wrong"),
                unjudged=kinds.count("unjudged"),
            )
        )
    return out


def logged_case(log: GameLog[DetectiveEvent]) -> Case:
    """The case a detective log played, rebuilt from its header and checked against its digest,
    the log replayed; LogError (naming the log) saying what is wrong."""
    try:
        case = game_case(ENTRY.logged_config(log), log.seed)
    except (ValueError, GenerationError) as err:
        why = field_errors(err) if isinstance(err, ValidationError) else str(err)
        raise LogError(log.path, 1, f"the case its header names: {why}") from None
    start = log.events[0] if log.events else None
    if not isinstance(start, CaseStart) or start.digest != case_digest(case):
        raise LogError(log.path, log.line_of(0), "the log's case is not the one its header names")
    replay(ENTRY, log)
    return case


def reading_detail(slot: SlotReading) -> dict[str, Cell]:
    """A slot reading's audit columns: the outcome, the reader, the words that decided it and
    where they stand in the answer (the first asserting span), and why it is unsure."""
    deciding = [e for e in slot.evidence if e.stance == "asserted"] or slot.evidence
    first = deciding[0] if deciding else None
    return {
        "outcome": slot.outcome,
        "reader": slot.reader,
        "words": " | ".join(e.words for e in deciding) or None,
        "start": first.start if first else None,
        "end": first.end if first else None,
        "note": slot.note or None,
    }


def _unjudged_slots(reading: Reading | None) -> list[SlotReading]:
    return [] if reading is None else [s for s in reading.slots if not s.decided]


def audit_record(log: GameLog[DetectiveEvent]) -> AuditRecord:
    """Every stage's answer elements of a detective log as the record every game yields: a row
    per element (where: the stage as the round, the log line; the question, slot and locations
    read as extra columns) and the reader's summary. Answers given in words add their
    readings: each asserted element's row carries the words that asserted it, a slot the
    reader was unsure of is a row of its own, unjudged (status UNKNOWN), and every answer is
    listed with its text and reading."""
    case = logged_case(log)
    if not case.checkable:
        raise ValueError(f"{log.path}: its case has no logic; only the autograder can grade it")
    verifier = Verifier(get_prover(AUDIT_PROVER))
    rows = []
    read: list[ReadAnswer] = []
    for index, event in enumerate(log.events):
        if not isinstance(event, AnswersEvent):
            continue
        where = Where(line=log.line_of(index), round=event.stage)
        readings = event.readings or {}
        calls = event.calls or {}
        for element in audit_answers(case, event.read, event.answers, verifier):
            detail: dict[str, Cell] = {
                "question": element.question,
                "slot": element.slot,
                "read": len(event.read),
            }
            if element.question in readings:
                detail |= reading_detail(readings[element.question].slot(element.slot))
            rows.append(
                audit_row(
                    0,
                    where,
                    f"{element.question}.{element.slot} = {element.value}",
                    element.check.status,
                    element.check.correctness,
                    detail=detail,
                    call=calls.get(element.question),
                )
            )
        for qid, reading in readings.items():
            for slot in _unjudged_slots(reading):
                unread: dict[str, Cell] = {
                    "question": qid,
                    "slot": slot.slot,
                    "read": len(event.read),
                }
                rows.append(
                    audit_row(
                        0,
                        where,
                        f"{qid}.{slot.slot} unread",
                        ClaimStatus.UNKNOWN,
                        None,
                        detail=unread | reading_detail(slot),
                        call=calls.get(qid),
                    )
                )
            read.append(
                ReadAnswer(
                    seat=0,
                    where=where,
                    question=qid,
                    text=(event.texts or {}).get(qid, ""),
                    reading=reading,
                    call=calls.get(qid),
                )
            )
    figures = {
        "stages": sum(isinstance(e, AnswersEvent) for e in log.events),
        "answers_read": len(read),
        "answers_unjudged": sum(not r.reading.decided for r in read),
    }
    return judged_record(
        "detective", log, log.header.seed, log.header.seats, rows, figures, readings=read
    )
