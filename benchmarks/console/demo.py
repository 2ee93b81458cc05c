"""``gumshoe demo``: the main job on the embedded default, offline and without a key.

It proves and refutes seed 002's tea example with Z3 and with E (where installed), shows the
countermodel, audits a small Clue-like set of claims with the SAT backend, and plays an offline
Undercover-V game whose descriptions are checked against their speakers' cards; then a small
generated detective case played by the prover-backed agent with its grades, a short
murder-mystery game with its pruning audit, and a 3-player Hanabi game with the symbolic
agent, each turn with the acting seat's exact knowledge.
"""

from __future__ import annotations

from collections.abc import Callable

import typer

from games.clue.audit import audit_game, render_audit
from games.clue.entry import ENTRY as CLUE
from games.clue.transcript import transcript
from games.core.play import play_game
from games.core.registry import game_names, get_game
from games.detective.audit import audit_stages
from games.detective.case import CaseKnobs
from games.detective.engine import DetectiveState
from games.detective.entry import ENTRY as DETECTIVE
from games.detective.events import AnswersEvent, DetectiveConfig
from games.detective.planner import best_achievable
from games.hanabi.entry import ENTRY as HANABI
from games.hanabi.events import HanabiConfig
from games.hanabi.playing import HanabiPrinter
from games.mystery.playing import mystery_demo
from games.undercover.agents import UndercoverAgentSettings
from games.undercover.entry import ENTRY as UNDERCOVER
from games.undercover.events import UndercoverConfig, UndercoverSetup
from games.undercover.playing import UndercoverPrinter
from games.undercover.words import builtin_pairs
from provers.eprover import eprover_available
from provers.registry import get_prover
from reasoning.prover import Prover
from reasoning.syntax import parse_formula
from reasoning.theory import parse_theory, with_goal
from reasoning.verifier import Verifier

TEA_THEORY = """\
# Seed 002's running example, in gumshoe's theory syntax.
axiom fact_1: exists x y e. Tea(x) & Bergamot(y) & Infuse(e) & Agent(e, x) & Patient(e, y)
axiom rule_2: forall x y e. Tea(x) & Bergamot(y) & Infuse(e) & Agent(e, x) & Patient(e, y)
    -> EarlGrey(x) & ~CeylonTea(x)
goal: exists x. EarlGrey(x)
"""

CLUE_KNOWLEDGE = [
    "exactly 1 of {alice_knife, bob_knife, envelope_knife}",
    "exactly 1 of {alice_rope, bob_rope, envelope_rope}",
    "exactly 1 of {alice_pipe, bob_pipe, envelope_pipe}",
    "exactly 1 of {alice_knife, alice_rope, alice_pipe}",
    "exactly 1 of {bob_knife, bob_rope, bob_pipe}",
    "alice_knife",
]
CLUE_DEAL = [
    "alice_knife",
    "bob_pipe",
    "envelope_rope",
    "~alice_rope",
    "~alice_pipe",
    "~bob_knife",
    "~bob_rope",
    "~envelope_knife",
    "~envelope_pipe",
]
CLUE_CLAIMS = ["~bob_knife", "bob_knife", "envelope_rope", "envelope_pipe"]


def _section(title: str) -> None:
    typer.echo("")
    typer.echo(f"== {title} ==")


def _prove_tea(prover: Prover) -> None:
    theory = parse_theory(TEA_THEORY, source="tea.thy")
    for goal_text in ("exists x. EarlGrey(x)", "exists x. CeylonTea(x)"):
        probe = with_goal(theory, parse_formula(goal_text))
        assert probe.goal is not None
        result = prover.prove(probe.axioms, probe.goal, 10.0)
        typer.echo(
            f"{prover.name:8s} goal {goal_text:26s} -> {result.verdict.value}"
            f"  ({result.elapsed_s * 1000:.1f} ms)"
        )
        if result.used_axioms:
            typer.echo(f"{'':8s} used axioms: {', '.join(result.used_axioms)}")
        if result.countermodel is not None:
            typer.echo(f"{'':8s} countermodel:")
            for line in result.countermodel.render().splitlines():
                typer.echo(f"{'':10s}{line}")
        elif result.verdict.value == "INVALID":
            typer.echo(f"{'':8s} {result.message}")


def tea_section() -> None:
    """Prove and refute the tea example with every first-order backend available here."""
    _section("Tea example (seed 002): prove and refute")
    typer.echo(TEA_THEORY.rstrip())
    typer.echo("")
    _prove_tea(get_prover("z3"))
    if eprover_available():
        _prove_tea(get_prover("eprover"))
    else:
        typer.echo("eprover  skipped: E prover not installed (apt-get install eprover)")
    _prove_tea(get_prover("vote"))


def audit_section() -> None:
    """Audit a few stated deductions about a tiny Clue deal with the SAT backend."""
    _section("Deduction audit with the SAT backend")
    typer.echo(
        "Alice knows: every card has one place, each hand holds one card, she holds the knife."
    )
    report = Verifier(get_prover("sat")).audit(CLUE_KNOWLEDGE, CLUE_CLAIMS, truth=CLUE_DEAL)
    typer.echo(f"knowledge consistent: {report.knowledge_consistent}")
    for check in report.checks:
        truth = check.correctness.value if check.correctness else "?"
        typer.echo(f"  claim {check.claim:16s} {check.status.value:13s} {truth:5s} -> {check.kind}")
    typer.echo(f"kinds: {report.kind_counts}")


CLUE_DEMO_SEED = 7
"""The deal of the demo's Clue game."""
CLUE_DEMO_AGENTS = ("prover",) * 6
"""The demo's Clue seats: six prover-backed agents."""


def clue_section() -> None:
    """Play a seeded 6-player Clue game with prover-backed agents; print the turns and the audit."""
    _section(f"Clue: six prover-backed agents, seed {CLUE_DEMO_SEED}")
    played = play_game(CLUE, CLUE_DEMO_AGENTS, CLUE_DEMO_SEED)
    log = played.log()
    for line in transcript(log.events, log.header.seats, played.result.ranks):
        typer.echo(line)
    typer.echo("")
    typer.echo(render_audit(audit_game(log)))


UNDERCOVER_DEMO_SEED = 12
UNDERCOVER_DEMO_PAIR = "earl-grey-tea-ceylon-tea"
UNDERCOVER_DEMO_AGENTS = ("prover",) * 5 + ("plain",)


def undercover_section() -> None:
    """Play a seeded offline Undercover-V game with prover-backed agents (Z3 checks every
    description against its speaker's card) and print each round's verification record."""
    _section(f"Undercover-V: offline prover-backed agents, seed {UNDERCOVER_DEMO_SEED}")
    pair = next(p for p in builtin_pairs() if p.id == UNDERCOVER_DEMO_PAIR)
    config = UndercoverConfig.model_validate({"players": len(UNDERCOVER_DEMO_AGENTS)})
    setup = UndercoverSetup(config=config, pair=pair)
    settings = UndercoverAgentSettings.create(prover=get_prover("z3"))
    printer = UndercoverPrinter(typer.echo)
    play_game(
        UNDERCOVER,
        UNDERCOVER_DEMO_AGENTS,
        UNDERCOVER_DEMO_SEED,
        settings,
        setup,
        printer,
        start=printer.start,
    )


DETECTIVE_DEMO_SEED = 7
DETECTIVE_DEMO_KNOBS = CaseKnobs(
    locations=6, questions=2, red_herrings=1, distractors=3, words_per_card=30
)
"""The demo's detective case: small, so that it plays in a second or two."""


def detective_section() -> None:
    """Play a small generated detective case with the prover-backed agent; print each stage's
    exact grades, the scores next to the best achievable, and how the answers' elements audit."""
    _section(f"Detective: a generated case played by the prover agent, seed {DETECTIVE_DEMO_SEED}")
    config = DetectiveConfig(knobs=DETECTIVE_DEMO_KNOBS)
    state = play_game(DETECTIVE, ["prover"], DETECTIVE_DEMO_SEED, config=config).state
    assert isinstance(state, DetectiveState)
    case = state.case
    typer.echo(f"{case.title}: " + " / ".join(q.text for q in case.questions))
    stages = [e for e in state.events() if isinstance(e, AnswersEvent)]
    audits = audit_stages(case, stages, Verifier(get_prover("sat")))
    for event, audit in zip(stages, audits, strict=True):
        where = case.location(event.read[-1]).title if event.read else "the introduction"
        typer.echo(
            f"  after {where:32s} grades {event.grades}  elements: {audit.sound} sound, "
            f"{audit.lucky} lucky, {audit.wrong} wrong"
        )
    best = best_achievable(case).score
    if state.score is not None:
        typer.echo(
            f"scores: P {state.score.progressive:.2f}  F {state.score.final:.2f}  "
            f"O {state.score.overall:.2f}; best achievable O {best.overall:.2f}"
        )


def mystery_section() -> None:
    """Play a short interrogation game with prover-backed agents and print its pruning audit."""
    _section("Murder mystery: five prover-backed agents, seed 3, two rounds")
    for line in mystery_demo(seed=3, rounds=2):
        typer.echo(line)


HANABI_DEMO_SEED = 3
"""The deal of the demo's Hanabi game."""
HANABI_DEMO_PLAYERS = 3


def hanabi_section() -> None:
    """Play a seeded 3-player Hanabi game with the symbolic agent; print each turn with the acting
    seat's exact knowledge of its own hand."""
    _section(f"Hanabi: three symbolic agents on exact card knowledge, seed {HANABI_DEMO_SEED}")
    config = HanabiConfig(players=HANABI_DEMO_PLAYERS)
    specs = ("symbolic",) * HANABI_DEMO_PLAYERS
    printer = HanabiPrinter(typer.echo, "exact")
    played = play_game(HANABI, specs, HANABI_DEMO_SEED, None, config, printer, printer.watch)
    printer.finish(played)


GAME_SECTIONS: dict[str, Callable[[], None]] = {
    "clue": clue_section,
    "undercover": undercover_section,
    "detective": detective_section,
    "mystery": mystery_section,
    "hanabi": hanabi_section,
}
"""The games whose demo section shows more than a played game's result."""


def default_section(name: str) -> None:
    """Play registered game ``name`` with its first offline agent in every seat of the smallest
    table, seed 0, and print the result (the section of a game with none of its own)."""
    entry = get_game(name)
    offline = next(n for n, t in entry.agents.types.items() if not t.needs_llm)
    specs = (offline,) * entry.info.min_players
    _section(f"{name}: {', '.join(specs)}, seed 0")
    settings = entry.default_settings()
    printer = entry.printer(entry.play_options(), settings, typer.echo)
    played = play_game(entry, specs, 0, settings, log=printer, watch=printer.watch)
    printer.finish(played)


def run_demo() -> None:
    """Run the prover and audit sections, then one section per registered game."""
    tea_section()
    audit_section()
    for name in game_names():
        section = GAME_SECTIONS.get(name)
        if section is None:
            default_section(name)
        else:
            section()
