"""The audit of an Undercover-V log: every description read and judged against its speaker's card.

Every description is read (``games.undercover.reading``: the reading a log records, else the
offline reader's reading now, for logs written before descriptions were read). What a decided
reading asserts claims something of the word on its speaker's card. Its speaker knows that
card, and the card is the truth about it, so the card theory phi(word) of the lexicon is both
the knowledge and the truth: the claim is ENTAILED (sound), CONTRADICTED (wrong: it breaks the
card, a violation) or UNDETERMINED by phi(word) (unjudged: the lexicon does not settle it), and
never lucky. A description the readers could not read is UNKNOWN (unjudged), its row saying who
read it and why it stayed unread. A description whose reading asserts nothing about the card (a
question, a sentence about the other word) states no claim and has no row; the figures count
it. The consistency test T(w, Delta) the engine runs (``checker.ConsistencyTest``) is an extra
column, re-run and as logged.
"""

from __future__ import annotations

from games.core.audit import AuditRecord, Cell, Where, audit_row, judged_record
from games.core.log import GameLog
from games.core.replay import replay
from games.core.runlog import LogError
from games.undercover.agent import Description
from games.undercover.checker import ConsistencyTest, ProverChecker
from games.undercover.entry import ENTRY
from games.undercover.events import (
    DescriptionEvent,
    DescriptionReading,
    GameEnd,
    GameStart,
    UndercoverEvent,
    UndercoverSetup,
)
from games.undercover.lexicon import Lexicon, UnknownWord
from games.undercover.reading import ReadDescription
from reasoning.claims import ClaimStatus, correctness_of


def reading_detail(record: DescriptionReading) -> dict[str, Cell]:
    """A description reading's audit columns: its outcome, the reader, the LLM calls and the
    vote's ballots, the words that asserted each literal, why it reads so, and the check of the
    speaker's own formula."""
    seat = record.seat_formula
    return {
        "reading": record.outcome,
        "reader": record.reader,
        "calls": record.calls,
        "vote": " | ".join(record.vote.ballots) if record.vote is not None else None,
        "words": " | ".join(c.words for c in record.claims if c.words) or None,
        "note": record.note or None,
        "seat_formula": None if seat is None else "accepted" if seat.accepted else seat.reason,
    }


def audit_record(log: GameLog[UndercoverEvent]) -> AuditRecord:
    """Every description of a log (read by ``ENTRY.read_log``) read and judged against its
    speaker's card; the log must replay (ReplayError names the line where it parts)."""
    start = log.events[0] if log.events else None
    if not isinstance(start, GameStart):
        raise LogError(log.path, log.line_of(0), "the log must open with a game_start event")
    replay(ENTRY, log)
    checker = ProverChecker(ConsistencyTest(Lexicon.load()))
    rows = []
    counts = {"claims": 0, "nothing": 0, "unsure": 0}
    for index, event in enumerate(log.events):
        if not isinstance(event, DescriptionEvent):
            continue
        word = start.words[event.seat]
        read = _read(checker, word, event)
        outcome = read.record.outcome if read is not None else "unsure"
        counts[outcome] += 1
        if outcome == "nothing":
            continue
        if read is None:
            status, consistency = ClaimStatus.UNKNOWN, "unread"
            detail: dict[str, Cell] = {"reading": "unsure", "note": "no vocabulary for the word"}
        else:
            status, result = checker.claim_status(word, read)
            consistency = result.status.value
            detail = reading_detail(read.record)
        rows.append(
            audit_row(
                event.seat,
                Where(line=log.line_of(index), round=event.round),
                read.record.formula if read is not None and read.record.formula else event.text,
                status,
                correctness_of(status),
                detail={
                    "text": event.text,
                    **detail,
                    "consistency": consistency,
                    "logged_consistency": event.outcome.value,
                },
                call=event.call,
            )
        )
    end = log.events[-1]
    pair = UndercoverSetup.model_validate(log.header.config).pair
    figures: dict[str, object] = {
        "spy_seat": start.spy_seat,
        "pair": pair.id,
        "descriptions": sum(counts.values()),
        "read": counts["claims"] + counts["nothing"],
        "no_claim": counts["nothing"],
        "unread": counts["unsure"],
    }
    if isinstance(end, GameEnd):
        figures |= {"winner": end.winner.value, "rounds": end.rounds}
    return judged_record("undercover", log, log.header.seed, log.header.seats, rows, figures)


def _read(checker: ProverChecker, word: str, event: DescriptionEvent) -> ReadDescription | None:
    """The description's reading as logged, else the offline reader's (None without a
    vocabulary for the word)."""
    if event.reading is not None:
        return ReadDescription.logged(event.reading)
    try:
        return checker.reader.read(word, Description(event.text, formula_text=event.formula))
    except UnknownWord:
        return None
