"""Detective answers in words read through ``formalize.reading``: a question's slots as a
reading task, the reader a case is read with, and the exact grade a reading earns.

A slot earns credit only when its reading asserts an option; a question gets an exact grade
only when every slot is decided (asserted, several, rejected or none): otherwise it is
``unjudged`` (None), never a guessed grade.
"""

from __future__ import annotations

from formalize.reading.llm_reader import LLMReader
from formalize.reading.offline import OfflineReader
from formalize.reading.reader import Reader, ReaderKind, reader_of_kind
from formalize.reading.reading import Reading
from formalize.reading.task import Option, ReadingTask, SlotSpec
from formalize.world.setting import Setting
from games.core.llm_player import recorded_index
from games.detective.case import Case, Question
from games.detective.grading import grade_answer
from reasoning.llm import ChatClient


def case_context(setting: Setting | None) -> str:
    """What the LLM reader is told of a case with ``setting``: the victim, and each suspect's
    role and relation to the victim."""
    if setting is None:
        return ""
    lines = []
    for crime in setting.crimes:
        victim = setting.person(crime.victim)
        lines.append(f"The victim is {victim.name}" + (f", {victim.role}." if victim.role else "."))
    kinds = {(r.a, r.b): r.kind for r in setting.relations}
    for person in setting.suspects:
        ties = [
            f"{setting.person(v).name}'s {kinds[(person.id, v)]}"
            for v in sorted(setting.victims)
            if (person.id, v) in kinds
        ]
        role = f", {person.role}" if person.role else ""
        tie = f" ({', '.join(ties)})" if ties else ""
        lines.append(f"{person.name}{role}{tie}.")
    return " ".join(lines)


def question_task(question: Question, setting: Setting | None) -> ReadingTask:
    """``question``'s typed slots as a reading task (the case's ``setting`` gives the LLM
    reader its context)."""
    return ReadingTask(
        question=question.text,
        context=case_context(setting),
        slots=[
            SlotSpec(
                name=s.name,
                kind=s.kind,
                options=[Option(value=c.value, text=c.text) for c in s.choices],
            )
            for s in question.slots
        ],
    )


def make_reader(
    setting: Setting | None,
    kind: ReaderKind = "offline",
    client: ChatClient | None = None,
    *,
    max_attempts: int | None = None,
    seed: int = 0,
) -> Reader:
    """The reader ``kind`` for the answers to a case with ``setting`` (None: a case without
    logic, read from its options' words alone); the LLM kinds need ``client``."""
    llm = None
    if client is not None and kind != "offline":
        options = {} if max_attempts is None else {"max_attempts": max_attempts}
        llm = LLMReader(client, seed=seed, recorded=recorded_index, **options)
    return reader_of_kind(OfflineReader(setting), kind, llm)


def read_answer(reader: Reader, case: Case, question: Question, text: str) -> Reading:
    """``reader``'s reading of ``text`` as the answer to ``question`` (which has slots)."""
    return reader.read(question_task(question, case.setting), text)


def reading_grade(question: Question, reading: Reading) -> int | None:
    """The exact 0-3 grade of a reading: asserted options only are credited; None (unjudged)
    when a slot is unsure."""
    if not reading.decided:
        return None
    return grade_answer(question, reading.values()).score
