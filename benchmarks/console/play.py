"""``gumshoe play <game>`` for every registered game: the game's own command, or the generic one
for a game that names none."""

# No ``from __future__ import annotations``: typer reads the generic command's option help, built
# from the game's entry, from annotations evaluated when the command is made.

from collections.abc import Callable
from importlib import import_module
from typing import Annotated, Any

import typer

from games.core.cli import (
    CommandOptions,
    fail,
    prepare_out,
    usage_footer,
    with_options,
)
from games.core.errors import PLAY_ERRORS
from games.core.play import play_game
from games.core.recordings import game_llm_settings
from games.core.registry import GameEntry, get_game
from games.core.runlog import EventLog, game_id


def play_command(name: str) -> Callable[..., None]:
    """The play command of game ``name``: the one its entry names, else ``generic_play``."""
    entry = get_game(name)
    if entry.play_command is None:
        return generic_play(entry)
    module, attribute = entry.play_command.split(":")
    command: Callable[..., None] = getattr(import_module(module), attribute)
    return command


def generic_play(entry: GameEntry[Any]) -> Callable[..., None]:
    """A play command for ``entry``: registry agents at the smallest table by default, a seed,
    the log under --out, the LLM calls recorded or replayed; prints the result."""
    offline = [n for n, t in entry.agents.types.items() if not t.needs_llm]
    default = ",".join(offline[:1] * entry.info.min_players)
    game = entry.info.name

    @with_options(CommandOptions)
    def play(
        shared: CommandOptions,
        agents: Annotated[
            str,
            typer.Option(
                help=f"One agent per seat ({', '.join(entry.agents.names)}); `name*n` repeats."
            ),
        ] = default,
        seed: Annotated[int, typer.Option(min=0, help="Seed of the game and its agents.")] = 0,
    ) -> None:
        """Play one game with registry agents and print its result."""
        gid = game_id(game, seed)
        out = shared.out
        try:
            specs = entry.agents.parse(agents)
            if out is not None:
                prepare_out(out)
            settings = entry.default_settings()
            if "llm" in getattr(type(settings), "model_fields", {}):
                llm = game_llm_settings(shared.llm(), gid, len(specs))
                settings = settings.model_copy(update={"llm": llm})
        except ValueError as err:
            fail(err)
        path = None if out is None else out / f"{gid}.jsonl"
        try:
            if path is None:
                played = play_game(entry, specs, seed, settings)
            else:
                with EventLog(path) as log:
                    played = play_game(entry, specs, seed, settings, log=log)
        except PLAY_ERRORS as err:
            fail(err, 1)
        result = played.result
        typer.echo(f"{game}, seed {seed}: {', '.join(specs)}")
        typer.echo(f"result: {result.reason}; returns {list(result.returns)}")
        for line in usage_footer(played.seat_meters()):
            typer.echo(line)
        if path is not None:
            typer.echo(f"log: {path}")

    play.__doc__ = f"Play one {game} game with registry agents and print its result."
    return play
