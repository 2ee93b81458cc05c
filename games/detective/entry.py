"""The detective game on the shared game core: building a game's case, its logged actions, its
log rules, ``ENTRY``."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.core.log import GameLog, LogHeader, SeatInfo
from games.core.printer import Echo
from games.core.registry import GameEntry, PlaySetup
from games.detective.agents import AGENTS, DetectiveAgentSettings
from games.detective.case import Case, CaseKnobs, load_case
from games.detective.engine import INFO, Answer, DetectiveState, Visit
from games.detective.events import (
    DETECTIVE_EVENT,
    AnswersEvent,
    CaseStart,
    DetectiveConfig,
    DetectiveEvent,
    VisitEvent,
)
from games.detective.generator import generate_case
from games.detective.playing import DetectiveOptions, DetectivePrinter

if TYPE_CHECKING:
    from pydantic import BaseModel

    from games.core.audit import AuditRecord
    from games.core.view import ViewParts


@lru_cache(maxsize=64)
def _generated(seed: int, knobs: CaseKnobs) -> Case:
    from provers.registry import get_prover
    from provers.sat_session import SatSession

    return generate_case(seed, get_prover("sat"), SatSession, knobs)


def game_case(config: DetectiveConfig, seed: int) -> Case:
    """The case a game plays: the case file's, or the one generated from ``seed`` (checked by
    the SAT backend); CaseError or GenerationError when there is none."""
    path = config.case_path()
    if path is not None:
        return load_case(path)
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


class DetectiveEntry(
    GameEntry[DetectiveEvent, DetectiveConfig, DetectiveAgentSettings, DetectiveOptions]
):
    """The detective game in the registry of games."""

    info = INFO
    play_options = DetectiveOptions
    model_agents = "llm"
    default_agents = "prover"
    config_type = DetectiveConfig
    event_adapter = DETECTIVE_EVENT
    agents = AGENTS

    def default_config(self, players: int) -> DetectiveConfig:
        """A generated case with the default knobs."""
        self.info.check_players(players)
        return DetectiveConfig()

    def config_players(self, config: DetectiveConfig) -> int:
        """One: the detective plays alone."""
        return config.players

    def logged_config(self, log: GameLog[DetectiveEvent]) -> DetectiveConfig:
        """The config a log's header names, its case file found from the log's folder."""
        config = DetectiveConfig.model_validate(log.header.config)
        return config.logged_from(log.path.parent)

    def config_logged_into(self, config: DetectiveConfig, folder: Path) -> DetectiveConfig:
        """The config with its case file named relative to the log's ``folder``."""
        return config.logged_into(folder)

    def new_state(
        self, config: DetectiveConfig, seed: int, seats: Sequence[SeatInfo]
    ) -> DetectiveState:
        """A fresh game of the case ``config`` names (``game_case``)."""
        return DetectiveState(game_case(config, seed))

    def reward_function(self) -> Callable[..., list[float | None]]:
        """The detective game's reward function in TRL's shape (``games.detective.reward``)."""
        from games.detective.reward import reward

        return reward

    def answer_models(self) -> list[type[BaseModel]]:
        """The detective game's answer models at their largest (``games.detective.llm_schemas``)."""
        from games.detective.llm_schemas import largest_answer_models

        return largest_answer_models()

    def audit(self, log: GameLog[DetectiveEvent]) -> AuditRecord:
        """The detective game's audit (``games.detective.audit``)."""
        from games.detective.audit import audit_record

        return audit_record(log)

    def view(self, log: GameLog[DetectiveEvent]) -> ViewParts:
        """The detective game's step texts and knowledge panels (``games.detective.view``)."""
        from games.detective.view import detective_view

        return detective_view(log)

    def play_setup(
        self,
        options: DetectiveOptions,
        specs: tuple[str, ...],
        seed: int,
        settings: DetectiveAgentSettings,
        recorded: DetectiveConfig | None,
    ) -> PlaySetup[DetectiveConfig, DetectiveAgentSettings]:
        """A case generated with ``options``' knobs, or ``options.case`` once it passes
        ``gumshoe detective check`` (the command ends there with status 2 and the first failing
        place when it does not)."""
        if recorded is not None:
            return PlaySetup(recorded, settings, specs)
        if options.case is not None:
            from games.detective.cli import DEFAULT_CHECK_PROVER, checked_case

            checked_case(options.case, DEFAULT_CHECK_PROVER)
        knobs = CaseKnobs(questions=options.questions, locations=options.locations)
        case_file = None if options.case is None else str(options.case)
        return PlaySetup(DetectiveConfig(knobs=knobs, case_file=case_file), settings, specs)

    def printer(
        self, options: DetectiveOptions, settings: DetectiveAgentSettings, echo: Echo
    ) -> DetectivePrinter:
        """Each stage's grades and the scores (``games.detective.playing``)."""
        return DetectivePrinter(echo, options.autograde, settings)

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
