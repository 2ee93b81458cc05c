"""``gumshoe play mystery``: play one interrogation game and print it with its exact audit."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from formalize.interrogation.acceptance import check_scripts
from formalize.interrogation.questions import render_question
from formalize.interrogation.script import Scripts
from formalize.interrogation.script_file import ScriptFileError, dump_scripts, load_scripts
from formalize.interrogation.script_generate import ScriptConfig, ScriptGenerationError
from games.core.cli import (
    CommandOptions,
    fail,
    prepare_out,
    usage_footer,
    with_options,
)
from games.core.errors import GAME_ERRORS
from games.core.play import check_seats, play_game
from games.core.runlog import EventLog, field_errors, game_id
from games.mystery.agents import AGENTS, AgentSettings
from games.mystery.audit import audit_game
from games.mystery.engine import MysteryState
from games.mystery.entry import ENTRY, scripts_for
from games.mystery.events import (
    ROUNDS,
    Answered,
    Asked,
    GameEnd,
    Introduction,
    MysteryConfig,
    Voted,
    record_fact,
    record_question,
)
from games.mystery.llm_agents import say_facts
from games.mystery.objectives import points_met
from provers.sat_prover import SatProver
from reasoning.outfile import write_atomic


def mystery_demo(seed: int, rounds: int) -> list[str]:
    """One short game of prover-backed agents (``rounds`` questioning rounds), as a transcript."""
    config = ENTRY.default_config(5).model_copy(update={"rounds": rounds})
    played = play_game(ENTRY, ("prover",) * 5, seed, config=config)
    assert isinstance(played.state, MysteryState)
    return transcript(played.state)


def transcript(state: MysteryState) -> list[str]:
    """The game in English: introductions, questions and answers (lies marked), votes, reveal,
    and the exact audit (entropy per round, pruning, lies)."""
    scripts = state.scripts
    setting = scripts.world.setting
    name = [setting.person(p).name for p in scripts.players]
    lines = [f"{setting.title}: " + say_facts(setting, scripts.intro)]
    for event in state.events():
        if isinstance(event, Introduction):
            lines.append(f"  P{event.seat} {event.text}")
        elif isinstance(event, Asked):
            question = render_question(setting, record_question(event.question))
            lines.append(
                f"round {event.round}  {name[event.seat]} -> {name[event.answerer]}: {question}"
            )
        elif isinstance(event, Answered):
            facts = [record_fact(f) for f in event.facts]
            said = event.relation or (say_facts(setting, facts) if facts else "(declines)")
            lines.append(f"    {'LIE ' if event.lie else ''}{said}")
        elif isinstance(event, Voted):
            victim = setting.person(setting.crimes[event.crime - 1].victim).name
            ballots = ", ".join(f"{name[b.voter]}->{name[b.target]}" for b in event.ballots)
            accused = "nobody" if event.accused is None else name[event.accused]
            lines.append(f"vote on {victim}: {ballots}; accused {accused}")
        elif isinstance(event, GameEnd):
            killers = ", ".join(setting.person(p).name for p in sorted(scripts.murderers))
            lines.append(f"reveal: the murderers were {killers}; {event.winner} win")
    audit = audit_game(scripts, state.events(), state.config.rounds)
    for seat, history in audit.entropy.items():
        steps = " -> ".join(f"{h:.2f}" for h in history)
        lines.append(f"audit {name[seat]}: H {steps}")
    lines.append(f"audit pruning of stated suspects: {dict(audit.pruning)}")
    lines.append(
        f"audit lies said: {len(audit.lies)}, each by a murderer: "
        f"{all(f.speaker in scripts.murderers for f in audit.lies)}"
    )
    for seat, scores in audit.objectives.items():
        met, possible = points_met(scores)
        marks = "; ".join(
            f"{s.objective.text.rstrip('.')} {'met' if s.met else 'not met'}"
            for s in scores
            if s.met is not None
        )
        lines.append(f"objectives {name[seat]}: {met}/{possible} points ({marks})")
    return lines


mystery_app = typer.Typer(
    help="Interrogation scripts: generate a script file, check one against the acceptance checks.",
    no_args_is_help=True,
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
    problems = check_scripts(scripts, SatProver())
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


@with_options(CommandOptions)
def play_mystery(
    shared: CommandOptions,
    agents: Annotated[
        str,
        typer.Option(help=f"One agent per seat ({', '.join(AGENTS.names)}); one name fills 5."),
    ] = "prover",
    seed: Annotated[int, typer.Option(help="Seed of the scripts and the agents.")] = 0,
    script: Annotated[
        Path | None,
        typer.Option(help="Play this script file (JSON) instead of generated scripts."),
    ] = None,
    alibis: Annotated[
        bool,
        typer.Option(help="Introductions also say where each character was at each crime's hour."),
    ] = False,
) -> None:
    """Play one interrogation game on generated scripts (or a script file) and print it with
    its exact audit."""
    out = shared.out
    try:
        specs = AGENTS.parse(agents)
        if len(specs) == 1:
            specs = specs * 5
        check_seats(ENTRY, len(specs))
        llm = shared.llm()
        if AGENTS.needs_llm(specs) and not llm.configured and shared.replay is None:
            raise ValueError("--agents: an LLM agent needs --base-url")
    except (ValueError, ValidationError) as err:
        fail(err)
    if script is not None:
        checked_scripts(script, len(specs))
    try:
        if out is not None:
            prepare_out(out)
        gid = game_id("mystery", seed)
        config = game_config(len(specs), script, alibis)
        settings = AgentSettings(llm=llm).for_game(gid, len(specs))
        if out is None:
            played = play_game(ENTRY, specs, seed, settings, config)
        else:
            with EventLog(out / f"{gid}.jsonl") as log:
                played = play_game(ENTRY, specs, seed, settings, config, log=log)
    except (ValueError, ValidationError) as err:
        fail(err)
    except GAME_ERRORS as err:
        fail(err, 1)
    assert isinstance(played.state, MysteryState)
    for line in [*transcript(played.state), *usage_footer(played.seat_meters())]:
        typer.echo(line)
