"""What ``gumshoe play mystery`` asks and shows: the interrogation game's play options and its
printer (introductions, questions and answers with the lies marked, the votes, the reveal, and
the exact audit)."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from formalize.interrogation.questions import render_question
from games.core.play import play_game
from games.core.played import PlayedGame
from games.core.printer import GamePrinter
from games.mystery.engine import MysteryState
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
from games.mystery.objectives import points_met


class MysteryOptions(BaseModel):
    """The interrogation game's own options of ``gumshoe play mystery``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    script: Path | None = Field(
        default=None, description="Play this script file (JSON) instead of generated scripts."
    )
    alibis: bool = Field(
        default=False,
        description="Introductions also say where each character was at each crime's hour.",
    )


class MysteryPrinter(GamePrinter):
    """The finished game in English with its exact audit (``transcript``)."""

    def finish(self, played: PlayedGame) -> None:
        """The transcript of ``played``."""
        if not isinstance(played.state, MysteryState):
            raise TypeError(f"an interrogation game, not {type(played.state).__name__}")
        for line in transcript(played.state):
            self.echo(line)


def mystery_demo(seed: int, rounds: int) -> list[str]:
    """One short game of prover-backed agents (``rounds`` questioning rounds), as a transcript."""
    from games.mystery.entry import ENTRY

    config = ENTRY.default_config(5).model_copy(update={"rounds": rounds})
    played = play_game(ENTRY, ("prover",) * 5, seed, config=config)
    assert isinstance(played.state, MysteryState)
    return transcript(played.state)


def transcript(state: MysteryState) -> list[str]:
    """The game in English: introductions, questions and answers (lies marked), votes, reveal,
    and the exact audit (entropy per round, pruning, lies)."""
    from games.mystery.audit import audit_game

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
