"""The audit of an Undercover-V log: every description judged against its speaker's card.

A description with a formula claims something of the word on its speaker's card. Its speaker
knows that card, and the card is the truth about it, so the card theory phi(word) of the lexicon
is both the knowledge and the truth: a description is ENTAILED (sound), CONTRADICTED (wrong: it
breaks the card, a violation) or UNDETERMINED by phi(word) (unjudged: the lexicon does not settle
it), and never lucky. A description without a formula, or whose formula does not parse or fit the
card's vocabulary, states nothing the prover can test: UNKNOWN. The consistency test T(w, Delta)
the engine runs (``checker.ConsistencyTest``) is an extra column, re-run and as logged.
"""

from __future__ import annotations

from games.core.audit import AuditRecord, Where, audit_row, judged_record
from games.core.log import GameLog
from games.core.replay import replay
from games.core.runlog import LogError
from games.undercover.agent import Description
from games.undercover.checker import ConsistencyTest, ProverChecker
from games.undercover.entry import ENTRY
from games.undercover.events import (
    DescriptionEvent,
    GameEnd,
    GameStart,
    UndercoverEvent,
    UndercoverSetup,
)
from games.undercover.lexicon import Lexicon
from reasoning.claims import correctness_of


def audit_record(log: GameLog[UndercoverEvent]) -> AuditRecord:
    """Every description of a log (read by ``ENTRY.read_log``) judged against its speaker's
    card; the log must replay (ReplayError names the line where it parts)."""
    start = log.events[0] if log.events else None
    if not isinstance(start, GameStart):
        raise LogError(log.path, log.line_of(0), "the log must open with a game_start event")
    replay(ENTRY, log)
    checker = ProverChecker(ConsistencyTest(Lexicon.load()))
    rows = []
    for index, event in enumerate(log.events):
        if not isinstance(event, DescriptionEvent):
            continue
        description = Description(event.text, formula_text=event.formula)
        status, result = checker.claim_status(start.words[event.seat], description)
        rows.append(
            audit_row(
                event.seat,
                Where(line=log.line_of(index), round=event.round),
                event.formula if event.formula is not None else event.text,
                status,
                correctness_of(status),
                detail={
                    "text": event.text,
                    "consistency": result.status.value,
                    "logged_consistency": event.outcome.value,
                },
                call=event.call,
            )
        )
    end = log.events[-1]
    pair = UndercoverSetup.model_validate(log.header.config).pair
    figures: dict[str, object] = {"spy_seat": start.spy_seat, "pair": pair.id}
    if isinstance(end, GameEnd):
        figures |= {"winner": end.winner.value, "rounds": end.rounds}
    return judged_record("undercover", log, log.header.seed, log.header.seats, rows, figures)
