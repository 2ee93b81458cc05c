"""Auditing a played detective log stage by stage."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from games.core.replay import replay
from games.core.runlog import LogError
from games.detective.audit import audit_answers
from games.detective.case import Case
from games.detective.engine import case_digest
from games.detective.entry import ENTRY, game_case
from games.detective.events import AnswersEvent, CaseStart, DetectiveConfig
from reasoning.verifier import Verifier


class StageAudit(BaseModel):
    """How a stage's given elements split: justified, lucky, unsupported (and unjudged)."""

    model_config = ConfigDict(frozen=True)

    stage: int
    justified: int
    lucky: int
    unsupported: int
    unjudged: int


def logged_case(path: str) -> tuple[Case, list[AnswersEvent]]:
    """The case a detective log played (rebuilt from its header, checked against its digest,
    the log replayed) and its answer events; LogError or ValueError saying what is wrong."""
    log = ENTRY.read_log(path)
    if log.header is None:
        raise LogError(log.path, 1, "a detective log needs its header")
    config = DetectiveConfig.model_validate(log.header.config)
    case = game_case(config, log.header.seed)
    start = log.events[0] if log.events else None
    if not isinstance(start, CaseStart) or start.digest != case_digest(case):
        raise LogError(log.path, log.line_of(0), "the log's case is not the one its header names")
    replay(ENTRY, log)
    return case, [e for e in log.events if isinstance(e, AnswersEvent)]


def audit_stages(
    case: Case, stages: Sequence[AnswersEvent], verifier: Verifier
) -> list[StageAudit]:
    """Every stage's elements judged against what had been read (``audit.audit_answers``)."""
    out = []
    for event in stages:
        kinds = [a.kind for a in audit_answers(case, event.read, event.answers, verifier)]
        out.append(
            StageAudit(
                stage=event.stage,
                justified=kinds.count("justified"),
                lucky=kinds.count("lucky"),
                unsupported=kinds.count("unsupported"),
                unjudged=sum(k not in ("justified", "lucky", "unsupported") for k in kinds),
            )
        )
    return out
