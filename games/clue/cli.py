"""``gumshoe play clue``: play a seeded Clue game and print it with its audit."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from games.clue.agents import AGENTS, AgentSettings
from games.clue.audit import audit_game, render_audit
from games.clue.cards import MAX_ROUNDS
from games.clue.entry import ENTRY
from games.clue.events import ClueConfig
from games.clue.transcript import transcript
from games.core.cli import (
    BaseUrl,
    LogFolder,
    Model,
    Record,
    fail,
    llm_settings,
    prepare_out,
    record_or_replay,
    usage_footer,
)
from games.core.errors import PLAY_ERRORS
from games.core.play import play_game
from games.core.recordings import recorded_seat_calls
from games.core.runlog import EventLog, LogError

DEFAULT_CLUE_AGENTS = "prover,prover,random,prover,prover,prover"
"""The seats of `gumshoe play clue` and `gumshoe bench clue` when none are given."""


def llm_agent_settings(
    model: str | None, base_url: str | None, record: Path | None, replay: Path | None
) -> AgentSettings:
    """Agent settings with the LLM options given on the command line over the environment's."""
    return AgentSettings(llm=llm_settings(model, base_url, record, replay))


def recorded_settings(
    folder: Path, seed: int | None, agents: str | None, rounds: int | None
) -> tuple[int, str, int]:
    """The seed, agents and round limit of the game recorded in ``folder`` (``play clue --out``),
    each unless given; the seed may be left out when the folder holds one game. ValueError names
    what is missing, LogError a bad log."""
    if seed is None:
        logs = sorted(folder.glob("clue-seed*.jsonl"))
        if len(logs) != 1:
            found = f"{len(logs)} games" if logs else "no game log"
            raise ValueError(f"--replay: {folder} holds {found}; give --seed")
        path = logs[0]
    else:
        path = folder / f"clue-seed{seed}.jsonl"
    if not path.is_file():
        raise ValueError(f"--replay: no game log {path}")
    log = ENTRY.read_log(path)
    if log.header.seed is None:
        raise ValueError(f"--replay: {path} does not record the game's seed")
    recorded_agents = ",".join(s.agent for s in log.header.seats)
    config = ClueConfig.model_validate(log.header.config)
    return (
        log.header.seed if seed is None else seed,
        recorded_agents if agents is None else agents,
        config.max_rounds if rounds is None else rounds,
    )


def play_clue(
    agents: Annotated[
        str | None,
        typer.Option(
            help=f"One agent per seat, comma-separated ({', '.join(AGENTS.names)}); "
            f"`prover*6` repeats. [default: {DEFAULT_CLUE_AGENTS}; with --replay: the recorded "
            "game's]"
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed of the deal and of the agents. [default: 0; with --replay: the recorded "
            "game's, when DIR holds one]"
        ),
    ] = None,
    rounds: Annotated[
        int | None,
        typer.Option(
            help=f"Round limit (1-{MAX_ROUNDS}). [default: 30; with --replay: the recorded game's]"
        ),
    ] = None,
    out: LogFolder = None,
    model: Model = None,
    base_url: BaseUrl = None,
    record: Record = False,
    replay: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help="Answer the LLM calls from the recordings of a game played with --record "
            "and --out DIR; its agents, seed, rounds and model are taken from DIR unless given. "
            "No endpoint needed.",
        ),
    ] = None,
) -> None:
    """Play one seeded Clue game, print every turn, then the deduction audit."""
    try:
        if replay is not None:
            seed, agents, rounds = recorded_settings(replay, seed, agents, rounds)
        seed = 0 if seed is None else seed
        rounds = 30 if rounds is None else rounds
        game_id = f"clue-seed{seed}"
        specs = AGENTS.parse(DEFAULT_CLUE_AGENTS if agents is None else agents)
        ENTRY.info.check_players(len(specs), "agents")
        config = ClueConfig(players=len(specs), max_rounds=rounds)
        record_in = record_or_replay(record, out, replay)
        if out is not None:
            prepare_out(out)
        settings = llm_agent_settings(model, base_url, record_in, replay)
        settings = settings.for_game(game_id, len(specs))
        if replay is not None:
            for seat, spec in enumerate(specs):
                if AGENTS.needs_llm([spec]):
                    recorded_seat_calls(replay, game_id, seat)
    except (ValueError, LogError, OSError) as err:
        fail(err)
    path = None
    try:
        if out is not None:
            path = out / f"{game_id}.jsonl"
            with EventLog(path) as sink:
                played = play_game(ENTRY, specs, seed, settings, config, sink)
        else:
            played = play_game(ENTRY, specs, seed, settings, config)
    except PLAY_ERRORS as err:
        fail(err, 1)
    log = played.log(str(path) if path else "<events>")
    for line in transcript(log.events, log.header.seats, played.result.ranks):
        typer.echo(line)
    if any(f.total for f in played.fallbacks):
        typer.echo("fallbacks per seat: " + ", ".join(str(f.total) for f in played.fallbacks))
    for line in usage_footer(played.seat_meters()):
        typer.echo(line)
    typer.echo("")
    typer.echo(render_audit(audit_game(log)))
    if path is not None:
        typer.echo(f"\nlog: {path}")
