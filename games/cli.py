"""``gumshoe play ...`` and ``gumshoe audit clue``: play games (Clue, Undercover-V) and audit
Clue logs."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import BaseModel, ValidationError

from games.clue.agents import AGENTS, AgentSettings
from games.clue.audit import audit_events, audit_log, render_audit
from games.clue.cards import ClueConfig
from games.clue.play import play_seated
from games.clue.transcript import describe_deduction, transcript
from games.core.runlog import EventLog, EventSink, LogError
from games.undercover.agent import Agent as UndercoverAgent
from games.undercover.agents import AGENTS as UNDERCOVER_AGENTS
from games.undercover.agents import AgentSettings as UndercoverAgentSettings
from games.undercover.agents import seat_agents
from games.undercover.checker import ProverChecker
from games.undercover.engine import UndercoverGame, normalise_description, play_game
from games.undercover.events import (
    DescriptionEvent,
    EliminationEvent,
    Side,
    TieEvent,
    UndercoverConfig,
    UndercoverEvent,
    ViolationEvent,
    VoteEvent,
)
from games.undercover.events import GameEnd as UndercoverEnd
from games.undercover.events import GameStart as UndercoverStart
from games.undercover.lexicon import Lexicon
from games.undercover.llm_calls import (
    recorded_model,
    recording_client,
    recording_path,
    replay_client,
)
from games.undercover.metrics import MiniLMSimilarity, game_metrics
from games.undercover.prover_agent import ProverAgent
from games.undercover.words import WordPair, pair_catalogue
from provers.registry import DEFAULT_PROVER, PROVER_NAMES, get_prover
from reasoning.llm import (
    ChatClient,
    LLMEndpointError,
    LLMSettings,
    ReplayError,
    UsageMeter,
    make_client,
)
from reasoning.prover import ProverUnavailable

play_app = typer.Typer(help="Play a game and print what happens.", no_args_is_help=True)

DEFAULT_CLUE_AGENTS = "prover,prover,random,prover,prover,prover"
"""The seats of `gumshoe play clue` and `gumshoe bench clue` when none are given."""


def llm_agent_settings(
    model: str | None, base_url: str | None, record: Path | None, replay: Path | None
) -> AgentSettings:
    """Agent settings with the LLM options given on the command line over the environment's."""
    given: dict[str, Any] = {
        key: value
        for key, value in {
            "model": model,
            "base_url": base_url,
            "record_path": record,
            "replay_path": replay,
        }.items()
        if value is not None
    }
    return AgentSettings(llm=LLMSettings(**given) if given else None)


@play_app.command("clue")
def play_clue(
    agents: Annotated[
        str,
        typer.Option(
            help=f"One agent per seat, comma-separated ({', '.join(AGENTS.names)}); "
            "`prover*6` repeats."
        ),
    ] = DEFAULT_CLUE_AGENTS,
    seed: Annotated[int, typer.Option(help="Seed of the deal and of the agents.")] = 0,
    rounds: Annotated[int, typer.Option(help="Round limit.")] = 30,
    out: Annotated[
        Path | None, typer.Option(help="Folder to write the game's JSONL log into.")
    ] = None,
    model: Annotated[str | None, typer.Option(help="LLM model for llm agents.")] = None,
    base_url: Annotated[
        str | None, typer.Option(help="OpenAI-compatible endpoint for llm agents.")
    ] = None,
    record: Annotated[
        bool,
        typer.Option(
            "--record",
            help="Record every LLM call into the --out folder, one file per seat: "
            "OUT/llm/clue-seed<N>.seat<k>.jsonl.",
        ),
    ] = False,
    replay: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help="Answer the LLM calls from the recordings of a game played with --record "
            "and --out DIR (same agents, seed, rounds and model); no endpoint needed.",
        ),
    ] = None,
) -> None:
    """Play one seeded Clue game, print every turn, then the deduction audit."""
    game_id = f"clue-seed{seed}"
    try:
        specs = AGENTS.parse(agents)
        config = ClueConfig(n_players=len(specs), max_rounds=rounds)
        if record and out is None:
            raise ValueError("--record needs --out: the calls are recorded in OUT/llm/")
        if record and replay is not None:
            raise ValueError("--record and --replay cannot be combined")
        settings = llm_agent_settings(model, base_url, out if record else None, replay)
        settings = settings.for_game(game_id, len(specs))
    except ValueError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    path = None
    try:
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            path = out / f"{game_id}.jsonl"
            with EventLog(path) as log:
                played = play_seated(specs, seed, config, settings, log)
        else:
            played = play_seated(specs, seed, config, settings)
    except (LLMEndpointError, ReplayError, ValueError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(1) from None
    events = played.events()
    for line in transcript(events):
        typer.echo(line)
    if any(played.fallbacks):
        typer.echo("fallbacks per seat: " + ", ".join(str(f) for f in played.fallbacks))
    typer.echo("")
    typer.echo(render_audit(audit_events(events, source=str(path) if path else None)))
    if path is not None:
        typer.echo(f"\nlog: {path}")


def audit_clue(
    log: Annotated[Path, typer.Argument(help="A Clue game log (JSONL, see the README).")],
    player: Annotated[
        list[int] | None, typer.Option(help="Audit only this seat (repeatable).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Judge every stated deduction of a Clue log: entailed / contradicted / undetermined by
    what its author knew, true / false by the deal; per-player counts and recall."""
    try:
        audit = audit_log(log, player or None)
    except OSError as err:
        typer.echo(f"{log}: {err.strerror or err}", err=True)
        raise typer.Exit(2) from None
    except LogError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(audit.model_dump_json())
        return
    typer.echo(render_audit(audit))
    for p in audit.players:
        for check in p.checks:
            plain = check.kind == "sound" or (
                check.kind == "unjudged" and check.status.value == "ENTAILED"
            )
            if plain or check.repeat:
                continue
            what = describe_deduction(check.deduction, audit.names)
            truth = f", {check.truth.value}" if check.truth else ""
            typer.echo(
                f"line {check.line}: {p.name} states {what!r}: {check.status.value}{truth}"
                + (f" -> {check.kind}" if check.kind != "unjudged" else "")
            )


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

    Calls are recorded and replayed one file per game (``--record`` / ``--replay``), so a single
    recording file from the environment is refused: every game would append to it.
    """
    llm = llm_agent_settings(model, base_url, None, None).llm_settings()
    if llm.record_path is not None or llm.replay_path is not None:
        raise ValueError(
            "GUMSHOE_LLM_RECORD_PATH / GUMSHOE_LLM_REPLAY_PATH: Undercover-V records one file "
            "per game; unset them and use --record / --replay"
        )
    return llm


def undercover_client(
    names: Sequence[str], llm: LLMSettings, replay: Path | None = None
) -> ChatClient | None:
    """The chat client the Undercover-V agents ``names`` need: None when all are offline; one
    answering from the recording ``replay`` when given (no endpoint needed); else ValueError
    naming the first LLM agent when no endpoint is configured."""
    needing = [n for n in names if UNDERCOVER_AGENTS.get(n).needs_llm]
    if not needing:
        return None
    if replay is not None:
        return replay_client(replay, llm.model, UsageMeter.for_settings(llm))
    if not llm.configured:
        raise ValueError(
            f"agent {needing[0]!r} needs an LLM endpoint: give --base-url (and --model), or set "
            "GUMSHOE_LLM_BASE_URL / OPENAI_API_KEY"
        )
    return make_client(llm)


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

    def write(self, event: BaseModel) -> None:
        """Print ``event`` (and log it)."""
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
        self.echo(
            f"Undercover-V: {event.config.players} players, seed {event.seed}, "
            f"pair {event.pair.words[0]} / {event.pair.words[1]}"
        )
        self.echo(
            f"spy: seat {event.spy_seat} holding {event.spy_word!r}; "
            f"citizens hold {event.citizen_word!r}"
        )
        seats = ", ".join(f"{seat}={name}" for seat, name in enumerate(event.agents))
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


@play_app.command("undercover")
def play_undercover(
    agents: Annotated[
        str,
        typer.Option(
            help=f"One agent per seat, comma-separated ({', '.join(UNDERCOVER_AGENTS.names)}); "
            "`prover*5` repeats. 4 to 10 seats."
        ),
    ] = DEFAULT_UNDERCOVER_AGENTS,
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
    out: Annotated[
        Path | None, typer.Option(help="Folder to write the game's JSONL log into.")
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(help="LLM model for LLM agents (with --replay: the recorded one)."),
    ] = None,
    base_url: Annotated[
        str | None, typer.Option(help="OpenAI-compatible endpoint for LLM agents.")
    ] = None,
    record: Annotated[
        bool,
        typer.Option(
            "--record",
            help="Record this game's LLM calls into the --out folder, one file per game: "
            "llm/undercover-<pair>-seed<seed>.jsonl (rewritten when the game is played again).",
        ),
    ] = False,
    replay: Annotated[
        Path | None,
        typer.Option(
            help="Answer the LLM calls from the recording of the same game (pair and seed) that "
            "--record wrote into this folder; no endpoint is needed.",
        ),
    ] = None,
) -> None:
    """Play one seeded Undercover-V game and print each round's descriptions, their card
    checks (the verification record) and the vote."""
    try:
        if record and out is None:
            raise ValueError("--record keeps the LLM calls next to the game's log: give --out")
        if record and replay is not None:
            raise ValueError("--record and --replay cannot be used together")
        specs = UNDERCOVER_AGENTS.parse(agents)
        if spy_agent is not None:
            UNDERCOVER_AGENTS.get(spy_agent)
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
        replay_path = None if replay is None else recording_path(replay, name)
        if replay_path is not None and model is None:
            model = recorded_model(replay_path)
        client = undercover_client(names, undercover_llm(model, base_url), replay_path)
        if record and out is not None and client is not None:
            client = recording_client(client, recording_path(out, name))
        settings = UndercoverAgentSettings.create(
            lex, get_prover(prover), timeout=timeout, client=client
        )
        seated = seat_agents(specs, game, settings, spy_agent)
    except (ValueError, ValidationError, ProverUnavailable) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    checker = ProverChecker(settings.test)
    path = None
    try:
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            path = out / f"{name}.jsonl"
            with EventLog(path) as log:
                play_game(game, seated, checker, UndercoverTranscript(seated, checker, log))
        else:
            play_game(game, seated, checker, UndercoverTranscript(seated, checker))
    except (LLMEndpointError, ReplayError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(1) from None
    if client is not None and settings.fallbacks.count():
        typer.echo(f"LLM fallbacks: {settings.fallbacks.snapshot().counts}")
    if scores:
        events: list[UndercoverEvent] = [game.start_event([a.name for a in seated]), *game.events]
        metrics = game_metrics(events, lex, MiniLMSimilarity())
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
    return f"undercover-{pair}-seed{seed}"


def _num(value: float | None) -> str:
    return "undefined" if value is None else f"{value:.3f}"
