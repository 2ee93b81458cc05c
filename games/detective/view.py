"""Detective cases in the viewer: the case as the reader sees it, and its answers beside it.

The page shows the introduction and every location's text as read so far (the one being read
last), with the sentences that carry facts marked; after each stage, every question's answer in
words with its grade, each part coloured by its verdict (the audit record's row at that stage's
line). An answer given in words is shown as given, the words each slot was read from marked,
with who read it and each slot's reading (``games.core.reading_view``). Steps and claims are
written in words; a claim's formula is shown on demand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from formalize.reading.reading import Outcome, Reading
from games.core.audit import AuditRecord, AuditRow
from games.core.log import GameLog
from games.core.reading_view import marked_text, reader_words, slot_words
from games.core.view import Document, KnowledgePanel, Line, Segment, Tone, ViewParts
from games.detective.audit import audit_record, logged_case
from games.detective.case import Case, Question, Sentence
from games.detective.events import AnswersEvent, CaseStart, GameEnd, StageAnswers, VisitEvent

INTRODUCTION = "introduction"
"""The document id of a case's introduction (location ids name the others)."""


def segments(text: str, sentences: Sequence[Sentence]) -> list[Segment]:
    """``text`` cut into narration and the sentences that state facts, in order (a sentence not
    found after the previous one stays unmarked narration)."""
    out: list[Segment] = []
    at = 0
    for sentence in sentences:
        if not sentence.facts:
            continue
        found = text.find(sentence.text, at)
        if found < 0:
            continue
        if found > at:
            out.append(Segment(text=text[at:found]))
        count = len(sentence.facts)
        out.append(
            Segment(
                text=sentence.text,
                facts=count,
                note=f"carries {count} fact{'s' if count > 1 else ''}: "
                + "; ".join(sentence.facts),
            )
        )
        at = found + len(sentence.text)
    if at < len(text):
        out.append(Segment(text=text[at:]))
    return out


def case_documents(case: Case) -> list[Document]:
    """The introduction and every location as documents with their fact sentences marked."""
    docs = [
        Document(
            id=INTRODUCTION,
            title="Introduction",
            segments=segments(case.introduction, case.intro_sentences),
        )
    ]
    docs += [
        Document(id=loc.id, title=loc.title, segments=segments(loc.text, loc.sentences))
        for loc in case.locations
    ]
    return docs


def value_words(case: Case, question: str, slot: str, value: str | None) -> str:
    """The words of the value ``value`` given for ``question``'s ``slot`` (``no answer`` when
    blank; the value itself when the case does not list it)."""
    if value is None:
        return "no answer"
    for q in case.questions:
        for s in q.slots:
            if q.id == question and s.name == slot:
                return next((c.text for c in s.choices if c.value == value), value)
    return value


UNGIVEN: dict[Outcome, str] = {
    "several": "several",
    "rejected": "only rejected",
    "none": "no answer",
    "unsure": "unread",
}
"""A slot of an answer in words that asserts no option, in a step's words, by its reading."""


def answers_words(
    case: Case, answers: StageAnswers, readings: dict[str, Reading] | None = None
) -> str:
    """A stage's answers in one line: each question's given parts in words (for an answer in
    words, what its reading made of a slot that asserts nothing)."""
    said = []
    for question, slots in answers.items():
        reading = (readings or {}).get(question)
        outcomes = {r.slot: r.outcome for r in reading.slots} if reading is not None else {}
        given = [
            value_words(case, question, s, v) if v is not None else UNGIVEN[outcomes[s]]
            for s, v in slots.items()
            if v is not None or outcomes.get(s, "asserted") != "asserted"
        ]
        said.append(f"{question.replace('_', ' ')}: {', '.join(given) or 'no answer'}")
    return "; ".join(said)


def said_lines(case: Case, question: Question, text: str, reading: Reading) -> list[Line]:
    """An answer given in words: its text with the words each slot was read from marked, and
    who read it."""
    words = _option_words(case, question)
    shown = (
        Line(text=text, segments=marked_text(text, reading, words))
        if text.strip()
        else Line(text="no words given")
    )
    return [shown, Line(text=f"  {reader_words(reading, words)}")]


def _option_words(case: Case, question: Question) -> Callable[[str, str], str]:
    return lambda slot, value: value_words(case, question.id, slot, value)


def _locations(count: int) -> str:
    return f"{count} location{'' if count == 1 else 's'}"


def _tone(rows: Sequence[AuditRow]) -> Tone:
    kinds = {r.judgement for r in rows}
    for kind in ("wrong", "lucky", "unjudged", "sound"):
        if kind in kinds:
            return "undetermined" if kind == "unjudged" else kind
    return ""


def _answer_lines(
    case: Case, event: AnswersEvent, rows: Sequence[AuditRow], reader: str
) -> list[Line]:
    lines = [
        Line(
            text=f"{reader}'s answers after reading {len(event.read)} of "
            f"{len(case.locations)} locations"
        )
    ]
    readings = event.readings or {}
    for index, question in enumerate(case.questions):
        given = event.answers.get(question.id, {})
        own = [r for r in rows if r.detail.get("question") == question.id]
        graded = event.grades[index] if event.grades is not None else None
        grade = "" if event.grades is None else f" · grade {graded} of 3"
        if event.grades is not None and graded is None:
            grade = " · unjudged"
        lines.append(Line(text=f"{question.text}{grade}", tone=_tone(own)))
        reading = readings.get(question.id)
        if reading is not None:
            lines += said_lines(case, question, (event.texts or {}).get(question.id, ""), reading)
        read = {s.slot: s for s in reading.slots} if reading is not None else {}
        for slot in question.slots:
            value = given.get(slot.name)
            verdict = [r for r in own if r.detail.get("slot") == slot.name]
            judged = f" — {verdict[0].judgement}" if verdict else ""
            said = (
                slot_words(read[slot.name], _option_words(case, question), reading.reader, judged)
                if slot.name in read and reading is not None
                else f"{slot.name}: {value_words(case, question.id, slot.name, value)}{judged}"
            )
            lines.append(
                Line(
                    text=f"  {said}",
                    tone=_tone(verdict),
                    formula=slot.choice(value).formula if value in _values(slot) else None,
                )
            )
    return lines


def _values(slot: Any) -> set[str]:
    return {c.value for c in slot.choices}


def _claims(case: Case, record: AuditRecord) -> list[Line]:
    """Each audit row's claim in words: the value given (and the words it was read from, for an
    answer in words), or, for a slot of an answer in words the reader could not decide, that it
    is unread and why."""
    claims = []
    for row in record.rows:
        question, slot = str(row.detail.get("question")), str(row.detail.get("slot"))
        value = row.claim.split(" = ", 1)[1] if " = " in row.claim else None
        formula = None
        for q in case.questions:
            for s in q.slots:
                if q.id == question and s.name == slot and value in _values(s):
                    formula = s.choice(str(value)).formula
        said = value_words(case, question, slot, value)
        note, words = row.detail.get("note"), row.detail.get("words")
        if value is None and row.detail.get("outcome") == "unsure":
            said = "unread, the reader could not decide" + (f" ({note})" if note else "")
        elif value is not None and words:
            said += f", read from “{words}”"
        claims.append(Line(text=f"{question.replace('_', ' ')}, {slot}: {said}", formula=formula))
    return claims


def detective_view(log: GameLog[Any]) -> ViewParts:
    """The case's documents, the reader's panel at every visit and answer (what it has read,
    the location being read last, and its answers with grades and verdicts), the events and
    the claims in words."""
    case = logged_case(log)
    record = audit_record(log) if case.checkable else None
    reader = log.header.seats[0].name
    titles = {loc.id: loc.title for loc in case.locations}
    rows_at: dict[int | None, list[AuditRow]] = {}
    for row in record.rows if record is not None else []:
        rows_at.setdefault(row.where.line, []).append(row)
    panels: list[KnowledgePanel] = []
    texts: list[str] = []
    read: list[str] = []
    answers: list[Line] = []
    for step, event in enumerate(log.events):
        if isinstance(event, CaseStart):
            texts.append(
                f"The case “{event.title}” opens: {len(event.questions)} questions, "
                f"{len(event.locations)} locations to visit."
            )
            panels.append(_panel(step, [INTRODUCTION], []))
        elif isinstance(event, VisitEvent):
            texts.append(f"{reader} goes to {titles.get(event.location, event.location)}.")
            panels.append(_panel(step, [INTRODUCTION, *read, event.location], answers))
        elif isinstance(event, AnswersEvent):
            read = list(event.read)
            texts.append(
                f"{reader} answers after reading {_locations(len(read))}: "
                + answers_words(case, event.answers, event.readings)
            )
            answers = _answer_lines(case, event, rows_at.get(log.line_of(step), []), reader)
            panels.append(_panel(step, [INTRODUCTION, *read], answers))
        elif isinstance(event, GameEnd):
            score = event.score
            texts.append(
                f"Every location read after {event.stages} stages"
                + (f"; overall score {score.overall:.1f} of 3." if score is not None else ".")
            )
    return ViewParts(
        texts=texts,
        panels=panels,
        documents=case_documents(case),
        claims=_claims(case, record) if record is not None else None,
        title=f"“{case.title}”, detective case (seed {log.header.seed})",
        record=record,
    )


def _panel(step: int, documents: list[str], answers: list[Line]) -> KnowledgePanel:
    return KnowledgePanel(
        step=step, seat=0, title="The case as read", documents=documents, lines=answers
    )
