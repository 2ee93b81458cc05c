"""The detective game on the shared game core: building a game's case, its logged actions, its
log rules, ``ENTRY``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from games.core.log import LogHeader, SeatInfo
from games.core.registry import GameEntry
from games.detective.agents import AGENTS
from games.detective.case import Case, CaseKnobs, load_case
from games.detective.engine import INFO, Answer, DetectiveState, IllegalAction, Visit
from games.detective.events import (
    DETECTIVE_EVENT,
    AnswersEvent,
    CaseStart,
    DetectiveConfig,
    DetectiveEvent,
    VisitEvent,
)
from games.detective.generator import generate_case


@lru_cache(maxsize=64)
def _generated(seed: int, knobs: CaseKnobs) -> Case:
    from provers.sat_prover import SatProver
    from provers.sat_session import SatSession

    return generate_case(seed, SatProver(), SatSession, knobs)


def game_case(config: DetectiveConfig, seed: int) -> Case:
    """The case a game plays: the case file's, or the one generated from ``seed`` (checked by
    the SAT backend); CaseError or GenerationError when there is none."""
    if config.case_file is not None:
        return load_case(config.case_file)
    return _generated(seed, config.knobs)


def detective_actions(events: Sequence[DetectiveEvent]) -> Iterator[tuple[int, Mapping[int, Any]]]:
    """Every stage's answers and every visit a log records, as actions of seat 0."""
    for index, event in enumerate(events):
        if isinstance(event, AnswersEvent):
            yield index, {0: Answer(event.answers, event.calls, event.texts, event.readings)}
        elif isinstance(event, VisitEvent):
            yield index, {0: Visit(event.location)}


def check_detective_events(events: Sequence[DetectiveEvent]) -> tuple[int, str] | None:
    """The detective log's own rules: it opens with ``case_start``, answers and visits
    alternate from answers, and each stage counts the visits before it."""
    visits = 0
    for index, event in enumerate(events):
        if (index == 0) != isinstance(event, CaseStart):
            return index, "case_start must open the log, once"
        if isinstance(event, VisitEvent):
            if not isinstance(events[index - 1], AnswersEvent):
                return index, "a visit must follow a stage's answers"
            visits += 1
            if event.stage != visits:
                return index, f"stage {event.stage} where {visits} was due"
        elif isinstance(event, AnswersEvent) and (
            event.stage != visits or len(event.read) != visits
        ):
            return index, f"stage {event.stage} after {visits} visits"
    return None


class DetectiveEntry(GameEntry[DetectiveEvent]):
    """The detective game in the registry of games."""

    info = INFO
    play_command = "games.detective.cli:play_detective"
    auditor = "games.detective.audit:audit_record"
    viewer = "games.detective.view:detective_view"
    answer_models = "games.detective.llm_schemas:largest_answer_models"
    reward = "games.detective.reward:reward"
    config_type = DetectiveConfig
    event_adapter = DETECTIVE_EVENT
    agents = AGENTS
    illegal_error = IllegalAction

    def default_config(self, players: int) -> DetectiveConfig:
        """A generated case with the default knobs."""
        self.info.check_players(players)
        return DetectiveConfig()

    def config_players(self, config: BaseModel) -> int:
        """One: the detective plays alone."""
        return DetectiveConfig.model_validate(config).players

    def new_state(self, config: BaseModel, seed: int, seats: Sequence[SeatInfo]) -> DetectiveState:
        """A fresh game of the case ``config`` names (``game_case``)."""
        if not isinstance(config, DetectiveConfig):
            raise TypeError(f"a detective game needs a DetectiveConfig, not {config!r}")
        return DetectiveState(game_case(config, seed))

    def logged_actions(
        self, events: Sequence[DetectiveEvent]
    ) -> Iterator[tuple[int, Mapping[int, Any]]]:
        """See ``detective_actions``."""
        return detective_actions(events)

    def check_events(
        self, header: LogHeader, events: Sequence[DetectiveEvent]
    ) -> tuple[int, str] | None:
        """See ``check_detective_events``."""
        return check_detective_events(events)


ENTRY = DetectiveEntry()
"""The detective game's entry in ``games.core.registry``."""
