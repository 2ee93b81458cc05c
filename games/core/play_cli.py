"""``gumshoe play <game>``: the one play command, for every registered game.

The shared options come from ``games.core.cli.CommandOptions`` (the log folder, the endpoint,
``--reasoning-effort``, ``--record`` / ``--replay``), with ``--agents`` (one name fills every
seat), ``--seed`` and, where the game has more than one seat, ``--seats FILE``; a game's own
options are the fields of its entry's ``play_options`` model, and its entry's printer shows the
game. One exit policy: 2 for bad input (an option, a file, an agent, a missing recording), 1 for
a game that fails (an endpoint that fails for good, a replay that does not match), 130 after
Ctrl-C (the console's root group).
"""

# No ``from __future__ import annotations``: typer reads the options' help, built from the
# game's entry, from annotations evaluated when the command is made.

import inspect
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args, get_origin

import typer
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from games.core.cli import CommandOptions, fail, prepare_out, usage_footer, with_options
from games.core.registry import GameEntry, get_game

if TYPE_CHECKING:
    from games.core.log import GameLog
    from games.core.seats import SeatEndpoint
    from games.core.settings import AgentSettings


def play_command(name: str) -> Callable[..., None]:
    """The ``gumshoe play`` command of game ``name``."""
    entry = get_game(name)
    return command_for(entry)


def command_for(entry: GameEntry[Any, Any, Any, Any]) -> Callable[..., None]:
    """The play command of ``entry``: the shared options, ``--agents``, ``--seed``, ``--seats``
    where the game has seats, and one option per field of ``entry.play_options``."""
    game = entry.info.name
    parameters, flags = game_option_parameters(entry)
    seated = entry.info.max_players > 1
    own = [
        inspect.Parameter("shared", inspect.Parameter.KEYWORD_ONLY, annotation=CommandOptions),
        _parameter("agents", agents_option(entry), str | None),
        _parameter(
            "seed",
            typer.Option(
                min=0,
                help="Seed of the game and its agents (default: 0; with --replay: the recorded "
                "game's).",
                show_default=False,
            ),
            int | None,
        ),
    ]
    if seated:
        own.append(_parameter("seats", _seats_option(), Path | None))
    own += parameters

    def play(shared: CommandOptions, **given: Any) -> None:
        agents, seed = given.pop("agents"), given.pop("seed")
        seats = given.pop("seats", None)
        chosen = {name: value for name, value in given.items() if value is not None}
        run_play(entry, shared, agents, seed, seats, chosen, flags)

    play.__signature__ = inspect.Signature(own)  # type: ignore[attr-defined]
    play.__doc__ = f"Play one {game} game and print it."
    return with_options(CommandOptions)(play)


def run_play(
    entry: GameEntry[Any, Any, Any, Any],
    shared: CommandOptions,
    agents: str | None,
    seed: int | None,
    seats: Path | None,
    given: dict[str, Any],
    flags: dict[str, str],
) -> None:
    """Play one game of ``entry`` from the command's values (``given``: the game's options the
    command line set) and print it; exits 2 on bad input (a bad option or file, an unknown
    agent, a backend that cannot run here, a missing recording), 1 when the game fails."""
    from games.core.errors import PLAY_ERRORS
    from games.core.play import check_seats, play_game
    from games.core.printer import Tee
    from games.core.recordings import recorded_seat_calls
    from games.core.runlog import EventLog
    from games.core.settings import AgentSettings
    from reasoning.prover import ProverUnavailable

    bad_input = (ValueError, ValidationError, ProverUnavailable, OSError)
    try:
        recorded = None if shared.replay is None else recorded_log(entry, shared.replay, seed)
        if shared.replay is not None and recorded is None and agents is None and seats is None:
            which = "" if seed is None else f" dealt from seed {seed}"
            raise ValueError(
                f"--replay: {shared.replay} holds no game log of {entry.info.name}{which}; "
                "give --agents (and --seed) to replay its recordings"
            )
        options = game_options(entry, given, flags)
        seed = seed if seed is not None else (recorded.seed if recorded is not None else 0)
        if seed > entry.max_seed:
            raise ValueError(f"option '--seed': {entry.info.name} deals from 0 to {entry.max_seed}")
        if agents is None and seats is None and recorded is not None:
            agents = ",".join(s.agent for s in recorded.header.seats)
        specs, endpoints = seating(entry, options, agents, seats)
        llm = shared.llm()
        base = entry.default_settings()
        if not isinstance(base, AgentSettings):
            raise TypeError(f"{entry.info.name}: its agent settings are no AgentSettings")
        settings = base.model_copy(update={"llm": llm, "endpoints": endpoints})
        again = None if recorded is None or given else entry.logged_config(recorded)
        entry.info.check_players(len(specs), "agents")
        setup = entry.play_setup(options, specs, seed, settings, again)
        specs = setup.specs
        check_seats(entry, len(specs), setup.config)
        gid = entry.game_id(setup.config, seed)
        settings = setup.settings.for_game(gid, len(specs))
        _check_endpoint(entry, specs, settings, shared)
        if shared.replay is not None:
            for seat, spec in enumerate(specs):
                if entry.agents.needs_llm([spec]):
                    recorded_seat_calls(shared.replay, gid, seat)
        config = setup.config
        if shared.out is not None:
            prepare_out(shared.out)
            config = entry.config_logged_into(config, shared.out)
    except bad_input as err:
        fail(err)
    printer = entry.printer(options, settings, typer.echo)
    path = None if shared.out is None else shared.out / f"{gid}.jsonl"
    log = None if path is None else EventLog(path)
    try:
        played = play_game(
            entry,
            specs,
            seed,
            settings,
            config,
            Tee(printer, log),
            watch=printer.watch,
            start=printer.start,
        )
    except PLAY_ERRORS as err:
        fail(err, 1)
    finally:
        if log is not None:
            log.close()
    printer.finish(played)
    for line in usage_footer({**played.seat_meters(), **entry.game_meters(played.state)}):
        typer.echo(line)
    if path is not None:
        typer.echo(f"log: {path}")


def recorded_log(
    entry: GameEntry[Any, Any, Any, Any], folder: Path, seed: int | None
) -> "GameLog[Any] | None":
    """The log of the game recorded in ``folder`` (``gumshoe play --out DIR --record``) to play
    again: the folder's only game of ``entry``, or its game dealt from ``seed``; None when there
    is none (the recordings alone are replayed); ValueError when several could be meant,
    LogError for a bad log."""
    found = []
    for path in sorted(folder.glob(f"{entry.info.name}-*.jsonl")):
        log = entry.read_log(path)
        if seed is None or log.seed == seed:
            found.append(log)
    if len(found) > 1:
        raise ValueError(f"--replay: {folder} holds {len(found)} games; give --seed")
    return found[0] if found else None


def seating(
    entry: GameEntry[Any, Any, Any, Any], options: BaseModel, agents: str | None, seats: Path | None
) -> "tuple[tuple[str, ...], tuple[SeatEndpoint | None, ...]]":
    """One agent spec per seat, and each seat's own endpoint: from ``--seats FILE``, else from
    ``--agents`` (one name fills every seat: as many as the game's options say, else as the
    default seat list has), else the default seat list."""
    from games.core.seats import read_seats

    wanted = entry.seat_count(options)
    if seats is not None:
        if agents is not None:
            raise ValueError("--agents and --seats: give one of them")
        info = entry.info
        entries = read_seats(seats, entry.agents, info.min_players, info.max_players)
        if wanted is not None and wanted != len(entries):
            raise ValueError(
                f"{seats} names {len(entries)} seats, but the options ask for {wanted}"
            )
        return tuple(e.spec for e in entries), tuple(e.endpoint for e in entries)
    default = entry.agents.parse(entry.seat_list())
    specs = entry.agents.parse(agents) if agents is not None else default
    if len(set(specs)) == 1 and (len(specs) == 1 or agents is None):
        specs = specs[:1] * (wanted if wanted is not None else len(default))
    elif wanted is not None and wanted != len(specs):
        raise ValueError(f"--agents: {len(specs)} seats named for {wanted} players")
    return specs, ()


def _check_endpoint(
    entry: GameEntry[Any, Any, Any, Any],
    specs: Sequence[str],
    settings: "AgentSettings",
    shared: CommandOptions,
) -> None:
    """ValueError when an LLM seat has no endpoint: neither the command's, nor its own, nor a
    recording to replay."""
    if shared.replay is not None:
        return
    for seat, spec in enumerate(specs):
        if entry.agents.needs_llm([spec]) and not settings.seat_llm(seat).configured:
            raise ValueError(
                f"agent {spec!r} needs an LLM endpoint: give --base-url (and --model), a "
                "base_url per seat in --seats, or set GUMSHOE_LLM_BASE_URL / OPENAI_API_KEY"
            )


def game_option_parameters(
    entry: GameEntry[Any, Any, Any, Any],
) -> tuple[list[inspect.Parameter], dict[str, str]]:
    """The command-line parameters of ``entry``'s own options (each None unless given) and each
    option's flag by field name: what ``gumshoe play`` and ``gumshoe bench`` of a game add."""
    fields = entry.play_options.model_fields
    flags = {name: option_flag(name, field) for name, field in fields.items()}
    return [_option_parameter(n, f, flags[n]) for n, f in fields.items()], flags


def game_options(
    entry: GameEntry[Any, Any, Any, Any], given: dict[str, Any], flags: dict[str, str]
) -> BaseModel:
    """The game's options from the values given, validated; ValueError naming the options."""
    try:
        options: BaseModel = entry.play_options.model_validate(given)
    except ValidationError as err:
        problems = []
        for item in err.errors(include_url=False):
            names = [part for part in item["loc"] if isinstance(part, str)]
            message = item["msg"].removeprefix("Value error, ")
            flag = flags.get(names[0]) if names else None
            problems.append(f"option '{flag}': {message}" if flag else message)
        raise ValueError("; ".join(problems)) from None
    return options


def option_flag(name: str, field: FieldInfo) -> str:
    """The command-line flag of a play option: the field's ``option`` (``json_schema_extra``),
    else ``--`` and its name with dashes."""
    extra = field.json_schema_extra
    chosen = extra.get("option") if isinstance(extra, dict) else None
    return chosen if isinstance(chosen, str) else "--" + name.replace("_", "-")


def _parameter(name: str, option: Any, annotation: Any) -> inspect.Parameter:
    return inspect.Parameter(
        name,
        inspect.Parameter.KEYWORD_ONLY,
        annotation=Annotated[annotation, option],
        default=None,
    )


def agents_option(entry: GameEntry[Any, Any, Any, Any]) -> Any:
    names = ", ".join(entry.agents.names)
    return typer.Option(
        help=f"One agent per seat ({names}), comma-separated; `name*n` repeats; one name fills "
        f"every seat (default: {entry.seat_list()}; with --replay: the recorded game's).",
        show_default=False,
    )


def _seats_option() -> Any:
    return typer.Option(
        "--seats",
        metavar="FILE",
        help='One entry per seat (JSON {"seats": [...]} or JSONL): agent, and for LLM seats '
        "model, base_url, api_key_env (the variable holding the key); in place of --agents.",
    )


def _option_parameter(name: str, field: FieldInfo, flag: str) -> inspect.Parameter:
    """A typer option for a field of a game's play options; None when not given, so that the
    field's own default (shown in the help) applies."""
    kind = _cli_type(field.annotation)
    default = None if field.is_required() else field.default
    shown = "" if default is None else f" (default: {default})"
    help_text = (field.description or "").rstrip(".") + shown + "."
    if kind is bool:
        stem = flag.removeprefix("--")
        option = typer.Option(f"{flag}/--no-{stem}", help=help_text, show_default=False)
    else:
        option = typer.Option(flag, help=help_text, show_default=False)
    return _parameter(name, option, kind | None)


def _cli_type(annotation: Any) -> Any:
    """The type typer parses an option as: the annotation without None, and str for a choice of
    literals (the model checks the choice)."""
    if get_origin(annotation) in (Union, types.UnionType):
        rest = [a for a in get_args(annotation) if a is not type(None)]
        return _cli_type(rest[0]) if len(rest) == 1 else str
    if get_origin(annotation) is Literal:
        return str
    return annotation
