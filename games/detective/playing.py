"""What ``gumshoe play detective`` asks and shows: the detective game's play options and its
printer (each visit and stage with its exact grades, the scores P, F, O and the best
achievable, and the LLM autograder's grades of the final answers when asked)."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from games.core.played import PlayedGame
from games.core.printer import Echo, GamePrinter
from games.core.settings import AgentSettings
from games.detective.autograder import MODES
from games.detective.case import CaseKnobs
from games.detective.engine import DetectiveState
from games.detective.events import AnswersEvent, VisitEvent

_KNOBS = CaseKnobs.model_fields


class DetectiveOptions(BaseModel):
    """The detective game's own options of ``gumshoe play detective``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    case: Path | None = Field(
        default=None,
        description="Play this case file (it must pass `gumshoe detective check`) instead of a "
        "generated one.",
    )
    questions: int = Field(
        default=_KNOBS["questions"].default,
        ge=2,
        le=5,
        description="Questions of a generated case.",
    )
    locations: int = Field(
        default=_KNOBS["locations"].default,
        ge=4,
        le=20,
        description="Locations of a generated case.",
    )
    autograde: int | None = Field(
        default=None,
        ge=min(MODES),
        le=max(MODES),
        description="Also grade the final answers with the LLM autograder in this mode (1-5).",
    )


class DetectivePrinter(GamePrinter):
    """The case, each visit and stage, the scores and, when asked, the autograder's grades."""

    def __init__(self, echo: Echo, autograde: int | None, settings: AgentSettings) -> None:
        super().__init__(echo)
        self.autograde = autograde
        self.settings = settings

    def finish(self, played: PlayedGame) -> None:
        """The stages' grades and the scores of ``played``; the autograder's, when asked."""
        from games.detective.agents import LLMAgent
        from games.detective.planner import best_achievable

        state = played.state
        if not isinstance(state, DetectiveState):
            raise TypeError(f"a detective game, not {type(state).__name__}")
        case = state.case
        self.echo(f"{case.title}: {len(case.questions)} questions, {len(case.locations)} locations")
        for event in state.events():
            if isinstance(event, VisitEvent):
                self.echo(f"  visit {event.stage}: {case.location(event.location).title}")
            elif isinstance(event, AnswersEvent):
                grades = (
                    "ungraded"
                    if event.grades is None
                    else " ".join("unjudged" if g is None else str(g) for g in event.grades)
                )
                slots = event.answers.values()
                given = sum(v is not None for answer in slots for v in answer.values())
                self.echo(f"  stage {event.stage}: {given} elements given, grades {grades}")
        if isinstance(played.agents[0], LLMAgent):
            self.echo(f"fallbacks: {played.fallbacks[0].total}")
        if state.score is not None:
            best = best_achievable(case).score
            self.echo(
                f"score: P {state.score.progressive:.2f}  F {state.score.final:.2f}  "
                f"O {state.score.overall:.2f}  (best achievable O {best.overall:.2f})"
            )
        if self.autograde is not None:
            self._autograde(state, played.header.seed)

    def _autograde(self, state: DetectiveState, seed: int | None) -> None:
        from games.core.llm_player import seat_client
        from games.detective.autograder import AutoGrader, answer_text

        assert self.autograde is not None
        client = seat_client(self.settings.seat_llm(0), 0)
        grader = AutoGrader(client, self.autograde, seed=seed or 0)
        final = state.stages[-1]
        for q in state.case.questions:
            grade = grader.grade(state.case, q, answer_text(q, final[q.id]))
            self.echo(f"  autograder mode {self.autograde}: {q.id} final answer {grade}")
