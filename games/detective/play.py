"""Playing one detective game with a named agent, and auditing a played log."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from games.core.log import SeatInfo
from games.core.loop import play
from games.core.replay import replay
from games.core.runlog import EventSink, LogError
from games.detective.agents import AgentSettings, LLMAgent, ProverAgent, make_agent
from games.detective.audit import audit_answers
from games.detective.case import Case
from games.detective.engine import DetectiveState, case_digest
from games.detective.entry import ENTRY, game_case
from games.detective.events import AnswersEvent, CaseStart, DetectiveConfig
from reasoning.llm import UsageMeter
from reasoning.verifier import Verifier


def play_game(
    config: DetectiveConfig,
    seed: int,
    agent: str,
    settings: AgentSettings | None = None,
    log: EventSink | None = None,
) -> tuple[DetectiveState, ProverAgent | LLMAgent]:
    """Play the case ``config`` names for ``seed`` with the agent named ``agent``, logging to
    ``log``; the finished state and the agent (for its fallbacks)."""
    seated = make_agent(agent, seed, settings)
    seats = [SeatInfo(name="P0", agent=seated.name)]
    state = ENTRY.new_state(config, seed, seats)
    try:
        play(
            state,
            [seated],
            ENTRY.header(config, seed, seats),
            log,
            max_decisions=ENTRY.info.max_decisions,
        )
    finally:
        if isinstance(seated, ProverAgent):
            seated.close()
    return state, seated


def usage_meters(agent: ProverAgent | LLMAgent) -> tuple[UsageMeter, ...]:
    """The meters of an LLM agent's players (its location choice's, then one per question it
    answered); none for the prover."""
    return agent.meters if isinstance(agent, LLMAgent) else ()


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
    try:
        log = ENTRY.read_log(path)
    except OSError as err:
        raise LogError(Path(path), 1, f"cannot read: {err.strerror or err}") from None
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
