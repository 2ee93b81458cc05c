"""``gumshoe play hanabi``: play a seeded game, printing each turn with the acting seat's
knowledge; ``gumshoe audit hanabi``: score a log's stated deductions exactly."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated

import typer
from pydantic import BaseModel, ValidationError

from games.core.cli import fail, prepare_out
from games.core.errors import GAME_ERRORS
from games.core.log import SeatInfo
from games.core.loop import Agent, play
from games.core.runlog import EventLog, EventSink
from games.hanabi.agents import AGENTS, HanabiAgentSettings
from games.hanabi.audit import audit_log, tally
from games.hanabi.config import HanabiConfig, Scoring
from games.hanabi.engine import HanabiObservation
from games.hanabi.entry import ENTRY
from games.hanabi.events import HANABI_EVENT_TYPES
from games.hanabi.knowledge import KnowledgeView, seat_knowledge
from games.hanabi.render import event_text, knowledge_text, table_text


class Narrated:
    """A seat that prints the table and its own knowledge before its agent moves."""

    def __init__(
        self, agent: Agent, view: KnowledgeView, echo: Callable[[str], None] = typer.echo
    ) -> None:
        self.agent = agent
        self.view = view
        self.echo = echo

    @property
    def name(self) -> str:
        """The agent's name."""
        return self.agent.name

    def act(self, obs: HanabiObservation) -> int:
        """Print the turn's header and the seat's knowledge, then let the agent move."""
        turn = len(obs.history) + 1
        self.echo(f"turn {turn:3d}  P{obs.seat} ({self.agent.name})  {table_text(obs)}")
        knowledge = knowledge_text(seat_knowledge(obs), self.view)
        self.echo(f"          P{obs.seat} knows ({self.view}): {knowledge}")
        action: int = self.agent.act(obs)
        return action


class Transcript:
    """An event sink that prints each Hanabi event and passes every event on to ``log``."""

    def __init__(self, log: EventSink | None = None, echo: Callable[[str], None] = typer.echo):
        self.log = log
        self.echo = echo

    def write(self, event: BaseModel) -> None:
        """Print a Hanabi event (the header and end pass silently) and log it."""
        if isinstance(event, HANABI_EVENT_TYPES):
            self.echo(f"          -> {event_text(event)}")
        if self.log is not None:
            self.log.write(event)


def play_narrated(
    specs: Sequence[str],
    seed: int,
    config: HanabiConfig,
    settings: HanabiAgentSettings,
    view: KnowledgeView,
    log: EventSink | None = None,
    echo: Callable[[str], None] = typer.echo,
) -> float:
    """Play one game dealt from ``seed``, printing every turn; the score."""
    agents = [
        Narrated(AGENTS.make(spec, seat, seed, settings), view, echo)
        for seat, spec in enumerate(specs)
    ]
    seats = [SeatInfo(name=f"P{i}", agent=spec) for i, spec in enumerate(specs)]
    state = ENTRY.new_state(config, seed, seats)
    header = ENTRY.header(config, seed, seats)
    result = play(
        state, agents, header, Transcript(log, echo), max_decisions=ENTRY.info.max_decisions
    )
    return result.returns[0]


def seat_specs(agents: str, players: int) -> tuple[str, ...]:
    """One agent per seat: a single name fills every seat, a seat list must match ``players``."""
    specs = AGENTS.parse(agents)
    if len(specs) == 1:
        return specs * players
    if len(specs) != players:
        raise ValueError(f"agents: {len(specs)} seats named for {players} players")
    return specs


def play_hanabi(
    players: Annotated[int, typer.Option(help="Players, 2 to 5.")] = 3,
    seed: Annotated[
        int, typer.Option(min=0, help="Seed of the deal (the reference engine's).")
    ] = 0,
    agents: Annotated[
        str,
        typer.Option(
            help=f"One agent for every seat, or one per seat ({', '.join(AGENTS.names)}); "
            "`symbolic*2,random` repeats."
        ),
    ] = "symbolic",
    scoring: Annotated[
        str, typer.Option(help="fireworks (the sum, kept at a bomb-out) or hle (a bomb-out is 0).")
    ] = "fireworks",
    view: Annotated[
        str, typer.Option(help="Knowledge printed: exact (joint card counting) or hints.")
    ] = "exact",
    out: Annotated[
        Path | None, typer.Option(help="Folder to write the game's JSONL log into.")
    ] = None,
) -> None:
    """Play one seeded Hanabi game and print each turn with the acting seat's knowledge."""
    try:
        config = HanabiConfig.model_validate({"players": players, "scoring": scoring})
        if view not in ("exact", "hints"):
            raise ValueError(f"--view: must be exact or hints, got {view!r}")
        chosen: KnowledgeView = "exact" if view == "exact" else "hints"
        mode: Scoring = config.scoring
        specs = seat_specs(agents, players)
        settings = HanabiAgentSettings(scoring=mode)
        if out is not None:
            prepare_out(out)
    except (ValueError, ValidationError) as err:
        fail(err)
    typer.echo(f"Hanabi, {players} players, seed {seed}, scoring {mode}: {', '.join(specs)}")
    try:
        if out is None:
            score = play_narrated(specs, seed, config, settings, chosen)
        else:
            path = out / f"hanabi-p{players}-seed{seed}.jsonl"
            with EventLog(path) as log:
                score = play_narrated(specs, seed, config, settings, chosen, log)
            typer.echo(f"log: {path}")
    except GAME_ERRORS as err:
        fail(err)
    typer.echo(f"score ({mode}): {score:g}")


def audit_hanabi(
    log: Annotated[Path, typer.Argument(help="A Hanabi game log (JSONL, our format).")],
    show: Annotated[str, typer.Option(help="Claims to list: wrong, all or none.")] = "wrong",
) -> None:
    """Score every stated deduction in a Hanabi log exactly against the exact card knowledge:
    ENTAILED / CONTRADICTED / UNDETERMINED, TRUE / FALSE, sound / lucky / wrong."""
    try:
        if show not in ("wrong", "all", "none"):
            raise ValueError(f"--show: must be wrong, all or none, got {show!r}")
        audits = audit_log(ENTRY.read_log(log))
    except (ValueError, ValidationError) as err:
        fail(err)
    counts = tally(audits)
    typer.echo(f"{log}: {counts.claims} claims judged, {counts.invalid} invalid")
    typer.echo("status: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.statuses.items())))
    typer.echo("kind:   " + ", ".join(f"{k} {v}" for k, v in sorted(counts.kinds.items())))
    if counts.claims:
        typer.echo(f"tracking accuracy (TRUE share): {counts.true / counts.claims:.3f}")
    for audit in audits:
        if show == "all" or (show == "wrong" and audit.kind == "wrong"):
            claim = audit.claim
            typer.echo(
                f"  turn {audit.turn} P{audit.speaker}: P{claim.seat} slot {claim.slot} is "
                f"[{claim.colors}][{claim.ranks}] -> {audit.status} {audit.correctness} "
                f"{audit.kind} (card {audit.card})"
            )
