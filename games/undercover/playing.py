"""What ``gumshoe play undercover`` asks and shows: Undercover-V's play options and its printer
(each round's descriptions with their card checks, each ballot with a prover agent's belief,
the result; the Attributional Score when asked)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from formalize.reading.reader import ReaderKind
from games.core.agents import combined_fallbacks
from games.core.played import PlayedGame
from games.core.printer import Echo, GamePrinter
from games.core.protocol import GameState
from games.core.settings import DEFAULT_PROVER_TIMEOUT_S
from games.undercover.checker import ProverChecker
from games.undercover.engine import UndercoverState, normalise_description
from games.undercover.events import (
    DescriptionEvent,
    EliminationEvent,
    Side,
    TieEvent,
    UndercoverSetup,
    ViolationEvent,
    VoteEvent,
)
from games.undercover.events import GameEnd as UndercoverEnd
from games.undercover.events import GameStart as UndercoverStart
from games.undercover.lexicon import Lexicon
from games.undercover.metrics import Similarity
from games.undercover.words import WordPair
from provers.registry import DEFAULT_PROVER, PROVER_NAMES

DEFAULT_UNDERCOVER_AGENTS = "prover*5,plain"
"""The seats of ``gumshoe play undercover`` when none are given."""
DEFAULT_UNDERCOVER_PAIR = "earl-grey-tea-ceylon-tea"
"""The word pair of ``gumshoe play undercover`` when none is given."""


class UndercoverOptions(BaseModel):
    """Undercover-V's own options of ``gumshoe play undercover``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pair: str = Field(
        default=DEFAULT_UNDERCOVER_PAIR,
        description="Word pair: its id, or its words as 'Earl Grey Tea/Ceylon Tea'.",
    )
    spy_agent: str | None = Field(
        default=None, description="Put this agent at the spy's seat, whatever --agents says."
    )
    prover: str = Field(
        default=DEFAULT_PROVER,
        description=f"Prover of the card checks ({', '.join(PROVER_NAMES)}).",
    )
    timeout: float = Field(
        default=DEFAULT_PROVER_TIMEOUT_S, ge=0.1, le=86400.0, description="Seconds per prover call."
    )
    pairs_file: Path | None = Field(default=None, description="Extra word pairs (JSON).")
    lexicon: Path | None = Field(
        default=None, description="Lexicon folder (default: the shipped lexicon)."
    )
    scores: bool = Field(
        default=False, description="Also print each seat's Attributional Score (loads MiniLM)."
    )
    reader: ReaderKind = Field(
        default="offline",
        description="Who reads the descriptions for the card checks: offline (no endpoint), llm "
        "(the endpoint, under the early-stop vote), or combined (the LLM where the offline reader "
        "is unsure)",
    )


def find_pair(text: str, catalogue: Mapping[str, WordPair]) -> WordPair:
    """A word pair by its id or by its two words as ``A/B`` (either order, case ignored)."""
    wanted = text.strip()
    if wanted in catalogue:
        return catalogue[wanted]
    words = {normalise_description(w) for w in wanted.split("/")}
    for pair in catalogue.values():
        if len(words) == 2 and words == {normalise_description(w) for w in pair.words}:
            return pair
    known = "; ".join(f"{p.id} ({p.words[0]}/{p.words[1]})" for p in catalogue.values())
    raise ValueError(f"pair: no word pair {text!r}; choose one of {known}")


class UndercoverPrinter(GamePrinter):
    """An Undercover-V game as it is played, round by round: each description with its card
    check (the verification record), each ballot with the role belief of a prover agent."""

    def __init__(self, echo: Echo, scores: tuple[Lexicon, Similarity] | None = None) -> None:
        """Print through ``echo``; with a lexicon and a word similarity in ``scores``, each
        seat's Attributional Score at the end."""
        super().__init__(echo)
        self.scores = scores
        self.agents: Sequence[Any] = ()
        self.checker: ProverChecker | None = None
        self._round = 0

    def start(self, agents: Sequence[Any], state: GameState) -> None:
        """Keep the agents (for their names and beliefs) and the referee's checker."""
        self.agents = agents
        if isinstance(state, UndercoverState) and isinstance(state.checker, ProverChecker):
            self.checker = state.checker

    def write(self, event: BaseModel) -> None:
        """Print ``event``."""
        super().write(event)
        if isinstance(event, UndercoverStart):
            self._start(event)
        elif isinstance(event, DescriptionEvent):
            self._description(event)
        elif isinstance(event, ViolationEvent):
            self.echo(f"      violation ({event.kind.value}): {event.message}")
        elif isinstance(event, VoteEvent):
            self._vote(event)
        elif isinstance(event, EliminationEvent):
            was = "the spy" if event.was_spy else "a citizen"
            self.echo(f"  seat {event.seat} is voted out with {event.votes} votes: {was}")
        elif isinstance(event, TieEvent):
            seats = ", ".join(str(s) for s in event.seats)
            self.echo(
                f"  tie between seats {seats} ({event.votes} votes each): nobody leaves "
                f"({event.consecutive} tie(s) in a row)"
            )
        elif isinstance(event, UndercoverEnd):
            self.echo("")
            self.echo(
                f"Result: the {event.winner.value} win ({event.reason.value.replace('_', ' ')}) "
                f"after {event.rounds} round(s); citizens voted out: "
                f"{event.citizens_eliminated}/{event.citizens}; rule violations: "
                f"{event.violations}"
            )

    def finish(self, played: PlayedGame) -> None:
        """The LLM seats' fallbacks, if any; each seat's Attributional Score when asked."""
        fallbacks = combined_fallbacks(played.fallbacks)
        if fallbacks.total:
            self.echo(f"LLM fallbacks: {fallbacks.counts}")
        if self.scores is None:
            return
        from games.undercover.metrics import game_metrics

        lexicon, similarity = self.scores
        metrics = game_metrics(played.log(), lexicon, similarity)
        self.echo("")
        self.echo("Attributional Score (seed 002, eqs. 8-10; MiniLM cosine):")
        for s in metrics.seats:
            self.echo(
                f"  seat {s.seat} [{s.agent}, {s.role.value}]: soundness {_num(s.soundness)}, "
                f"alignment {_num(s.alignment)}, score {_num(s.score)}"
            )

    def _start(self, event: UndercoverStart) -> None:
        if self.header is None:
            raise ValueError("the game's log starts without its header")
        setup = UndercoverSetup.model_validate(self.header.config)
        self.echo(
            f"Undercover-V: {setup.config.players} players, seed {self.header.seed}, "
            f"pair {setup.pair.words[0]} / {setup.pair.words[1]}"
        )
        self.echo(
            f"spy: seat {event.spy_seat} holding {event.spy_word!r}; "
            f"citizens hold {event.citizen_word!r}"
        )
        seats = ", ".join(f"{seat}={s.agent}" for seat, s in enumerate(self.header.seats))
        prover = "" if self.checker is None else f"; card checks by {self.checker.test.prover.name}"
        self.echo(f"agents: {seats}{prover}")

    def _description(self, event: DescriptionEvent) -> None:
        if event.round != self._round:
            self._round = event.round
            self.echo("")
            self.echo(f"Round {event.round}")
        name = self.agents[event.seat].name if self.agents else event.seat
        self.echo(f"  seat {event.seat} [{name}]: {event.text}")
        records = self.checker.records if self.checker is not None else []
        detail = f" ({records[-1].result.detail})" if records else ""
        self.echo(f"      check: {event.outcome.value}{detail}")

    def _vote(self, event: VoteEvent) -> None:
        from games.undercover.prover_agent import ProverAgent

        self.echo("  vote:")
        for ballot in event.ballots:
            agent = self.agents[ballot.voter] if self.agents else None
            belief = ""
            if isinstance(agent, ProverAgent) and agent.decisions:
                last = agent.decisions[-1]
                role = "spy" if last.role is Side.SPY else "citizen"
                belief = f"  (believes {role}: {last.reason})"
            self.echo(f"    seat {ballot.voter} -> seat {ballot.target}{belief}")


def _num(value: float | None) -> str:
    return "undefined" if value is None else f"{value:.3f}"
