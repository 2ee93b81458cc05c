"""``gumshoe detective ...`` (generate a case file, check one against its contract), and
``gumshoe play detective``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from games.core.cli import (
    CommandOptions,
    fail,
    prepare_out,
    usage_footer,
    with_options,
)
from games.core.errors import PLAY_ERRORS
from games.core.llm_player import seat_client
from games.core.play import play_game
from games.core.runlog import EventLog, field_errors, game_id, write_atomic
from games.detective.agents import AGENTS, AgentSettings, LLMAgent
from games.detective.autograder import MODES, AutoGrader, answer_text
from games.detective.case import Case, CaseError, CaseKnobs, dump_case, load_case
from games.detective.check import (
    DEFAULT_TIME_LIMIT,
    CheckLimitError,
    check_case,
    logic_problems,
)
from games.detective.engine import DetectiveState
from games.detective.entry import ENTRY
from games.detective.events import AnswersEvent, DetectiveConfig, VisitEvent
from games.detective.generator import GenerationError, generate_case
from games.detective.planner import best_achievable
from provers.registry import PROVER_NAMES, get_prover
from provers.sat_session import SatSession
from reasoning.prover import Prover, ProverUnavailable

detective_app = typer.Typer(
    help="Detective cases: generate prover-checked cases and check case files.",
    no_args_is_help=True,
)

DEFAULT_CHECK_PROVER = "sat"
"""The backend that checks cases unless another is named (the theory is propositional)."""


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _prover(name: str) -> Prover:
    try:
        return get_prover(name)
    except (ValueError, ProverUnavailable) as err:
        raise _fail(f"--prover: {err}") from None


@detective_app.command("generate")
def generate(
    seed: Annotated[int, typer.Option(help="Seed of the case; the same seed gives the same case.")],
    out: Annotated[Path, typer.Option(help="Where to write the case file (JSON).")],
    prover: Annotated[
        str, typer.Option(help=f"Backend that checks the case: {', '.join(PROVER_NAMES)}.")
    ] = DEFAULT_CHECK_PROVER,
    locations: Annotated[int, typer.Option(help="Number of locations.")] = 15,
    questions: Annotated[int, typer.Option(help="Number of questions (2-5).")] = 3,
    inference_steps: Annotated[
        int, typer.Option(help="Least number of clue facts each answer must need.")
    ] = 2,
    distractors: Annotated[int, typer.Option(help="True but useless facts added.")] = 12,
    red_herrings: Annotated[int, typer.Option(help="Least number of useless locations.")] = 3,
    words_per_card: Annotated[int, typer.Option(help="Target words per location text.")] = 160,
    intro_clues: Annotated[int, typer.Option(help="Clue facts the introduction states.")] = 2,
    long_chains: Annotated[
        bool,
        typer.Option(
            "--long-chains/--short-chains",
            help="Answers from chains of indirect clues (harder) or from direct clues (easier).",
        ),
    ] = True,
) -> None:
    """Generate a case whose answers a prover checks, and write it as a case file."""
    try:
        knobs = CaseKnobs(
            locations=locations,
            questions=questions,
            inference_steps=inference_steps,
            distractors=distractors,
            red_herrings=red_herrings,
            words_per_card=words_per_card,
            intro_clues=intro_clues,
            long_chains=long_chains,
        )
    except ValidationError as err:
        raise _fail(field_errors(err).replace("field '", "option '--").replace("_", "-")) from None
    checker = _prover(prover)
    try:
        case = generate_case(seed, checker, SatSession, knobs)
    except GenerationError as err:
        raise _fail(str(err)) from None
    try:
        write_atomic(out, dump_case(case))
    except OSError as err:
        raise _fail(f"{out}: cannot write: {err.strerror or err}") from None
    best = best_achievable(case)
    typer.echo(
        f"{out}: {case.title}, {len(case.questions)} questions, {len(case.locations)} locations "
        f"({sum(loc.red_herring for loc in case.locations)} red herrings); best overall score "
        f"{best.score.overall:.2f}"
    )


def checked_case(
    case_file: Path, prover: str, time_limit: float = DEFAULT_TIME_LIMIT, verbose: bool = False
) -> Case:
    """The case in ``case_file`` with its unlock sets, once it passes every check; otherwise
    exit 2 with one line naming the file and the first failing place."""
    try:
        case = load_case(case_file)
    except CaseError as err:
        raise _fail(str(err)) from None
    problems = logic_problems(case)
    if not case.checkable and not problems:
        return case
    checker = _prover(prover)

    def computing() -> None:
        if verbose:
            typer.echo(f"{case_file}: computing the missing unlock sets")

    try:
        case, problems = check_case(case, checker, SatSession, time_limit, computing)
    except (CheckLimitError, ValueError) as err:
        raise _fail(f"{case_file}: {err}") from None
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise _fail(f"{case_file}: {problems[0]}{more}")
    return case


@detective_app.command("check")
def check(
    case_file: Annotated[Path, typer.Argument(help="A case file (JSON).")],
    prover: Annotated[
        str, typer.Option(help=f"Backend that checks the case: {', '.join(PROVER_NAMES)}.")
    ] = DEFAULT_CHECK_PROVER,
    time_limit: Annotated[
        float, typer.Option(min=0.1, help="Seconds the check may take before it gives up.")
    ] = DEFAULT_TIME_LIMIT,
) -> None:
    """Check a case file against everything the generator promises (exit 2 and the first
    failing place when it breaks it) and print its best achievable score."""
    case = checked_case(case_file, prover, time_limit, verbose=True)
    if not case.checkable:
        typer.echo(
            f"{case_file}: no logic (setting and formulas); it can only be graded by a model"
        )
        return
    best = best_achievable(case)
    typer.echo(f"{case_file}: passes; best order {', '.join(best.order)}")
    for q in best.score.questions:
        typer.echo(f"  {q.question}: P {q.progressive:.2f}  F {q.final}  O {q.overall:.2f}")
    typer.echo(
        f"  case: P {best.score.progressive:.2f}  F {best.score.final:.2f}  "
        f"O {best.score.overall:.2f}"
    )


@with_options(CommandOptions)
def play_detective(
    shared: CommandOptions,
    seed: Annotated[int, typer.Option(help="Seed of the generated case and of the agent.")] = 0,
    agent: Annotated[str, typer.Option(help=f"The player: {', '.join(AGENTS.names)}.")] = "prover",
    case_file: Annotated[
        Path | None, typer.Option("--case", help="Play this case file instead of a generated one.")
    ] = None,
    questions: Annotated[int, typer.Option(help="Questions of a generated case (2-5).")] = 3,
    locations: Annotated[int, typer.Option(help="Locations of a generated case.")] = 15,
    autograde: Annotated[
        int | None,
        typer.Option(
            help="Also grade the final answers with the LLM autograder in this mode (1-5)."
        ),
    ] = None,
) -> None:
    """Play one detective case: answers after the introduction and after every location, each
    stage's exact grades, the scores P, F, O and the best achievable. A case file must pass
    ``gumshoe detective check`` first."""
    out = shared.out
    try:
        knobs = CaseKnobs(questions=questions, locations=locations)
        config = DetectiveConfig(
            knobs=knobs, case_file=None if case_file is None else str(case_file)
        )
        AGENTS.get(agent)
        if autograde is not None and autograde not in MODES:
            raise ValueError(f"--autograde: a mode 1-5, got {autograde}")
        gid = game_id("detective", seed)
        llm = shared.llm()
        settings = AgentSettings(llm=llm).for_game(gid)
    except (ValidationError, ValueError) as err:
        fail(err)
    if case_file is not None:
        checked_case(case_file, DEFAULT_CHECK_PROVER)
    try:
        if out is not None:
            prepare_out(out)
        sink = None if out is None else EventLog(out / f"{gid}.jsonl")
    except (ValidationError, ValueError, OSError) as err:
        fail(err)
    try:
        played = play_game(ENTRY, [agent], seed, settings, config, sink)
    except (CaseError, GenerationError) as err:
        fail(err)
    except PLAY_ERRORS as err:
        fail(err, 1)
    finally:
        if sink is not None:
            sink.close()
    state = played.state
    assert isinstance(state, DetectiveState)
    case = state.case
    typer.echo(f"{case.title}: {len(case.questions)} questions, {len(case.locations)} locations")
    for event in state.events():
        if isinstance(event, VisitEvent):
            typer.echo(f"  visit {event.stage}: {case.location(event.location).title}")
        elif isinstance(event, AnswersEvent):
            grades = (
                "ungraded"
                if event.grades is None
                else " ".join("unjudged" if g is None else str(g) for g in event.grades)
            )
            given = sum(v is not None for slots in event.answers.values() for v in slots.values())
            typer.echo(f"  stage {event.stage}: {given} elements given, grades {grades}")
    if isinstance(played.agents[0], LLMAgent):
        typer.echo(f"fallbacks: {played.fallbacks[0].total}")
    for line in usage_footer(played.seat_meters()):
        typer.echo(line)
    final = state.stages[-1]
    if state.score is not None:
        best = best_achievable(case).score
        typer.echo(
            f"score: P {state.score.progressive:.2f}  F {state.score.final:.2f}  "
            f"O {state.score.overall:.2f}  (best achievable O {best.overall:.2f})"
        )
    if autograde is not None:
        try:
            grader = AutoGrader(seat_client(settings.llm_settings(), 0), autograde, seed=seed)
            for q in case.questions:
                grade = grader.grade(case, q, answer_text(q, final[q.id]))
                typer.echo(f"  autograder mode {autograde}: {q.id} final answer {grade}")
        except PLAY_ERRORS as err:
            fail(err, 1)
    if out is not None:
        typer.echo(f"log: {out / f'{gid}.jsonl'}")
