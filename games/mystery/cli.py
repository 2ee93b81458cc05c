"""``gumshoe play mystery``: play one interrogation game and print it with its exact audit."""

from __future__ import annotations

from typing import Annotated

import typer
from pydantic import ValidationError

from formalize.interrogation.questions import render_question
from games.core.cli import (
    BaseUrl,
    LogFolder,
    Model,
    Record,
    RecordedRun,
    fail,
    llm_settings,
    prepare_out,
    record_or_replay,
    usage_footer,
)
from games.core.play import play_game
from games.core.runlog import EventLog
from games.mystery.agents import AGENTS, AgentSettings
from games.mystery.audit import audit_game
from games.mystery.engine import MysteryState
from games.mystery.entry import ENTRY
from games.mystery.events import (
    Answered,
    Asked,
    GameEnd,
    Introduction,
    Voted,
    record_fact,
    record_question,
)
from games.mystery.llm_agents import say_facts


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
    return lines


def play_mystery(
    agents: Annotated[
        str,
        typer.Option(help=f"One agent per seat ({', '.join(AGENTS.names)}); one name fills 5."),
    ] = "prover",
    seed: Annotated[int, typer.Option(help="Seed of the scripts and the agents.")] = 0,
    out: LogFolder = None,
    record: Record = False,
    replay: RecordedRun = None,
    model: Model = None,
    base_url: BaseUrl = None,
) -> None:
    """Play one interrogation game on generated scripts and print it with its exact audit."""
    try:
        specs = AGENTS.parse(agents)
        if len(specs) == 1:
            specs = specs * 5
        ENTRY.info.check_players(len(specs), "agents")
        record_in = record_or_replay(record, out, replay)
        llm = llm_settings(model, base_url, record_in, replay)
        if AGENTS.needs_llm(specs) and not llm.configured and replay is None:
            raise ValueError("--agents: an LLM agent needs --base-url")
        if out is not None:
            prepare_out(out)
        game_id = f"mystery-seed{seed}"
        settings = AgentSettings(llm=llm).for_game(game_id, len(specs))
        if out is None:
            played = play_game(ENTRY, specs, seed, settings)
        else:
            with EventLog(out / f"{game_id}.jsonl") as log:
                played = play_game(ENTRY, specs, seed, settings, log=log)
    except (ValueError, ValidationError) as err:
        fail(err)
    assert isinstance(played.state, MysteryState)
    for line in [*transcript(played.state), *usage_footer(played.seat_meters())]:
        typer.echo(line)
