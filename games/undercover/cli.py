"""``gumshoe play undercover``: play a seeded Undercover-V game and print its record."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer
from pydantic import BaseModel, ValidationError

from games.core.agents import agent_meters, combined_fallbacks
from games.core.cli import (
    CommandOptions,
    SeatsFileOption,
    fail,
    llm_settings,
    prepare_out,
    usage_footer,
    with_options,
)
from games.core.errors import GAME_ERRORS
from games.core.log import LogHeader
from games.core.play import check_seats, play_agents
from games.core.runlog import EventLog, EventSink, game_id
from games.core.seats import Seating, seating
from games.core.settings import GameSettings
from games.undercover.agent import Agent as UndercoverAgent
from games.undercover.agents import AGENTS as UNDERCOVER_AGENTS
from games.undercover.agents import AgentSettings as UndercoverAgentSettings
from games.undercover.agents import seat_agents, spec_at_seats
from games.undercover.checker import ProverChecker
from games.undercover.engine import INFO, UndercoverGame, normalise_description
from games.undercover.entry import ENTRY
from games.undercover.events import (
    DescriptionEvent,
    EliminationEvent,
    Side,
    TieEvent,
    UndercoverConfig,
    UndercoverSetup,
    ViolationEvent,
    VoteEvent,
)
from games.undercover.events import GameEnd as UndercoverEnd
from games.undercover.events import GameStart as UndercoverStart
from games.undercover.lexicon import Lexicon
from games.undercover.llm_calls import recorded_model, recording_clients, replay_clients
from games.undercover.metrics import MiniLMSimilarity, game_metrics
from games.undercover.prover_agent import ProverAgent
from games.undercover.words import WordPair, pair_catalogue
from provers.registry import DEFAULT_PROVER, PROVER_NAMES, get_prover
from reasoning.llm import LLMSettings, UsageMeter
from reasoning.prover import ProverUnavailable

DEFAULT_UNDERCOVER_AGENTS = "prover*5,plain"
DEFAULT_UNDERCOVER_PAIR = "earl-grey-tea-ceylon-tea"


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


def undercover_llm(model: str | None, base_url: str | None) -> LLMSettings:
    """The LLM settings of the Undercover-V commands: the options over the environment.

    Calls are recorded and replayed one file per game and seat (``--record`` / ``--replay``), so a
    single recording file from the environment is refused: every seat would append to it.
    """
    llm = llm_settings(model, base_url)
    if llm.record_path is not None or llm.replay_path is not None:
        raise ValueError(
            "GUMSHOE_LLM_RECORD_PATH / GUMSHOE_LLM_REPLAY_PATH: Undercover-V records one file "
            "per game and seat; unset them and use --record / --replay"
        )
    return llm


class UndercoverTranscript:
    """An event sink that prints an Undercover-V game as it is played, round by round.

    Each description comes with its card check (the verification record), each ballot with
    the role belief of a prover agent; events are passed on to ``log`` when one is given.
    """

    def __init__(
        self,
        agents: Sequence[UndercoverAgent],
        checker: ProverChecker,
        log: EventSink | None = None,
        echo: Callable[[str], None] = typer.echo,
    ) -> None:
        """Print the game of ``agents`` judged by ``checker`` through ``echo``."""
        self.agents = agents
        self.checker = checker
        self.log = log
        self.echo = echo
        self._round = 0
        self.header: LogHeader | None = None

    def write(self, event: BaseModel) -> None:
        """Print ``event`` (and log it)."""
        if isinstance(event, LogHeader):
            self.header = event
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
        if self.log is not None:
            self.log.write(event)

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
        self.echo(f"agents: {seats}; card checks by {self.checker.test.prover.name}")

    def _description(self, event: DescriptionEvent) -> None:
        if event.round != self._round:
            self._round = event.round
            self.echo("")
            self.echo(f"Round {event.round}")
        name = self.agents[event.seat].name
        self.echo(f"  seat {event.seat} [{name}]: {event.text}")
        record = self.checker.records[-1] if self.checker.records else None
        detail = f" ({record.result.detail})" if record is not None else ""
        self.echo(f"      check: {event.outcome.value}{detail}")

    def _vote(self, event: VoteEvent) -> None:
        self.echo("  vote:")
        for ballot in event.ballots:
            agent = self.agents[ballot.voter]
            belief = ""
            if isinstance(agent, ProverAgent) and agent.decisions:
                last = agent.decisions[-1]
                role = "spy" if last.role is Side.SPY else "citizen"
                belief = f"  (believes {role}: {last.reason})"
            self.echo(f"    seat {ballot.voter} -> seat {ballot.target}{belief}")


@with_options(CommandOptions)
def play_undercover(
    shared: CommandOptions,
    agents: Annotated[
        str | None,
        typer.Option(
            help=f"One agent per seat, comma-separated ({', '.join(UNDERCOVER_AGENTS.names)}); "
            f"`prover*5` repeats; `nli@MODEL` names an LLM seat's model. {INFO.min_players} to "
            f"{INFO.max_players} seats (default: {DEFAULT_UNDERCOVER_AGENTS}).",
            show_default=False,
        ),
    ] = None,
    seats: SeatsFileOption = None,
    seed: Annotated[int, typer.Option(help="Seed of the seating and of the agents.")] = 0,
    pair: Annotated[
        str, typer.Option(help="Word pair: its id, or its words as 'Earl Grey Tea/Ceylon Tea'.")
    ] = DEFAULT_UNDERCOVER_PAIR,
    spy_agent: Annotated[
        str | None, typer.Option(help="Put this agent at the spy's seat, whatever --agents says.")
    ] = None,
    prover: Annotated[
        str, typer.Option(help=f"Prover of the card checks ({', '.join(PROVER_NAMES)}).")
    ] = DEFAULT_PROVER,
    timeout: Annotated[float, typer.Option(min=0.1, help="Seconds per prover call.")] = 10.0,
    pairs_file: Annotated[
        Path | None, typer.Option(help="Extra word pairs (JSON, see the README).")
    ] = None,
    lexicon: Annotated[
        Path | None, typer.Option(help="Lexicon folder (default: the shipped lexicon).")
    ] = None,
    scores: Annotated[
        bool, typer.Option(help="Also print each seat's Attributional Score (loads MiniLM).")
    ] = False,
    replay: Annotated[
        Path | None,
        typer.Option(
            help="Answer the LLM calls from the recordings of the same game (pair and seed) that "
            "--record wrote into this folder, one file per game and seat; no endpoint is needed.",
        ),
    ] = None,
) -> None:
    """Play one seeded Undercover-V game and print each round's descriptions, their card
    checks (the verification record) and the vote."""
    out, model = shared.out, shared.model
    similarity = MiniLMSimilarity() if scores else None
    try:
        seated_specs, _ = seating(
            agents,
            seats,
            UNDERCOVER_AGENTS,
            default=DEFAULT_UNDERCOVER_AGENTS,
            min_seats=INFO.min_players,
            max_seats=INFO.max_players,
        )
        specs = UNDERCOVER_AGENTS.parse(seated_specs.agents)
        check_seats(ENTRY, len(specs))
        GameSettings(prover_timeout_s=timeout)
        if out is not None:
            prepare_out(out)
        if spy_agent is not None:
            UNDERCOVER_AGENTS.model(spy_agent)
        catalogue = pair_catalogue(pairs_file)
        chosen = find_pair(pair, catalogue)
        lex = Lexicon.load(lexicon, catalogue.values())
        config = UndercoverConfig.model_validate({"players": len(specs)})
        game = UndercoverGame(config, chosen, seed)
        names = [*specs, *([spy_agent] if spy_agent else [])]
        if any(not UNDERCOVER_AGENTS.get(n).needs_llm for n in names):
            for word in chosen.words:
                if not lex.has(word):
                    raise ValueError(
                        f"no lexicon entry for {word!r}: the offline agents need one "
                        "(give a lexicon folder with --lexicon)"
                    )
        name = undercover_game_name(chosen.id, seed)
        at_seats = spec_at_seats(specs, game, spy_agent)
        if replay is not None and model is None:
            own = [s for s, n in enumerate(at_seats) if UNDERCOVER_AGENTS.model(n) is None]
            model = recorded_model(replay, name, own)
        llm = undercover_llm(model, shared.base_url)
        seat_clients = None
        if replay is not None:
            seat_clients = replay_clients(replay, name, llm.model, UsageMeter.for_settings(llm))
        elif UNDERCOVER_AGENTS.needs_llm(at_seats):
            missing = Seating(agents=",".join(at_seats), endpoints=seated_specs.endpoints)
            problem = missing.endpoint_missing(UNDERCOVER_AGENTS, llm)
            if problem is not None:
                raise problem
            if shared.record_in is not None:
                seat_clients = recording_clients(shared.record_in, name)
        settings = UndercoverAgentSettings.create(
            lex, get_prover(prover), timeout=timeout, llm=llm, endpoints=seated_specs.endpoints
        )
        settings = replace(settings, seat_clients=seat_clients)
        seated = seat_agents(specs, game, settings, spy_agent)
    except (ValueError, ValidationError, ProverUnavailable) as err:
        fail(err)
    checker = ProverChecker(settings.test)
    setup = UndercoverSetup(config=config, pair=chosen)
    referee = ENTRY.judged_by(game, checker)
    path = None
    try:
        if out is not None:
            path = out / f"{name}.jsonl"
            with EventLog(path) as log:
                sink = UndercoverTranscript(seated, checker, log)
                played = play_agents(ENTRY, seated, seed, setup, sink, state=referee)
        else:
            sink = UndercoverTranscript(seated, checker)
            played = play_agents(ENTRY, seated, seed, setup, sink, state=referee)
    except GAME_ERRORS as err:
        fail(err, 1)
    fallbacks = combined_fallbacks(played.fallbacks)
    if UNDERCOVER_AGENTS.needs_llm(a.name for a in seated) and fallbacks.total:
        typer.echo(f"LLM fallbacks: {fallbacks.counts}")
    labelled = {
        f"seat {seat} {agent.name}": meters
        for seat, agent in enumerate(seated)
        if (meters := agent_meters(agent))
    }
    for line in usage_footer(labelled):
        typer.echo(line)
    if similarity is not None:
        metrics = game_metrics(played.log(), lex, similarity)
        typer.echo("")
        typer.echo("Attributional Score (seed 002, eqs. 8-10; MiniLM cosine):")
        for s in metrics.seats:
            typer.echo(
                f"  seat {s.seat} [{s.agent}, {s.role.value}]: soundness {_num(s.soundness)}, "
                f"alignment {_num(s.alignment)}, score {_num(s.score)}"
            )
    if path is not None:
        typer.echo(f"\nlog: {path}")


def undercover_game_name(pair: str, seed: int) -> str:
    """The name of a played game's log and LLM recording: ``undercover-<pair>-seed<seed>``."""
    return game_id("undercover", seed, pair)


def _num(value: float | None) -> str:
    return "undefined" if value is None else f"{value:.3f}"
