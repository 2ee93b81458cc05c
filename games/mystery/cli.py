"""``gumshoe mystery ...``: generate an interrogation script file, check one against the acceptance
checks; the script files ``gumshoe play mystery --script`` and the benchmarks read."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from formalize.interrogation.acceptance import check_scripts
from formalize.interrogation.script import Scripts
from formalize.interrogation.script_file import ScriptFileError, dump_scripts, load_scripts
from formalize.interrogation.script_generate import ScriptConfig, ScriptGenerationError
from games.core.cli import (
    fail,
)
from games.core.runlog import field_errors
from games.mystery.entry import scripts_for
from games.mystery.events import (
    ROUNDS,
    MysteryConfig,
)
from provers.registry import get_prover
from reasoning.outfile import write_atomic

mystery_app = typer.Typer(
    help="Interrogation scripts: generate a script file, check one against the acceptance checks.",
    no_args_is_help=True,
    add_completion=False,
)


def game_config(
    players: int, script_file: Path | None, alibis: bool = False, rounds: int = ROUNDS
) -> MysteryConfig:
    """The default game for ``players`` seats, on ``script_file``'s scripts when given, with
    alibis in the introductions when asked, and ``rounds`` questioning rounds."""
    return MysteryConfig(
        scripts=ScriptConfig(players=players),
        script_file=None if script_file is None else str(script_file.resolve()),
        alibis=alibis,
        rounds=rounds,
    )


def checked_scripts(path: Path, players: int | None = None) -> Scripts:
    """The scripts of the file at ``path`` once they pass the acceptance checks (for
    ``players`` seats, when given); otherwise exit 2 with one line naming the failing part."""
    try:
        scripts = load_scripts(path)
    except ScriptFileError as err:
        fail(err)
    if players is not None and len(scripts.players) != players:
        fail(f"{path}: {len(scripts.players)} players, but {players} seats were given")
    problems = check_scripts(scripts, get_prover("sat"))
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        fail(f"{path}: {problems[0]}{more}")
    return scripts


@mystery_app.command("check")
def check_script(
    script_file: Annotated[Path, typer.Argument(help="A script file (JSON).")],
) -> None:
    """Check a script file against the acceptance checks (exit 2 and the failing part when it
    breaks one)."""
    scripts = checked_scripts(script_file)
    setting = scripts.world.setting
    typer.echo(
        f"{script_file}: passes; players {len(scripts.players)}, crimes {len(setting.crimes)}, "
        f"murderers {len(scripts.murderers)}, lies in the cover stories "
        f"{sum(len(scripts.lies(m)) for m in scripts.murderers)}"
    )


@mystery_app.command("generate")
def generate_script(
    seed: Annotated[int, typer.Option(help="Seed of the scripts; the same seed, the same file.")],
    out: Annotated[Path, typer.Option(help="Where to write the script file (JSON).")],
    players: Annotated[int, typer.Option(help="Living characters (4-8).")] = 5,
) -> None:
    """Generate a game's scripts (accepted by the prover) and write them as a script file."""
    try:
        scripts = scripts_for(seed, ScriptConfig(players=players))
    except ValidationError as err:
        fail(field_errors(err).replace("field '", "option '--"))
    except ScriptGenerationError as err:
        fail(err)
    try:
        write_atomic(out, dump_scripts(scripts))
    except OSError as err:
        fail(f"{out}: cannot write: {err.strerror or err}")
    typer.echo(f"{out}: {scripts.world.setting.title}, {len(scripts.players)} players")
